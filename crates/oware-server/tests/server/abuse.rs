//! Attacks on the engine's requests, reproduced: a deep analysis abandoned
//! by its client, one that never ends by itself, requests abandoned in the
//! queue, and reviews asked for many times. Each must leave the engine free
//! for the other players within a bounded time.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::common::*;
use oware_server::engines::Lane;
use oware_server::Config;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

fn one_engine() -> Config {
    Config {
        engine_threads: 1,
        engine_queue: 2,
        engine_move_cap: Duration::from_millis(300),
        ..Config::default()
    }
}

/// Sends a request and returns the open connection without reading the
/// answer: the client that will go away.
async fn send_and_hold(addr: SocketAddr, path: &str, body: serde_json::Value) -> TcpStream {
    let body = body.to_string();
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s
}

/// A quick analysis, timed.
async fn quick_analysis(addr: SocketAddr) -> (u16, Duration) {
    let t = Instant::now();
    let r = post(addr, "/api/v1/analyze", json!({"movetime_ms": 100})).await;
    (r.status, t.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_deep_analysis_stops_and_frees_the_engine() {
    let (_dir, server) = start_with(one_engine()).await;
    let addr = server.addr();
    let conn = send_and_hold(addr, "/api/v1/analyze", json!({"depth": 40})).await;
    until_engines(&server, "the deep analysis runs", |e| {
        e.running_in(Lane::Study) == 1
    })
    .await;
    drop(conn);
    // Without cancellation the single engine would stay on depth 40 until
    // the 10 s cap; with it the next request gets the engine at once.
    let (status, took) = quick_analysis(addr).await;
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(4), "took {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deep_analysis_is_cut_at_the_request_cap() {
    let (_dir, server) = start_with(Config {
        engine_request_cap: Duration::from_millis(800),
        ..one_engine()
    })
    .await;
    let addr = server.addr();
    let t = Instant::now();
    let r = post(addr, "/api/v1/analyze", json!({"depth": 40})).await;
    let took = t.elapsed();
    assert_eq!(r.status, 200, "{}", r.body);
    // Every legal move still has a value: the last depth completed.
    assert_eq!(r.json()["moves"].as_array().unwrap().len(), 6);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(took >= Duration::from_millis(700), "took {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_abandoned_in_the_queue_give_their_place_back() {
    let (_dir, server) = start_with(Config {
        engine_request_cap: Duration::from_millis(1500),
        ..one_engine()
    })
    .await;
    let addr = server.addr();
    // One search holds the only engine; many more queue behind it and are
    // abandoned there (more than the queue holds, several times over).
    let holder =
        tokio::spawn(async move { post(addr, "/api/v1/analyze", json!({"depth": 40})).await });
    until_engines(&server, "the holder runs", |e| {
        e.running_in(Lane::Study) == 1
    })
    .await;
    for round in 0..4 {
        let mut conns = Vec::new();
        for _ in 0..3 {
            conns.push(send_and_hold(addr, "/api/v1/analyze", json!({"movetime_ms": 50})).await);
        }
        // This client's places are taken (the holder running, one
        // request waiting; the others are refused as busy) ...
        until_engines(&server, "the queue fills", |e| e.queued() == 2).await;
        drop(conns);
        // ... and abandoned requests leave it: only the holder is left.
        until_engines(&server, &format!("round {round}: the queue empties"), |e| {
            e.queued() == 1
        })
        .await;
    }
    assert_eq!(holder.await.unwrap().status, 200);
    // Every place was given back: requests are served, not refused as busy.
    for _ in 0..3 {
        let (status, took) = quick_analysis(addr).await;
        assert_eq!(status, 200);
        assert!(took < Duration::from_secs(3), "took {took:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_is_computed_once_per_game_and_stops_when_abandoned() {
    let (_dir, server) = start_with(one_engine()).await;
    let addr = server.addr();
    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "hotseat", "side": "S"}),
    )
    .await
    .json();
    let id = c["id"].as_str().unwrap().to_string();
    let (ts, tn) = (
        c["tokens"]["S"].as_str().unwrap().to_string(),
        c["tokens"]["N"].as_str().unwrap().to_string(),
    );
    for (i, (mv, token)) in [("F", &ts), ("f", &tn), ("E", &ts), ("e", &tn)]
        .into_iter()
        .enumerate()
    {
        let r = post(
            addr,
            &format!("/api/v1/games/{id}/moves"),
            json!({"token": token, "move": mv, "ply": i}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // A slow review abandoned at once does not keep the engine.
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(
        format!("GET /api/v1/games/{id}/review?movetime_ms=2000&token={ts} HTTP/1.1\r\nHost: {addr}\r\n\r\n")
            .as_bytes(),
    )
    .await
    .unwrap();
    until_engines(&server, "the review runs", |e| {
        e.running_in(Lane::Study) == 1
    })
    .await;
    drop(s);
    let (status, took) = quick_analysis(addr).await;
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(4), "took {took:?}");
    // Computed once, then served from the cache whatever movetime_ms says.
    let t = Instant::now();
    // A game not over is reviewed for its seats only.
    let r = get(addr, &format!("/api/v1/games/{id}/review?movetime_ms=300")).await;
    assert_eq!(r.code(), "missing_token");
    // The opening's positions are the coach's slowest: on a loaded machine
    // the 30-s cap can end the first request with `busy`, every analysis
    // so far kept; asking again goes on, as the page does.
    let mut first = get(
        addr,
        &format!("/api/v1/games/{id}/review?movetime_ms=300&token={ts}"),
    )
    .await;
    for _ in 0..10 {
        if first.status == 200 || !first.body.contains("\"busy\"") {
            break;
        }
        first = get(
            addr,
            &format!("/api/v1/games/{id}/review?movetime_ms=300&token={ts}"),
        )
        .await;
    }
    let first_took = t.elapsed();
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.json()["plies"].as_array().unwrap().len(), 4);
    let t = Instant::now();
    for ms in [10, 500, 2000] {
        let again = get(
            addr,
            &format!("/api/v1/games/{id}/review?movetime_ms={ms}&token={tn}"),
        )
        .await;
        assert_eq!(again.body, first.body);
    }
    assert!(
        t.elapsed() < first_took,
        "cached reviews took {:?}, the first {first_took:?}",
        t.elapsed()
    );
}

/// Sends a raw request with extra header lines and returns the status line
/// and the head of the response, lower-cased.
async fn head_of(addr: SocketAddr, request: String) -> (u16, String, String) {
    use tokio::io::AsyncReadExt;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 8192];
    let mut got = Vec::new();
    loop {
        let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
            .await
            .expect("an answer")
            .unwrap();
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
        if got.windows(4).any(|w| w == b"\r\n\r\n") && !got.starts_with(b"HTTP/1.1 200") {
            break;
        }
        if got.starts_with(b"HTTP/1.1 101") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&got).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

fn upgrade_request(addr: SocketAddr, path: &str, origin: Option<&str>) -> String {
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_cannot_be_framed_and_the_api_is_never_cached() {
    let (_dir, server) = start_with(one_engine()).await;
    let addr = server.addr();
    for path in [
        "/",
        "/game/abc",
        "/js/app.js",
        "/api/v1/health",
        "/api/v1/nothing",
    ] {
        let r = get(addr, path).await;
        let h = &r.headers;
        assert!(
            h.contains("content-security-policy: default-src 'self'"),
            "{path}: {h}"
        );
        assert!(h.contains("frame-ancestors 'none'"), "{path}: {h}");
        assert!(h.contains("x-frame-options: deny"), "{path}: {h}");
        assert!(h.contains("x-content-type-options: nosniff"), "{path}: {h}");
        assert_eq!(
            h.contains("cache-control: no-store"),
            path.starts_with("/api/"),
            "{path}: {h}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_from_other_sites_and_non_json_bodies_are_refused() {
    let (_dir, server) = start_with(one_engine()).await;
    let addr = server.addr();
    let (id, south, _) = online_game(addr, json!({})).await;
    let path = format!("/api/v1/games/{id}/ws?token={south}");
    // A page on another site, with the visitor's token: refused.
    let (status, _, body) = head_of(
        addr,
        upgrade_request(addr, &path, Some("http://evil.example")),
    )
    .await;
    assert_eq!(status, 403);
    assert!(body.contains("bad_origin"), "{body}");
    // The app's own page, and a client that is not a browser: accepted.
    let own = format!("http://{addr}");
    assert_eq!(
        head_of(addr, upgrade_request(addr, &path, Some(&own)))
            .await
            .0,
        101
    );
    assert_eq!(
        head_of(addr, upgrade_request(addr, &path, None)).await.0,
        101
    );
    // A duplicated query parameter: a JSON error with its code.
    let twice = format!("/api/v1/games/{id}/ws?token={south}&token={south}");
    let (status, head, body) = head_of(addr, upgrade_request(addr, &twice, None)).await;
    assert_eq!(status, 400, "{head}");
    assert!(body.contains("\"code\":\"invalid_request\""), "{body}");
    // A JSON body sent as text/plain or as a form (what another site's page
    // can send without asking) is not parsed.
    for ct in ["text/plain", "application/x-www-form-urlencoded"] {
        let r = raw(addr, "POST", "/api/v1/games", ct, br#"{"mode":"hotseat"}"#).await;
        assert_eq!(r.status, 400, "{ct}");
        assert_eq!(r.code(), "malformed", "{ct}");
    }
    let r = raw(
        addr,
        "POST",
        "/api/v1/games",
        "application/json; charset=utf-8",
        br#"{"mode":"hotseat"}"#,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_hide_or_reverse_text_are_refused() {
    let (_dir, server) = start_with(one_engine()).await;
    let addr = server.addr();
    for name in [
        "Ama\u{202E}nimda",
        "Ko\u{200B}fi",
        "\u{2066}x\u{2069}",
        "a\u{FEFF}",
    ] {
        let r = post(
            addr,
            "/api/v1/games",
            json!({"mode": "online", "name": name}),
        )
        .await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.body);
        assert_eq!(r.code(), "invalid_request");
    }
    // Letters of any script, accents and emoji are names like any other.
    for name in ["Kwame Nkrumah", "Aïcha", "Абена", "أمينة", "玩家", "🌱 Ama"] {
        let r = post(
            addr,
            "/api/v1/games",
            json!({"mode": "online", "name": name}),
        )
        .await;
        assert_eq!(r.status, 201, "{name:?}: {}", r.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_cannot_hold_every_place() {
    let (_dir, server) = start_with(Config {
        max_connections: 8,
        idle_timeout: Duration::from_millis(1500),
        ..one_engine()
    })
    .await;
    let addr = server.addr();
    // Every place taken by connections that say nothing, or half a request.
    let mut idle = Vec::new();
    for i in 0..8 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        if i % 2 == 1 {
            s.write_all(b"GET /api/v1/health HTTP/1.1\r\nHo")
                .await
                .unwrap();
        }
        idle.push(s);
    }
    // The listener accepts in the order the kernel queued the connections,
    // so the eight above hold every place before the client below comes.
    // A new client waits (in the kernel's backlog, not on an exhausted
    // process) and is served once the idle ones are closed.
    let t = Instant::now();
    let r = tokio::time::timeout(Duration::from_secs(10), get(addr, "/api/v1/health"))
        .await
        .expect("served after the idle timeout");
    assert_eq!(r.status, 200);
    let waited = t.elapsed();
    assert!(waited >= Duration::from_millis(800), "waited {waited:?}");
    drop(idle);
}
