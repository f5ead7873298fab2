//! HTTP + WebSocket integration tests against a real server on 127.0.0.1.

use std::time::Duration;

use crate::common::*;
use serde_json::json;

fn db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    (dir, path)
}

/// A tiny deterministic generator so the random games are reproducible.
struct Lcg(u64);
impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_play_a_full_online_game() {
    let (_dir, path) = db();
    let server = start(&path).await;
    let addr = server.addr();
    let (id, south, north) = online_game(addr, json!({})).await;
    let mut ws_s = ws(addr, &id, Some(&south)).await;
    let mut ws_n = ws(addr, &id, Some(&north)).await;
    let mut spectator = ws(addr, &id, None).await;
    let state = recv_type(&mut ws_s, "state").await;
    assert_eq!(state["you"], "S");
    assert_eq!(recv_type(&mut ws_n, "state").await["you"], "N");
    assert!(recv_type(&mut spectator, "state").await["you"].is_null());

    let mut rng = Lcg(7);
    let mut game = state["game"].clone();
    let mut ply = 0u64;
    let mut seen_by_spectator = Vec::new();
    while !legal(&game).is_empty() && ply < 400 {
        let moves = legal(&game);
        let mv = moves[rng.pick(moves.len())].clone();
        let south_moves = game["to_move"] == "S";
        if ply % 5 == 4 {
            // Some moves over HTTP: the WebSocket clients must see them too.
            let token = if south_moves { &south } else { &north };
            let r = post(
                addr,
                &format!("/api/v1/games/{id}/moves"),
                json!({"token": token, "move": mv, "ply": ply}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
            assert_eq!(r.json()["ply"], ply + 1);
        } else {
            let mover = if south_moves { &mut ws_s } else { &mut ws_n };
            send(mover, json!({"type": "move", "move": mv, "ply": ply})).await;
        }
        let ev_s = recv_type(&mut ws_s, "move").await;
        let ev_n = recv_type(&mut ws_n, "move").await;
        let ev_x = recv_type(&mut spectator, "move").await;
        assert_eq!(ev_s["ply"], ply + 1);
        assert_eq!(ev_s, ev_n);
        assert_eq!(ev_s, ev_x);
        assert_eq!(ev_s["move"], mv);
        assert_eq!(ev_s["side"], if south_moves { "S" } else { "N" });
        assert_eq!(ev_s["trace"]["move"], mv);
        seen_by_spectator.push(mv);
        game = ev_s;
        ply += 1;
    }
    if legal(&game).is_empty() {
        let end = recv_type(&mut ws_s, "end").await;
        assert_eq!(end["ply"], ply);
        assert!(["S", "N", "draw"].contains(&end["result"]["winner"].as_str().unwrap()));
    } else {
        // A very long random game: South resigns over the WebSocket.
        send(&mut ws_s, json!({"type": "resign"})).await;
        let end = recv_type(&mut ws_n, "end").await;
        assert_eq!(end["result"]["reason"], "resignation");
        assert_eq!(end["result"]["winner"], "N");
    }
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["status"], "over");
    assert_eq!(g["ply"], ply);
    assert_eq!(
        g["plies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect::<Vec<_>>(),
        seen_by_spectator
    );
    // The OGN export replays to the same game.
    let ogn = get(addr, &format!("/api/v1/games/{id}/ogn")).await;
    assert_eq!(ogn.status, 200);
    assert!(ogn.headers.contains("text/plain"));
    let record = oware_core::Record::parse(&ogn.body).expect("export parses");
    assert_eq!(record.game().plies().len() as u64, ply);
    assert!(record.game().is_over());
    // A move after the end is refused.
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": south, "move": "A", "ply": ply}),
    )
    .await;
    assert_eq!(r.code(), "game_over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_input_gets_an_error_and_changes_nothing() {
    let (_dir, path) = db();
    let server = start(&path).await;
    let addr = server.addr();
    let (id, south, north) = online_game(addr, json!({})).await;
    let moves = format!("/api/v1/games/{id}/moves");
    // Two good moves first: F (ply 0), then f (ply 1).
    assert_eq!(
        post(addr, &moves, json!({"token": south, "move": "F", "ply": 0}))
            .await
            .status,
        200
    );
    assert_eq!(
        post(addr, &moves, json!({"token": north, "move": "f", "ply": 1}))
            .await
            .status,
        200
    );
    let before = get(addr, &format!("/api/v1/games/{id}")).await.json();

    let check = |status: u16, code: &'static str| {
        move |r: Resp| {
            assert_eq!(r.status, status, "{}", r.body);
            assert_eq!(r.code(), code, "{}", r.body);
        }
    };
    // Out of turn (it is South's turn).
    check(409, "not_your_turn")(
        post(addr, &moves, json!({"token": north, "move": "a", "ply": 2})).await,
    );
    // Illegal: an opponent's house, and an empty house (F was emptied).
    let r = post(addr, &moves, json!({"token": south, "move": "a", "ply": 2})).await;
    assert_eq!(r.json()["error"]["rule"], "R3");
    check(409, "illegal_move")(r);
    let r = post(addr, &moves, json!({"token": south, "move": "F", "ply": 2})).await;
    assert!(r.body.contains("empty"), "{}", r.body);
    check(409, "illegal_move")(r);
    // Not a move at all.
    check(400, "invalid_move")(
        post(addr, &moves, json!({"token": south, "move": "Z", "ply": 2})).await,
    );
    check(400, "invalid_move")(post(addr, &moves, json!({"token": south, "ply": 2})).await);
    // Stale and future plies.
    check(409, "stale_ply")(
        post(addr, &moves, json!({"token": south, "move": "A", "ply": 1})).await,
    );
    check(409, "stale_ply")(
        post(addr, &moves, json!({"token": south, "move": "A", "ply": 9})).await,
    );
    // Wrong and missing tokens.
    check(403, "bad_token")(
        post(
            addr,
            &moves,
            json!({"token": "0123", "move": "A", "ply": 2}),
        )
        .await,
    );
    check(401, "missing_token")(post(addr, &moves, json!({"move": "A", "ply": 2})).await);
    // Malformed and oversized bodies.
    check(400, "malformed")(raw(addr, "POST", &moves, "application/json", b"{\"token\": ").await);
    check(400, "malformed")(post(addr, &moves, json!({"token": 5, "move": "A", "ply": 2})).await);
    let big = json!({"token": south, "move": "A", "ply": 2, "pad": "x".repeat(100_000)});
    check(413, "too_large")(post(addr, &moves, big).await);
    // Unknown game, seat already taken, wrong invite.
    check(404, "not_found")(
        post(
            addr,
            "/api/v1/games/nosuchgame/moves",
            json!({"token": south, "move": "A", "ply": 2}),
        )
        .await,
    );
    check(403, "bad_token")(
        post(
            addr,
            &format!("/api/v1/games/{id}/join"),
            json!({"invite": "wrong"}),
        )
        .await,
    );
    // Undo is not allowed online.
    check(409, "not_allowed")(
        post(
            addr,
            &format!("/api/v1/games/{id}/undo"),
            json!({"token": south}),
        )
        .await,
    );
    // Bad creation requests.
    check(400, "invalid_request")(post(addr, "/api/v1/games", json!({"mode": "chess"})).await);
    check(400, "invalid_request")(
        post(
            addr,
            "/api/v1/games",
            json!({"mode": "computer", "level": 11}),
        )
        .await,
    );
    check(400, "invalid_position")(
        post(
            addr,
            "/api/v1/games",
            json!({"mode": "hotseat", "position": "4-4-4"}),
        )
        .await,
    );
    check(400, "invalid_request")(
        post(
            addr,
            "/api/v1/games",
            json!({"mode": "online", "time_control": {"per_move_ms": 5}}),
        )
        .await,
    );

    // The same over the WebSocket: each gets an error event and the connection stays.
    let mut s = ws(addr, &id, Some(&south)).await;
    recv_type(&mut s, "state").await;
    for (msg, code) in [
        (
            json!({"type": "move", "move": "a", "ply": 2}).to_string(),
            "illegal_move",
        ),
        (
            json!({"type": "move", "move": "A", "ply": 0}).to_string(),
            "stale_ply",
        ),
        (
            json!({"type": "move", "move": "?", "ply": 2}).to_string(),
            "invalid_move",
        ),
        (json!({"type": "fly"}).to_string(), "malformed"),
        ("not json".to_string(), "malformed"),
        (
            json!({"type": "move", "move": "A", "ply": 2, "pad": "x".repeat(5000)}).to_string(),
            "too_large",
        ),
        (
            json!({"type": "agreement", "action": "accept"}).to_string(),
            "not_allowed",
        ),
    ] {
        send_text(&mut s, msg).await;
        let e = recv_type(&mut s, "error").await;
        assert_eq!(e["code"], code, "{e}");
        assert_eq!(e["ply"], 2);
    }
    let mut n = ws(addr, &id, Some(&north)).await;
    recv_type(&mut n, "state").await;
    send(&mut n, json!({"type": "move", "move": "a", "ply": 2})).await;
    assert_eq!(recv_type(&mut n, "error").await["code"], "not_your_turn");
    // Spectators cannot play.
    let mut x = ws(addr, &id, None).await;
    recv_type(&mut x, "state").await;
    send(&mut x, json!({"type": "move", "move": "A", "ply": 2})).await;
    assert_eq!(recv_type(&mut x, "error").await["code"], "missing_token");
    send(&mut x, json!({"type": "ping"})).await;
    assert_eq!(recv_type(&mut x, "pong").await["ply"], 2);
    // A wrong token cannot even open the socket; nor can an unknown game.
    let url = format!("ws://{addr}/api/v1/games/{id}/ws?token=nope");
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
    let r = get(addr, &format!("/api/v1/games/{id}/ws?token=nope")).await;
    assert_eq!(r.status, 403);

    // Nothing changed.
    let after = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(before["plies"], after["plies"]);
    assert_eq!(before["position"], after["position"]);
    assert_eq!(after["ply"], 2);
    // And a good move still works.
    send(&mut s, json!({"type": "move", "move": "A", "ply": 2})).await;
    assert_eq!(recv_type(&mut s, "move").await["ply"], 3);
}

async fn send_text(ws: &mut Ws, text: String) {
    use futures_util::SinkExt;
    ws.send(tokio_tungstenite::tungstenite::Message::Text(text.into()))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_middle_of_a_game_loses_nothing() {
    let (_dir, path) = db();
    let (id, south, north, plies) = {
        let server = start(&path).await;
        let addr = server.addr();
        let (id, south, north) = online_game(
            addr,
            json!({"time_control": {"initial_ms": 600000, "increment_ms": 1000}}),
        )
        .await;
        let mut s = ws(addr, &id, Some(&south)).await;
        let mut n = ws(addr, &id, Some(&north)).await;
        recv_type(&mut s, "state").await;
        recv_type(&mut n, "state").await;
        for (i, mv) in ["F", "f", "B", "e", "C"].iter().enumerate() {
            let sock = if i % 2 == 0 { &mut s } else { &mut n };
            send(sock, json!({"type": "move", "move": mv, "ply": i})).await;
            // Acknowledged = stored.
            assert_eq!(recv_move(sock, i as u64 + 1).await["move"], *mv);
        }
        let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
        server.abort();
        (id, south, north, g["plies"].clone())
    };
    // A new server on the same database file.
    let server = start(&path).await;
    let addr = server.addr();
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["plies"], plies);
    assert_eq!(g["ply"], 5);
    assert_eq!(g["to_move"], "N");
    assert_eq!(g["status"], "playing");
    assert!(
        g["clock"]["north_ms"].as_u64().unwrap() > 500_000,
        "{}",
        g["clock"]
    );
    // The same tokens still hold the seats; play goes on.
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": south, "move": "A", "ply": 5}),
    )
    .await;
    assert_eq!(r.code(), "not_your_turn");
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": north, "move": g["legal"][0], "ply": 5}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["ply"], 6);
    // A private game in progress is in no public list.
    let list = get(addr, "/api/v1/games?limit=10").await.json();
    assert_eq!(list["total"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reconnects_resyncs_by_ply() {
    let (_dir, path) = db();
    let server = start(&path).await;
    let addr = server.addr();
    let (id, south, north) = online_game(addr, json!({})).await;
    let moves = format!("/api/v1/games/{id}/moves");
    let mut s = ws(addr, &id, Some(&south)).await;
    recv_type(&mut s, "state").await;
    assert_eq!(
        post(addr, &moves, json!({"token": south, "move": "F", "ply": 0}))
            .await
            .status,
        200
    );
    assert_eq!(recv_type(&mut s, "move").await["ply"], 1);
    drop(s);
    // Missed while away.
    for (i, (tok, mv)) in [(&north, "f"), (&south, "B"), (&north, "e")]
        .iter()
        .enumerate()
    {
        let r = post(
            addr,
            &moves,
            json!({"token": tok, "move": mv, "ply": i + 1}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let mut s = ws(addr, &id, Some(&south)).await;
    let state = recv_type(&mut s, "state").await;
    assert_eq!(state["ply"], 4);
    send(&mut s, json!({"type": "hello", "since": 1})).await;
    let got: Vec<_> = [
        recv_type(&mut s, "move").await,
        recv_type(&mut s, "move").await,
        recv_type(&mut s, "move").await,
    ]
    .iter()
    .map(|e| {
        (
            e["ply"].as_u64().unwrap(),
            e["move"].as_str().unwrap().to_string(),
        )
    })
    .collect();
    assert_eq!(
        got,
        vec![
            (2, "f".to_string()),
            (3, "B".to_string()),
            (4, "e".to_string())
        ]
    );
    // A client ahead of the server gets the whole state.
    send(&mut s, json!({"type": "hello", "since": 99})).await;
    assert_eq!(recv_type(&mut s, "state").await["game"]["ply"], 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_moves_in_a_computer_game() {
    // `start`'s settings, with a longer request cap: the hint below is the
    // coach's analysis of an opening position (its close moves searched to
    // depth 18), which can outlast the default 10 s on a loaded test
    // machine; this test is about the engine's moves, not the time.
    let (_dir, server) = start_with(oware_server::Config {
        engine_threads: 1,
        engine_move_cap: Duration::from_millis(300),
        engine_request_cap: Duration::from_secs(300),
        rate_limits: None,
        ..oware_server::Config::default()
    })
    .await;
    let addr = server.addr();
    // The player takes North: the computer (South) moves first.
    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "computer", "level": 2, "side": "N"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let c = c.json();
    let id = c["id"].as_str().unwrap().to_string();
    let token = c["tokens"]["N"].as_str().unwrap().to_string();
    assert!(c["tokens"]["S"].is_null());
    let mut w = ws(addr, &id, Some(&token)).await;
    let first = first_ply(&mut w).await;
    assert_eq!(first["ply"], 1);
    assert_eq!(first["side"], "S");
    let mv = legal(&first)[0].clone();
    send(&mut w, json!({"type": "move", "move": mv, "ply": 1})).await;
    assert_eq!(recv_type(&mut w, "move").await["ply"], 2);
    let reply = recv_type(&mut w, "move").await;
    assert_eq!(reply["ply"], 3);
    assert_eq!(reply["side"], "S");
    // Undo takes back the player's move and the engine's answer.
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/undo"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["game"]["ply"], 1);
    // A hint, then resignation.
    let h = post(
        addr,
        &format!("/api/v1/games/{id}/hint"),
        json!({"token": token, "movetime_ms": 50}),
    )
    .await;
    assert_eq!(h.status, 200, "{}", h.body);
    assert!(legal(&first).contains(&h.json()["move"].as_str().unwrap().to_string()));
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/resign"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(r.json()["game"]["result"]["winner"], "S");
    // Rematch: sides swapped, the player is South now.
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/rematch"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(r["you"], "S");
    assert!(r["tokens"]["S"].is_string());
    assert_eq!(
        get(addr, &format!("/api/v1/games/{id}")).await.json()["rematch"],
        r["id"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_controls_are_enforced_by_the_server() {
    let (_dir, path) = db();
    let server = start(&path).await;
    let addr = server.addr();
    // Per-move limit: South does not move and loses the turn (R13).
    let (id, south, _north) =
        online_game(addr, json!({"time_control": {"per_move_ms": 1000}})).await;
    let mut s = ws(addr, &id, Some(&south)).await;
    let lost = first_ply(&mut s).await;
    assert_eq!(lost["ply"], 1);
    assert_eq!(lost["move"], "-");
    assert_eq!(lost["side"], "S");
    assert_eq!(lost["to_move"], "N");
    assert!(lost["trace"].is_null());
    // Clock: South's flag falls and South loses.
    let (id, south, _north) = online_game(
        addr,
        json!({"time_control": {"initial_ms": 1000, "increment_ms": 0}}),
    )
    .await;
    let mut s = ws(addr, &id, Some(&south)).await;
    recv_type(&mut s, "state").await;
    let end = recv_type(&mut s, "end").await;
    assert_eq!(end["result"]["reason"], "time");
    assert_eq!(end["result"]["winner"], "N");
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["clock"]["south_ms"], 0);
    assert!(g["clock"]["running"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hotseat_agreement_import_lobby_rules_and_pages() {
    let (_dir, path) = db();
    let server = start(&path).await;
    let addr = server.addr();
    // Hot-seat: both tokens, agreement by R12.
    let c = post(addr, "/api/v1/games", json!({"mode": "hotseat"}))
        .await
        .json();
    let id = c["id"].as_str().unwrap();
    let (ts, tn) = (
        c["tokens"]["S"].as_str().unwrap(),
        c["tokens"]["N"].as_str().unwrap(),
    );
    let ag = format!("/api/v1/games/{id}/agreement");
    assert_eq!(
        post(addr, &ag, json!({"token": tn, "action": "accept"}))
            .await
            .code(),
        "not_allowed"
    );
    assert_eq!(
        post(addr, &ag, json!({"token": ts, "action": "offer"}))
            .await
            .json()["game"]["offer"],
        "S"
    );
    let done = post(addr, &ag, json!({"token": tn, "action": "accept"}))
        .await
        .json();
    assert_eq!(done["game"]["result"]["reason"], "agreement");
    assert_eq!(done["game"]["result"]["winner"], "draw");
    // Import an OGN record and export it again.
    let ogn = "[Variant \"Abapa\"]\n[South \"Alice\"]\n[North \"Bob\"]\n\n1. F f 2. B e *\n";
    let r = raw(
        addr,
        "POST",
        "/api/v1/games/import",
        "text/plain",
        ogn.as_bytes(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let g = r.json();
    assert_eq!(g["game"]["plies"], json!(["F", "f", "B", "e"]));
    assert_eq!(g["game"]["seats"]["S"]["name"], "Alice");
    let bad = raw(
        addr,
        "POST",
        "/api/v1/games/import",
        "text/plain",
        b"1. F F *",
    )
    .await;
    assert_eq!(bad.code(), "invalid_request");
    // Lobby: a public online game waiting for an opponent.
    let p = post(
        addr,
        "/api/v1/games",
        json!({"mode": "online", "public": true}),
    )
    .await
    .json();
    let lobby = get(addr, "/api/v1/lobby").await.json();
    assert_eq!(lobby["games"].as_array().unwrap().len(), 1);
    assert_eq!(lobby["games"][0]["id"], p["id"]);
    let j = post(
        addr,
        &format!("/api/v1/games/{}/join", p["id"].as_str().unwrap()),
        json!({}),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let again = post(
        addr,
        &format!("/api/v1/games/{}/join", p["id"].as_str().unwrap()),
        json!({}),
    )
    .await;
    assert_eq!(again.code(), "seat_taken");
    assert_eq!(
        get(addr, "/api/v1/lobby").await.json()["games"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    // Rules service.
    let r = post(
        addr,
        "/api/v1/rules/state",
        json!({"position": "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S", "moves": "F"}),
    )
    .await
    .json();
    assert_eq!(r["position"], "0-0-0-0-0-0-0-0-0-0-4-0-24-20-N");
    assert_eq!(r["last"]["captured"], json!([["b", 2], ["a", 2]]));
    // Analysis of every legal move.
    let a = post(addr, "/api/v1/analyze", json!({"depth": 3}))
        .await
        .json();
    assert_eq!(a["moves"].as_array().unwrap().len(), 6);
    // Pages: the app at /, its files with content types, the app again for its own routes.
    let home = get(addr, "/").await;
    assert_eq!(home.status, 200);
    assert!(home.headers.contains("content-type: text/html"));
    let deep = get(addr, "/game/abc?token=x").await;
    assert_eq!(deep.body, home.body);
    for f in oware_server::assets::files() {
        let r = get(addr, &format!("/{f}")).await;
        assert_eq!(r.status, 200, "{f}");
        if f.ends_with(".js") {
            assert!(r.headers.contains("javascript"), "{f}: {}", r.headers);
        }
        if f.ends_with(".css") {
            assert!(r.headers.contains("text/css"), "{f}");
        }
    }
    // The lessons: the session crate's file, as it is.
    let lessons = get(addr, "/data/lessons.json").await;
    assert_eq!(lessons.status, 200);
    assert!(
        lessons.headers.contains("application/json"),
        "{}",
        lessons.headers
    );
    assert_eq!(lessons.body, oware_session::lessons::SOURCE);
    assert_eq!(get(addr, "/api/v1/nothing").await.status, 404);
    // A missing asset is a 404, not the app's page; the page fallback is for
    // the app's own routes only.
    for missing in [
        "/js/nonexistent.js",
        "/css/missing.css",
        "/favicon.ico",
        "/game",
        "/play/extra",
    ] {
        let r = get(addr, missing).await;
        assert_eq!(r.status, 404, "{missing}");
        assert!(!r.headers.contains("text/html"), "{missing}: {}", r.headers);
        assert!(r.body.contains(missing), "{missing}: {}", r.body);
    }
    // A browser opening a missing page (it asks for HTML) gets a 404 that
    // is the app's page, which says so in the reader's language; a missing
    // script stays a plain 404.
    let accept = |path: &'static str, accept: &'static str| async move {
        request_from(
            [127, 0, 0, 1],
            addr,
            "GET",
            path,
            "",
            &[format!("Accept: {accept}")],
            b"",
        )
        .await
    };
    let r = accept("/no/such/page", "text/html,application/xhtml+xml,*/*;q=0.8").await;
    assert_eq!(r.status, 404);
    assert!(r.headers.contains("text/html"), "{}", r.headers);
    assert_eq!(r.body, home.body);
    let r = accept("/js/nonexistent.js", "*/*").await;
    assert_eq!(r.status, 404);
    assert!(!r.headers.contains("text/html"), "{}", r.headers);
    for page in [
        "/play",
        "/lobby/",
        "/learn",
        "/rules",
        "/review",
        "/review/x-1",
        "/study",
    ] {
        let r = get(addr, page).await;
        assert_eq!(r.status, 200, "{page}");
        assert_eq!(r.body, home.body, "{page}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_from_the_database() {
    let (_dir, path) = db();
    let server = start(&path).await;
    let addr = server.addr();
    let c = post(addr, "/api/v1/games", json!({"mode": "hotseat"}))
        .await
        .json();
    let id = c["id"].as_str().unwrap().to_string();
    let ts = c["tokens"]["S"].as_str().unwrap().to_string();
    let tn = c["tokens"]["N"].as_str().unwrap().to_string();
    let moves = format!("/api/v1/games/{id}/moves");
    assert_eq!(
        post(addr, &moves, json!({"token": ts, "move": "F", "ply": 0}))
            .await
            .status,
        200
    );
    // A watched game stays in memory; an idle one is dropped.
    let mut w = ws(addr, &id, None).await;
    recv_type(&mut w, "state").await;
    assert_eq!(server.hub().sweep(), 0);
    assert_eq!(server.hub().games_in_memory(), 1);
    drop(w);
    let mut evicted = 0;
    for _ in 0..50 {
        evicted += server.hub().sweep();
        if evicted > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(evicted, 1);
    assert_eq!(server.hub().games_in_memory(), 0);
    // Loaded again on use, with its history and seats.
    let r = post(addr, &moves, json!({"token": tn, "move": "f", "ply": 1})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["game"]["plies"], json!(["F", "f"]));
}

/// The `oware_engine_searches_total` counter of `lane` in `/metrics`.
/// A game's plies as stored, and whether it has no deadline stored (no
/// node's sweep of overdue games can claim it), read from the database.
async fn no_deadline(path: &std::path::Path, id: &str) -> (usize, bool) {
    let store = oware_server::store::open(path.to_str()).await.unwrap();
    let id = id.to_string();
    let g = tokio::task::spawn_blocking(move || store.load(&id))
        .await
        .unwrap()
        .unwrap()
        .expect("the game is stored");
    (g.plies.len(), g.due.at.is_none())
}

async fn engine_searches(addr: std::net::SocketAddr, lane: &str) -> u64 {
    let m = get(addr, "/metrics").await.body;
    let key = format!("oware_engine_searches_total{{lane=\"{lane}\"}} ");
    m.lines()
        .find_map(|l| l.strip_prefix(key.as_str()))
        .unwrap_or_else(|| panic!("no {key} in /metrics:\n{m}"))
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_plays_the_computers_moves_and_the_server_engine_stays_idle() {
    let (_dir, path) = db();
    let server = start(&path).await;
    let addr = server.addr();
    // Refused: a timed game, a hot-seat game, an unknown engine.
    for (body, code) in [
        (
            json!({"mode": "computer", "engine": "browser", "time_control": {"per_move_ms": 5000}}),
            "invalid_request",
        ),
        (
            json!({"mode": "hotseat", "engine": "browser"}),
            "invalid_request",
        ),
        (
            json!({"mode": "computer", "engine": "gpu"}),
            "invalid_request",
        ),
    ] {
        let r = post(addr, "/api/v1/games", body.clone()).await;
        assert_eq!(r.code(), code, "{body}: {}", r.body);
        assert_eq!(r.json()["error"]["reason"], "engine", "{body}");
    }
    // The computer (South) moves first, played by the browser.
    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "computer", "level": 10, "side": "N", "engine": "browser"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let c = c.json();
    assert_eq!(c["game"]["engine"], "browser");
    assert_eq!(c["game"]["thinking"], false);
    let id = c["id"].as_str().unwrap().to_string();
    let token = c["tokens"]["N"].as_str().unwrap().to_string();
    let moves = format!("/api/v1/games/{id}/moves");
    // No token, a player's move in the computer's turn, the wrong side's house.
    let r = post(
        addr,
        &moves,
        json!({"move": "F", "ply": 0, "computer": true}),
    )
    .await;
    assert_eq!(r.code(), "missing_token", "{}", r.body);
    let r = post(addr, &moves, json!({"token": token, "move": "f", "ply": 0})).await;
    assert_eq!(r.code(), "not_your_turn", "{}", r.body);
    let r = post(
        addr,
        &moves,
        json!({"token": token, "move": "f", "ply": 0, "computer": true}),
    )
    .await;
    assert_eq!(r.code(), "illegal_move", "{}", r.body);
    // Plies: the computer's F (by the browser), the player's, the computer's again.
    let mut ply = 0;
    let mut game = c["game"].clone();
    for _ in 0..5 {
        let computer = game["to_move"] == "S";
        let mv = legal(&game)[0].clone();
        let r = post(
            addr,
            &moves,
            json!({"token": token, "move": mv, "ply": ply, "computer": computer}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        game = r.json()["game"].clone();
        ply += 1;
        assert_eq!(game["ply"], ply);
        assert_eq!(game["thinking"], false, "the server does not search");
    }
    // A stale computer move (another tab's) is refused.
    let r = post(
        addr,
        &moves,
        json!({"token": token, "move": "f", "ply": 1, "computer": true}),
    )
    .await;
    assert_eq!(r.code(), "stale_ply", "{}", r.body);
    // The player's move now; the computer's turn waits for the browser.
    let mv = legal(&game)[0].clone();
    let r = post(
        addr,
        &moves,
        json!({"token": token, "move": mv, "ply": ply}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    ply += 1;
    // Read at once, not after a wait: the server decides to search inside
    // the move's commit, before it answers (a search begun would show as
    // `thinking`, or as the computer's ply), and a game whose moves the
    // browser plays has no deadline for any node's sweep to claim.
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["ply"], ply, "nobody played the computer's move");
    assert_eq!(g["thinking"], false);
    assert_eq!(no_deadline(&path, &id).await, (ply as usize, true));
    assert_eq!(engine_searches(addr, "game").await, 0);
    // A browser whose engine failed gives the moves back to the server.
    let engine = format!("/api/v1/games/{id}/engine");
    let r = post(addr, &engine, json!({"token": token, "engine": "tpu"})).await;
    assert_eq!(r.json()["error"]["reason"], "engine", "{}", r.body);
    let r = post(addr, &engine, json!({"engine": "server"})).await;
    assert_eq!(r.code(), "missing_token", "{}", r.body);
    let mut w = ws(addr, &id, Some(&token)).await;
    recv_type(&mut w, "state").await;
    let r = post(addr, &engine, json!({"token": token, "engine": "server"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["game"]["engine"], "server");
    let reply = recv_move(&mut w, ply + 1).await;
    assert_eq!(reply["side"], "S");
    assert_eq!(engine_searches(addr, "game").await, 1);
    // And back to the browser.
    let r = post(addr, &engine, json!({"token": token, "engine": "browser"})).await;
    assert_eq!(r.json()["game"]["engine"], "browser");
    // Online games refuse it.
    let (oid, south, _north) = online_game(addr, json!({})).await;
    let r = post(
        addr,
        &format!("/api/v1/games/{oid}/engine"),
        json!({"token": south, "engine": "browser"}),
    )
    .await;
    assert_eq!(r.code(), "not_allowed", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_engine_choice_survives_a_restart() {
    let (_dir, path) = db();
    let (chosen_at_start, chosen_later, t1, t2) = {
        let server = start(&path).await;
        let addr = server.addr();
        // Chosen at creation: the computer (South) to move, for the browser.
        let c = post(
            addr,
            "/api/v1/games",
            json!({"mode": "computer", "level": 3, "side": "N", "engine": "browser"}),
        )
        .await
        .json();
        assert_eq!(c["game"]["engine"], "browser");
        // Chosen during the game: the player (South) moves first, then
        // gives the computer's moves to the browser.
        let d = post(
            addr,
            "/api/v1/games",
            json!({"mode": "computer", "level": 3, "side": "S"}),
        )
        .await
        .json();
        assert_eq!(d["game"]["engine"], "server");
        let did = d["id"].as_str().unwrap().to_string();
        let dtoken = d["tokens"]["S"].as_str().unwrap().to_string();
        let r = post(
            addr,
            &format!("/api/v1/games/{did}/engine"),
            json!({"token": dtoken, "engine": "browser"}),
        )
        .await;
        assert_eq!(r.json()["game"]["engine"], "browser", "{}", r.body);
        server.abort();
        (
            c["id"].as_str().unwrap().to_string(),
            did,
            c["tokens"]["N"].as_str().unwrap().to_string(),
            dtoken,
        )
    };
    // A new server on the same database: both games still wait for the
    // browser, and the server's engine searches nothing.
    let server = start(&path).await;
    let addr = server.addr();
    for id in [&chosen_at_start, &chosen_later] {
        let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
        assert_eq!(g["engine"], "browser", "{id}: {g}");
    }
    let g = get(addr, &format!("/api/v1/games/{chosen_later}"))
        .await
        .json();
    let mv = legal(&g)[0].clone();
    let r = post(
        addr,
        &format!("/api/v1/games/{chosen_later}/moves"),
        json!({"token": t2, "move": mv, "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // At once, as above: loading a game and a move decide whether to
    // search before answering, and neither game has a deadline to claim.
    for (id, ply) in [(&chosen_at_start, 0), (&chosen_later, 1)] {
        let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
        assert_eq!(g["ply"], ply, "{id}: nobody played the computer's move");
        assert_eq!(g["thinking"], false);
        assert_eq!(no_deadline(&path, id).await, (ply, true));
    }
    assert_eq!(engine_searches(addr, "game").await, 0);
    // Given back to the server, which plays at once; that choice is kept too.
    let r = post(
        addr,
        &format!("/api/v1/games/{chosen_at_start}/engine"),
        json!({"token": t1, "engine": "server"}),
    )
    .await;
    assert_eq!(r.json()["game"]["engine"], "server", "{}", r.body);
    for _ in 0..100 {
        let g = get(addr, &format!("/api/v1/games/{chosen_at_start}"))
            .await
            .json();
        if g["ply"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let g = get(addr, &format!("/api/v1/games/{chosen_at_start}"))
        .await
        .json();
    assert_eq!(g["ply"], 1, "the server's engine played");
    server.abort();
    let server = start(&path).await;
    let g = get(server.addr(), &format!("/api/v1/games/{chosen_at_start}"))
        .await
        .json();
    assert_eq!(g["engine"], "server");
}
