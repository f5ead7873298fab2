//! `POST /api/v1/coach`: the engine coach's verdicts, from the one analysis
//! the hint also reads; the same question answers the same; bad input gets
//! a clear refusal.

use crate::common::*;
use oware_server::Config;
use serde_json::json;
use std::time::Duration;

/// After D, North's f takes 3 + 2 (the capture coach's old example).
const POSITION: &str = "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verdicts_texts_and_the_hint_agree_and_do_not_drift() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let ask = json!({"position": POSITION, "move": "D"});
    let r = post(addr, "/api/v1/coach", ask.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert!(
        ["mistake", "blunder"].contains(&v["verdict"].as_str().unwrap()),
        "{v}"
    );
    let text = v["text"].as_str().unwrap();
    assert!(text.starts_with("D is a"), "{text}");
    assert!(text.contains("North replies f and captures 5"), "{text}");
    assert_eq!(v["line"][0], "D");
    assert!(v["loss"].as_f64().unwrap() >= 2.5);
    let best = v["best"].as_str().unwrap().to_string();
    assert_ne!(best, "D");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "A, B and D are legal: {v}");
    assert_eq!(moves[0]["move"], best.as_str());
    assert_eq!(moves[0]["verdict"], "best");
    assert_eq!(moves[0]["warn"], false);
    // Asked twice: the same answer, word for word.
    let again = post(addr, "/api/v1/coach", ask).await;
    assert_eq!(again.body, r.body);
    // In French, with the computer playing North.
    let fr = post(
        addr,
        "/api/v1/coach",
        json!({"position": POSITION, "move": "D", "lang": "fr", "computer": "N"}),
    )
    .await
    .json();
    let text = fr["text"].as_str().unwrap();
    assert!(text.contains("l'ordinateur répond f et prend 5"), "{text}");
    assert_eq!(fr["best"], best.as_str());
    // The hint of a game in that position is the coach's best move.
    let c = post(
        addr,
        "/api/v1/games",
        json!({"mode": "hotseat", "position": POSITION}),
    )
    .await
    .json();
    let id = c["id"].as_str().unwrap();
    let token = c["tokens"]["S"].as_str().unwrap();
    for _ in 0..2 {
        let h = post(
            addr,
            &format!("/api/v1/games/{id}/hint"),
            json!({"token": token, "movetime_ms": 50}),
        )
        .await;
        assert_eq!(h.status, 200, "{}", h.body);
        assert_eq!(h.json()["move"], best.as_str());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_with_a_reason() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        // The opening's whole analysis below (its close moves searched to
        // depth 18) can outlast the default 10 s on a loaded test machine;
        // this test is about the refusals, not the time.
        engine_request_cap: Duration::from_secs(300),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    for (body, code) in [
        (json!({"position": POSITION, "move": "Z"}), "invalid_move"),
        (json!({"position": POSITION, "move": "C"}), "illegal_move"),
        (json!({"position": POSITION, "move": "a"}), "illegal_move"),
        (
            json!({"position": POSITION, "lang": "de"}),
            "invalid_request",
        ),
        (
            json!({"position": POSITION, "computer": "X"}),
            "invalid_request",
        ),
        (json!({"position": "1-2-3"}), "invalid_position"),
        (json!({"moves": "FQ"}), "invalid_move"),
    ] {
        let r = post(addr, "/api/v1/coach", body.clone()).await;
        assert_eq!(r.code(), code, "{body}: {}", r.body);
    }
    // Without a move: the whole analysis, no verdict of its own.
    let r = post(addr, "/api/v1/coach", json!({"moves": "FfB"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert!(v.get("verdict").is_none(), "{v}");
    assert_eq!(v["to_move"], "N");
    assert_eq!(v["moves"].as_array().unwrap().len(), 5, "f is empty");
}

/// Issue 36: a game's review is the coach's analysis of each position,
/// so each ply's verdict, loss and best move are what `POST /api/v1/coach`
/// answers for the position before it (given as the game's moves), in
/// either order; and two servers review the game alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_says_what_the_coach_says_of_each_position() {
    // An endgame of 14 seeds: depth 14 is quick there.
    const START: &str = "0-2-0-1-3-0-1-0-2-0-3-2-17-17-S";
    let config = || Config {
        engine_threads: 1,
        ..Config::default()
    };
    let mut reviews = Vec::new();
    for coach_first in [false, true] {
        let (_dir, server) = start_with(config()).await;
        let addr = server.addr();
        let c = post(
            addr,
            "/api/v1/games",
            json!({"mode": "hotseat", "position": START}),
        )
        .await
        .json();
        let id = c["id"].as_str().unwrap().to_string();
        let tokens = [c["tokens"]["S"].clone(), c["tokens"]["N"].clone()];
        // Eight plies, each the last legal move (or to the game's end).
        let mut moves = String::new();
        let mut view = c["game"].clone();
        while moves.len() < 8 && !legal(&view).is_empty() {
            let mv = json!(legal(&view).last().unwrap());
            let token = &tokens[usize::from(view["to_move"] == "N")];
            let r = post(
                addr,
                &format!("/api/v1/games/{id}/moves"),
                json!({"token": token, "move": mv, "ply": moves.len()}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
            moves.push_str(mv.as_str().unwrap());
            view = r.json();
            if view.get("game").is_some() {
                view = view["game"].clone();
            }
        }
        assert!(moves.len() >= 4, "{moves}");
        let coach = |k: usize| {
            post(
                addr,
                "/api/v1/coach",
                json!({"position": START, "moves": &moves[..k], "move": &moves[k..k + 1]}),
            )
        };
        if coach_first {
            assert_eq!(coach(2).await.status, 200);
        }
        let r = get(
            addr,
            &format!(
                "/api/v1/games/{id}/review?token={}",
                tokens[0].as_str().unwrap()
            ),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let review = r.json();
        assert_eq!(review["depth"], 14, "{review}");
        let plies = review["plies"].as_array().unwrap().clone();
        assert_eq!(plies.len(), moves.len());
        for (k, p) in plies.iter().enumerate() {
            let c = coach(k).await;
            assert_eq!(c.status, 200, "{}", c.body);
            let c = c.json();
            assert_eq!(p["verdict"], c["verdict"], "ply {k}: {p} {c}");
            assert_eq!(p["loss"], c["loss"], "ply {k}: {p} {c}");
            assert_eq!(p["best"], c["best"], "ply {k}: {p} {c}");
        }
        reviews.push(plies);
    }
    assert_eq!(reviews[0], reviews[1]);
}
