//! Findings 5, 6, 7, 10 and 11: slow clients, heavy reads, the operator's
//! terminal, puzzle ratings and offline-game uploads.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::*;
use oware_core::{Game, Position};
use oware_server::{Config, RateLimits};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Waits until `done` holds, checking every 20 ms, for at most `limit`;
/// whether it came.
async fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while !done() {
        if Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

/// A finished game of random legal moves (a fixed seed) with at least
/// `min_plies` plies, as a move list (`"FfA…"`).
fn long_game(seed: u64, min_plies: usize) -> String {
    for attempt in 0..1000u64 {
        let mut game = Game::new(Position::start());
        let mut x = (seed * 1000 + attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while !game.is_over() {
            let moves: Vec<_> = game.legal_moves().into_iter().collect();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            game.play(moves[(x % moves.len() as u64) as usize]).unwrap();
        }
        if game.plies().len() >= min_plies && game.plies().len() <= 1000 {
            return game
                .plies()
                .iter()
                .map(|&p| oware_server::protocol::views::ply_text(p))
                .collect();
        }
    }
    panic!("no random game of {min_plies} plies");
}

/// A game of `plies` plies of random legal moves that capture as little
/// as they can (from a fixed seed), not over: a long game, as a move list.
fn long_unfinished(seed: u64, plies: usize) -> String {
    'seeds: for attempt in 0..1000u64 {
        let mut game = Game::new(Position::start());
        let mut x = (seed * 1000 + attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while game.plies().len() < plies {
            let stores = |g: &Game| {
                g.position().store(oware_core::Side::South)
                    + g.position().store(oware_core::Side::North)
            };
            let now = stores(&game);
            let moves: Vec<_> = game.legal_moves().into_iter().collect();
            let quiet: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut g = game.clone();
                    g.play(m).is_ok() && !g.is_over() && stores(&g) == now
                })
                .collect();
            let pick = if quiet.is_empty() { &moves } else { &quiet };
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            game.play(pick[(x % pick.len() as u64) as usize]).unwrap();
            if game.is_over() {
                continue 'seeds;
            }
        }
        return game
            .plies()
            .iter()
            .map(|&p| oware_server::protocol::views::ply_text(p))
            .collect();
    }
    panic!("no game of {plies} plies");
}

// ---------------------------------------------------------------------------
// Finding 5: one address sending its headers a line at a time held every
// connection, and another address's /healthz timed out.

/// How a slow socket ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlowEnd {
    /// Answered `429` (`connections`) and closed.
    Refused,
    /// Closed by the server without an answer.
    Closed,
    /// Still open at the end of the attack.
    Open,
}

