//! Findings 1–4, 9, 12 and 13: tournaments, blocks and deletion.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use oware_server::time::Time;
use oware_server::Config;
use serde_json::{json, Value};

use crate::common::tournaments::*;
use crate::common::*;

/// The server on a manual clock: a tournament's start comes when the
/// test moves the clock.
fn config(time: &Time) -> Config {
    Config {
        engine_threads: 1,
        rate_limits: None,
        time: time.clone(),
        ..Config::default()
    }
}

async fn new_tournament(addr: SocketAddr, p: &Player, body: Value) -> String {
    let r = call(addr, p, "POST", "/api/v1/tournaments", Some(body)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_string()
}

async fn join<'a>(addr: SocketAddr, ps: impl IntoIterator<Item = &'a Player>, id: &str) {
    for p in ps {
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
}

async fn delete_account(addr: SocketAddr, p: &Player) {
    let r = call(
        addr,
        p,
        "POST",
        "/api/v1/account/delete",
        Some(json!({"password": "a-long-password"})),
    )
    .await;
    assert!(r.status < 300, "{}", r.body);
}

fn names(v: &Value) -> Vec<String> {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

/// Finding 1: an entrant who deletes the account before the start, and
/// another who deletes it in the middle of a round, neither freeze the
/// Swiss (it stayed "running, round 0" for good, every round's
/// transaction failing on the missing account): both are withdrawn, the
/// game in play is resigned for the leaver, the rounds go on without them,
/// and the standings show "Deleted player" where their names were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_1_a_deleted_account_never_freezes_a_swiss() {
    let time = manual_clock();
    let (_dir, server) = start_with(config(&time)).await;
    let addr = server.addr();
    let ps = players(addr, 6).await;
    let id = new_tournament(
        addr,
        &ps[0],
        create("swiss", json!({"rounds": 3, "starts_in_s": 120})),
    )
    .await;
    join(addr, &ps[1..], &id).await;
    // Before the start.
    delete_account(addr, &ps[5]).await;
    time.advance(Duration::from_secs(120));
    let (g1, b1) = play_swiss_round(addr, &ps[..5], &id, 1).await;
    assert_eq!((g1.len(), b1.len()), (2, 1), "five left: two games, a bye");
    // In the middle of round 2: the leaver's game is resigned for them.
    wait_for(addr, &ps[0], &id, "round 2", |v| v["round"] == 2).await;
    let leaver = &ps[4];
    delete_account(addr, leaver).await;
    let rest: Vec<&Player> = ps[..4].iter().collect();
    // The others' games of round 2 (a leaver's game ended already).
    let v = view(addr, &ps[0], &id).await;
    for g in v["games"].as_array().unwrap() {
        if g["round"] != 2 || g["outcome"].is_string() {
            continue;
        }
        let Some(game) = g["id"].as_str() else {
            continue;
        };
        let south = g["south"].as_str().unwrap();
        if let Some(p) = rest.iter().find(|p| p.name == south) {
            resign(addr, p, game).await;
        }
    }
    let last = wait_for(addr, &ps[0], &id, "the end or round 3", |v| {
        v["status"] == "finished" || v["round"] == 3
    })
    .await;
    if last["round"] == 3 {
        play_swiss_round(addr, &ps[..4], &id, 3).await;
    }
    let last = wait_for(addr, &ps[0], &id, "the end", |v| v["status"] == "finished").await;
    let shown = names(&last);
    assert!(
        !shown.contains(&ps[5].name) && !shown.contains(&leaver.name),
        "no deleted name is shown: {shown:?}"
    );
    assert_eq!(
        shown.iter().filter(|n| *n == "Deleted player").count(),
        2,
        "{shown:?}"
    );
    for g in last["games"].as_array().unwrap() {
        for side in ["south", "north"] {
            assert_ne!(g[side], leaver.name.as_str(), "{g}");
            assert_ne!(g[side], ps[5].name.as_str(), "{g}");
        }
    }
    // Neither was paired after leaving.
    assert!(
        !last["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["round"] == 3
                && (g["south"] == "Deleted player" || g["north"] == "Deleted player")),
        "{last:#}"
    );
}

/// Finding 2: 22 accounts on 11 addresses open 66 long arenas; a later
/// arena still starts at its time (it stayed "created" for 8 minutes: the
/// director claimed the same 20 by start time every lease). And twelve
/// concurrent creations by one account make three tournaments, not
/// twelve; past the server's cap on open tournaments, none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_2_the_director_cannot_be_starved() {
    let (_dir, server) = start_with(Config {
        tournament_max_open: 70,
        ..config(&manual_clock())
    })
    .await;
    let addr = server.addr();
    let mut crowd = Vec::new();
    for i in 0..22usize {
        let src = [127, 0, 2, 10 + (i / 2) as u8];
        let name = format!("Crowd{i}");
        let b = sign_up_from(src, addr, &name, "a-long-password").await;
        crowd.push(Player { src, b, name });
    }
    for p in &crowd {
        for _ in 0..3 {
            new_tournament(addr, p, create("arena", json!({"minutes": 600}))).await;
        }
    }
    let ps = players(addr, 3).await;
    let asked = Instant::now();
    let late = new_tournament(addr, &ps[0], create("arena", json!({"minutes": 10}))).await;
    wait_for(addr, &ps[0], &late, "the late arena to start", |v| {
        v["status"] == "running"
    })
    .await;
    let started = asked.elapsed();
    eprintln!("the 67th arena started {started:?} after it was due");
    assert!(started < Duration::from_secs(5), "{started:?}");

    // Twelve at once by one account: three (the cap), then the server's.
    let eager = &ps[1];
    let tries = (0..12).map(|_| {
        call(
            addr,
            eager,
            "POST",
            "/api/v1/tournaments",
            Some(create("arena", json!({"minutes": 600}))),
        )
    });
    let answers = futures_util::future::join_all(tries).await;
    let made = answers.iter().filter(|r| r.status == 200).count();
    assert_eq!(
        made,
        3,
        "{:?}",
        answers.iter().map(|r| &r.body).collect::<Vec<_>>()
    );
    for r in answers.iter().filter(|r| r.status != 200) {
        assert_eq!(
            r.json()["error"]["reason"],
            "too_many_tournaments",
            "{}",
            r.body
        );
    }
    // 70 open now: the server's cap.
    let r = call(
        addr,
        &ps[2],
        "POST",
        "/api/v1/tournaments",
        Some(create("arena", json!({}))),
    )
    .await;
    assert_eq!(
        r.json()["error"]["reason"],
        "tournaments_full",
        "{}",
        r.body
    );
}

