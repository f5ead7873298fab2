//! In-game chat: players talk and everyone watching reads it; spectators
//! have their own room the players never see; messages are kept with the
//! game, shown as written (HTML stays text), limited in length and rate;
//! and a seek's rating range keeps out players outside it.

use std::time::Duration;

use crate::common::*;
use oware_server::{Config, RateLimits, Server};
use serde_json::json;

async fn start_limited() -> (tempfile::TempDir, Server) {
    start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits::default()),
        ..Config::default()
    })
    .await
}

/// The next chat event on a socket, skipping others.
async fn next_chat(ws: &mut Ws) -> serde_json::Value {
    recv_type(ws, "chat").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_chat_in_their_rooms() {
    let (_dir, server) = start_limited().await;
    let addr = server.addr();
    let (id, south, north) = online_game(addr, json!({})).await;
    let mut s = ws(addr, &id, Some(&south)).await;
    let mut n = ws(addr, &id, Some(&north)).await;
    // While the game is played, the spectators' room is for signed-in
    // spectators without a seat: a player leaving out the seat token
    // cannot read it.
    let esi = sign_up_from([127, 0, 0, 1], addr, "Esi", "watching-closely").await;
    let mut x = ws_signed_in(addr, &id, &esi).await;
    for w in [&mut s, &mut n, &mut x] {
        recv_type(w, "state").await;
    }
    send(
        &mut s,
        json!({"type": "chat", "text": "  good luck <b>Kofi</b> "}),
    )
    .await;
    for w in [&mut n, &mut x, &mut s] {
        let m = next_chat(w).await;
        assert_eq!(m["text"], "good luck <b>Kofi</b>");
        assert_eq!(m["room"], "players");
        assert_eq!(m["side"], "S");
        assert_eq!(m["name"], "Ama");
    }
    // The spectators' room: spectators only.
    send(
        &mut x,
        json!({"type": "chat", "text": "South should play F"}),
    )
    .await;
    let m = next_chat(&mut x).await;
    assert_eq!(
        (m["room"].as_str(), m["name"].as_str()),
        (Some("spectators"), Some("Esi"))
    );
    send(&mut n, json!({"type": "chat", "text": "thanks"})).await;
    let m = next_chat(&mut s).await;
    assert_eq!(m["text"], "thanks", "South never saw the spectators' tip");
    // Refusals: too long, empty, hidden characters.
    send(&mut s, json!({"type": "chat", "text": "x".repeat(501)})).await;
    assert_eq!(recv_type(&mut s, "error").await["code"], "too_large");
    send(&mut s, json!({"type": "chat", "text": "a\u{202e}b"})).await;
    assert_eq!(recv_type(&mut s, "error").await["code"], "invalid_request");
    // Kept with the game: players see their room, spectators both.
    let h = get(addr, &format!("/api/v1/games/{id}/chat?token={south}"))
        .await
        .json();
    let texts: Vec<&str> = h["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["good luck <b>Kofi</b>", "thanks"]);
    let h = as_browser(
        [127, 0, 0, 1],
        addr,
        &esi,
        "GET",
        &format!("/api/v1/games/{id}/chat"),
        None,
    )
    .await
    .json();
    assert_eq!(h["messages"].as_array().unwrap().len(), 3);
    // Without a token or an account: the players' room only.
    let h = get(addr, &format!("/api/v1/games/{id}/chat")).await.json();
    assert_eq!(h["messages"].as_array().unwrap().len(), 2);
    assert_eq!(
        get(addr, &format!("/api/v1/games/{id}/chat?token=nope"))
            .await
            .code(),
        "bad_token"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_flood_is_refused() {
    // On a manual clock: the burst refills only when the test says.
    let time = oware_server::time::Time::manual(0);
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits::default()),
        time: time.clone(),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let (id, south, _north) = online_game(addr, json!({})).await;
    let mut s = ws(addr, &id, Some(&south)).await;
    recv_type(&mut s, "state").await;
    for i in 0..8 {
        send(&mut s, json!({"type": "chat", "text": format!("spam {i}")})).await;
    }
    let (mut posted, mut refused) = (0, 0);
    while posted + refused < 8 {
        let m = recv(&mut s).await;
        match m["type"].as_str() {
            Some("chat") => posted += 1,
            Some("error") => {
                assert_eq!(m["code"], "rate_limited");
                refused += 1;
            }
            _ => {}
        }
    }
    assert_eq!(posted, 5, "the burst, and not one more");
    send(&mut s, json!({"type": "chat", "text": "still too soon"})).await;
    assert_eq!(recv_type(&mut s, "error").await["code"], "rate_limited");
    time.advance(Duration::from_millis(1_000));
    send(&mut s, json!({"type": "chat", "text": "calm again"})).await;
    assert_eq!(next_chat(&mut s).await["text"], "calm again");
}
