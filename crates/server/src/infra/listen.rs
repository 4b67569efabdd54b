//! Accepting connections: hyper's HTTP/1 server with its header-read
//! timeout (which also closes a connection idle between requests, or one
//! that never sends a request), a cap on the connections open from one
//! client address, a cap on all connections together (below the process's
//! file-descriptor limit, [`raise_fd_limit`]: past it new connections are
//! closed at once, before a byte is read, so that the server never runs out
//! of descriptors and the connections it has are served), and a graceful
//! stop.
//!
//! A connection's place under the cap is held by its socket itself, so a
//! connection upgraded to a WebSocket keeps counting until it closes.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// How long accepting pauses after an error such as running out of file descriptors.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(100);

/// Descriptors kept for the database, files and the listener when the
/// connection cap is derived from the descriptor limit.
const FD_RESERVE: u64 = 256;

/// Raises the process's soft limit of open files to its hard limit and
/// returns (the limit before, the limit now); both the same where it
/// cannot be raised.
pub fn raise_fd_limit() -> (u64, u64) {
    let before = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
    let now = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(before);
    (before, now)
}

/// The connection cap for a descriptor limit of `fd_limit`: nine tenths of
/// it, less [`FD_RESERVE`], at least 16.
pub fn connection_cap_for(fd_limit: u64) -> usize {
    (fd_limit.saturating_sub(FD_RESERVE) * 9 / 10).max(16) as usize
}

/// Connections open per client address, and in all.
pub struct ConnectionLimits {
    per_ip: usize,
    total_cap: usize,
    exempt_loopback: bool,
    trusted_proxies: Vec<ipnet::IpNet>,
    open: Mutex<HashMap<IpAddr, usize>>,
    total: AtomicUsize,
    shed: AtomicU64,
}

impl ConnectionLimits {
    /// At most `per_ip` connections from one address (0: no cap); loopback
    /// addresses have no cap when `exempt_loopback` (the load tool's
    /// option), nor have trusted proxies (every client comes through them).
    /// At most `total_cap` connections in all (0: no cap; exempt or not).
    pub fn new(
        per_ip: usize,
        total_cap: usize,
        exempt_loopback: bool,
        trusted_proxies: Vec<ipnet::IpNet>,
    ) -> Arc<Self> {
        Arc::new(ConnectionLimits {
            per_ip,
            total_cap,
            exempt_loopback,
            trusted_proxies,
            open: Mutex::new(HashMap::new()),
            total: AtomicUsize::new(0),
            shed: AtomicU64::new(0),
        })
    }

    /// A place for one more connection from `ip`, if the server and the
    /// address have one left.
    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Option<ConnectionSlot> {
        let before = self.total.fetch_add(1, Ordering::AcqRel);
        if self.total_cap > 0 && before >= self.total_cap {
            self.total.fetch_sub(1, Ordering::AcqRel);
            self.shed.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        let mut slot = ConnectionSlot {
            limits: self.clone(),
            ip,
            per_ip: false,
        };
        if self.per_ip == 0
            || (self.exempt_loopback && ip.is_loopback())
            || crate::infra::proxy::is_trusted(&self.trusted_proxies, ip)
        {
            return Some(slot);
        }
        let mut open = self.open.lock().expect("connection limits lock");
        let n = open.entry(ip).or_insert(0);
        if *n >= self.per_ip {
            return None;
        }
        *n += 1;
        slot.per_ip = true;
        Some(slot)
    }

    /// Connections open now, in all.
    pub fn open_total(&self) -> usize {
        self.total.load(Ordering::Acquire)
    }

    /// Connections closed unread since the start because the server was full.
    #[cfg(test)]
    pub fn shed_total(&self) -> u64 {
        self.shed.load(Ordering::Relaxed)
    }

    /// Connections open from `ip` (counted ones only).
    #[cfg(test)]
    pub fn open_from(&self, ip: IpAddr) -> usize {
        let open = self.open.lock().expect("connection limits lock");
        open.get(&ip).copied().unwrap_or(0)
    }
}

/// One connection's place under the caps; given back when dropped.
pub struct ConnectionSlot {
    limits: Arc<ConnectionLimits>,
    ip: IpAddr,
    /// Whether it counts under its address's cap.
    per_ip: bool,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.limits.total.fetch_sub(1, Ordering::AcqRel);
        if self.per_ip {
            let mut open = self.limits.open.lock().expect("connection limits lock");
            if let Some(n) = open.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    open.remove(&self.ip);
                }
            }
        }
    }
}

