//! Follow, block and report a player, and the operator's tools
//! (`oware_server::admin`): docs/PROTOCOL.md, "Players".

use std::net::SocketAddr;

use serde_json::json;

use crate::common::*;

const AMA: [u8; 4] = [127, 0, 0, 2];
const KOFI: [u8; 4] = [127, 0, 0, 3];

/// A public casual game created by `a` (South) and joined by `b`: its id
/// and both seat tokens.
async fn game_between(
    addr: SocketAddr,
    (sa, a): ([u8; 4], &Browser),
    (sb, b): ([u8; 4], &Browser),
) -> Result<(String, String, String), Resp> {
    let r = post_signed_in(
        sa,
        addr,
        a,
        "/api/v1/games",
        json!({"mode": "online", "public": true, "side": "S"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let south = r.json()["tokens"]["S"].as_str().unwrap().to_string();
    let j = post_signed_in(sb, addr, b, &format!("/api/v1/games/{id}/join"), json!({})).await;
    if j.status != 200 {
        return Err(j);
    }
    let north = j.json()["token"].as_str().unwrap().to_string();
    Ok((id, south, north))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_block_and_report() {
    let (dir, server) = start_with(oware_server::Config {
        engine_threads: 1,
        ..Default::default()
    })
    .await;
    let addr = server.addr();
    let ama = sign_up_from(AMA, addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", "houses-and-seeds").await;

    // Following: not oneself, not an unknown name, not anonymously.
    let r = post_signed_in(AMA, addr, &ama, "/api/v1/players/ama/follow", json!({})).await;
    assert_eq!(
        (r.code(), r.json()["error"]["reason"].clone()),
        ("invalid_request".into(), json!("self"))
    );
    let r = post_signed_in(AMA, addr, &ama, "/api/v1/players/Nobody/follow", json!({})).await;
    assert_eq!(r.code(), "not_found");
    let r = post_signed_in(
        AMA,
        addr,
        &Browser::default(),
        "/api/v1/players/Kofi/follow",
        json!({}),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = post_signed_in(AMA, addr, &ama, "/api/v1/players/kofi/follow", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["following"][0]["username"], "Kofi");

    // Kofi's public game in play shows in Ama's relations.
    let esi = sign_up_from([127, 0, 0, 4], addr, "Esi", "a-long-password").await;
    let (g1, s1, _) = game_between(addr, (KOFI, &kofi), ([127, 0, 0, 4], &esi))
        .await
        .unwrap();
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/relations", None).await;
    assert_eq!(
        r.json()["following"][0]["playing"][0]["id"],
        g1.as_str(),
        "{}",
        r.body
    );
    let r = post(
        addr,
        &format!("/api/v1/games/{g1}/resign"),
        json!({"token": s1}),
    )
    .await;
    assert_eq!(r.status, 200);

    // A game between Ama and Kofi, then Kofi blocks Ama.
    let (g2, s2, n2) = game_between(addr, (AMA, &ama), (KOFI, &kofi))
        .await
        .unwrap();
    let r = post_signed_in(KOFI, addr, &kofi, "/api/v1/players/Ama/block", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["blocked"], json!(["Ama"]));
    // Neither may join the other's game, either way round.
    for (a, b) in [((AMA, &ama), (KOFI, &kofi)), ((KOFI, &kofi), (AMA, &ama))] {
        let r = game_between(addr, a, b)
            .await
            .expect_err("a block keeps them apart");
        assert_eq!(r.code(), "not_allowed");
        assert_eq!(r.json()["error"]["reason"], "blocked", "{}", r.body);
    }
    // Ama cannot follow Kofi again, nor chat with him in their game.
    let r = post_signed_in(AMA, addr, &ama, "/api/v1/players/Kofi/follow", json!({})).await;
    assert_eq!(r.json()["error"]["reason"], "blocked", "{}", r.body);
    let mut s = ws(addr, &g2, Some(&s2)).await;
    recv_type(&mut s, "state").await;
    send(&mut s, json!({"type": "chat", "text": "hello"})).await;
    let e = recv_type(&mut s, "error").await;
    assert_eq!(
        (e["code"].as_str(), e["reason"].as_str()),
        (Some("not_allowed"), Some("blocked")),
        "{e}"
    );
    // Nor offer a rematch once it is over.
    let r = post(
        addr,
        &format!("/api/v1/games/{g2}/resign"),
        json!({"token": n2}),
    )
    .await;
    assert_eq!(r.status, 200);
    let r = post(
        addr,
        &format!("/api/v1/games/{g2}/rematch"),
        json!({"token": s2}),
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "blocked", "{}", r.body);
    // Unblocked, they meet again.
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        "/api/v1/players/Ama/block",
        json!({"on": false}),
    )
    .await;
    assert_eq!(r.json()["blocked"], json!([]));
    game_between(addr, (AMA, &ama), (KOFI, &kofi))
        .await
        .unwrap();

    // Reports: a known reason, kept for the operator, ten a day.
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/report",
        json!({"reason": "rude"}),
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "report_reason", "{}", r.body);
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/report",
        json!({"reason": "abuse", "details": "insults in the chat", "game": g2}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let report = r.json()["id"].as_str().unwrap().to_string();
    for _ in 1..10 {
        let r = post_signed_in(
            AMA,
            addr,
            &ama,
            "/api/v1/players/Kofi/report",
            json!({"reason": "other"}),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/players/Kofi/report",
        json!({"reason": "other"}),
    )
    .await;
    assert_eq!(r.code(), "rate_limited", "{}", r.body);

    // The operator reads them from the database, closes one and the account.
    let store = oware_server::admin::Operator::open(
        Some(dir.path().join("games.sqlite3").to_str().unwrap()),
        oware_server::time::Time::wall(),
    )
    .await
    .unwrap();
    let open = store.reports(false).await.unwrap();
    assert_eq!(open.len(), 10);
    let first = open.iter().find(|r| r.id == report).unwrap();
    assert_eq!(first.reporter_name.as_deref(), Some("Ama"));
    assert_eq!(
        (first.reported_name.as_str(), first.reason.as_str()),
        ("Kofi", "abuse")
    );
    assert_eq!(first.game_id.as_deref(), Some(g2.as_str()));
    store.close_report(&report, "warned").await.unwrap();
    assert!(store.close_report(&report, "again").await.is_err());
    assert_eq!(store.reports(false).await.unwrap().len(), 9);
    let all = store.reports(true).await.unwrap();
    assert_eq!(
        all.iter()
            .find(|r| r.id == report)
            .unwrap()
            .resolution
            .as_deref(),
        Some("warned")
    );
    store.close_account("kofi", "abuse").await.unwrap();
    // Kofi's session is gone and he cannot sign in again.
    let r = as_browser(KOFI, addr, &kofi, "GET", "/api/v1/account", None).await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = post_signed_in(
        KOFI,
        addr,
        &Browser::default(),
        "/api/v1/account/signin",
        json!({"username": "Kofi", "password": "houses-and-seeds"}),
    )
    .await;
    assert_eq!(r.json()["error"]["reason"], "account_closed", "{}", r.body);
    assert!(store
        .reports(true)
        .await
        .unwrap()
        .iter()
        .all(|r| r.reported_closed));
}
