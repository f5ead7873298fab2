//! Issue 23's basics on the server: a clock against the computer.

use std::time::Duration;

use serde_json::json;

use crate::common::{legal, post, send, start, ws, Ws};

/// The next event of type `ty`, waiting up to `within` (the default
/// helpers wait 5 s, less than a busy machine may need here).
async fn next_of(w: &mut Ws, ty: &str, within: Duration) -> serde_json::Value {
    tokio::time::timeout(within, async {
        loop {
            use futures_util::StreamExt;
            let msg = w.next().await.expect("open").expect("no socket error");
            if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
                let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                if v["type"] == ty {
                    return v;
                }
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {ty} event within {within:?}"))
}

/// The computer plays on a clock and thinks within what it has left (a
/// fifteenth at most), so at level 10 on a 5-second clock it never loses on
/// time; the player who waits does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_against_the_computer() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("g.sqlite3")).await;
    let addr = server.addr();
    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "computer", "level": 10, "side": "N",
               "time_control": {"initial_ms": 5000, "increment_ms": 0}}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let c = c.json();
    assert_eq!(c["game"]["time_control"]["initial_ms"], 5000, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let token = c["tokens"]["N"].as_str().unwrap().to_string();
    let mut w = ws(addr, &id, Some(&token)).await;
    // The computer (South) opens, and answers two moves, each time with
    // time to spare on its clock.
    let wait = Duration::from_secs(20);
    // On a busy machine the computer may have opened before the socket was
    // there: then the state sent on connecting already holds its move.
    let state = next_of(&mut w, "state", wait).await;
    let mut last = if state["game"]["ply"].as_u64().unwrap() >= 1 {
        state["game"].clone()
    } else {
        next_of(&mut w, "move", wait).await
    };
    for _ in 0..2 {
        let ply = last["ply"].as_u64().unwrap();
        let south_left = last["clock"]["south_ms"].as_u64().unwrap();
        assert!(south_left > 3500, "the computer kept its time: {last}");
        let mv = legal(&last)[0].clone();
        send(&mut w, json!({"type": "move", "move": mv, "ply": ply})).await;
        assert_eq!(next_of(&mut w, "move", wait).await["ply"], ply + 1);
        last = next_of(&mut w, "move", wait).await;
        assert_eq!(last["side"], "S", "{last}");
    }
    // The player waits: their flag falls, the computer wins on time.
    let end = next_of(&mut w, "end", wait).await;
    assert_eq!(end["result"]["reason"], "time", "{end}");
    assert_eq!(end["result"]["winner"], "S", "{end}");
}

/// An online game may be called off before each side has moved, by either
/// player: it ends without a result and refuses moves; after that, only
/// resigning is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_before_each_side_has_moved() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("g.sqlite3")).await;
    let addr = server.addr();
    // South moves once; North aborts.
    let (id, south, north) = crate::common::online_game(addr, json!({})).await;
    let m = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": south, "move": "C", "ply": 0}),
    )
    .await;
    assert_eq!(m.status, 200, "{}", m.body);
    let path = format!("/api/v1/games/{id}/abort");
    assert_eq!(post(addr, &path, json!({})).await.code(), "missing_token");
    let a = post(addr, &path, json!({"token": north})).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["game"]["status"], "cancelled");
    assert!(a.json()["game"]["result"].is_null());
    let late = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": north, "move": "f", "ply": 1}),
    )
    .await;
    assert_eq!(late.code(), "game_over");
    assert_eq!(late.json()["error"]["reason"], "cancelled");
    // Once each side has moved, it is too late (over the WebSocket too).
    let (id, south, north) = crate::common::online_game(addr, json!({})).await;
    for (token, mv, ply) in [(&south, "C", 0), (&north, "f", 1)] {
        let m = post(
            addr,
            &format!("/api/v1/games/{id}/moves"),
            json!({"token": token, "move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(m.status, 200, "{}", m.body);
    }
    let mut w = ws(addr, &id, Some(&south)).await;
    next_of(&mut w, "state", Duration::from_secs(10)).await;
    send(&mut w, json!({"type": "abort"})).await;
    let e = next_of(&mut w, "error", Duration::from_secs(10)).await;
    assert_eq!(e["code"], "not_allowed", "{e}");
    assert_eq!(e["reason"], "too_late", "{e}");
}

/// Take-backs online: South asks after their move, North sees the request
/// and declines, South asks again and North accepts: the game is back at
/// South's turn for everyone. A move answers a standing request; rated
/// games and requests with nothing to take back are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_requests_online() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("g.sqlite3")).await;
    let addr = server.addr();
    let (id, south, north) = crate::common::online_game(addr, json!({})).await;
    let mut wn = ws(addr, &id, Some(&north)).await;
    next_of(&mut wn, "state", Duration::from_secs(10)).await;
    let path = format!("/api/v1/games/{id}/takeback");
    let ask = |token: &str, action: &str| json!({"token": token, "action": action});
    // Nothing of South's to take back yet.
    let none = post(addr, &path, ask(&south, "offer")).await;
    assert_eq!(none.code(), "not_allowed", "{}", none.body);
    assert_eq!(none.json()["error"]["reason"], "nothing_to_take_back");
    play(addr, &id, &south, "C", 0).await;
    // South asks; North hears it, and declines.
    let r = post(addr, &path, ask(&south, "offer")).await;
    assert_eq!(r.json()["game"]["takeback"], "S", "{}", r.body);
    let heard = next_of(&mut wn, "takeback", Duration::from_secs(10)).await;
    assert_eq!(
        (heard["side"].clone(), heard["action"].clone()),
        (json!("S"), json!("offer"))
    );
    let d = post(addr, &path, ask(&north, "decline")).await;
    assert!(d.json()["game"]["takeback"].is_null(), "{}", d.body);
    // South cannot answer their own request.
    post(addr, &path, ask(&south, "offer")).await;
    let own = post(addr, &path, ask(&south, "accept")).await;
    assert_eq!(own.json()["error"]["reason"], "no_request", "{}", own.body);
    // North accepts: South's move is gone, and it is South's turn.
    let a = post(addr, &path, ask(&north, "accept")).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["game"]["ply"], 0, "{}", a.body);
    assert_eq!(a.json()["game"]["to_move"], "S");
    let state = next_of(&mut wn, "state", Duration::from_secs(10)).await;
    assert_eq!(state["game"]["ply"], 0, "{state}");
    // After North has answered with a move, South's take-back goes back
    // to South's turn: both moves.
    play(addr, &id, &south, "D", 0).await;
    play(addr, &id, &north, "f", 1).await;
    post(addr, &path, ask(&south, "offer")).await;
    let a = post(addr, &path, ask(&north, "accept")).await;
    assert_eq!(a.json()["game"]["ply"], 0, "{}", a.body);
    // A move answers a standing request.
    play(addr, &id, &south, "D", 0).await;
    post(addr, &path, ask(&south, "offer")).await;
    play(addr, &id, &north, "f", 1).await;
    let late = post(addr, &path, ask(&north, "accept")).await;
    assert_eq!(
        late.json()["error"]["reason"],
        "no_request",
        "{}",
        late.body
    );
}

async fn play(addr: std::net::SocketAddr, id: &str, token: &str, mv: &str, ply: u32) {
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": token, "move": mv, "ply": ply}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}
