//! Helpers for the server's integration tests: a server on an ephemeral
//! loopback port, a tiny HTTP client and WebSocket clients.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use oware_server::{Config, Server, ServerOptions};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub mod pg;
pub mod smtp;
pub mod tournaments;

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub async fn start(db: &Path) -> Server {
    let config = Config {
        engine_threads: 1,
        engine_move_cap: Duration::from_millis(300),
        // These tests play at machine speed from one address; the limits
        // have their own tests (abuse.rs).
        rate_limits: None,
        ..Config::default()
    };
    Server::start(ServerOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: Some(db.to_path_buf()),
        config,
        ..ServerOptions::default()
    })
    .await
    .expect("server starts")
}

#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    pub fn code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or_else(|| panic!("no error code in {}", self.body))
            .to_string()
    }
}

pub async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: &str,
    body: &[u8],
) -> Resp {
    let mut r = request(addr, method, path, content_type, &[], body).await;
    r.headers = r.headers.to_ascii_lowercase();
    r
}

/// A request with extra header lines (`"Name: value"`); the answer's
/// header is kept as sent.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: &str,
    extra: &[String],
    body: &[u8],
) -> Resp {
    request_from(
        [127, 0, 0, 1],
        addr,
        method,
        path,
        content_type,
        extra,
        body,
    )
    .await
}

/// A connection to `addr` from the loopback address `src` (any of
/// 127.0.0.0/8): another client, as the server sees it.
pub async fn connect_from(src: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::from((src, 0)))
        .unwrap_or_else(|e| panic!("bind {src:?}: {e}"));
    socket.connect(addr).await.unwrap()
}

/// [`request`] from the loopback address `src`.
pub async fn request_from(
    src: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: &str,
    extra: &[String],
    body: &[u8],
) -> Resp {
    let mut s = connect_from(src, addr).await;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    // An empty type sends no Content-Type header at all.
    if !content_type.is_empty() {
        head += &format!("Content-Type: {content_type}\r\n");
    }
    for line in extra {
        head += line;
        head += "\r\n";
    }
    head += "\r\n";
    s.write_all(head.as_bytes()).await.unwrap();
    // The server may answer (413) before reading a large body.
    let _ = s.write_all(body).await;
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf).await;
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| {
            panic!(
                "no response to {method} {path}: {:?}",
                String::from_utf8_lossy(&buf)
            )
        });
    let head = String::from_utf8_lossy(&buf[..end]).to_string();
    let mut body = buf[end + 4..].to_vec();
    // A streamed answer comes in chunks: joined, as a client reads it.
    if head
        .to_ascii_lowercase()
        .contains("\r\ntransfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    Resp {
        status,
        headers: head,
        body: String::from_utf8_lossy(&body).to_string(),
    }
}

/// The data of a chunked body (`size CRLF data CRLF … 0 CRLF CRLF`).
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = String::from_utf8_lossy(&rest[..eol]);
        let n = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .unwrap_or_else(|e| panic!("chunk size {size:?}: {e}"));
        if n == 0 {
            return out;
        }
        let data = &rest[eol + 2..];
        assert!(data.len() >= n, "a chunk cut short");
        out.extend_from_slice(&data[..n]);
        rest = &data[(n + 2).min(data.len())..];
    }
}

/// A server on an ephemeral loopback port with `config`, and the folder
/// holding its database.
pub async fn start_with(config: Config) -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(ServerOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: Some(dir.path().join("games.sqlite3")),
        config,
        ..ServerOptions::default()
    })
    .await
    .expect("server starts");
    (dir, server)
}

pub async fn post(addr: SocketAddr, path: &str, body: Value) -> Resp {
    raw(
        addr,
        "POST",
        path,
        "application/json",
        body.to_string().as_bytes(),
    )
    .await
}

pub async fn get(addr: SocketAddr, path: &str) -> Resp {
    raw(addr, "GET", path, "application/json", b"").await
}

