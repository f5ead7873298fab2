//! The puzzle routes: a puzzle near the caller's rating without its
//! solution, the daily puzzle, attempts judged with words in English and
//! French, ratings for signed-in accounts (rated once per puzzle), and
//! refusals with stable codes.

use crate::common::*;
use oware_core::Move;
use oware_server::Config;
use oware_session::puzzles;
use serde_json::json;

fn wrong_move(p: &puzzles::Puzzle) -> String {
    p.position
        .legal_moves()
        .into_iter()
        .find(|&m| m != p.solution)
        .map(|m: Move| m.letter().to_string())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_gets_puzzles_near_a_rating_and_is_answered_in_words() {
    let (_dir, server) = start_with(Config::default()).await;
    let addr = server.addr();
    let set = puzzles::shipped();

    let r = get(addr, "/api/v1/puzzles/next?rating=2100").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert!(
        v.get("solution").is_none() && v.get("line").is_none(),
        "{v}"
    );
    let id = v["id"].as_u64().unwrap() as u32;
    let p = set.get(id).unwrap();
    // Near 2100: among the eight nearest ratings of the set.
    let mut d: Vec<f64> = set
        .puzzles
        .iter()
        .map(|q| (f64::from(q.rating) - 2100.0).abs())
        .collect();
    d.sort_by(f64::total_cmp);
    assert!((f64::from(p.rating) - 2100.0).abs() <= d[7], "{v}");
    assert_eq!(v["position"], p.position.to_string());
    assert!(v["themes"].as_array().is_some_and(|t| !t.is_empty()));

    // Skipped puzzles are not served.
    let skip: Vec<String> = set
        .puzzles
        .iter()
        .take(1100)
        .map(|p| p.id.to_string())
        .collect();
    let r = get(
        addr,
        &format!(
            "/api/v1/puzzles/next?rating=1500&skip={}",
            skip[..400].join(",")
        ),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["id"].as_u64().unwrap() > 400);

    // Solved, in English; failed, in French, with the solution.
    let path = format!("/api/v1/puzzles/{id}/attempt");
    let r = post(
        addr,
        &path,
        json!({"moves": [p.solution.letter().to_string()]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["solved"], true);
    assert_eq!(v["rated"], false);
    assert!(v["text"].as_str().unwrap().starts_with("Solved!"), "{v}");
    let wrong = wrong_move(p);
    let r = post(addr, &path, json!({"moves": [wrong.clone()], "lang": "fr"})).await;
    let v = r.json();
    assert_eq!(v["solved"], false);
    assert_eq!(v["solution"], p.solution.letter().to_string());
    let text = v["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!(
            "Pas {wrong}\u{a0}: le coup était {}",
            p.solution.letter()
        )),
        "{text}"
    );

    // The daily puzzle is the same twice.
    let a = get(addr, "/api/v1/puzzles/daily?lang=fr").await.json();
    let b = get(addr, "/api/v1/puzzles/daily").await.json();
    assert_eq!(a["id"], b["id"]);
    assert!(a["date"].as_str().is_some_and(|d| d.len() == 10));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_attempts_are_refused_with_stable_codes() {
    let (_dir, server) = start_with(Config::default()).await;
    let addr = server.addr();
    let p = &puzzles::shipped().puzzles[0];
    let path = format!("/api/v1/puzzles/{}/attempt", p.id);
    assert_eq!(
        post(
            addr,
            "/api/v1/puzzles/99999/attempt",
            json!({"moves": ["A"]})
        )
        .await
        .code(),
        "not_found"
    );
    assert_eq!(get(addr, "/api/v1/puzzles/x").await.code(), "not_found");
    assert_eq!(
        post(addr, &path, json!({"moves": []})).await.code(),
        "invalid_request"
    );
    assert_eq!(
        post(addr, &path, json!({"moves": ["Q"]})).await.code(),
        "invalid_move"
    );
    assert_eq!(
        post(addr, &path, json!({"moves": "A"})).await.code(),
        "malformed"
    );
    // A house of the other side (or an empty one) is an illegal move with
    // the core's reason.
    let other = if p.to_move() == oware_core::Side::South {
        "a"
    } else {
        "A"
    };
    let r = post(addr, &path, json!({"moves": [other]})).await;
    assert_eq!(r.code(), "illegal_move", "{}", r.body);
    assert!(r.json()["error"]["reason"].is_string(), "{}", r.body);
    assert_eq!(
        get(addr, "/api/v1/puzzles/next?rating=9000").await.code(),
        "invalid_request"
    );
    assert_eq!(
        get(addr, "/api/v1/puzzles/next?skip=1,x").await.code(),
        "invalid_request"
    );
    assert_eq!(
        get(addr, "/api/v1/puzzles/next?lang=de").await.code(),
        "invalid_request"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_account_and_the_puzzle_are_rated_once() {
    let (_dir, server) = start_with(Config::default()).await;
    let addr = server.addr();
    let src = [127, 0, 0, 9];
    let b = sign_up_from(src, addr, "solver", "a long enough password").await;
    // No puzzle tried yet: no puzzle rating on the account or the profile.
    let me = as_browser(src, addr, &b, "GET", "/api/v1/account", None).await;
    assert!(me.json().get("puzzles").is_none(), "{}", me.body);
    let r = as_browser(src, addr, &b, "GET", "/api/v1/puzzles/next", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["your_rating"], 1500);
    let id = v["id"].as_u64().unwrap() as u32;
    let p = puzzles::shipped().get(id).unwrap();
    let before = v["rating"].as_i64().unwrap();
    let path = format!("/api/v1/puzzles/{id}/attempt");
    let r = as_browser(
        src,
        addr,
        &b,
        "POST",
        &path,
        Some(json!({"moves": [wrong_move(p)]})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["rated"], true);
    let mine = v["your_rating"].as_i64().unwrap();
    assert!(mine < 1500, "{v}");
    assert!(v["rating"].as_i64().unwrap() > before, "{v}");
    // Solving it afterwards changes nothing: one rated attempt a puzzle.
    let r = as_browser(
        src,
        addr,
        &b,
        "POST",
        &path,
        Some(json!({"moves": [p.solution.letter().to_string()]})),
    )
    .await;
    let v = r.json();
    assert_eq!(v["solved"], true);
    assert_eq!(v["rated"], false);
    assert_eq!(v["your_rating"].as_i64().unwrap(), mine);
    // The next puzzle is another one, near the new rating.
    let r = as_browser(src, addr, &b, "GET", "/api/v1/puzzles/next", None).await;
    let v = r.json();
    assert_ne!(v["id"].as_u64().unwrap() as u32, id);
    assert_eq!(v["your_rating"].as_i64().unwrap(), mine);
    // The account and the public profile show the puzzle rating.
    let me = as_browser(src, addr, &b, "GET", "/api/v1/account", None).await;
    let profile = get(addr, "/api/v1/players/solver").await;
    for v in [me.json(), profile.json()] {
        assert_eq!(v["puzzles"]["rating"].as_i64().unwrap(), mine, "{v}");
        assert_eq!(v["puzzles"]["tried"], 1, "{v}");
        assert_eq!(v["puzzles"]["solved"], 0, "{v}");
        assert_eq!(v["puzzles"]["provisional"], true, "{v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzle_requests_count_against_the_study_allowance() {
    let (_dir, server) = start_with(Config::default()).await;
    let addr = server.addr();
    let burst = Config::default()
        .rate_limits
        .expect("limits are on by default")
        .engine_burst as usize;
    let me = [127, 0, 0, 21];
    let mut refused = None;
    for i in 0..burst + 5 {
        let r = get_as(me, addr, "/api/v1/puzzles/daily").await;
        if r.status != 200 {
            refused = Some((i, r));
            break;
        }
    }
    let (i, r) = refused.expect("the burst runs out");
    assert!(i >= burst - 1, "refused after {i} requests");
    assert_eq!(r.code(), "rate_limited", "{}", r.body);
    let p = &puzzles::shipped().puzzles[0];
    let r = post_as(
        me,
        addr,
        &format!("/api/v1/puzzles/{}/attempt", p.id),
        json!({"moves": [p.solution.letter().to_string()]}),
    )
    .await;
    assert_eq!(r.code(), "rate_limited", "{}", r.body);
    // Another client is not held up.
    let other = get_as([127, 0, 0, 22], addr, "/api/v1/puzzles/daily").await;
    assert_eq!(other.status, 200, "{}", other.body);
}
