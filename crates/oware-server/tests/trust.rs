//! The attacks of issue 20, reproduced as an attacker would make them:
//! several clients on their own loopback addresses (127.0.0.x), real
//! sockets, bounded in count and time. Each test names the finding it
//! holds.

#[path = "server/common/mod.rs"]
mod common;
#[path = "server/old_schema.rs"]
mod old_schema;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::*;
use futures_util::{SinkExt, StreamExt};
use oware_core::{Game, Position, Record};
use oware_server::{Config, RateLimits};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// A server with one engine thread and no rate limits (the attacks that
/// are not about the limits).
async fn start_unlimited() -> (tempfile::TempDir, oware_server::Server) {
    start_with(Config {
        engine_threads: 1,
        rate_limits: None,
        ..Config::default()
    })
    .await
}

/// A finished game played by random legal moves (a fixed seed), as OGN.
fn random_game(seed: u64) -> String {
    let mut game = Game::new(Position::start());
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while !game.is_over() {
        let moves: Vec<_> = game.legal_moves().into_iter().collect();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        game.play(moves[(x % moves.len() as u64) as usize]).unwrap();
    }
    Record::from_game(game, &[]).write()
}

/// Finding 1: the computer's reply in a game stays quick while six
/// clients flood deep analyses and two others review long games, each
/// within its limits.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn finding_1_computer_replies_stay_quick_under_an_analysis_flood() {
    let (_dir, server) = start_with(Config {
        engine_threads: 2,
        engine_study_threads: 1,
        engine_move_cap: Duration::from_millis(500),
        engine_request_cap: Duration::from_secs(4),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    // Two long finished games to review, imported by the reviewers.
    let mut reviews = Vec::new();
    for (i, seed) in [(20u8, 7u64), (21, 8)] {
        let r = request_from(
            [127, 0, 0, i],
            addr,
            "POST",
            "/api/v1/games/import",
            "text/plain",
            &[],
            random_game(seed).as_bytes(),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
        reviews.push((i, r.json()["id"].as_str().unwrap().to_string()));
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut flood = Vec::new();
    let served = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for client in 10u8..16 {
        for _ in 0..2 {
            let (stop, served) = (stop.clone(), served.clone());
            flood.push(tokio::spawn(async move {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let r = post_as(
                        [127, 0, 0, client],
                        addr,
                        "/api/v1/analyze",
                        json!({"depth": 40}),
                    )
                    .await;
                    if r.status == 200 {
                        served.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    } else {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                }
            }));
        }
    }
    for (client, id) in reviews {
        let stop = stop.clone();
        flood.push(tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let r = get_as(
                    [127, 0, 0, client],
                    addr,
                    &format!("/api/v1/games/{id}/review?movetime_ms=2000"),
                )
                .await;
                if r.status != 200 {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }));
    }
    // Let the flood fill the engine first.
    until_engines(&server, "the flood holds two study requests", |e| {
        e.queued() >= 2
    })
    .await;

    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "computer", "level": 5, "side": "S"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let c = c.json();
    let id = c["id"].as_str().unwrap().to_string();
    let token = c["tokens"]["S"].as_str().unwrap().to_string();
    let mut w = ws(addr, &id, Some(&token)).await;
    let mut legal_now = legal(&recv_type(&mut w, "state").await["game"]);
    let mut replies = Vec::new();
    let mut ply = 0u64;
    while replies.len() < 20 && !legal_now.is_empty() {
        let t = Instant::now();
        send(
            &mut w,
            json!({"type": "move", "move": legal_now[0], "ply": ply}),
        )
        .await;
        recv_move(&mut w, ply + 1).await;
        let reply = recv_move(&mut w, ply + 2).await;
        replies.push(t.elapsed());
        ply += 2;
        if reply["result"].is_object() {
            break;
        }
        legal_now = legal(&reply);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let served = served.load(std::sync::atomic::Ordering::Relaxed);
    server.abort();
    for f in flood {
        f.abort();
    }
    replies.sort();
    let worst = *replies.last().unwrap();
    eprintln!(
        "computer replies under the flood: {} moves, median {:?}, worst {:?}; analyses served meanwhile: {served}",
        replies.len(),
        replies[replies.len() / 2],
        worst
    );
    assert!(replies.len() >= 5, "only {} replies", replies.len());
    assert!(worst < Duration::from_secs(1), "worst reply {worst:?}");
}

/// Finding 1: one client may have one analysis running and one waiting;
/// a third is refused at once with `engine_in_use`, while another client
/// is still served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_1_one_client_has_a_bounded_engine_budget() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        engine_study_threads: 1,
        engine_request_cap: Duration::from_millis(1500),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let hog = [127, 0, 0, 30];
    let held: Vec<_> = (0..2)
        .map(|_| {
            tokio::spawn(async move {
                post_as(hog, addr, "/api/v1/analyze", json!({"depth": 40})).await
            })
        })
        .collect();
    until_engines(&server, "the hog's two requests are in", |e| {
        e.queued() == 2
    })
    .await;
    let t = Instant::now();
    let third = post_as(hog, addr, "/api/v1/analyze", json!({"movetime_ms": 50})).await;
    assert_eq!(third.status, 503, "{}", third.body);
    assert_eq!(third.json()["error"]["reason"], "engine_in_use");
    assert!(t.elapsed() < Duration::from_millis(500), "refused at once");
    // Another client waits its turn and is served.
    let other = post_as(
        [127, 0, 0, 31],
        addr,
        "/api/v1/analyze",
        json!({"movetime_ms": 50}),
    )
    .await;
    assert_eq!(other.status, 200, "{}", other.body);
    for h in held {
        assert_eq!(h.await.unwrap().status, 200);
    }
}

/// A game of `plies` random legal moves (a fixed seed) stopped by
/// agreement, as OGN: short, so its review (the coach's depth on every
/// position) is quick.
fn short_game(seed: u64, plies: usize) -> String {
    let mut game = Game::new(Position::start());
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while !game.is_over() && game.plies().len() < plies {
        let moves: Vec<_> = game.legal_moves().into_iter().collect();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        game.play(moves[(x % moves.len() as u64) as usize]).unwrap();
    }
    if !game.is_over() {
        game.agree_to_stop().unwrap();
    }
    Record::from_game(game, &[]).write()
}

/// Finding 1: reviews are cached by content: the same record imported
/// twice is reviewed once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_1_the_same_record_imported_twice_is_reviewed_once() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits::default()),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let ogn = short_game(3, 6);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let r = raw(
            addr,
            "POST",
            "/api/v1/games/import",
            "text/plain",
            ogn.as_bytes(),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
        ids.push(r.json()["id"].as_str().unwrap().to_string());
    }
    assert_ne!(ids[0], ids[1]);
    let t = Instant::now();
    // Opening positions are the coach's slowest: on a loaded machine the
    // 30-s cap can end a request with `busy`, every analysis so far kept;
    // asking again goes on, as the page does.
    let mut first = get(
        addr,
        &format!("/api/v1/games/{}/review?movetime_ms=40", ids[0]),
    )
    .await;
    for _ in 0..10 {
        if first.status == 200 || !first.body.contains("\"busy\"") {
            break;
        }
        first = get(
            addr,
            &format!("/api/v1/games/{}/review?movetime_ms=40", ids[0]),
        )
        .await;
    }
    let first_took = t.elapsed();
    assert_eq!(first.status, 200, "{}", first.body);
    let t = Instant::now();
    let second = get(
        addr,
        &format!("/api/v1/games/{}/review?movetime_ms=40", ids[1]),
    )
    .await;
    let second_took = t.elapsed();
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.json()["id"], ids[1].as_str());
    assert_eq!(first.json()["plies"], second.json()["plies"]);
    assert!(
        second_took * 4 < first_took,
        "second review took {second_took:?}, the first {first_took:?}"
    );
}