/// A JSON POST from the loopback address `src`.
pub async fn post_as(src: [u8; 4], addr: SocketAddr, path: &str, body: Value) -> Resp {
    let body = body.to_string();
    request_from(
        src,
        addr,
        "POST",
        path,
        "application/json",
        &[],
        body.as_bytes(),
    )
    .await
}

/// A browser: its session cookie and CSRF token once signed in.
#[derive(Clone, Default)]
pub struct Browser {
    pub cookie: Option<String>,
    pub csrf: Option<String>,
}

/// A request from `b` (its cookie and CSRF token) at the loopback
/// address `src`.
pub async fn as_browser(
    src: [u8; 4],
    addr: SocketAddr,
    b: &Browser,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Resp {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut extra = Vec::new();
    if let Some(c) = &b.cookie {
        extra.push(format!("Cookie: oware_session={c}"));
    }
    if let Some(t) = &b.csrf {
        extra.push(format!("X-CSRF-Token: {t}"));
    }
    request_from(
        src,
        addr,
        method,
        path,
        "application/json",
        &extra,
        body.as_bytes(),
    )
    .await
}

/// The session cookie a response sets.
pub fn session_cookie(r: &Resp) -> Option<String> {
    r.headers
        .lines()
        .find(|l| {
            l.to_ascii_lowercase()
                .starts_with("set-cookie: oware_session=")
        })
        .map(|l| {
            l.split_once('=')
                .unwrap()
                .1
                .split(';')
                .next()
                .unwrap()
                .to_string()
        })
}

/// Signs up from the loopback address `src`: the new account's browser.
pub async fn sign_up_from(src: [u8; 4], addr: SocketAddr, name: &str, password: &str) -> Browser {
    let r = as_browser(
        src,
        addr,
        &Browser::default(),
        "POST",
        "/api/v1/account/signup",
        Some(json!({"username": name, "password": password})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let set = r
        .headers
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap()
        .to_string();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(part), "{set}");
    }
    Browser {
        cookie: session_cookie(&r),
        csrf: r.json()["csrf"].as_str().map(str::to_string),
    }
}

/// A game WebSocket opened by a signed-in browser.
pub async fn ws_signed_in(addr: SocketAddr, id: &str, b: &Browser) -> Ws {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/v1/games/{id}/ws")
        .into_client_request()
        .unwrap();
    if let Some(c) = &b.cookie {
        req.headers_mut()
            .insert("cookie", format!("oware_session={c}").parse().unwrap());
    }
    tokio_tungstenite::connect_async(req)
        .await
        .expect("websocket connects")
        .0
}

/// A GET from the loopback address `src`.
pub async fn get_as(src: [u8; 4], addr: SocketAddr, path: &str) -> Resp {
    request_from(src, addr, "GET", path, "application/json", &[], b"").await
}

/// Creates an online game (creator South) and joins it: (id, south token, north token).
pub async fn online_game(addr: SocketAddr, extra: Value) -> (String, String, String) {
    online_game_across(addr, addr, extra).await
}

/// An online game created on `a` (Ama, South) and joined on `b` (Kofi,
/// North): its id and both seat tokens.
pub async fn online_game_across(
    a: SocketAddr,
    b: SocketAddr,
    extra: Value,
) -> (String, String, String) {
    let mut req = json!({"mode": "online", "side": "S", "name": "Ama"});
    if let (Some(r), Some(e)) = (req.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            r.insert(k.clone(), v.clone());
        }
    }
    let created = post(a, "/api/v1/games", req).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let c = created.json();
    let id = c["id"].as_str().unwrap().to_string();
    let south = c["tokens"]["S"].as_str().unwrap().to_string();
    let invite = invite_of(&c);
    let joined = post(
        b,
        &format!("/api/v1/games/{id}/join"),
        json!({"invite": invite, "name": "Kofi"}),
    )
    .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let j = joined.json();
    assert_eq!(j["you"], "N");
    (id, south, j["token"].as_str().unwrap().to_string())
}

