//! Tournaments: the routes' refusals, an arena and a Swiss played to their
//! end by resignations, and a Swiss that goes on after a restart
//! (docs/PROTOCOL.md, "Tournaments"). The server runs on a manual clock:
//! an arena's twenty minutes and a Swiss's three-minute wait pass when the
//! test moves the clock, not in real time.

use std::path::Path;
use std::time::{Duration, Instant};

use oware_server::time::Time;
use oware_server::{Config, Server, ServerOptions};
use serde_json::json;

use crate::common::tournaments::*;
use crate::common::*;

fn config(time: &Time) -> Config {
    Config {
        engine_threads: 1,
        rate_limits: None,
        time: time.clone(),
        ..Config::default()
    }
}

async fn start_on(db: &Path, time: &Time) -> Server {
    Server::start(ServerOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: Some(db.to_path_buf()),
        config: config(time),
        ..ServerOptions::default()
    })
    .await
    .expect("server starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_requests_are_checked_and_refusals_coded() {
    let (_dir, server) = start_with(config(&manual_clock())).await;
    let addr = server.addr();
    let ps = players(addr, 2).await;
    let r = post(addr, "/api/v1/tournaments", create("arena", json!({}))).await;
    assert_eq!(r.status, 401, "{}", r.body);
    for (extra, reason) in [
        (json!({"kind": "knockout"}), "tournament_kind"),
        (json!({"name": "  "}), "tournament_name"),
        (json!({"name": "x".repeat(41)}), "tournament_name"),
        (
            json!({"time_control": {"per_move_ms": 5000}}),
            "tournament_clock",
        ),
        (
            json!({"time_control": {"initial_ms": 10_000, "increment_ms": 0}}),
            "tournament_clock",
        ),
        (json!({"minutes": 0}), "tournament_length"),
        (json!({"kind": "swiss", "rounds": 16}), "tournament_rounds"),
        (json!({"starts_in_s": 8 * 86_400}), "tournament_start"),
    ] {
        let r = call(
            addr,
            &ps[0],
            "POST",
            "/api/v1/tournaments",
            Some(create("arena", extra.clone())),
        )
        .await;
        assert_eq!(r.status, 400, "{extra}: {}", r.body);
        assert_eq!(r.json()["error"]["reason"], reason, "{extra}: {}", r.body);
    }
    // Three open tournaments per creator.
    let mut ids = Vec::new();
    for _ in 0..3 {
        let r = call(
            addr,
            &ps[0],
            "POST",
            "/api/v1/tournaments",
            Some(create("swiss", json!({"starts_in_s": 3600, "rounds": 3}))),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert_eq!(v["status"], "created");
        assert_eq!(v["entrants"], 1, "the creator joins: {v}");
        assert_eq!(v["you"]["state"], "active");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let r = call(
        addr,
        &ps[0],
        "POST",
        "/api/v1/tournaments",
        Some(create("arena", json!({}))),
    )
    .await;
    assert_eq!(
        r.json()["error"]["reason"],
        "too_many_tournaments",
        "{}",
        r.body
    );
    // Unknown tournament, not an entrant, left for good.
    let r = call(addr, &ps[1], "POST", "/api/v1/tournaments/nope/join", None).await;
    assert_eq!(r.code(), "not_found");
    let r = call(
        addr,
        &ps[1],
        "POST",
        &format!("/api/v1/tournaments/{}/pause", ids[0]),
        None,
    )
    .await;
    assert_eq!(
        r.json()["error"]["reason"],
        "not_in_tournament",
        "{}",
        r.body
    );
    let r = call(
        addr,
        &ps[1],
        "POST",
        &format!("/api/v1/tournaments/{}/join", ids[0]),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["entrants"], 2);
    let r = call(
        addr,
        &ps[1],
        "POST",
        &format!("/api/v1/tournaments/{}/leave", ids[0]),
        None,
    )
    .await;
    assert_eq!(r.json()["you"]["state"], "left", "{}", r.body);
    let r = call(
        addr,
        &ps[1],
        "POST",
        &format!("/api/v1/tournaments/{}/join", ids[0]),
        None,
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "tournament_left", "{}", r.body);
    // The list shows them, to anyone.
    let list = get(addr, "/api/v1/tournaments").await.json();
    assert_eq!(list["tournaments"].as_array().unwrap().len(), 3, "{list}");
    // Anonymous: no "you".
    let v = get(addr, &format!("/api/v1/tournaments/{}", ids[1]))
        .await
        .json();
    assert!(v["you"].is_null(), "{v}");
    assert_eq!(v["creator"], "Player0");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_hour_long_arena_pairs_players_again_as_they_finish_and_ends_with_standings() {
    let time = manual_clock();
    let (_dir, server) = start_with(config(&time)).await;
    let addr = server.addr();
    let ps = players(addr, 4).await;
    let r = call(
        addr,
        &ps[0],
        "POST",
        "/api/v1/tournaments",
        Some(create("arena", json!({"minutes": 60}))),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    for p in &ps[1..] {
        let r = call(
            addr,
            p,
            "POST",
            &format!("/api/v1/tournaments/{id}/join"),
            None,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // Two rounds of games: each time, every player is paired, each side
    // moves, and South resigns.
    let mut played = Vec::new();
    for round in 0..2 {
        let mut games = Vec::new();
        for p in &ps {
            let v = wait_for(addr, p, &id, "a game for every player", |v| {
                v["status"] == "running" && v["you"]["game"].is_string()
            })
            .await;
            games.push(v["you"]["game"].as_str().unwrap().to_string());
        }
        let mut distinct = games.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            2,
            "round {round}: 4 players, 2 games: {games:?}"
        );
        for g in &distinct {
            assert!(!played.contains(g), "a new game each time");
            play_and_resign(addr, &ps, g).await;
            played.push(g.clone());
        }
    }
    // Not over before its time.
    let v = view(addr, &ps[0], &id).await;
    assert_eq!(v["status"], "running", "{v:#}");
    // Its hour passes (in virtual time): it ends once its last games are
    // over, so everyone resigns whatever game they are still given.
    time.advance(Duration::from_secs(60 * 60));
    let until = Instant::now() + Duration::from_secs(40);
    let last = loop {
        let v = view(addr, &ps[0], &id).await;
        if v["status"] == "finished" {
            break v;
        }
        assert!(Instant::now() < until, "the arena did not finish: {v:#}");
        for p in &ps {
            let v = view(addr, p, &id).await;
            if let Some(g) = v["you"]["game"].as_str() {
                let gv = get(addr, &format!("/api/v1/games/{g}")).await.json();
                if gv["status"] == "playing"
                    && gv["ply"] == 0
                    && gv["seats"]["S"]["name"] == p.name.as_str()
                {
                    play_and_resign(addr, &ps, g).await;
                }
            }
        }
        tick(addr).await;
    };
    let standings = last["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4, "{last:#}");
    let finished = last["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["outcome"].is_string())
        .count();
    assert!(finished >= 4, "{last:#}");
    // Every game gave its winner 2 or 4 points and its loser none, so the
    // scores add up to at least twice the games; and each player's sheet
    // adds up to their score.
    let total: f64 = standings.iter().map(|s| s["score"].as_f64().unwrap()).sum();
    assert!(total >= 2.0 * finished as f64, "{last:#}");
    let games: u64 = standings.iter().map(|s| s["games"].as_u64().unwrap()).sum();
    assert_eq!(games, 2 * finished as u64, "{last:#}");
    for s in standings {
        let sheet: u64 = s["sheet"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(sheet as f64, s["score"].as_f64().unwrap(), "{s}");
    }
    let scores: Vec<f64> = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    assert!(last["you"]["game"].is_null(), "{last:#}");
    // Over: nobody joins any more.
    let late = sign_up_from(src(9), addr, "Late", "a-long-password").await;
    let r = as_browser(
        src(9),
        addr,
        &late,
        "POST",
        &format!("/api/v1/tournaments/{id}/join"),
        None,
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "tournament_over", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_five_plays_three_rounds_with_a_bye_each_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite3");
    let time = manual_clock();
    let server = start_on(&db, &time).await;
    let addr = server.addr();
    let ps = players(addr, 5).await;
    let id = create_joined(
        addr,
        &ps,
        create("swiss", json!({"rounds": 3, "starts_in_s": 180})),
    )
    .await;
    // Its start, three minutes on.
    time.advance(Duration::from_secs(179));
    assert_eq!(view(addr, &ps[0], &id).await["status"], "created");
    time.advance(Duration::from_secs(1));
    let (g1, b1) = play_swiss_round(addr, &ps, &id, 1).await;
    assert_eq!(
        (g1.len(), b1.len()),
        (2, 1),
        "five players: two games and a bye"
    );
    // A late player cannot join a Swiss under way.
    let late = sign_up_from(src(9), addr, "Late", "a-long-password").await;
    let r = as_browser(
        src(9),
        addr,
        &late,
        "POST",
        &format!("/api/v1/tournaments/{id}/join"),
        None,
    )
    .await;
    assert_eq!(
        r.json()["error"]["reason"],
        "tournament_started",
        "{}",
        r.body
    );
    let (g2, b2) = play_swiss_round(addr, &ps, &id, 2).await;
    assert_eq!((g2.len(), b2.len()), (2, 1));

    // The node stops in the middle of round 3; another starts on the same
    // database and the tournament goes on.
    wait_for(addr, &ps[0], &id, "round 3", |v| v["round"] == 3).await;
    server.abort();
    let server = start_on(&db, &time).await;
    let addr = server.addr();
    let (g3, b3) = play_swiss_round(addr, &ps, &id, 3).await;
    assert_eq!((g3.len(), b3.len()), (2, 1));
    let last = wait_for(addr, &ps[0], &id, "the end", |v| v["status"] == "finished").await;

    // Nobody had two byes, and no two players met twice.
    let mut byes = [b1, b2, b3].concat();
    byes.sort();
    byes.dedup();
    assert_eq!(byes.len(), 3, "{last:#}");
    let mut meetings: Vec<(String, String)> = last["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["id"].is_string())
        .map(|g| {
            let (a, b) = (g["south"].as_str().unwrap(), g["north"].as_str().unwrap());
            (a.min(b).to_string(), a.max(b).to_string())
        })
        .collect();
    assert_eq!(meetings.len(), 6);
    meetings.sort();
    meetings.dedup();
    assert_eq!(meetings.len(), 6, "no rematch: {last:#}");
    // Points: each game gives 1, each bye 1: 9 in all.
    let standings = last["standings"].as_array().unwrap();
    let total: f64 = standings.iter().map(|s| s["score"].as_f64().unwrap()).sum();
    assert_eq!(total, 9.0, "{last:#}");
    for s in standings {
        assert!(
            s["buchholz"].is_number() && s["sonneborn_berger"].is_number(),
            "{s}"
        );
    }
    assert_eq!(last["round"], 3);
}

/// A five-round Swiss of eight, its breaks between rounds (20 s each) and
/// the director's ticks all in virtual time: every round four games, no
/// two players meeting twice, twenty points in all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_five_round_swiss_of_eight_runs_in_virtual_time() {
    let time = manual_clock();
    let (_dir, server) = start_with(config(&time)).await;
    let addr = server.addr();
    let ps = players(addr, 8).await;
    let id = create_joined(
        addr,
        &ps,
        create("swiss", json!({"rounds": 5, "starts_in_s": 60})),
    )
    .await;
    time.advance(Duration::from_secs(60));
    for round in 1..=5 {
        let (games, byes) = play_swiss_round(addr, &ps, &id, round).await;
        assert_eq!((games.len(), byes.len()), (4, 0), "round {round}");
    }
    let last = wait_for(addr, &ps[0], &id, "the end", |v| v["status"] == "finished").await;
    let mut meetings: Vec<(String, String)> = last["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let (a, b) = (g["south"].as_str().unwrap(), g["north"].as_str().unwrap());
            (a.min(b).to_string(), a.max(b).to_string())
        })
        .collect();
    assert_eq!(meetings.len(), 20, "{last:#}");
    meetings.sort();
    meetings.dedup();
    assert_eq!(meetings.len(), 20, "no rematch: {last:#}");
    let total: f64 = last["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 20.0, "{last:#}");
    assert_eq!(last["round"], 5);
}

/// `POST /api/v1/clock` moves a manual clock (`oware serve
/// --manual-clock`, for the tests of separate processes) and nothing else:
/// on the wall clock it is no route at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_route_moves_only_a_manual_clock() {
    let (_dir, server) = start_with(config(&Time::wall())).await;
    let r = post(server.addr(), "/api/v1/clock", json!({"advance_ms": 1000})).await;
    assert_eq!(r.status, 404, "{}", r.body);

    let time = Time::manual(1_000_000);
    let (_dir, server) = start_with(config(&time)).await;
    let addr = server.addr();
    let r = post(addr, "/api/v1/clock", json!({"advance_ms": 60_000})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["now_ms"], 1_060_000);
    assert_eq!(time.unix_ms(), 1_060_000);
    let r = post(addr, "/api/v1/clock", json!({"advance_ms": -1})).await;
    assert_eq!(r.code(), "malformed", "{}", r.body);
    // A Swiss due in a minute starts when the clock says so.
    let ps = players(addr, 2).await;
    let r = call(
        addr,
        &ps[0],
        "POST",
        "/api/v1/tournaments",
        Some(create("swiss", json!({"rounds": 1, "starts_in_s": 60}))),
    )
    .await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = call(
        addr,
        &ps[1],
        "POST",
        &format!("/api/v1/tournaments/{id}/join"),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    post(addr, "/api/v1/clock", json!({"advance_ms": 60_000})).await;
    wait_for(addr, &ps[0], &id, "the start", |v| v["status"] == "running").await;
}
