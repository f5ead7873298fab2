//! The listening socket: a deep accept backlog, no Nagle delay, and a
//! bound on open connections so the process never runs out of file
//! descriptors (which would leave it unable to open even its database or
//! answer `/api/v1/health`).
//!
//! At the bound, accepting waits until a connection closes: new clients
//! queue in the kernel's backlog instead of being served on an exhausted
//! process. A connection that sends nothing for the idle timeout is closed,
//! so idle connections cannot hold every place (the web app's sockets send
//! a ping every 25 s).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
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

/// A listener that keeps at most a fixed number of connections open.
pub struct Limited {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    idle: Duration,
}

impl Limited {
    /// At most `max` connections of `inner` open at once, each closed
    /// after `idle` without receiving anything.
    pub fn new(inner: TcpListener, max: usize, idle: Duration) -> Limited {
        Limited {
            inner,
            permits: Arc::new(Semaphore::new(max.max(1))),
            idle,
        }
    }
}

/// An accepted connection holding its place until it is dropped.
pub struct Conn {
    stream: TcpStream,
    _place: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl axum::serve::Listener for Limited {
    type Io = Conn;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Conn, SocketAddr) {
        let place = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    // Small frames must leave at once: no Nagle delay on game sockets.
                    let _ = stream.set_nodelay(true);
                    return (
                        Conn {
                            stream,
                            _place: place,
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

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
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

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, Limited>> for PeerAddr {
    fn connect_info(stream: axum::serve::IncomingStream<'_, Limited>) -> PeerAddr {
        PeerAddr(*stream.remote_addr())
    }
}