/// Finding 2: a stranger guessing an account's password, from one address
/// then from many, never locks its owner out: a right password from an
/// address that was not guessing still signs in, and the signed-in owner
/// can still change the password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_2_guessing_never_locks_the_owner_out() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits::default()),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let owner = sign_up_from([127, 0, 0, 2], addr, "Abena", "my own seeds").await;
    let sign_in = |src: [u8; 4], password: &'static str| async move {
        post_as(
            src,
            addr,
            "/api/v1/account/signin",
            json!({"username": "Abena", "password": password}),
        )
        .await
    };
    // One address guesses: five wrong answers, then it is held off.
    let attacker = [127, 0, 0, 40];
    for i in 0..5 {
        let r = sign_in(attacker, ["a", "b", "c", "d", "e"][i]).await;
        assert_eq!(r.code(), "bad_credentials");
    }
    let r = sign_in(attacker, "f").await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.json()["error"]["reason"], "sign_in_pair");
    let message = r.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("from your address"), "{message}");
    // Even the right password waits there: that address was guessing.
    assert_eq!(sign_in(attacker, "my own seeds").await.status, 429);
    // The owner, elsewhere, signs in at once.
    let r = sign_in([127, 0, 0, 41], "my own seeds").await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Many addresses guess once each: the account is under attack.
    for last in 50..72u8 {
        let r = sign_in([127, 0, 0, last], "guess").await;
        assert_eq!(r.code(), "bad_credentials", "from .{last}");
    }
    // A guessing address may not try again, a new one gets a single try...
    assert_eq!(sign_in([127, 0, 0, 50], "guess again").await.status, 429);
    assert_eq!(
        sign_in([127, 0, 0, 80], "one try").await.code(),
        "bad_credentials"
    );
    assert_eq!(sign_in([127, 0, 0, 80], "two tries").await.status, 429);
    // ...and the owner, from an address that was not guessing, signs in.
    let r = sign_in([127, 0, 0, 42], "my own seeds").await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Signed in, the owner's own page is never refused by the guessing.
    let r = as_browser(
        [127, 0, 0, 2],
        addr,
        &owner,
        "POST",
        "/api/v1/account/password",
        Some(json!({"old_password": "my own seeds", "new_password": "new seeds here"})),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.body);
}

