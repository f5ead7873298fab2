//! Correspondence games: days for each move, the time refilled after every
//! move, and a deadline that holds across restarts (docs/PROTOCOL.md,
//! "Time controls"). The server runs on a manual clock, so its days pass
//! when the test says, to the millisecond.

use std::path::Path;
use std::time::Duration;

use oware_server::time::Time;
use oware_server::{Config, Server, ServerOptions};
use serde_json::{json, Value};

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

/// Conditional moves (issue 35): while the opponent is to move, a player
/// prepares a reply for each move they expect; the one that comes is
/// answered at once, the others are forgotten. Nobody else reads them,
/// and every bad preparation is refused with its code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prepared_replies_are_played_at_once_and_kept_private() {
    let dir = tempfile::tempdir().unwrap();
    let time = Time::manual(Time::wall().unix_ms());
    let server = start_on(&dir.path().join("g.sqlite3"), &time).await;
    let addr = server.addr();
    let (id, south, north) = online_game(addr, json!({"time_control": {"days_per_move": 3}})).await;
    let prepare = |token: &str, ply: u32, replies: Value| {
        let token = token.to_string();
        let id = id.clone();
        async move {
            post(
                addr,
                &format!("/api/v1/games/{id}/conditional"),
                json!({"token": token, "ply": ply, "replies": replies}),
            )
            .await
        }
    };
    let mv = |token: &str, letter: &str, ply: u32| {
        let body = json!({"token": token, "move": letter, "ply": ply});
        let path = format!("/api/v1/games/{id}/moves");
        async move { post(addr, &path, body).await }
    };
    // Not while it is your own turn.
    let r = prepare(&south, 0, json!({"f": "A"})).await;
    assert_eq!(
        (r.code(), r.json()["error"]["reason"].clone()),
        ("not_allowed".into(), json!("your_turn")),
        "{}",
        r.body
    );
    assert_eq!(mv(&south, "F", 0).await.status, 200);

    // North to move: South prepares A against f, B against e.
    for (replies, code, reason) in [
        (json!({"A": "B"}), "illegal_move", "not_your_house"),
        (json!({"f": "f"}), "illegal_move", "not_your_house"),
        (json!({"f": "Z"}), "invalid_move", "bad_letter"),
    ] {
        let r = prepare(&south, 1, replies.clone()).await;
        assert_eq!(r.code(), code, "{replies}: {}", r.body);
        assert_eq!(r.json()["error"]["reason"], reason, "{replies}: {}", r.body);
    }
    let r = prepare(&south, 0, json!({"f": "A"})).await;
    assert_eq!(r.code(), "stale_ply", "{}", r.body);
    let r = prepare(&south, 1, json!({"f": "A", "e": "B"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json(), json!({"ply": 1, "replies": {"e": "B", "f": "A"}}));
    // Only South reads them: North and the game's public view see nothing.
    let own = get(
        addr,
        &format!("/api/v1/games/{id}/conditional?token={south}"),
    )
    .await;
    assert_eq!(
        own.json(),
        json!({"ply": 1, "replies": {"e": "B", "f": "A"}})
    );
    let theirs = get(
        addr,
        &format!("/api/v1/games/{id}/conditional?token={north}"),
    )
    .await;
    assert_eq!(
        theirs.json(),
        json!({"ply": null, "replies": {}}),
        "{}",
        theirs.body
    );
    let nobody = get(addr, &format!("/api/v1/games/{id}/conditional")).await;
    assert_eq!(nobody.code(), "missing_token", "{}", nobody.body);
    let public = get(addr, &format!("/api/v1/games/{id}")).await;
    assert!(
        !public.body.contains("conditional") && !public.body.contains("replies"),
        "{}",
        public.body
    );

    // North plays f: South's A follows at once, in the same answer.
    let r = mv(&north, "f", 1).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json()["game"]["plies"],
        json!(["F", "f", "A"]),
        "{}",
        r.body
    );
    assert_eq!(r.json()["game"]["to_move"], "N");
    let own = get(
        addr,
        &format!("/api/v1/games/{id}/conditional?token={south}"),
    )
    .await;
    assert_eq!(own.json()["ply"], Value::Null, "played replies are gone");

    // A move nobody prepared for: nothing is played, the replies go.
    assert_eq!(prepare(&south, 3, json!({"e": "B"})).await.status, 200);
    let r = mv(&north, "d", 3).await;
    assert_eq!(
        r.json()["game"]["plies"],
        json!(["F", "f", "A", "d"]),
        "{}",
        r.body
    );
    let own = get(
        addr,
        &format!("/api/v1/games/{id}/conditional?token={south}"),
    )
    .await;
    assert_eq!(own.json()["ply"], Value::Null);

    // Across a restart, prepared replies hold (stored with the game).
    assert_eq!(mv(&south, "B", 4).await.status, 200);
    assert_eq!(prepare(&south, 5, json!({"e": "C"})).await.status, 200);
    server.abort();
    let server = start_on(&dir.path().join("g.sqlite3"), &time).await;
    let addr2 = server.addr();
    let r = post(
        addr2,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": north, "move": "e", "ply": 5}),
    )
    .await;
    assert_eq!(r.json()["game"]["plies"][6], "C", "{}", r.body);

    // Not in a game without days per move.
    let (other, s2, _) = online_game(addr2, json!({})).await;
    post(
        addr2,
        &format!("/api/v1/games/{other}/moves"),
        json!({"token": s2, "move": "F", "ply": 0}),
    )
    .await;
    let r = post(
        addr2,
        &format!("/api/v1/games/{other}/conditional"),
        json!({"token": s2, "ply": 1, "replies": {"f": "A"}}),
    )
    .await;
    assert_eq!(
        r.json()["error"]["reason"],
        "not_correspondence",
        "{}",
        r.body
    );
}
