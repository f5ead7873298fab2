//! Floods from one client, reproduced: games created in a loop, engine
//! requests in a loop, a WebSocket that sends as fast as it can. Each is
//! refused with `rate_limited` once past its limit while other clients go
//! on; and private games stay out of the public list.

use std::net::SocketAddr;
use std::time::Duration;

use crate::common::*;
use oware_server::{Config, RateLimits};
use serde_json::json;

fn limits() -> RateLimits {
    RateLimits {
        games_per_minute: 6,
        games_burst: 5,
        engine_per_minute: 6,
        engine_burst: 3,
        ws_messages_per_second: 5,
        ws_burst: 10,
        ..RateLimits::default()
    }
}

/// A POST from the address a proxy says the client has.
async fn post_from(addr: SocketAddr, client: &str, path: &str, body: serde_json::Value) -> Resp {
    let extra = [format!("X-Forwarded-For: {client}")];
    let body = body.to_string();
    let mut r = request(
        addr,
        "POST",
        path,
        "application/json",
        &extra,
        body.as_bytes(),
    )
    .await;
    r.headers = r.headers.to_ascii_lowercase();
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_creating_games_in_a_loop_is_stopped_and_others_are_not() {
    let (_dir, server) = start_with(Config {
        rate_limits: Some(limits()),
        trust_forwarded_for: true,
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    // Games by invite: the lobby's own limit (three seeks a client) has
    // its test in trust.rs.
    let game = json!({"mode": "online"});
    let mut created = 0;
    let mut refused = None;
    for _ in 0..20 {
        let r = post_from(addr, "203.0.113.5", "/api/v1/games", game.clone()).await;
        match r.status {
            201 => created += 1,
            _ => {
                refused = Some(r);
                break;
            }
        }
    }
    assert_eq!(created, 5, "the burst, then refusals");
    let r = refused.expect("refused past the burst");
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.code(), "rate_limited");
    assert!(r.headers.contains("retry-after: "), "{}", r.headers);
    // Another client is not affected.
    let r = post_from(
        addr,
        "198.51.100.8",
        "/api/v1/games",
        json!({"mode": "online", "public": true}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let lobby = get(addr, "/api/v1/lobby").await.json();
    assert_eq!(lobby["games"].as_array().unwrap().len(), 1);
    // Imports count as new games.
    let r = post_from(
        addr,
        "203.0.113.5",
        "/api/v1/games/import",
        json!({"ogn": "1. F f *"}),
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_requests_in_a_loop_are_stopped() {
    let (_dir, server) = start_with(Config {
        rate_limits: Some(limits()),
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let mut statuses = Vec::new();
    for _ in 0..5 {
        let r = post(addr, "/api/v1/analyze", json!({"movetime_ms": 10})).await;
        statuses.push(r.status);
    }
    assert_eq!(statuses, [200, 200, 200, 429, 429]);
    // A refused request is refused before any search: malformed ones still
    // get their own error first (they cost nothing).
    let r = post(addr, "/api/v1/analyze", json!({"position": "4-4"})).await;
    assert_eq!(r.code(), "invalid_position");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_flooding_messages_gets_refusals_and_the_game_goes_on() {
    // On a manual clock: the burst refills only when the test says.
    let time = oware_server::time::Time::manual(0);
    let (_dir, server) = start_with(Config {
        rate_limits: Some(limits()),
        time: time.clone(),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let (id, south, _north) = online_game(addr, json!({})).await;
    let mut ws_s = ws(addr, &id, Some(&south)).await;
    recv_type(&mut ws_s, "state").await;
    for _ in 0..40 {
        send(&mut ws_s, json!({"type": "ping"})).await;
    }
    let (mut pongs, mut limited) = (0, 0);
    while pongs + limited < 40 {
        let m = recv(&mut ws_s).await;
        match m["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") => {
                assert_eq!(m["code"], "rate_limited", "{m}");
                limited += 1;
            }
            _ => {}
        }
    }
    assert_eq!((pongs, limited), (10, 30), "the burst of ten, and no more");
    // The socket is still open and works once the client slows down.
    time.advance(Duration::from_millis(200));
    send(&mut ws_s, json!({"type": "move", "move": "F", "ply": 0})).await;
    let m = recv_type(&mut ws_s, "move").await;
    assert_eq!(m["move"], "F");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_public_list_holds_only_finished_public_games() {
    let (_dir, server) = start_with(Config {
        rate_limits: None,
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    // A private online game, a computer game and a hot-seat game, each
    // finished; a public game in progress; a public game finished.
    for req in [
        json!({"mode": "online", "side": "S"}),
        json!({"mode": "computer", "side": "S"}),
        json!({"mode": "hotseat", "side": "S"}),
    ] {
        let c = post(addr, "/api/v1/games", req).await.json();
        let id = c["id"].as_str().unwrap();
        let token = c["tokens"]["S"].as_str().unwrap();
        let r = post(
            addr,
            &format!("/api/v1/games/{id}/resign"),
            json!({"token": token}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let (playing, _, _) = online_game(addr, json!({"public": true})).await;
    let (done, south, _) = online_game(addr, json!({"public": true})).await;
    let r = post(
        addr,
        &format!("/api/v1/games/{done}/resign"),
        json!({"token": south}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let list = get(addr, "/api/v1/games").await.json();
    assert_eq!(list["total"], 1, "{list}");
    assert_eq!(list["games"][0]["id"], done.as_str());
    assert_ne!(list["games"][0]["id"], playing.as_str());
}

/// Two nodes on one PostgreSQL database, each with the same limits.
async fn two_nodes(
    cluster: &crate::common::pg::Cluster,
    limits: RateLimits,
) -> (oware_server::Server, oware_server::Server) {
    let url = cluster.database("limits");
    let node = || async {
        oware_server::Server::start(oware_server::ServerOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            postgres: Some(url.clone()),
            config: Config {
                engine_threads: 1,
                rate_limits: Some(limits),
                ..Config::default()
            },
            ..oware_server::ServerOptions::default()
        })
        .await
        .expect("node starts")
    };
    let a = node().await;
    let b = node().await;
    (a, b)
}

/// Finding 5 across nodes: a client's allowance of new games, chat lines
/// and wrong passwords is the same whether it reaches one node or both
/// (the counts are kept in PostgreSQL).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_hold_across_two_nodes_on_postgresql() {
    let Some(cluster) = crate::common::pg::Cluster::start() else {
        return;
    };
    let (a, b) = two_nodes(
        &cluster,
        RateLimits {
            games_per_minute: 2,
            games_burst: 4,
            chat_burst: 3,
            sign_in_per_minute: 100,
            ..RateLimits::default()
        },
    )
    .await;
    let (a, b) = (a.addr(), b.addr());
    // Games: two on each node spend the burst of four; the fifth is
    // refused on either node, though each node alone has seen two.
    let me = [127, 0, 0, 31];
    let create = |node: SocketAddr| async move {
        post_as(me, node, "/api/v1/games", json!({"mode": "hotseat"})).await
    };
    for node in [a, b, a, b] {
        let r = create(node).await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    for node in [a, b] {
        let r = create(node).await;
        assert_eq!(r.status, 429, "{}", r.body);
        assert_eq!(r.code(), "rate_limited");
    }
    // Another client is not affected.
    let r = post_as(
        [127, 0, 0, 32],
        b,
        "/api/v1/games",
        json!({"mode": "hotseat"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);

    // Wrong passwords: three on one node and two on the other make five
    // from this address, and it is held off on both.
    sign_up_from([127, 0, 0, 33], a, "Esi_nodes", "right-password-1").await;
    let attacker = [127, 0, 0, 34];
    let sign_in = |node: SocketAddr, src: [u8; 4], password: &'static str| async move {
        post_as(
            src,
            node,
            "/api/v1/account/signin",
            json!({"username": "Esi_nodes", "password": password}),
        )
        .await
    };
    for (i, node) in [a, a, a, b, b].into_iter().enumerate() {
        let r = sign_in(node, attacker, ["p1", "p2", "p3", "p4", "p5"][i]).await;
        assert_eq!(r.code(), "bad_credentials", "guess {i}: {}", r.body);
    }
    for node in [a, b] {
        let r = sign_in(node, attacker, "p6").await;
        assert_eq!(r.status, 429, "{}", r.body);
        assert_eq!(r.json()["error"]["reason"], "sign_in_pair");
    }
    // The owner, from elsewhere, signs in on either node.
    let r = sign_in(b, [127, 0, 0, 35], "right-password-1").await;
    assert_eq!(r.status, 200, "{}", r.body);

    // Chat: one player's sockets on both nodes share a burst of three.
    let (id, south, _north) = online_game_across(a, b, json!({})).await;
    let mut on_a = ws(a, &id, Some(&south)).await;
    let mut on_b = ws(b, &id, Some(&south)).await;
    recv_type(&mut on_a, "state").await;
    recv_type(&mut on_b, "state").await;
    for i in 0..6 {
        let s = if i % 2 == 0 { &mut on_a } else { &mut on_b };
        send(s, json!({"type": "chat", "text": format!("line {i}")})).await;
    }
    // Each line is answered on its own socket: posted (the chat event)
    // or refused (`rate_limited`). Wait for all six answers.
    for (s, mine) in [
        (&mut on_a, ["line 0", "line 2", "line 4"]),
        (&mut on_b, ["line 1", "line 3", "line 5"]),
    ] {
        let mut answered = 0;
        while answered < 3 {
            let m = recv(s).await;
            match m["type"].as_str() {
                Some("chat") if mine.contains(&m["text"].as_str().unwrap_or("")) => answered += 1,
                Some("error") => {
                    assert_eq!(m["code"], "rate_limited", "{m}");
                    answered += 1;
                }
                _ => {}
            }
        }
    }
    let history = get(
        a,
        &format!("/api/v1/games/{id}/chat?token={south}&limit=100"),
    )
    .await
    .json();
    let kept = history["messages"].as_array().unwrap().len();
    // Three, and perhaps one more as a second passes.
    assert!((3..=4).contains(&kept), "{kept} of 6 lines kept: {history}");
    drop(cluster);
}