/// Finding 3: a player's private games (online by invite, against the
/// computer, on one device) stay off their public profile; an online game
/// in progress is not reviewed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_3_private_games_stay_private() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        engine_move_cap: Duration::from_millis(100),
        rate_limits: None,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let me = [127, 0, 0, 3];
    let ama = sign_up_from(me, addr, "Ama", "seeds-and-houses").await;
    let mut finished = Vec::new();
    for body in [
        json!({"mode": "online", "side": "S"}),
        json!({"mode": "online", "side": "S", "public": true}),
        json!({"mode": "computer", "side": "S", "level": 1}),
        json!({"mode": "hotseat", "side": "S"}),
    ] {
        let c = as_browser(me, addr, &ama, "POST", "/api/v1/games", Some(body)).await;
        assert_eq!(c.status, 201, "{}", c.body);
        let c = c.json();
        let id = c["id"].as_str().unwrap().to_string();
        let token = c["tokens"]["S"].as_str().unwrap().to_string();
        if c["game"]["mode"] == "online" {
            let invite = c["invite_url"]
                .as_str()
                .unwrap()
                .split("invite=")
                .nth(1)
                .unwrap();
            let j = post_as(
                [127, 0, 0, 4],
                addr,
                &format!("/api/v1/games/{id}/join"),
                json!({"invite": invite, "name": "Friend"}),
            )
            .await;
            assert_eq!(j.status, 200, "{}", j.body);
            if c["game"]["public"] == false {
                // In progress: no review for anyone, seat or not.
                for path in [
                    format!("/api/v1/games/{id}/review"),
                    format!("/api/v1/games/{id}/review?token={token}"),
                ] {
                    let r = get_as([127, 0, 0, 5], addr, &path).await;
                    assert_eq!(r.json()["error"]["reason"], "game_in_progress");
                }
            }
        }
        let r = post_as(
            me,
            addr,
            &format!("/api/v1/games/{id}/resign"),
            json!({"token": token}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        finished.push((id, c["game"]["public"] == true));
    }
    let profile = get_as([127, 0, 0, 6], addr, "/api/v1/players/Ama")
        .await
        .json();
    let listed: Vec<&str> = profile["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    let public: Vec<&str> = finished
        .iter()
        .filter(|(_, p)| *p)
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(listed, public, "only the public game is on the profile");
    // The owner still finds every game on their own page.
    let mine = as_browser(me, addr, &ama, "GET", "/api/v1/account/games", None).await;
    assert_eq!(mine.json()["games"].as_array().unwrap().len(), 4);
}

/// A rated game between two new accounts, created by `a` (South) with a
/// clock and joined by `b`: its id and both seat tokens.
async fn rated_game(addr: SocketAddr, a: &Browser, b: &Browser) -> (String, String, String) {
    let c = as_browser(
        [127, 0, 0, 7],
        addr,
        a,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "online", "rated": true, "side": "S",
                    "time_control": {"initial_ms": 600_000, "increment_ms": 5_000}})),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let c = c.json();
    let id = c["id"].as_str().unwrap().to_string();
    let invite = c["invite_url"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap();
    let j = as_browser(
        [127, 0, 0, 8],
        addr,
        b,
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(json!({"invite": invite})),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    (
        id,
        c["tokens"]["S"].as_str().unwrap().to_string(),
        j.json()["token"].as_str().unwrap().to_string(),
    )
}

/// Ama's slow rating and its game count, from her profile.
async fn slow_rating(addr: SocketAddr, name: &str) -> (i64, i64) {
    let p = get(addr, &format!("/api/v1/players/{name}")).await.json();
    let slow = p["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["class"] == "slow")
        .unwrap()
        .clone();
    (
        slow["rating"].as_i64().unwrap(),
        slow["games"].as_i64().unwrap(),
    )
}

/// Finding 4: a second account resigning rated games at once farms no
/// rating (the games are aborted); a rated game must have a clock; and a
/// player who deletes the account mid-game loses it, rating the opponent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_4_ratings_cannot_be_farmed() {
    let (_dir, server) = start_unlimited().await;
    let addr = server.addr();
    let ama = sign_up_from([127, 0, 0, 7], addr, "Ama", "seeds-and-houses").await;
    let alt = sign_up_from([127, 0, 0, 8], addr, "Alt", "houses-and-seeds").await;
    for _ in 0..5 {
        let (id, _, alt_token) = rated_game(addr, &ama, &alt).await;
        let r = post(
            addr,
            &format!("/api/v1/games/{id}/resign"),
            json!({"token": alt_token}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["game"]["status"], "over");
        assert_eq!(r.json()["game"]["rated"], false, "aborted, not rated");
        assert_eq!(r.json()["game"]["aborted"], true, "{}", r.body);
    }
    assert_eq!(slow_rating(addr, "Ama").await, (1500, 0));
    // One move is not enough either: each side must have moved.
    let (id, ama_token, alt_token) = rated_game(addr, &ama, &alt).await;
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": ama_token, "move": "F", "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    post(
        addr,
        &format!("/api/v1/games/{id}/resign"),
        json!({"token": alt_token}),
    )
    .await;
    assert_eq!(slow_rating(addr, "Ama").await, (1500, 0));
    // No rated game without a deadline.
    let r = as_browser(
        [127, 0, 0, 7],
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "online", "rated": true})),
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "rated_needs_clock");
    // A real game: one move each, then the other player deletes the
    // account. The game ends, Ama wins it, and it is rated.
    let (id, ama_token, alt_token) = rated_game(addr, &ama, &alt).await;
    for (ply, (mv, token)) in [("F", &ama_token), ("f", &alt_token)]
        .into_iter()
        .enumerate()
    {
        let r = post(
            addr,
            &format!("/api/v1/games/{id}/moves"),
            json!({"token": token, "move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = as_browser(
        [127, 0, 0, 8],
        addr,
        &alt,
        "POST",
        "/api/v1/account/delete",
        Some(json!({"password": "houses-and-seeds"})),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["status"], "over");
    assert_eq!(g["rated"], true);
    assert_eq!(g["result"]["winner"], "S");
    let (rating, games) = slow_rating(addr, "Ama").await;
    assert_eq!(games, 1);
    assert!(rating > 1500, "{rating}");
}

/// Finding 5: limits hold per client, not per socket: one address cannot
/// hold every socket place, spread its chat over many sockets, or fill
/// the lobby; the chat history comes a page at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn finding_5_limits_are_per_client() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits {
            sockets_per_client: 12,
            seeks_per_account: 3,
            seeks_per_address: 4,
            games_per_minute: 100,
            games_burst: 100,
            ..RateLimits::default()
        }),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let (id, south, _north) = online_game(addr, json!({})).await;
    // Sockets: twelve from one address, then refusals; others still get in.
    let hog = [127, 0, 0, 90];
    let mut sockets = Vec::new();
    for _ in 0..12 {
        let stream = connect_from(hog, addr).await;
        let url = format!("ws://{addr}/api/v1/games/{id}/ws?token={south}");
        let (ws, _) = tokio_tungstenite::client_async(url, stream)
            .await
            .expect("within the limit");
        sockets.push(ws);
    }
    let r = get_as(hog, addr, &format!("/api/v1/games/{id}/ws")).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.json()["error"]["reason"], "sockets");
    let mut other = ws(addr, &id, Some(&south)).await;
    recv_type(&mut other, "state").await;
    // Chat spread over the twelve sockets counts once: the burst of five,
    // then about one a second.
    let t = Instant::now();
    for (i, s) in sockets.iter_mut().enumerate() {
        for j in 0..4 {
            let text = json!({"type": "chat", "text": format!("spam {i}.{j}")}).to_string();
            s.send(Message::Text(text.into())).await.unwrap();
        }
    }
    // Every line is answered on its own socket: posted (its chat event)
    // or refused (`rate_limited`). Wait for the 48 answers.
    for (i, s) in sockets.iter_mut().enumerate() {
        let mine = format!("spam {i}.");
        let mut answered = 0;
        while answered < 4 {
            let msg = tokio::time::timeout(Duration::from_secs(15), s.next())
                .await
                .expect("an answer within 15 s")
                .expect("the socket open")
                .expect("no socket error");
            let Message::Text(text) = msg else { continue };
            let m: serde_json::Value = serde_json::from_str(&text).unwrap();
            match m["type"].as_str() {
                Some("chat") if m["text"].as_str().is_some_and(|t| t.starts_with(&mine)) => {
                    answered += 1
                }
                Some("error") => {
                    assert_eq!(m["code"], "rate_limited", "{m}");
                    answered += 1;
                }
                _ => {}
            }
        }
    }
    let elapsed = t.elapsed().as_secs() as usize;
    let history = get(
        addr,
        &format!("/api/v1/games/{id}/chat?token={south}&limit=100"),
    )
    .await
    .json();
    let kept = history["messages"].as_array().unwrap().len();
    assert!(
        kept >= 5 && kept <= 6 + elapsed,
        "{kept} of 48 messages kept"
    );
    // The history is paged: the latest two, then the ones before.
    let page = get(
        addr,
        &format!("/api/v1/games/{id}/chat?token={south}&limit=2"),
    )
    .await
    .json();
    let page = page["messages"].as_array().unwrap();
    assert_eq!(page.len(), 2);
    let before = page[0]["id"].as_i64().unwrap();
    let earlier = get(
        addr,
        &format!("/api/v1/games/{id}/chat?token={south}&limit=100&before={before}"),
    )
    .await
    .json();
    assert_eq!(earlier["messages"].as_array().unwrap().len(), kept - 2);
    let r = get(addr, &format!("/api/v1/games/{id}/chat?limit=1000")).await;
    assert_eq!(r.code(), "invalid_request");
    drop(sockets);
    // The lobby: four seeks an address (this server's setting), so five
    // addresses hold twenty; an account holds three.
    let seek = json!({"mode": "online", "public": true});
    for last in 100..105u8 {
        for n in 0..5 {
            let r = post_as([127, 0, 0, last], addr, "/api/v1/games", seek.clone()).await;
            if n < 4 {
                assert_eq!(r.status, 201, "{}", r.body);
            } else {
                assert_eq!(r.json()["error"]["reason"], "seeks_address");
            }
        }
    }
    let lobby = get(addr, "/api/v1/lobby").await.json();
    assert_eq!(lobby["games"].as_array().unwrap().len(), 20);
    let kwame = sign_up_from([127, 0, 0, 111], addr, "Kwame", "seeds-in-the-lobby").await;
    for n in 0..4 {
        let src = [127, 0, 0, 112 + n];
        let r = as_browser(
            src,
            addr,
            &kwame,
            "POST",
            "/api/v1/games",
            Some(seek.clone()),
        )
        .await;
        if n < 3 {
            assert_eq!(r.status, 201, "{}", r.body);
        } else {
            assert_eq!(
                r.json()["error"]["reason"],
                "seeks_account",
                "from another address too"
            );
        }
    }
    // A seek that is taken frees its place.
    let first = post_as(
        [127, 0, 0, 110],
        addr,
        "/api/v1/games",
        json!({"mode": "online", "public": true, "side": "S"}),
    )
    .await
    .json();
    for _ in 0..2 {
        post_as([127, 0, 0, 110], addr, "/api/v1/games", seek.clone()).await;
    }
    let invite = first["invite_url"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap()
        .to_string();
    let fid = first["id"].as_str().unwrap();
    let j = post(
        addr,
        &format!("/api/v1/games/{fid}/join"),
        json!({"invite": invite}),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let r = post_as([127, 0, 0, 110], addr, "/api/v1/games", seek.clone()).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

/// The `meta` column of every game in the SQLite file at `db`.
fn stored_metas(db: &std::path::Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut st = conn.prepare("SELECT meta FROM games").unwrap();
    st.query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Finding 6: seat tokens and invite codes are kept as hashes, so what a
/// copy of the database holds neither plays a move nor joins a game; the
/// plain secrets of an older database are hashed by the migration and
/// still work; a signed-in player gets a token of their own on another
/// device, and both rematch callers get theirs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_6_secrets_are_hashed_at_rest() {
    let (dir, server) = start_unlimited().await;
    let addr = server.addr();
    let db = dir.path().join("games.sqlite3");
    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "online", "side": "S", "name": "Ama"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let c = c.json();
    let id = c["id"].as_str().unwrap().to_string();
    let token = c["tokens"]["S"].as_str().unwrap().to_string();
    let invite = invite_of(&c);
    let metas = stored_metas(&db);
    let stored = metas.iter().find(|m| m.contains(&id)).unwrap();
    assert!(
        !stored.contains(&token),
        "the seat token is stored: {stored}"
    );
    assert!(
        !stored.contains(&invite),
        "the invite code is stored: {stored}"
    );
    // What the database holds, tried as the secrets themselves.
    let meta: serde_json::Value = serde_json::from_str(stored).unwrap();
    let stolen_token = meta["seats"][0]["token_hash"].as_str().unwrap();
    let stolen_invite = meta["invite_hash"].as_str().unwrap();
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/join"),
        json!({"invite": stolen_invite, "name": "Eve"}),
    )
    .await;
    assert_eq!(r.code(), "bad_token", "{}", r.body);
    let j = post(
        addr,
        &format!("/api/v1/games/{id}/join"),
        json!({"invite": invite, "name": "Kofi"}),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let north = j.json()["token"].as_str().unwrap().to_string();
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": stolen_token, "move": "F", "ply": 0}),
    )
    .await;
    assert_eq!(r.code(), "bad_token", "{}", r.body);
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": token, "move": "F", "ply": 0}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);

    // An older database: the same game with its secrets in plain text
    // (fields "token" and "invite"), at the first schema version.
    server.abort();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let mut old: serde_json::Value = serde_json::from_str(stored).unwrap();
        let m = old.as_object_mut().unwrap();
        m.remove("invite_hash");
        m.insert("invite".into(), json!(invite));
        for (i, plain) in [&token, &north].into_iter().enumerate() {
            let seat = m["seats"][i].as_object_mut().unwrap();
            seat.remove("token_hash");
            seat.insert("token".into(), json!(plain));
        }
        conn.execute(
            "UPDATE games SET meta = ?1 WHERE id = ?2",
            rusqlite::params![old.to_string(), id],
        )
        .unwrap();
        old_schema::back_to_first_schema(&conn);
    }
    let server = oware_server::Server::start(oware_server::ServerOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: Some(db.clone()),
        config: Config {
            engine_threads: 1,
            rate_limits: None,
            ..Config::default()
        },
        ..oware_server::ServerOptions::default()
    })
    .await
    .unwrap();
    let addr = server.addr();
    let metas = stored_metas(&db);
    let stored = metas.iter().find(|m| m.contains(&id)).unwrap();
    for plain in [&token, &north, &invite] {
        assert!(
            !stored.contains(plain.as_str()),
            "still in plain text: {stored}"
        );
    }
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": north, "move": "a", "ply": 1}),
    )
    .await;
    assert_eq!(
        r.status, 200,
        "the old token plays after the migration: {}",
        r.body
    );

    // A signed-in player on a second device: a token of its own, and the
    // first device's still plays.
    let ama = sign_up_from([127, 0, 0, 61], addr, "Adwoa", "seeds-and-houses").await;
    let kofi = sign_up_from([127, 0, 0, 62], addr, "Kwabena", "houses-and-seeds").await;
    let g = as_browser(
        [127, 0, 0, 61],
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "hotseat"})),
    )
    .await
    .json();
    let gid = g["id"].as_str().unwrap().to_string();
    let first = g["tokens"]["S"].as_str().unwrap().to_string();
    let mine = as_browser(
        [127, 0, 0, 61],
        addr,
        &ama,
        "GET",
        "/api/v1/account/games",
        None,
    )
    .await;
    let listed = &mine.json()["games"][0];
    assert_eq!(listed["id"], gid.as_str());
    assert_eq!(listed["mine"], json!(["S", "N"]));
    assert!(
        listed.get("tokens").is_none(),
        "no token is listed: {listed}"
    );
    let claim = as_browser(
        [127, 0, 0, 61],
        addr,
        &ama,
        "POST",
        &format!("/api/v1/games/{gid}/seat"),
        Some(json!({})),
    )
    .await;
    assert_eq!(claim.status, 200, "{}", claim.body);
    let second = claim.json()["tokens"]["S"].as_str().unwrap().to_string();
    let second_north = claim.json()["tokens"]["N"].as_str().unwrap().to_string();
    assert_ne!(first, second);
    for (t, mv, ply) in [(&second, "F", 0), (&second_north, "a", 1), (&first, "E", 2)] {
        let r = post(
            addr,
            &format!("/api/v1/games/{gid}/moves"),
            json!({"token": t, "move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(r.status, 200, "{mv}: {}", r.body);
    }
    let r = as_browser(
        [127, 0, 0, 62],
        addr,
        &kofi,
        "POST",
        &format!("/api/v1/games/{gid}/seat"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "not_your_game", "{}", r.body);
    let r = post(addr, &format!("/api/v1/games/{gid}/seat"), json!({})).await;
    assert_eq!(r.status, 401, "{}", r.body);

    // A rematch: each caller gets its own token in the new game.
    let (rid, s_tok, n_tok) = online_game(addr, json!({})).await;
    let r = post(
        addr,
        &format!("/api/v1/games/{rid}/resign"),
        json!({"token": s_tok}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let a = post(
        addr,
        &format!("/api/v1/games/{rid}/rematch"),
        json!({"token": s_tok}),
    )
    .await;
    let b = post(
        addr,
        &format!("/api/v1/games/{rid}/rematch"),
        json!({"token": n_tok}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(b.status, 200, "{}", b.body);
    let (a, b) = (a.json(), b.json());
    assert_eq!(a["id"], b["id"]);
    let new_id = a["id"].as_str().unwrap();
    // Sides swap: Kofi (North before) is South now and moves first.
    let kt = b["tokens"]["S"].as_str().unwrap();
    let at = a["tokens"]["N"].as_str().unwrap();
    assert!(a["tokens"].get("S").is_none(), "one seat each: {a}");
    for (t, mv, ply) in [(kt, "F", 0), (at, "a", 1)] {
        let r = post(
            addr,
            &format!("/api/v1/games/{new_id}/moves"),
            json!({"token": t, "move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(r.status, 200, "{mv}: {}", r.body);
    }
}

/// Finding 7: anonymous names cannot pass for an account, the computer or
/// the site; a deleted account's name is not taken over at once; players
/// export their data; a body without a type is not read as JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_7_names_export_and_untyped_bodies() {
    let (_dir, server) = start_unlimited().await;
    let addr = server.addr();
    let ama = sign_up_from([127, 0, 0, 9], addr, "Abla", "seeds-and-houses").await;
    for name in [
        "abla",
        "Computer (level 10)",
        "Deleted  player",
        "spectator",
        "ADMIN",
    ] {
        let r = post(
            addr,
            "/api/v1/games",
            json!({"mode": "online", "name": name}),
        )
        .await;
        assert_eq!(r.json()["error"]["reason"], "name_reserved", "{name}");
    }
    let (id, _, _) = online_game(addr, json!({})).await;
    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "online", "side": "S"}),
    )
    .await;
    let c = c.json();
    let invite = c["invite_url"]
        .as_str()
        .unwrap()
        .split("invite=")
        .nth(1)
        .unwrap();
    let r = post(
        addr,
        &format!("/api/v1/games/{}/join", c["id"].as_str().unwrap()),
        json!({"invite": invite, "name": "ABLA"}),
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "name_reserved");
    // Export: the account, its ratings and every game with its moves.
    let g = as_browser(
        [127, 0, 0, 9],
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "hotseat"})),
    )
    .await
    .json();
    let gid = g["id"].as_str().unwrap();
    let ts = g["tokens"]["S"].as_str().unwrap();
    post(
        addr,
        &format!("/api/v1/games/{gid}/moves"),
        json!({"token": ts, "move": "F", "ply": 0}),
    )
    .await;
    let e = as_browser(
        [127, 0, 0, 9],
        addr,
        &ama,
        "GET",
        "/api/v1/account/export",
        None,
    )
    .await;
    assert_eq!(e.status, 200, "{}", e.body);
    assert!(e
        .headers
        .to_ascii_lowercase()
        .contains("content-disposition: attachment"));
    let e = e.json();
    assert_eq!(e["username"], "Abla");
    assert_eq!(e["ratings"].as_array().unwrap().len(), 4);
    assert_eq!(e["games"][0]["id"], gid);
    assert_eq!(e["games"][0]["moves"], json!(["F"]));
    assert_eq!(
        get(addr, "/api/v1/account/export").await.code(),
        "not_signed_in"
    );
    // A deleted name is reserved: nobody signs up under it at once.
    let r = as_browser(
        [127, 0, 0, 9],
        addr,
        &ama,
        "POST",
        "/api/v1/account/delete",
        Some(json!({"password": "seeds-and-houses"})),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = post(
        addr,
        "/api/v1/account/signup",
        json!({"username": "ABLA", "password": "another-password"}),
    )
    .await;
    assert_eq!(r.code(), "username_taken");
    // A JSON body without a Content-Type is refused, an empty one is fine.
    let r = request(
        addr,
        "POST",
        &format!("/api/v1/games/{id}/resign"),
        "",
        &[],
        br#"{"token": "x"}"#,
    )
    .await;
    assert_eq!(r.code(), "malformed", "{}", r.body);
}
