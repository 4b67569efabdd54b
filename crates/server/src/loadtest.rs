//! The load generator (`thaiboard-loadtest`): N simultaneous games over the
//! real HTTP and WebSocket API. (Work in progress.)
