//! The listening socket: a deep accept backlog, no Nagle delay, and a
//! bound on open connections so the process never runs out of file
//! descriptors (which would leave it unable to open even its database or
//! answer `/api/v1/health`).
//!
//! At the bound, accepting waits until a connection closes: new clients
//! queue in the kernel's backlog instead of being served on an exhausted
//! process. A connection that sends nothing for the idle timeout is closed,
//! so idle connections cannot hold every place (the web app's sockets send
//! a ping every 25 s). A request's header must arrive whole within the
//! header time limit ([`serve`]), so a client sending it a line at a time
//! cannot hold a place either; and one address holds at most
//! [`Limited::per_address`] connections (issue 33, finding 5): past it, a
//! new connection is answered `rate_limited` (`connections`) and closed.

use crate::error::Reason;
use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use std::future::Future;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections the kernel may hold before they are accepted.
const BACKLOG: u32 = 4096;
/// Descriptors kept free for the database, the tables and the runtime.
const RESERVED_FDS: u64 = 256;

/// Raises the process's open-file limit to its hard maximum and returns the
/// connections the server may keep open: `wanted`, or fewer if the limit is
/// lower.
pub fn connection_limit(wanted: usize) -> usize {
    let fds = raise_fd_limit();
    let room = fds.saturating_sub(RESERVED_FDS).max(16);
    wanted.min(usize::try_from(room).unwrap_or(usize::MAX))
}

#[cfg(unix)]
fn raise_fd_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!("cannot raise the open-file limit: {e}");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    }
}

#[cfg(not(unix))]
fn raise_fd_limit() -> u64 {
    u64::MAX
}

/// Binds `addr` with a deep backlog.
pub fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// The key a client's limits count under, from its address: the IPv4
/// address, or the IPv6 /64 network (`limits::ClientAddr::key`).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// A listener that keeps at most a fixed number of connections open.
pub struct Limited {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    idle: Duration,
    per_address: Option<Arc<PerAddress>>,
}

/// Open connections by client key, and the most one may hold.
struct PerAddress {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl PerAddress {
    /// A place for one more connection from `ip`, or `None` at the most.
    fn take(self: &Arc<Self>, ip: IpAddr) -> Option<AddressPlace> {
        let key = client_key(ip);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(key).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(AddressPlace {
            count: self.clone(),
            key,
        })
    }
}

/// One connection counted for its address until dropped.
struct AddressPlace {
    count: Arc<PerAddress>,
    key: IpAddr,
}

impl Drop for AddressPlace {
    fn drop(&mut self) {
        let mut open = self.count.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.key);
            }
        }
    }
}

impl Limited {
    /// At most `max` connections of `inner` open at once, each closed
    /// after `idle` without receiving anything.
    pub fn new(inner: TcpListener, max: usize, idle: Duration) -> Limited {
        Limited {
            inner,
            permits: Arc::new(Semaphore::new(max.max(1))),
            idle,
            per_address: None,
        }
    }

    /// At most `max` of them from one address (an IPv4 address or an IPv6
    /// /64); 0 for no such limit. Only where the connection's address is
    /// the client's (not behind a proxy).
    pub fn per_address(mut self, max: usize) -> Limited {
        self.per_address = (max > 0).then(|| {
            Arc::new(PerAddress {
                max,
                open: Mutex::new(HashMap::new()),
            })
        });
        self
    }

    /// The next connection within the limits. A connection from an address
    /// holding its most is answered `429` (`connections`) and closed.
    pub async fn accept(&mut self) -> (Conn, SocketAddr) {
        loop {
            let place = self
                .permits
                .clone()
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    let address = match &self.per_address {
                        Some(p) => match p.take(addr.ip()) {
                            Some(a) => Some(a),
                            None => {
                                refuse(&stream, p.max);
                                continue;
                            }
                        },
                        None => None,
                    };
                    // Small frames must leave at once: no Nagle delay on game sockets.
                    let _ = stream.set_nodelay(true);
                    return (
                        Conn {
                            stream,
                            _place: place,
                            _address: address,
                            idle: self.idle,
                            deadline: Box::pin(tokio::time::sleep(self.idle)),
                        },
                        addr,
                    );
                }
                // Out of descriptors or a connection reset before accept:
                // wait a little and go on; the listener itself is fine.
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
}

/// Answers a connection over its address's limit, without waiting on it:
/// `429 rate_limited` with the reason `connections`, then it is closed
/// (dropped).
fn refuse(stream: &TcpStream, max: usize) {
    let body = crate::error::ApiError::rate_limited(format!(
        "too many open connections from your address (at most {max}); close some tabs"
    ))
    .with_reason(Reason::Connections)
    .body()
    .to_string();
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// An accepted connection holding its place until it is dropped.
pub struct Conn {
    stream: TcpStream,
    _place: OwnedSemaphorePermit,
    _address: Option<AddressPlace>,
    idle: Duration,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

/// Serves `router` on the connections of `listener` (HTTP/1.1 and
/// WebSocket upgrades), each request's header read within
/// `header_timeout` of its first byte or the connection closed.
pub async fn serve(
    mut listener: Limited,
    router: axum::Router,
    header_timeout: Duration,
) -> io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(header_timeout);
    loop {
        let (conn, addr) = listener.accept().await;
        let service = WithPeer {
            router: router.clone(),
            peer: PeerAddr(addr),
        };
        let connection = http
            .serve_connection(hyper_util::rt::TokioIo::new(conn), service)
            .with_upgrades();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::trace!("connection from {addr} ended: {e}");
            }
        });
    }
}

/// The router, with the connection's peer address given to every request
/// (`ConnectInfo<PeerAddr>`).
#[derive(Clone)]
struct WithPeer {
    router: axum::Router,
    peer: PeerAddr,
}

impl hyper::service::Service<hyper::Request<hyper::body::Incoming>> for WithPeer {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = axum::routing::future::RouteFuture<std::convert::Infallible>;

    fn call(&self, mut req: hyper::Request<hyper::body::Incoming>) -> Self::Future {
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(self.peer));
        let mut router = self.router.clone();
        tower_service::Service::call(&mut router, req)
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    let next = tokio::time::Instant::now() + this.idle;
                    this.deadline.as_mut().reset(next);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "nothing received for the idle timeout",
                ))),
                Poll::Pending => Poll::Pending,
            },
            other => other,
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// The peer address of a connection, for handlers (`ConnectInfo<PeerAddr>`).
#[derive(Clone, Copy, Debug)]
pub struct PeerAddr(pub SocketAddr);