/// Finding 3: an entrant who blocks the three others before the start
/// made round 1 unpairable, and the Swiss ended at round 0 with no game.
/// Now every announced round is played: blocks no pairing can honour are
/// set aside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_3_one_entrants_blocks_never_end_a_swiss() {
    let time = manual_clock();
    let (_dir, server) = start_with(config(&time)).await;
    let addr = server.addr();
    let ps = players(addr, 4).await;
    for other in &ps[1..] {
        let r = call(
            addr,
            &ps[0],
            "POST",
            &format!("/api/v1/players/{}/block", other.name),
            Some(json!({"on": true})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let id = new_tournament(
        addr,
        &ps[1],
        create("swiss", json!({"rounds": 3, "starts_in_s": 60})),
    )
    .await;
    join(addr, [&ps[0], &ps[2], &ps[3]], &id).await;
    time.advance(Duration::from_secs(60));
    for round in 1..=3 {
        let (games, byes) = play_swiss_round(addr, &ps, &id, round).await;
        assert_eq!((games.len(), byes.len()), (2, 0), "round {round}");
    }
    let last = wait_for(addr, &ps[0], &id, "the end", |v| v["status"] == "finished").await;
    assert_eq!(last["round"], 3, "{last:#}");
    let played = last["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["id"].is_string())
        .count();
    assert_eq!(played, 6, "everyone met everyone: {last:#}");
}

/// Finding 4: an accomplice resigning every pairing at once gave 32
/// points in 30 s. A game that ends before each side moved now scores
/// nothing, and the one who resigned it is paused (not paired until they
/// join again); a game really played still counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_4_arena_points_cannot_be_farmed_with_an_alt() {
    let (_dir, server) = start_with(config(&manual_clock())).await;
    let addr = server.addr();
    let ps = players(addr, 2).await;
    let (main, alt) = (&ps[0], &ps[1]);
    let id = new_tournament(addr, main, create("arena", json!({"minutes": 60}))).await;
    join(addr, [alt], &id).await;
    for _ in 0..3 {
        let game = game_of(addr, alt, &id).await;
        resign(addr, alt, &game).await;
        let v = wait_for(addr, alt, &id, "the game's end", |v| {
            v["you"]["game"].is_null()
        })
        .await;
        assert_eq!(v["you"]["state"], "paused", "{v:#}");
        let line = v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == main.name.as_str())
            .unwrap()
            .clone();
        assert_eq!(
            (line["score"].as_f64(), line["games"].as_u64()),
            (Some(0.0), Some(0)),
            "{v:#}"
        );
        // Back: paired again.
        join(addr, [alt], &id).await;
    }
    // A game both sides played counts.
    let game = game_of(addr, alt, &id).await;
    let g = get(addr, &format!("/api/v1/games/{game}")).await.json();
    let (first, second) = if g["seats"]["S"]["name"] == main.name.as_str() {
        (main, alt)
    } else {
        (alt, main)
    };
    play_first_legal(addr, first, &game, 0).await;
    play_first_legal(addr, second, &game, 1).await;
    resign(addr, alt, &game).await;
    let v = wait_for(addr, main, &id, "a scored game", |v| {
        v["standings"][0]["score"].as_f64() == Some(2.0)
    })
    .await;
    assert_eq!(v["standings"][0]["name"], main.name.as_str(), "{v:#}");
}

/// Finding 12: the export lacked follows, blocks, filed reports,
/// tournaments and the puzzle rating; after deletion the name stayed in
/// standings, as a creator and in reports. Now the export holds them, and
/// a deleted account leaves "Deleted player" in those places.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_12_the_export_is_whole_and_deletion_leaves_no_name() {
    let (_dir, server) = start_with(config(&manual_clock())).await;
    let addr = server.addr();
    let ps = players(addr, 3).await;
    let (me, leaver, other) = (&ps[0], &ps[1], &ps[2]);
    for (who, action, body) in [
        (&leaver.name, "follow", json!({"on": true})),
        (&other.name, "block", json!({"on": true})),
        (
            &leaver.name,
            "report",
            json!({"reason": "abuse", "details": "rude in chat"}),
        ),
    ] {
        let r = call(
            addr,
            me,
            "POST",
            &format!("/api/v1/players/{who}/{action}"),
            Some(body),
        )
        .await;
        assert!(r.status < 300, "{action}: {}", r.body);
    }
    let id = new_tournament(
        addr,
        leaver,
        create("swiss", json!({"rounds": 3, "starts_in_s": 3600})),
    )
    .await;
    join(addr, [me], &id).await;
    let r = call(addr, me, "GET", "/api/v1/account/export", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let export = r.json();
    assert_eq!(export["following"], json!([leaver.name]), "{export:#}");
    assert_eq!(export["blocked"], json!([other.name]), "{export:#}");
    let filed = &export["reports_filed"][0];
    assert_eq!(
        (&filed["player"], &filed["reason"], &filed["details"]),
        (&json!(leaver.name), &json!("abuse"), &json!("rude in chat")),
        "{export:#}"
    );
    assert_eq!(export["tournaments"][0]["id"], id.as_str(), "{export:#}");
    assert_eq!(export["tournaments"][0]["state"], "active", "{export:#}");
    assert!(export["puzzles"]["rating"].is_number(), "{export:#}");

    // The creator, reported and an entrant, deletes the account.
    delete_account(addr, leaver).await;
    let v = view(addr, me, &id).await;
    assert_eq!(v["creator"], "Deleted player", "{v:#}");
    assert!(!names(&v).contains(&leaver.name), "{v:#}");
    let store =
        oware_server::admin::Operator::open(Some(server.db()), oware_server::time::Time::wall())
            .await
            .unwrap();
    let reports = store.reports(true).await.unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].reported_name, "Deleted player");
    let r = call(addr, me, "GET", "/api/v1/account/export", None).await;
    let export = r.json();
    assert_eq!(export["following"], json!([]), "{export:#}");
    assert_eq!(export["reports_filed"][0]["player"], "Deleted player");
}

