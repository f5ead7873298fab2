//! Requests the web app makes besides play: a list of its own games by id,
//! the rules of a game with a lost turn, a refused record with where and
//! why, and the level's name in a game.

use crate::common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_by_id_lost_turns_record_errors_and_level_names() {
    let (_dir, path) = {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("games.sqlite3");
        (d, p)
    };
    let server = start(&path).await;
    let addr = server.addr();
    let a = post(
        addr,
        "/api/v1/games",
        json!({"mode": "computer", "level": 1, "side": "S"}),
    )
    .await
    .json();
    assert_eq!(a["game"]["level_name"], "beginner");
    let b = post(addr, "/api/v1/games", json!({"mode": "hotseat"}))
        .await
        .json();
    let (a, b) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let list = get(addr, &format!("/api/v1/games?ids={a},nosuchgame,{b}"))
        .await
        .json();
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [a, b]);
    let many = vec!["x"; 51].join(",");
    assert_eq!(
        get(addr, &format!("/api/v1/games?ids={many}")).await.code(),
        "invalid_request"
    );

    // North lost its turn (R13): South moves again.
    let r = post(addr, "/api/v1/rules/state", json!({"moves": "F-A"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["to_move"], "N");
    assert_eq!(r.json()["ply"], 3);

    let r = raw(
        addr,
        "POST",
        "/api/v1/games/import",
        "text/plain",
        b"1. F f\n2. F",
    )
    .await;
    let e = &r.json()["error"];
    assert_eq!(e["code"], "invalid_request", "{}", r.body);
    assert_eq!(e["reason"], "empty_house");
    assert_eq!(e["rule"], "R3");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(4))
    );
}
