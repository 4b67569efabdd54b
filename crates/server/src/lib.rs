//! The thaiboard game server (work in progress).
