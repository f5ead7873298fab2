//! `POST /api/v1/mistakes`: the moves of one side the coach warns about,
//! as exercises, with the coach's words; bad input refused by code.

use crate::common::*;
use oware_server::Config;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blunder_comes_back_as_an_exercise() {
    let (_dir, server) = start_with(Config::default()).await;
    let addr = server.addr();
    // D hands North f and 5 seeds: a blunder; A or B would keep them.
    let game = json!({"position": "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S", "moves": "Df"});
    let mut body = game.clone();
    body["side"] = json!("S");
    body["computer"] = json!("N");
    let r = post(addr, "/api/v1/mistakes", body.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["judged"], 1);
    let ex = &v["exercises"][0];
    assert_eq!(ex["ply"], 0);
    assert_eq!(ex["moves"], "");
    assert_eq!(ex["played"], "D");
    assert_eq!(ex["verdict"], "blunder");
    assert_eq!(ex["position"], "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S");
    assert!(
        ex["text"].as_str().unwrap().starts_with("D is a blunder"),
        "{ex}"
    );
    // The same from the coach, asked about the move: one analysis.
    let c = post(
        addr,
        "/api/v1/coach",
        json!({"position": "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S", "move": "D", "computer": "N"}),
    )
    .await
    .json();
    assert_eq!(c["verdict"], "blunder");
    assert_eq!(c["text"], ex["text"]);
    // In French; North's move (a winning capture) is no mistake.
    body["lang"] = json!("fr");
    let fr = post(addr, "/api/v1/mistakes", body.clone()).await.json();
    assert!(fr["exercises"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("D est une faute grave"));
    let mut north = game.clone();
    north["side"] = json!("N");
    let n = post(addr, "/api/v1/mistakes", north).await.json();
    assert_eq!(n["exercises"].as_array().unwrap().len(), 0, "{n}");
    // Bad input.
    let mut bad = game.clone();
    bad["side"] = json!("east");
    assert_eq!(
        post(addr, "/api/v1/mistakes", bad).await.code(),
        "invalid_request"
    );
    assert_eq!(
        post(
            addr,
            "/api/v1/mistakes",
            json!({"moves": "Dz", "side": "S"})
        )
        .await
        .code(),
        "invalid_move"
    );
    assert_eq!(
        post(addr, "/api/v1/mistakes", json!({"moves": "D"}))
            .await
            .code(),
        "malformed"
    );
}
