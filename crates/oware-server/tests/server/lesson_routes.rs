//! `POST /api/v1/rules/agreement`: the R12 board's "agree to stop",
//! answered by the core.

use crate::common::*;
use oware_server::Config;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_by_agreement_gives_each_player_their_row() {
    let (_dir, server) = start_with(Config::default()).await;
    let addr = server.addr();
    // The R12 lesson: two seeds going round, 23–23 in the stores.
    let r = post(
        addr,
        "/api/v1/rules/agreement",
        json!({"position": "1-0-0-0-0-0-1-0-0-0-0-0-23-23-S", "moves": "Aa"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["status"], "over");
    assert_eq!(v["result"]["reason"], "agreement");
    assert_eq!(v["result"]["winner"], "draw");
    assert_eq!(v["moves"], "Aa");
    // A finished game cannot be stopped again; bad input is refused.
    let over = post(
        addr,
        "/api/v1/rules/agreement",
        json!({"position": "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S"}),
    )
    .await;
    assert_eq!(over.code(), "game_over", "{}", over.body);
    let bad = post(addr, "/api/v1/rules/agreement", json!({"position": "1-2"})).await;
    assert_eq!(bad.code(), "invalid_position");
}
