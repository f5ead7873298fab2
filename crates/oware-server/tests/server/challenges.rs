//! Direct challenges (docs/PROTOCOL.md, "Challenges"): sent, received live
//! with a notification, accepted (the game starts with both seats held by
//! the two accounts), declined, withdrawn, expired on the server's clock;
//! and attacked as a stranger: oneself, unknown and deleted accounts, a
//! block before and in the middle of a challenge, a second account
//! answering, a flood of challenges from several addresses, answering
//! twice. On a manual clock; every wait is for an event.

use std::time::Duration;

use oware_server::time::Time;
use oware_server::{Config, RateLimits};
use serde_json::{json, Value};

use crate::common::*;
use crate::notifications::account_ws;

const AMA: [u8; 4] = [127, 0, 0, 2];
const KOFI: [u8; 4] = [127, 0, 0, 3];
const ESI: [u8; 4] = [127, 0, 0, 4];

fn refusal(r: &Resp) -> (u16, String, Value) {
    (r.status, r.code(), r.json()["error"]["reason"].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_received_live_and_accepted_once_into_a_game_for_both() {
    let time = Time::manual(Time::wall().unix_ms());
    let (_dir, server) = start_with(Config {
        engine_threads: 1,
        time: time.clone(),
        rate_limits: Some(RateLimits {
            games_per_minute: 60,
            games_burst: 8,
            ..RateLimits::default()
        }),
        ..Config::default()
    })
    .await;
    let addr = server.addr();
    let ama = sign_up_from(AMA, addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", "houses-and-seeds").await;
    let mut ama_ws = account_ws(addr, &ama).await.unwrap();
    recv_type(&mut ama_ws, "unread").await;
    let mut kofi_ws = account_ws(addr, &kofi).await.unwrap();
    recv_type(&mut kofi_ws, "unread").await;

    // Refused: strangers, oneself, nobody, bad time controls.
    let clock = json!({"time_control": {"initial_ms": 300_000, "increment_ms": 3_000}, "rated": true, "side": "S"});
    let r = post_signed_in(
        ESI,
        addr,
        &Browser::default(),
        "/api/v1/players/Kofi/challenge",
        clock.clone(),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/ama/challenge",
        clock.clone(),
    )
    .await;
    assert_eq!(refusal(&r), (400, "invalid_request".into(), json!("self")));
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Nobody/challenge",
        clock.clone(),
    )
    .await;
    assert_eq!((r.status, r.code()), (404, "not_found".into()));
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/challenge",
        json!({"rated": true}),
    )
    .await;
    assert_eq!(
        refusal(&r),
        (400, "invalid_request".into(), json!("rated_needs_clock"))
    );
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/challenge",
        json!({"time_control": {"per_move_ms": 5}}),
    )
    .await;
    assert_eq!(r.code(), "invalid_request", "{}", r.body);
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/challenge",
        json!({"side": "west"}),
    )
    .await;
    assert_eq!(r.code(), "invalid_request", "{}", r.body);

    // Ama challenges Kofi: he is told live, with a notification.
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/kofi/challenge",
        clock.clone(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let c = recv_type(&mut kofi_ws, "challenge").await;
    assert_eq!(
        (
            &c["challenge"]["id"],
            &c["challenge"]["from"],
            &c["challenge"]["status"]
        ),
        (&json!(id), &json!("Ama"), &json!("open"))
    );
    assert!(c["challenge"].get("from_account").is_none());
    let n = recv_type(&mut kofi_ws, "notification").await;
    assert_eq!(n["notification"]["kind"], "challenge");
    assert_eq!(n["notification"]["detail"], "received");
    assert_eq!(n["notification"]["challenge"], json!(id));
    recv_type(&mut ama_ws, "challenge").await;
    let open = as_browser(KOFI, addr, &kofi, "GET", "/api/v1/challenges", None).await;
    assert_eq!(
        open.json()["challenges"][0]["id"],
        json!(id),
        "{}",
        open.body
    );

    // Only Kofi answers it: not Ama, not a third account.
    let esi = sign_up_from(ESI, addr, "Esi", "a-long-password").await;
    let r = post_signed_in(
        ESI,
        addr,
        &esi,
        &format!("/api/v1/challenges/{id}/accept"),
        json!({}),
    )
    .await;
    assert_eq!((r.status, r.code()), (404, "not_found".into()));
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        &format!("/api/v1/challenges/{id}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(refusal(&r), (409, "not_allowed".into(), json!("not_yours")));
    let r = post_signed_in(
        ESI,
        addr,
        &esi,
        &format!("/api/v1/challenges/{id}/cancel"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.body);

    // Kofi accepts: one game, both seats held, Ama (South) to move; Ama is
    // told live. Accepting again is refused.
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/challenges/{id}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_string();
    let told = recv_type(&mut ama_ws, "challenge").await;
    assert_eq!(told["challenge"]["status"], "accepted");
    assert_eq!(told["challenge"]["game"], json!(game));
    let n = recv_type(&mut ama_ws, "notification").await;
    assert_eq!(
        (&n["notification"]["detail"], &n["notification"]["game"]),
        (&json!("accepted"), &json!(game))
    );
    let g = get(addr, &format!("/api/v1/games/{game}")).await.json();
    assert_eq!(g["status"], "playing", "{g}");
    assert_eq!(g["rated"], true);
    assert_eq!(g["seats"]["S"]["name"], "Ama", "{g}");
    assert_eq!(g["seats"]["N"]["name"], "Kofi", "{g}");
    // Presence: both are online and playing it; the lobby counts them.
    let p = get(addr, "/api/v1/players/Kofi").await.json();
    assert_eq!(
        (&p["online"], &p["playing"]),
        (&json!(true), &json!(game)),
        "{p}"
    );
    assert_eq!(get(addr, "/api/v1/lobby").await.json()["online"], 2);
    for (src, b, side) in [(AMA, &ama, "S"), (KOFI, &kofi, "N")] {
        let s = post_signed_in(
            src,
            addr,
            b,
            &format!("/api/v1/games/{game}/seat"),
            json!({}),
        )
        .await;
        assert_eq!(s.status, 200, "{}", s.body);
        assert_eq!(s.json()["you"], side);
    }
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/challenges/{id}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(
        refusal(&r),
        (409, "not_allowed".into(), json!("challenge_closed"))
    );

    // Declined, and withdrawn: each side is told. (A minute on, so the
    // allowance of new games has come back.)
    time.advance(Duration::from_secs(60));
    let untimed = json!({});
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let second = r.json()["id"].as_str().unwrap().to_string();
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/challenges/{second}/decline"),
        json!({}),
    )
    .await;
    assert_eq!(r.json()["challenge"]["status"], "declined", "{}", r.body);
    let n = recv_type(&mut ama_ws, "notification").await;
    assert_eq!(n["notification"]["detail"], "declined");
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let third = r.json()["id"].as_str().unwrap().to_string();
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        &format!("/api/v1/challenges/{third}/cancel"),
        json!({}),
    )
    .await;
    assert_eq!(r.json()["challenge"]["status"], "cancelled", "{}", r.body);
    loop {
        let c = recv_type(&mut kofi_ws, "challenge").await;
        if c["challenge"]["id"] == json!(third) && c["challenge"]["status"] == "cancelled" {
            break;
        }
    }

    // Expired after ten minutes on the server's clock, not the wall's.
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let fourth = r.json()["id"].as_str().unwrap().to_string();
    time.advance(Duration::from_millis(
        oware_server::hub::CHALLENGE_MS as u64,
    ));
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/challenges/{fourth}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(
        refusal(&r),
        (409, "not_allowed".into(), json!("challenge_closed"))
    );
    let open = as_browser(KOFI, addr, &kofi, "GET", "/api/v1/challenges", None).await;
    assert_eq!(open.json()["challenges"], json!([]), "{}", open.body);

    // A flood: at most three open challenges per challenger, whichever
    // address they come from; then the per-client allowance of new games.
    for src in [AMA, [127, 0, 0, 12], [127, 0, 0, 13]] {
        let r = post_signed_in(
            src,
            addr,
            &ama,
            "/api/v1/players/Kofi/challenge",
            untimed.clone(),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = post_signed_in(
        [127, 0, 0, 14],
        addr,
        &ama,
        "/api/v1/players/Esi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(
        refusal(&r),
        (409, "not_allowed".into(), json!("too_many_challenges"))
    );
    // Esi is not held back by Ama's flood.
    let r = post_signed_in(
        ESI,
        addr,
        &esi,
        "/api/v1/players/Kofi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let esis = r.json()["id"].as_str().unwrap().to_string();
    let mut refused = None;
    for _ in 0..10 {
        let r = post_signed_in(
            [127, 0, 0, 15],
            addr,
            &ama,
            "/api/v1/players/Esi/challenge",
            untimed.clone(),
        )
        .await;
        if r.status == 429 {
            refused = Some(r);
            break;
        }
    }
    assert_eq!(refused.expect("rate limited").code(), "rate_limited");

    // A block in the middle: Kofi blocks Esi, and her open challenge can no
    // longer be accepted; new ones are refused either way.
    let r = post_signed_in(KOFI, addr, &kofi, "/api/v1/players/Esi/block", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/challenges/{esis}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(refusal(&r), (409, "not_allowed".into(), json!("blocked")));
    time.advance(Duration::from_secs(61));
    let r = post_signed_in(
        ESI,
        addr,
        &esi,
        "/api/v1/players/Kofi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(refusal(&r), (409, "not_allowed".into(), json!("blocked")));
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        "/api/v1/players/Esi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(refusal(&r), (409, "not_allowed".into(), json!("blocked")));

    // An account deleted in the middle: its challenges go with it.
    let r = post_signed_in(
        ESI,
        addr,
        &esi,
        "/api/v1/account/delete",
        json!({"password": "a-long-password"}),
    )
    .await;
    assert!(r.status < 300, "{}", r.body);
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/challenges/{esis}/decline"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        "/api/v1/players/Esi/challenge",
        untimed.clone(),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.body);
}
