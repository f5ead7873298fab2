//! Correspondence games: days for each move, the time refilled after every
//! move, and a deadline that holds across restarts (docs/PROTOCOL.md,
//! "Time controls"). The server runs on a manual clock, so its days pass
//! when the test says, to the millisecond.

use std::path::Path;
use std::time::Duration;

use oware_server::time::Time;
use oware_server::{Config, Server, ServerOptions};
use serde_json::json;

use crate::common::*;

const DAY: Duration = Duration::from_secs(86_400);

/// A server on the database `db`, on the clock `time`.
async fn start_on(db: &Path, time: &Time) -> Server {
    Server::start(ServerOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: Some(db.to_path_buf()),
        config: Config {
            engine_threads: 1,
            rate_limits: None,
            time: time.clone(),
            ..Config::default()
        },
        ..ServerOptions::default()
    })
    .await
    .expect("server starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn days_per_move_are_checked_and_shown_on_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    let time = Time::manual(Time::wall().unix_ms());
    let server = start_on(&dir.path().join("g.sqlite3"), &time).await;
    let addr = server.addr();
    for (body, reason) in [
        (
            json!({"mode": "online", "time_control": {"days_per_move": 2}}),
            "correspondence_days",
        ),
        (
            json!({"mode": "computer", "time_control": {"days_per_move": 3}}),
            "correspondence_online_only",
        ),
    ] {
        let r = post(addr, "/api/v1/games", body).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert_eq!(r.code(), "invalid_request");
        assert_eq!(r.json()["error"]["reason"], reason, "{}", r.body);
    }
    let (id, south, _north) =
        online_game(addr, json!({"time_control": {"days_per_move": 3}})).await;
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["time_control"], json!({"days_per_move": 3}));
    let three_days = 3 * 86_400_000u64;
    assert_eq!(g["clock"]["south_ms"], three_days, "{}", g["clock"]);
    assert_eq!(g["clock"]["running"], "S");
    // Two days and a half later, South moves with half a day left.
    time.advance(DAY * 5 / 2);
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["clock"]["south_ms"], three_days / 6, "{}", g["clock"]);
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": south, "move": "F", "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // North's turn starts full; South's is refilled for the next one.
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["clock"]["running"], "N");
    assert_eq!(g["clock"]["south_ms"], three_days);
    assert_eq!(g["clock"]["north_ms"], three_days);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_after_a_restart_and_time_running_out_while_the_server_is_down() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let time = Time::manual(Time::wall().unix_ms());
    let (id, north) = {
        let server = start_on(&db, &time).await;
        let (id, south, north) =
            online_game(server.addr(), json!({"time_control": {"days_per_move": 1}})).await;
        let r = post(
            server.addr(),
            &format!("/api/v1/games/{id}/moves"),
            json!({"token": south, "move": "F", "ply": 0}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        server.abort();
        (id, north)
    };
    // Back up an hour later: North's turn goes on where it was, and a
    // move is taken after the restart.
    time.advance(Duration::from_secs(3_600));
    let server = start_on(&db, &time).await;
    let addr = server.addr();
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["status"], "playing");
    assert_eq!(g["clock"]["running"], "N");
    assert_eq!(
        g["clock"]["north_ms"].as_u64(),
        Some(86_400_000 - 3_600_000),
        "{}",
        g["clock"]
    );
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": north, "move": "f", "ply": 1}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    server.abort();
    // Down for longer than South's day: the time ran out while no server
    // held the game, and the next server says so on its own.
    time.advance(DAY + Duration::from_secs(1));
    let server = start_on(&db, &time).await;
    let addr = server.addr();
    let mut over = None;
    for _ in 0..100 {
        let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
        if g["status"] == "over" {
            over = Some(g);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let g = over.expect("the game ends on time after the restart");
    assert_eq!(g["result"]["reason"], "time", "{}", g["result"]);
    assert_eq!(g["result"]["winner"], "N", "{}", g["result"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_has_its_own_rating_list() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_on(&dir.path().join("g.sqlite3"), &Time::wall()).await;
    let r = get(server.addr(), "/api/v1/ratings/correspondence").await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// A 14-day correspondence game played over weeks of virtual time: each
/// side moves with most of its fortnight gone, and North's flag falls
/// fourteen days after South's last move, to the millisecond (the game's
/// own timer, on the server's clock).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fourteen_day_game_runs_its_weeks_in_virtual_time() {
    let dir = tempfile::tempdir().unwrap();
    let time = Time::manual(Time::wall().unix_ms());
    let server = start_on(&dir.path().join("g.sqlite3"), &time).await;
    let addr = server.addr();
    let (id, south, north) =
        online_game(addr, json!({"time_control": {"days_per_move": 14}})).await;
    let mut s = ws(addr, &id, Some(&south)).await;
    recv_type(&mut s, "state").await;
    let fortnight = 14 * 86_400_000u64;
    for (ply, (token, mv)) in [(&south, "F"), (&north, "f"), (&south, "E"), (&north, "e")]
        .into_iter()
        .enumerate()
    {
        time.advance(DAY * 13);
        let r = post(
            addr,
            &format!("/api/v1/games/{id}/moves"),
            json!({"token": token, "move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(r.status, 200, "ply {ply}: {}", r.body);
        let g = r.json()["game"].clone();
        assert_eq!(g["clock"]["south_ms"], fortnight, "{}", g["clock"]);
        assert_eq!(g["clock"]["north_ms"], fortnight, "{}", g["clock"]);
    }
    // South to move: a millisecond short of the fortnight, still playing.
    time.advance(DAY * 14 - Duration::from_millis(1));
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["status"], "playing", "{g}");
    assert_eq!(g["clock"]["south_ms"], 1, "{}", g["clock"]);
    // The last millisecond: the flag falls, and the socket says so.
    time.advance(Duration::from_millis(1));
    let end = recv_type(&mut s, "end").await;
    assert_eq!(end["result"]["reason"], "time", "{end}");
    assert_eq!(end["result"]["winner"], "N", "{end}");
}