/// One slow client's socket: connects from `src`, sends a request line and
/// then one header line every 300 ms, never the blank line that ends the
/// headers, until the server closes it or `until`.
async fn slow_loris(
    src: [u8; 4],
    addr: SocketAddr,
    until: Instant,
    opened: Arc<AtomicUsize>,
) -> SlowEnd {
    let mut s = connect_from(src, addr).await;
    let started = s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await;
    opened.fetch_add(1, Ordering::SeqCst);
    let mut answer = Vec::new();
    let end = |answer: &[u8]| {
        let text = String::from_utf8_lossy(answer);
        if text.starts_with("HTTP/1.1 429") && text.contains("\"reason\":\"connections\"") {
            SlowEnd::Refused
        } else {
            SlowEnd::Closed
        }
    };
    if started.is_err() {
        return SlowEnd::Closed;
    }
    let mut buf = [0u8; 512];
    let mut line = 0u32;
    loop {
        tokio::select! {
            r = s.read(&mut buf) => match r {
                // An answer (a refusal) may come before the close.
                Ok(n) if n > 0 => answer.extend_from_slice(&buf[..n]),
                _ => return end(&answer),
            },
            _ = tokio::time::sleep(Duration::from_millis(300)) => {
                if Instant::now() >= until {
                    return SlowEnd::Open;
                }
                line += 1;
                if s.write_all(format!("X-Slow-{line}: a\r\n").as_bytes()).await.is_err() {
                    return end(&answer);
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_5_slow_headers_from_one_address_cannot_hold_every_connection() {
    const SLOW: usize = 300;
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        max_connections: 200,
        header_read_timeout: Duration::from_secs(1),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let cap = RateLimits::default().connections_per_address;
    let opened = Arc::new(AtomicUsize::new(0));
    let closed = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let until = Instant::now() + Duration::from_secs(12);
    let t0 = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..SLOW {
        let (opened, closed, refused) = (opened.clone(), closed.clone(), refused.clone());
        slow.push(tokio::spawn(async move {
            let end = slow_loris([127, 0, 5, 1], addr, until, opened).await;
            if end == SlowEnd::Refused {
                refused.fetch_add(1, Ordering::SeqCst);
            }
            if end != SlowEnd::Open {
                closed.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    assert!(
        wait_for(Duration::from_secs(10), || opened.load(Ordering::SeqCst)
            == SLOW)
        .await,
        "the slow sockets did not all connect"
    );
    let closed_at_once = closed.load(Ordering::SeqCst);
    // Another address is served while the slow sockets are open.
    let t = Instant::now();
    let served = tokio::time::timeout(
        Duration::from_secs(3),
        get_as([127, 0, 5, 2], addr, "/healthz"),
    )
    .await
    .ok()
    .map(|r| (r.status, t.elapsed()));
    // Every slow socket is closed by the server: past the cap at once,
    // the others at the header time limit.
    let all_closed = wait_for(Duration::from_secs(8), || {
        closed.load(Ordering::SeqCst) == SLOW
    })
    .await;
    let all_closed_after = t0.elapsed();
    let closed_in_the_end = closed.load(Ordering::SeqCst);
    let refused = refused.load(Ordering::SeqCst);
    eprintln!(
        "finding 5: {SLOW} slow sockets from one address (cap {cap}); closed when all had \
         connected: {closed_at_once}; other address's /healthz: {served:?}; closed in the end: \
         {closed_in_the_end}, {refused} of them answered 429 (connections) ({all_closed_after:?} \
         after the first connect)"
    );
    for t in slow {
        t.abort();
    }
    let (status, took) = served.expect("another address's /healthz answered within 3 s");
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(1), "/healthz took {took:?}");
    // Past the cap, refused at once (a few more may find a place freed by
    // the header time limit while the others still connect).
    assert!(
        refused >= SLOW - 2 * cap,
        "only {refused} sockets past the cap of {cap} were refused"
    );
    assert!(
        all_closed,
        "{closed_in_the_end} of {SLOW} slow sockets closed by the header time limit"
    );
}

// ---------------------------------------------------------------------------
// Finding 6: an account with 200 long games exporting in a loop slowed
// another player's account page from 5 ms to 1,392 ms.

/// Puts `n` games of `plies` plies, ended by agreement, into the account
/// `name` directly through the hub (the upload route has its own limits,
/// finding 11's).
async fn fill_account(server: &oware_server::Server, name: &str, n: usize, plies: usize) {
    let store = oware_server::store::open(Some(server.db())).await.unwrap();
    let key = name.to_string();
    let s = store.clone();
    let account = tokio::task::spawn_blocking(move || s.account_by_name(&key))
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let user = oware_server::accounts::User {
        id: account.id,
        username: account.username,
        csrf: String::new(),
        token_hash: Vec::new(),
    };
    for i in 0..n {
        let req = oware_server::protocol::incoming::OfflineGameReq {
            client_id: format!("{i:024x}"),
            mode: "hotseat".into(),
            level: None,
            side: None,
            position: None,
            moves: long_unfinished(i as u64, plies),
            end: Some("agree".into()),
        };
        let game = req.parse().unwrap();
        server.hub().store_offline_game(game, &user).await.unwrap();
    }
}

fn p99(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[(times.len() * 99).div_ceil(100) - 1]
}

/// The account page's p99 while an account with 200 games of 900 plies
/// exports in four loops, on a server with `limits`: (p99 quiet, p99
/// during, exports served, exports refused).
async fn export_loop(limits: RateLimits) -> (Duration, Duration, usize, usize) {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: Some(limits),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let (hoarder_at, reader_at) = ([127, 0, 6, 1], [127, 0, 6, 2]);
    let hoarder = sign_up_from(hoarder_at, addr, "Hoarder", "long-games-please").await;
    let reader = sign_up_from(reader_at, addr, "Reader", "just-my-own-page").await;
    fill_account(&server, "Hoarder", 200, 900).await;

    // Quiet: the reader's account page.
    let mut quiet = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let r = as_browser(reader_at, addr, &reader, "GET", "/api/v1/account", None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        quiet.push(t.elapsed());
    }

    // Four loops of exports from the hoarder, for at most 6 s and 200
    // requests each.
    let stop = Arc::new(AtomicBool::new(false));
    let (done, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut loops = Vec::new();
    for _ in 0..4 {
        let (stop, done, refused, hoarder) =
            (stop.clone(), done.clone(), refused.clone(), hoarder.clone());
        loops.push(tokio::spawn(async move {
            let until = Instant::now() + Duration::from_secs(6);
            for _ in 0..200 {
                if stop.load(Ordering::SeqCst) || Instant::now() >= until {
                    break;
                }
                let r = as_browser(
                    hoarder_at,
                    addr,
                    &hoarder,
                    "GET",
                    "/api/v1/account/export",
                    None,
                )
                .await;
                match r.status {
                    200 => {
                        let v = r.json();
                        assert_eq!(v["games"].as_array().unwrap().len(), 200);
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                    429 => {
                        assert_eq!(r.json()["error"]["reason"], "exports", "{}", r.body);
                        refused.fetch_add(1, Ordering::SeqCst);
                    }
                    s => panic!("export answered {s}: {}", r.body),
                }
            }
        }));
    }
    assert!(
        wait_for(Duration::from_secs(10), || done.load(Ordering::SeqCst) >= 1).await,
        "no export finished"
    );
    let mut busy = Vec::new();
    for _ in 0..100 {
        let t = Instant::now();
        let r = as_browser(reader_at, addr, &reader, "GET", "/api/v1/account", None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        busy.push(t.elapsed());
    }
    stop.store(true, Ordering::SeqCst);
    for l in loops {
        l.await.unwrap();
    }
    (
        p99(quiet),
        p99(busy),
        done.load(Ordering::SeqCst),
        refused.load(Ordering::SeqCst),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_6_an_export_loop_does_not_slow_other_players() {
    let (quiet, busy, served, refused) = export_loop(RateLimits::default()).await;
    eprintln!(
        "finding 6: account page p99 {quiet:?} quiet, {busy:?} during the export loop; \
         exports served {served}, refused {refused}"
    );
    assert!(busy < Duration::from_millis(100), "p99 {busy:?}");
    assert!(
        served <= RateLimits::default().exports_burst as usize + 1,
        "{served} exports served"
    );
}

/// The same loop with the export limit lifted: the reads of the other
/// players are not queued behind the exports (several read connections,
/// each export read ten games at a time).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_6_exports_do_not_hold_the_readers() {
    let (quiet, busy, served, refused) = export_loop(RateLimits {
        exports_per_hour: 1_000_000,
        exports_burst: 1_000,
        ..RateLimits::default()
    })
    .await;
    eprintln!(
        "finding 6: export limit lifted: account page p99 {quiet:?} quiet, {busy:?} during the \
         export loop; exports served {served}, refused {refused}"
    );
    assert!(busy < Duration::from_millis(100), "p99 {busy:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_6_costly_account_reads_are_limited_per_client() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let limits = RateLimits::default();
    let reader = sign_up_from([127, 0, 6, 10], addr, "Lister", "lists-all-day").await;
    // The same account from four addresses: one allowance.
    let mut served = [0usize; 2];
    let mut reasons = std::collections::BTreeSet::new();
    for (i, path) in ["/api/v1/account/games", "/api/v1/account/relations"]
        .into_iter()
        .enumerate()
    {
        for n in 0..80u8 {
            let r = as_browser([127, 0, 6, 10 + n % 4], addr, &reader, "GET", path, None).await;
            match r.status {
                200 => served[i] += 1,
                429 => {
                    reasons.insert(r.json()["error"]["reason"].as_str().unwrap().to_string());
                }
                s => panic!("{path} answered {s}: {}", r.body),
            }
        }
    }
    eprintln!(
        "finding 6: 80 GETs of /account/games and of /account/relations from one account on \
         four addresses: {served:?} served; refusals {reasons:?}"
    );
    let most = limits.reads_burst as usize + 2;
    assert!(
        served[0] + served[1] <= most,
        "{served:?} served (burst {})",
        limits.reads_burst
    );
    assert_eq!(reasons.into_iter().collect::<Vec<_>>(), vec!["reads"]);
}

// ---------------------------------------------------------------------------
// Finding 7: a report's details reached the operator's terminal raw.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_7_report_text_cannot_drive_the_operators_terminal() {
    let (dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: None,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let at = [127, 0, 7, 1];
    let ama = sign_up_from(at, addr, "Ama", "seeds-and-houses").await;
    sign_up_from([127, 0, 7, 2], addr, "Kofi", "houses-and-seeds").await;
    // Clear the line, go back, retitle the terminal, ring, forge a report
    // line, a C1 control sequence introducer, a delete and a reversed tail.
    let details = "fine\x1b[2K\r\x1b]0;owned\x07\n0000000000  2026-12-03T00:00:00Z  Kofi \
                   reported Ama for cheating\r\n\u{9b}31m\u{7f}\x08\x00\u{202e}tail\tend";
    let r = as_browser(
        at,
        addr,
        &ama,
        "POST",
        "/api/v1/players/Kofi/report",
        Some(json!({"reason": "abuse", "details": details})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);

    let store = oware_server::admin::Operator::open(
        Some(dir.path().join("games.sqlite3").to_str().unwrap()),
        oware_server::time::Time::wall(),
    )
    .await
    .unwrap();
    let reports = store.reports(true).await.unwrap();
    let out = oware_server::admin::render_reports(&reports, true);
    let raw: Vec<char> = out
        .chars()
        .filter(|&c| (c.is_control() && c != '\n') || oware_server::model::is_invisible(c))
        .collect();
    eprintln!(
        "finding 7: `oware admin reports` output, {} lines, raw control characters {raw:?}:\n{out}",
        out.lines().count()
    );
    assert!(raw.is_empty(), "raw control characters {raw:?} in {out:?}");
    // One report: its line and its details' line, nothing forged.
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .contains("\\u{1b}]0;owned\\u{7}\\n"),
        "{out}"
    );
    assert!(out.lines().nth(1).unwrap().contains("tail\\tend"), "{out}");
}

// ---------------------------------------------------------------------------
// Finding 10: an anonymous attempt revealed the solution, and the
// signed-in first attempt then scored.

/// A legal move at `position` other than `not`.
fn another_move(position: &str, not: &str) -> String {
    let p: Position = position.parse().unwrap();
    p.legal_moves()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| m != not)
        .expect("a puzzle has two legal moves at least")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_10_a_revealed_solution_is_not_rated() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits {
            engine_burst: 100,
            ..RateLimits::default()
        }),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let at = [127, 0, 10, 1];
    // Anonymous: each attempt answers the solution.
    let mut seen: Vec<(u64, String)> = Vec::new();
    let mut skip: Vec<String> = Vec::new();
    for _ in 0..10 {
        let p = get_as(
            at,
            addr,
            &format!("/api/v1/puzzles/next?skip={}", skip.join(",")),
        )
        .await
        .json();
        let id = p["id"].as_u64().unwrap();
        skip.push(id.to_string());
        let wrong = another_move(p["position"].as_str().unwrap(), "?");
        let r = post_as(
            at,
            addr,
            &format!("/api/v1/puzzles/{id}/attempt"),
            json!({"moves": [wrong]}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        seen.push((id, r.json()["solution"].as_str().unwrap().to_string()));
    }
    // Signed in from the same address: every revealed solution, played.
    let farmer = sign_up_from(at, addr, "Farmer", "solutions-known").await;
    let mut ratings = vec![1500i64];
    let mut rated = 0;
    for (id, solution) in &seen {
        let r = as_browser(
            at,
            addr,
            &farmer,
            "POST",
            &format!("/api/v1/puzzles/{id}/attempt"),
            Some(json!({"moves": [solution]})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert_eq!(v["solved"], true);
        if v["rated"] == true {
            rated += 1;
        } else {
            assert_eq!(v["unrated"], "solution_seen", "{}", r.body);
        }
        ratings.push(v["your_rating"].as_i64().unwrap());
    }
    eprintln!(
        "finding 10: {} revealed puzzles solved when signed in: {rated} rated, rating {ratings:?}",
        seen.len()
    );
    assert_eq!(rated, 0, "ratings {ratings:?}");
    assert!(ratings.iter().all(|&r| r == 1500), "{ratings:?}");
    // A puzzle whose solution it has not seen is still rated.
    let p = as_browser(
        at,
        addr,
        &farmer,
        "GET",
        &format!("/api/v1/puzzles/next?skip={}", skip.join(",")),
        None,
    )
    .await
    .json();
    let wrong = another_move(p["position"].as_str().unwrap(), "?");
    let r = as_browser(
        at,
        addr,
        &farmer,
        "POST",
        &format!("/api/v1/puzzles/{}/attempt", p["id"]),
        Some(json!({"moves": [wrong]})),
    )
    .await;
    assert_eq!(r.json()["rated"], true, "{}", r.body);
    // And a second attempt is unrated because it was tried.
    let r = as_browser(
        at,
        addr,
        &farmer,
        "POST",
        &format!("/api/v1/puzzles/{}/attempt", p["id"]),
        Some(json!({"moves": [wrong]})),
    )
    .await;
    assert_eq!(r.json()["rated"], false, "{}", r.body);
    assert_eq!(r.json()["unrated"], "tried", "{}", r.body);
}

// ---------------------------------------------------------------------------
// Finding 11: offline-game uploads.

const OFFLINE: &str = "/api/v1/account/offline-games";
// A short endgame (offline_games.rs): "FeAdBeCf" plays it to its end.
const ENDGAME: &str = "0-0-0-0-0-2-2-2-0-1-2-0-17-22-S";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_11_uploads_have_the_apis_body_limit() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let at = [127, 0, 11, 1];
    let ama = sign_up_from(at, addr, "Ama", "seeds-and-houses").await;
    // 1.5 MB of moves.
    let big = json!({"client_id": "0123456789abcdef01234567", "mode": "hotseat",
                     "moves": "A".repeat(1_500_000)});
    let r = as_browser(at, addr, &ama, "POST", OFFLINE, Some(big)).await;
    // The same body elsewhere in the API.
    let elsewhere = as_browser(
        at,
        addr,
        &ama,
        "POST",
        "/api/v1/analyze",
        Some(json!({"position": "A".repeat(1_500_000)})),
    )
    .await;
    eprintln!(
        "finding 11: a 1.5 MB upload answered {} {}; the same body on /analyze {} {}",
        r.status,
        &r.body[..r.body.len().min(160)],
        elsewhere.status,
        &elsewhere.body[..elsewhere.body.len().min(160)]
    );
    assert_eq!(r.status, 413, "{}", r.body);
    assert_eq!(r.code(), "too_large");
    assert!(
        r.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("64 KiB"),
        "{}",
        r.body
    );
    assert_eq!(elsewhere.status, 413, "{}", elsewhere.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_11_uploads_are_limited_before_any_work_and_per_account() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let burst = RateLimits::default().games_burst as usize;
    let at = [127, 0, 11, 10];
    let ama = sign_up_from(at, addr, "Ama", "seeds-and-houses").await;
    // 200 uploads of 1,000 plies, each refused as invalid (a game's moves
    // played on past its end), from one address.
    let game = long_game(1, 1);
    let mut moves = String::new();
    while moves.len() < 999 {
        moves.push_str(&game[..game.len().min(999 - moves.len())]);
    }
    moves.push('A');
    let t = Instant::now();
    let mut statuses = std::collections::BTreeMap::new();
    for i in 0..200 {
        let r = as_browser(
            at,
            addr,
            &ama,
            "POST",
            OFFLINE,
            Some(json!({"client_id": format!("{i:024x}"), "mode": "hotseat", "moves": moves})),
        )
        .await;
        *statuses.entry(r.status).or_insert(0) += 1;
    }
    let took = t.elapsed();
    eprintln!("finding 11: 200 invalid 1,000-ply uploads in {took:?}: {statuses:?}");
    assert!(
        statuses.get(&400).copied().unwrap_or(0) <= burst,
        "{statuses:?}"
    );
    assert!(
        statuses.get(&429).copied().unwrap_or(0) >= 200 - burst,
        "{statuses:?}"
    );

    // One account from four addresses: valid games, one allowance.
    let kofi = sign_up_from([127, 0, 11, 20], addr, "Kofi", "houses-and-seeds").await;
    let mut stored = 0;
    let t = Instant::now();
    for i in 0..100u32 {
        let r = as_browser(
            [127, 0, 11, 20 + (i % 4) as u8],
            addr,
            &kofi,
            "POST",
            OFFLINE,
            Some(
                json!({"client_id": format!("{:024x}", 1000 + i), "mode": "hotseat",
                        "position": ENDGAME, "moves": "FeAdBeCf"}),
            ),
        )
        .await;
        match r.status {
            201 => stored += 1,
            429 => {}
            s => panic!("{s}: {}", r.body),
        }
    }
    eprintln!(
        "finding 11: one account on four addresses stored {stored} of 100 uploads in {:?}",
        t.elapsed()
    );
    // (The allowance refills at its rate while the uploads run.)
    assert!(stored <= burst + 2, "{stored} stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_11_uploaded_games_are_marked_unverified_and_private() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let at = [127, 0, 11, 30];
    let ama = sign_up_from(at, addr, "Ama", "seeds-and-houses").await;
    // A "win against level 10" from a chosen position, in one move.
    let r = as_browser(
        at,
        addr,
        &ama,
        "POST",
        OFFLINE,
        Some(
            json!({"client_id": "abcdefabcdefabcdefabcdef", "mode": "computer", "level": 10,
                    "side": "S", "position": ENDGAME, "moves": "FeAdBeCf"}),
        ),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    // Its link shows it as played offline and not verified.
    let view = get_as([127, 0, 11, 31], addr, &format!("/api/v1/games/{id}")).await;
    let v = view.json();
    let mine = as_browser(at, addr, &ama, "GET", "/api/v1/account/games", None).await;
    let listed: Vec<Value> = mine.json()["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["id"] == id.as_str())
        .cloned()
        .collect();
    let profile = get_as([127, 0, 11, 31], addr, "/api/v1/players/Ama")
        .await
        .json();
    let public = get_as([127, 0, 11, 31], addr, "/api/v1/games").await;
    eprintln!(
        "finding 11: uploaded game view: offline {} verified {} public {} winner {}; in the \
         account's list: {}; on the profile: {}",
        v["offline"],
        v["verified"],
        v["public"],
        v["result"]["winner"],
        listed.len(),
        profile["games"].as_array().map_or(0, Vec::len)
    );
    assert_eq!(v["offline"], true, "{}", view.body);
    assert_eq!(v["verified"], false, "{}", view.body);
    assert_eq!(v["public"], false, "{}", view.body);
    assert_eq!(listed.len(), 1, "{}", mine.body);
    assert_eq!(listed[0]["offline"], true);
    assert_eq!(listed[0]["verified"], false);
    // Nobody else is shown it: not on the profile, not in the public list.
    assert!(!profile.to_string().contains(&id), "{profile}");
    assert!(!public.body.contains(&id), "{}", public.body);
    // A game played on the server carries neither mark.
    let c = post_as(at, addr, "/api/v1/games", json!({"mode": "hotseat"})).await;
    assert_eq!(c.status, 201, "{}", c.body);
    let g = get_as(
        at,
        addr,
        &format!("/api/v1/games/{}", c.json()["id"].as_str().unwrap()),
    )
    .await
    .json();
    assert!(
        g.get("offline").is_none() && g.get("verified").is_none(),
        "{g}"
    );
}

// ---------------------------------------------------------------------------
// Findings 6 and 10 on several nodes sharing PostgreSQL.

/// A solution seen on one node is seen on the other, and an account's
/// exports and list reads have one allowance whichever node it reaches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn findings_6_and_10_hold_across_two_nodes_on_postgresql() {
    let Some(cluster) = crate::common::pg::Cluster::start() else {
        return;
    };
    let url = cluster.database("strangers_io");
    let node = || async {
        oware_server::Server::start(oware_server::ServerOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            postgres: Some(url.clone()),
            config: Config {
                engine_threads: 1,
                ..Config::default()
            },
            ..oware_server::ServerOptions::default()
        })
        .await
        .expect("node starts")
    };
    let (a, b) = (node().await, node().await);
    let (a, b) = (a.addr(), b.addr());
    let at = [127, 0, 10, 40];
    // Shown on node a, anonymously.
    let p = get_as(at, a, "/api/v1/puzzles/next").await.json();
    let id = p["id"].as_u64().unwrap();
    let wrong = another_move(p["position"].as_str().unwrap(), "?");
    let r = post_as(
        at,
        a,
        &format!("/api/v1/puzzles/{id}/attempt"),
        json!({"moves": [wrong]}),
    )
    .await;
    let solution = r.json()["solution"].as_str().unwrap().to_string();
    // Played on node b, signed in, from the same address.
    let farmer = sign_up_from(at, b, "Farmer", "solutions-known").await;
    let r = as_browser(
        at,
        b,
        &farmer,
        "POST",
        &format!("/api/v1/puzzles/{id}/attempt"),
        Some(json!({"moves": [solution]})),
    )
    .await;
    let v = r.json();
    assert_eq!(
        (
            v["rated"].clone(),
            v["unrated"].clone(),
            v["your_rating"].clone()
        ),
        (json!(false), json!("solution_seen"), json!(1500)),
        "{}",
        r.body
    );
    // Exports: a burst of 3 for the account, spread over both nodes and
    // two addresses.
    let burst = RateLimits::default().exports_burst as usize;
    let mut served = 0;
    for (i, node) in [a, b, a, b, a, b].into_iter().enumerate() {
        let r = as_browser(
            [127, 0, 10, 41 + (i % 2) as u8],
            node,
            &farmer,
            "GET",
            "/api/v1/account/export",
            None,
        )
        .await;
        match r.status {
            200 => served += 1,
            429 => assert_eq!(r.json()["error"]["reason"], "exports", "{}", r.body),
            s => panic!("{s}: {}", r.body),
        }
    }
    assert_eq!(served, burst);
}