/// Finding 9 (part): blocking left the blocked player on the blocker's
/// follow list. A block now ends following both ways.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_9_a_block_ends_following_both_ways() {
    let (_dir, server) = start_with(config(&manual_clock())).await;
    let addr = server.addr();
    let ps = players(addr, 2).await;
    for (a, b) in [(&ps[0], &ps[1]), (&ps[1], &ps[0])] {
        let r = call(
            addr,
            a,
            "POST",
            &format!("/api/v1/players/{}/follow", b.name),
            Some(json!({"on": true})),
        )
        .await;
        assert_eq!(
            r.json()["following"][0]["username"],
            b.name.as_str(),
            "{}",
            r.body
        );
    }
    let r = call(
        addr,
        &ps[0],
        "POST",
        &format!("/api/v1/players/{}/block", ps[1].name),
        Some(json!({"on": true})),
    )
    .await;
    assert_eq!(r.json()["following"], json!([]), "{}", r.body);
    let r = call(addr, &ps[1], "GET", "/api/v1/account/relations", None).await;
    assert_eq!(r.json()["following"], json!([]), "{}", r.body);
}

/// Finding 9: the blocked player signed out, joined the blocker's public
/// game and chatted; a blocked spectator's message was shown to the
/// blocker once the game was over. A game may now be kept to accounts
/// (joining it and its spectators' room need an account, so signing out
/// gets round no block), and no message of an account blocked either way
/// reaches the reader, in any room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_9_a_block_is_not_evaded_by_signing_out() {
    let (_dir, server) = start_with(config(&manual_clock())).await;
    let addr = server.addr();
    let ps = players(addr, 3).await;
    let (victim, blocked, friend) = (&ps[0], &ps[1], &ps[2]);
    let r = call(
        addr,
        victim,
        "POST",
        &format!("/api/v1/players/{}/block", blocked.name),
        Some(json!({"on": true})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = call(
        addr,
        victim,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "online", "public": true, "side": "S", "accounts_only": true})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let created = r.json();
    let id = created["id"].as_str().unwrap().to_string();
    let victim_token = created["tokens"]["S"].as_str().unwrap().to_string();
    assert_eq!(created["game"]["accounts_only"], true, "{created}");
    // Signed out: refused; signed in: the block holds.
    let r = post_as(
        blocked.src,
        addr,
        &format!("/api/v1/games/{id}/join"),
        json!({"name": "Someone"}),
    )
    .await;
    assert_eq!(r.code(), "not_signed_in", "{}", r.body);
    let r = call(
        addr,
        blocked,
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "blocked", "{}", r.body);
    let r = call(
        addr,
        friend,
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The blocked player watches, signed in, and writes in the
    // spectators' room; an anonymous spectator cannot write there.
    let mut spy = ws_signed_in(addr, &id, &blocked.b).await;
    recv_type(&mut spy, "state").await;
    send(
        &mut spy,
        json!({"type": "chat", "text": "hello from the blocked"}),
    )
    .await;
    recv_type(&mut spy, "chat").await;
    let resigned = post(
        addr,
        &format!("/api/v1/games/{id}/resign"),
        json!({"token": victim_token}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    let mut anon = ws(addr, &id, None).await;
    recv_type(&mut anon, "state").await;
    send(
        &mut anon,
        json!({"type": "chat", "text": "anonymous after the game"}),
    )
    .await;
    let refused = recv_type(&mut anon, "error").await;
    assert_eq!(refused["reason"], "spectators_sign_in", "{refused}");
    // After the game: the friend reads the message, the victim does not.
    let path = format!("/api/v1/games/{id}/chat");
    let chat = |p| call(addr, p, "GET", &path, None);
    let seen = chat(friend).await.json();
    assert!(
        seen.to_string().contains("hello from the blocked"),
        "{seen}"
    );
    let seen = chat(victim).await.json();
    assert!(
        !seen.to_string().contains("hello from the blocked"),
        "{seen}"
    );
    // Anonymous readers do not read the spectators' room of such a game.
    let seen = get(addr, &format!("/api/v1/games/{id}/chat")).await.json();
    assert!(
        !seen.to_string().contains("hello from the blocked"),
        "{seen}"
    );
}
