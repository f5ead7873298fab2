//! `POST /api/v1/account/offline-games`: a finished game played offline on
//! a device, stored in the account once however often it is sent; bad
//! records refused by code; the moves replayed through the rules core.

use std::net::SocketAddr;

use crate::common::*;
use oware_server::{Config, RateLimits};
use serde_json::{json, Value};

const PATH: &str = "/api/v1/account/offline-games";
// A short endgame (e2e/tests/computer.test.mjs): "FeAdBeCf" plays it to
// its end, North without a move (R9).
const ENDGAME: &str = "0-0-0-0-0-2-2-2-0-1-2-0-17-22-S";

async fn send(addr: SocketAddr, b: &Browser, body: Value) -> Resp {
    as_browser([127, 0, 0, 1], addr, b, "POST", PATH, Some(body)).await
}

fn finished(client_id: &str) -> Value {
    // A computer game resigned by the player after two plies.
    json!({
        "client_id": client_id, "mode": "computer", "level": 4, "side": "S",
        "position": ENDGAME, "moves": "Fe", "end": "resign S"
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offline_game_is_kept_once_and_bad_records_are_refused() {
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits {
            sign_ups_per_hour: 100,
            ..RateLimits::default()
        }),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    // Signed in only.
    let r = send(
        addr,
        &Browser::default(),
        finished("0123456789abcdef01234567"),
    )
    .await;
    assert_eq!(r.code(), "not_signed_in", "{}", r.body);
    let ama = sign_up_from([127, 0, 0, 1], addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from([127, 0, 0, 1], addr, "Kofi", "a-long-password").await;

    // Stored once: the second upload names the same game.
    let r = send(addr, &ama, finished("0123456789abcdef01234567")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    assert_eq!(id, "dev0123456789abcdef01234567");
    assert_eq!(r.json()["created"], true);
    let again = send(addr, &ama, finished("0123456789abcdef01234567")).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json(), json!({"id": id, "created": false}));
    let mine = as_browser(
        [127, 0, 0, 1],
        addr,
        &ama,
        "GET",
        "/api/v1/account/games",
        None,
    )
    .await;
    let games = mine.json()["games"].as_array().unwrap().clone();
    assert_eq!(
        games.iter().filter(|g| g["id"] == id.as_str()).count(),
        1,
        "{}",
        mine.body
    );
    // The game as the server replays it: unrated, over, the player's seat.
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["mode"], "computer");
    assert_eq!(g["level"], 4);
    assert_eq!(g["rated"], false);
    assert_eq!(g["status"], "over");
    assert_eq!(g["plies"], json!(["F", "e"]));
    assert_eq!(g["result"]["reason"], "resignation");
    assert_eq!(g["result"]["winner"], "N");
    assert_eq!(g["seats"]["S"]["name"], "Ama");
    assert_eq!(g["seats"]["S"]["account"], true);
    assert_eq!(g["seats"]["N"]["kind"], "computer");
    // Another account cannot claim the id.
    let r = send(addr, &kofi, finished("0123456789abcdef01234567")).await;
    assert_eq!(
        (r.code(), r.json()["error"]["reason"].clone()),
        ("not_allowed".into(), json!("not_yours")),
        "{}",
        r.body
    );

    // A game between two people on one device, ended by the rules (R9/R10).
    let hot = json!({"client_id": "aaaaaaaaaaaaaaaaaaaaaaaa", "mode": "hotseat", "position": ENDGAME, "moves": "FeAdBeCf"});
    let r = send(addr, &kofi, hot).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let g = get(
        addr,
        &format!("/api/v1/games/{}", r.json()["id"].as_str().unwrap()),
    )
    .await
    .json();
    assert_eq!(g["status"], "over");
    assert_eq!(g["mode"], "hotseat");
    assert_eq!(g["result"]["reason"], "no-moves");
    assert_eq!(g["result"]["winner"], "S");
    assert_eq!(g["seats"]["S"]["account"], true);

    // Bad records, each refused with its code and reason, nothing stored.
    let bad = |patch: Value| {
        let mut b = finished("bbbbbbbbbbbbbbbbbbbbbbbb");
        for (k, v) in patch.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    for (body, code, reason) in [
        (
            bad(json!({"client_id": "short"})),
            "invalid_request",
            Some("bad_client_id"),
        ),
        (
            bad(json!({"client_id": "BBBBBBBBBBBBBBBBBBBBBBBB"})),
            "invalid_request",
            Some("bad_client_id"),
        ),
        (
            bad(json!({"mode": "online"})),
            "invalid_request",
            Some("bad_mode"),
        ),
        (
            bad(json!({"level": 11})),
            "invalid_request",
            Some("bad_level"),
        ),
        (
            bad(json!({"side": "E"})),
            "invalid_request",
            Some("bad_side"),
        ),
        (
            bad(json!({"end": "shrug"})),
            "invalid_request",
            Some("bad_end"),
        ),
        // Not over: the player did not resign and the rules did not end it.
        (
            bad(json!({"end": null})),
            "invalid_request",
            Some("not_finished"),
        ),
        // Replayed through the core: A is empty here (R3).
        (bad(json!({"moves": "A"})), "illegal_move", None),
        (bad(json!({"position": "4-4-4"})), "invalid_position", None),
        (bad(json!({"rated": true})), "malformed", None),
    ] {
        let r = send(addr, &ama, body.clone()).await;
        assert_eq!(r.code(), code, "{body}: {}", r.body);
        if let Some(reason) = reason {
            assert_eq!(r.json()["error"]["reason"], reason, "{body}: {}", r.body);
        }
    }
    let r = get(addr, "/api/v1/games/devbbbbbbbbbbbbbbbbbbbbbbbb").await;
    assert_eq!(r.status, 404, "nothing stored from a refused record");
}