pub async fn ws(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://{addr}/api/v1/games/{id}/ws?token={t}"),
        None => format!("ws://{addr}/api/v1/games/{id}/ws"),
    };
    tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket connects")
        .0
}

/// The next JSON text message (15 s at most: a computer reply on a loaded
/// machine may take seconds).
pub async fn recv(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(15), ws.next())
            .await
            .expect("a message within 15 s")
            .expect("connection open")
            .expect("no socket error");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// The next message of type `ty`, skipping others.
pub async fn recv_type(ws: &mut Ws, ty: &str) -> Value {
    loop {
        let v = recv(ws).await;
        if v["type"] == ty {
            return v;
        }
    }
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

pub fn legal(v: &Value) -> Vec<String> {
    v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The first ply of a game, seen from a socket just connected to it (the
/// computer's opening, or a turn lost to a per-move limit). On a busy machine
/// the ply may have been played before the socket was there: then the
/// `state` sent on connecting already holds it, and this returns that game
/// view with the `side` and `move` of its last ply added, so callers read `ply`,
/// `side`, `move`, `to_move`, `legal` and `clock` the same way in both cases.
pub async fn first_ply(ws: &mut Ws) -> Value {
    let state = recv_type(ws, "state").await;
    let game = &state["game"];
    if game["ply"].as_u64().unwrap() >= 1 {
        // Sides alternate ply by ply (a lost turn is a ply too), so the side
        // of the last ply is the one not to move now.
        let mut v = game.clone();
        v["move"] = game["plies"][game["plies"].as_array().unwrap().len() - 1].clone();
        v["side"] = Value::from(if game["to_move"] == "S" { "N" } else { "S" });
        v
    } else {
        recv_type(ws, "move").await
    }
}

/// The `move` event with this ply, skipping earlier ones and other events.
pub async fn recv_move(ws: &mut Ws, ply: u64) -> Value {
    loop {
        let v = recv_type(ws, "move").await;
        if v["ply"] == ply {
            return v;
        }
    }
}

/// The invite code in a created game's `invite_url`.
pub fn invite_of(created: &Value) -> String {
    created["invite_url"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string()
}

/// Waits until the engines are as `what` says (`holds`), at most 10 s: the
/// event a test needs before it acts, not a pause.
pub async fn until_engines(
    server: &Server,
    what: &str,
    holds: impl Fn(&oware_server::engines::EnginePool) -> bool,
) {
    let t = std::time::Instant::now();
    while !holds(server.hub().engines()) {
        assert!(
            t.elapsed() < std::time::Duration::from_secs(10),
            "{what}: not within 10 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// Waits (20 s at most) until the time gauge `name` of the server's
/// `/metrics` (Unix seconds of its clock) holds for `holds`, given in ms:
/// a background task's round observed over HTTP, not a pause.
pub async fn until_gauge(addr: SocketAddr, name: &str, what: &str, holds: impl Fn(i64) -> bool) {
    let t = std::time::Instant::now();
    loop {
        let text = get(addr, "/metrics").await.body;
        let ms = text
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .map(|s| (s * 1000.0).round() as i64)
            .unwrap_or_else(|| panic!("no gauge {name} in /metrics"));
        if holds(ms) {
            return;
        }
        assert!(
            t.elapsed() < std::time::Duration::from_secs(20),
            "{what}: not within 20 s ({name} at {ms} ms)"
        );
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
}

/// A POST with `b`'s session from `src`.
pub async fn post_signed_in(
    src: [u8; 4],
    addr: SocketAddr,
    b: &Browser,
    path: &str,
    body: Value,
) -> Resp {
    as_browser(src, addr, b, "POST", path, Some(body)).await
}

/// Plays the first legal move of the side `token` holds, at ply `ply`.
pub async fn play_first_legal_move(addr: SocketAddr, id: &str, token: &str, ply: u64) {
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    let mv = legal(&g)[0].clone();
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": token, "move": mv, "ply": ply}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}