/// A TCP stream that holds its connection's slot.
struct Counted {
    tcp: TcpStream,
    _slot: ConnectionSlot,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

/// Resolves once `stop` turns true; never if its sender is dropped
/// without saying so (a server whose handle was let go serves on).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|s| *s).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// How connections are served.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionRules {
    /// Longest wait for a request's headers: from the connection's start,
    /// or from the end of the previous answer (so also the idle timeout).
    pub header_read_timeout: Duration,
    /// Longest wait, once stopping, for open requests to finish (a
    /// streaming answer such as a bot's event stream never does).
    pub shutdown_grace: Duration,
}

/// Serves `router` on `listener` until `stop` turns true: then accepts no
/// more connections, lets each open one finish the request it is serving
/// (hyper's graceful shutdown) and returns once all have closed, or after
/// [`ConnectionRules::shutdown_grace`].
/// Upgraded connections (WebSockets) are not waited for: their sockets
/// close themselves on the same signal.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Arc<ConnectionLimits>,
    rules: ConnectionRules,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let (done_tx, mut done_rx) = tokio::sync::mpsc::channel::<()>(1);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    eprintln!("thaiboard-server: accept failed: {e}");
                    tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                    continue;
                }
            },
            _ = stopped(&mut stop) => break,
        };
        // Over the server's or its address's cap: closed at once, before
        // reading a byte.
        let Some(slot) = limits.take(peer.ip()) else {
            drop(tcp);
            continue;
        };
        // Small WebSocket frames must leave at once (no Nagle delay).
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(Counted { tcp, _slot: slot });
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            tower::ServiceExt::oneshot(router.clone(), req.map(axum::body::Body::new))
        });
        let mut stop = stop.clone();
        let done = done_tx.clone();
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(rules.header_read_timeout)
                .serve_connection(io, service)
                .with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopped(&mut stop) => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(done);
        });
    }
    drop(done_tx);
    // Every connection task holds a sender: all are done when none is left.
    let _ = tokio::time::timeout(rules.shutdown_grace, done_rx.recv()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_cap_and_gets_places_back() {
        let limits = ConnectionLimits::new(2, 0, false, Vec::new());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let a = limits.take(ip).unwrap();
        let _b = limits.take(ip).unwrap();
        assert!(limits.take(ip).is_none());
        assert!(limits.take([10, 0, 0, 2].into()).is_some());
        drop(a);
        assert_eq!(limits.open_from(ip), 1);
        assert!(limits.take(ip).is_some());
    }

    #[test]
    fn loopback_is_exempt_only_when_asked() {
        let lo: IpAddr = [127, 0, 0, 1].into();
        let capped = ConnectionLimits::new(1, 0, false, Vec::new());
        let _a = capped.take(lo).unwrap();
        assert!(capped.take(lo).is_none());
        let exempt = ConnectionLimits::new(1, 0, true, Vec::new());
        let slots: Vec<_> = (0..10).map(|_| exempt.take(lo).unwrap()).collect();
        assert_eq!(slots.len(), 10);
        let _other = exempt.take([10, 0, 0, 1].into()).unwrap();
        assert!(exempt.take([10, 0, 0, 1].into()).is_none());
    }

    #[test]
    fn the_server_holds_at_most_its_total_cap_exempt_or_not() {
        let limits = ConnectionLimits::new(1, 3, true, Vec::new());
        let lo: IpAddr = [127, 0, 0, 1].into();
        let a = limits.take(lo).unwrap();
        let _b = limits.take(lo).unwrap();
        let _c = limits.take([10, 0, 0, 1].into()).unwrap();
        assert!(limits.take(lo).is_none(), "full");
        assert!(limits.take([10, 0, 0, 2].into()).is_none(), "full");
        assert_eq!((limits.open_total(), limits.shed_total()), (3, 2));
        drop(a);
        assert!(limits.take([10, 0, 0, 2].into()).is_some());
        assert!(connection_cap_for(20_000) < 20_000 && connection_cap_for(0) == 16);
    }
}
