//! Watching: `GET /api/v1/watch` lists the public online games being
//! played now and features the best-rated one (docs/PROTOCOL.md).

use serde_json::{json, Value};

use crate::common::*;

/// Creates a public online game as Ama (South), joined by Kofi.
async fn public_game(addr: std::net::SocketAddr) -> (String, String, String) {
    online_game(addr, json!({"public": true})).await
}

async fn play(addr: std::net::SocketAddr, id: &str, token: &str, mv: &str, ply: u32) {
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": token, "move": mv, "ply": ply}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

fn ids(watch: &Value) -> Vec<String> {
    watch["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_being_played_are_listed_and_the_best_rated_is_featured() {
    // On a manual clock: "the most recently moved" is the clock's order,
    // moved on by the test between the moves.
    let time = oware_server::time::Time::manual(oware_server::time::Time::wall().unix_ms());
    let (_dir, server) = start_with(oware_server::Config {
        engine_threads: 1,
        rate_limits: None,
        time: time.clone(),
        ..Default::default()
    })
    .await;
    let addr = server.addr();
    let w = get(addr, "/api/v1/watch").await;
    assert_eq!(w.status, 200, "{}", w.body);
    assert_eq!(w.json(), json!({"games": [], "featured": null}));

    // Two public games in play, a private one, a seek nobody took, and a
    // finished game.
    let (first, s1, _) = public_game(addr).await;
    let (second, s2, n2) = public_game(addr).await;
    let (private, sp, _) = online_game(addr, json!({})).await;
    play(addr, &private, &sp, "F", 0).await;
    let seek = post(
        addr,
        "/api/v1/games",
        json!({"mode": "online", "public": true, "name": "Esi"}),
    )
    .await;
    assert_eq!(seek.status, 201);
    let (over, so, _) = public_game(addr).await;
    let r = post(
        addr,
        &format!("/api/v1/games/{over}/resign"),
        json!({"token": so}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    play(addr, &first, &s1, "F", 0).await;
    time.advance(std::time::Duration::from_secs(1));
    play(addr, &second, &s2, "F", 0).await;
    play(addr, &second, &n2, "f", 1).await;

    let w = get(addr, "/api/v1/watch").await.json();
    // The most recently moved first; nothing private, waiting or over.
    assert_eq!(ids(&w), vec![second.clone(), first.clone()], "{w}");
    assert_eq!(w["featured"], second.as_str(), "no ratings: the latest");
    assert_eq!(w["games"][0]["to_move"], "S");
    assert_eq!(w["games"][0]["seats"]["S"]["name"], "Ama");

    // A rated game between two accounts is featured over casual games,
    // even when it moved longer ago.
    let ama = sign_up_from([127, 0, 0, 2], addr, "Akosua", "seeds-and-houses").await;
    let kofi = sign_up_from([127, 0, 0, 3], addr, "Kwame", "houses-and-seeds").await;
    let r = as_browser(
        [127, 0, 0, 2],
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(
            json!({"mode": "online", "rated": true, "public": true, "side": "S",
            "time_control": {"initial_ms": 600_000, "increment_ms": 5_000}}),
        ),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let rated = r.json()["id"].as_str().unwrap().to_string();
    let south = r.json()["tokens"]["S"].as_str().unwrap().to_string();
    let r = as_browser(
        [127, 0, 0, 3],
        addr,
        &kofi,
        "POST",
        &format!("/api/v1/games/{rated}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    play(addr, &rated, &south, "F", 0).await;
    time.advance(std::time::Duration::from_secs(1));
    play(addr, &second, &s2, "A", 2).await;
    let w = get(addr, "/api/v1/watch").await.json();
    assert_eq!(ids(&w), vec![second.clone(), rated.clone(), first], "{w}");
    assert_eq!(w["featured"], rated.as_str(), "{w}");
    assert!(
        w["games"][1]["seats"]["S"]["rating"]["rating"].is_number(),
        "{w}"
    );
}
