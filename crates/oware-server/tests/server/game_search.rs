//! Searching one's games (`GET /api/v1/account/games?opponent=&result=&mode=&from=&to=`,
//! docs/PROTOCOL.md, "Accounts").

use std::net::SocketAddr;

use serde_json::json;

use crate::common::*;

const AMA: [u8; 4] = [127, 0, 3, 2];
const KOFI: [u8; 4] = [127, 0, 3, 3];
const ESI: [u8; 4] = [127, 0, 3, 4];

/// An online game Ama (South) plays against `who`; South resigns when
/// `ama_resigns`, North otherwise; left running when `finish` is false.
async fn online(
    addr: SocketAddr,
    ama: &Browser,
    (src, who): ([u8; 4], &Browser),
    finish: Option<bool>,
) -> String {
    let r = post_signed_in(
        AMA,
        addr,
        ama,
        "/api/v1/games",
        json!({"mode": "online", "side": "S"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let south = r.json()["tokens"]["S"].as_str().unwrap().to_string();
    let invite = invite_of(&r.json());
    let j = post_signed_in(
        src,
        addr,
        who,
        &format!("/api/v1/games/{id}/join"),
        json!({"invite": invite}),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let north = j.json()["token"].as_str().unwrap().to_string();
    if let Some(ama_resigns) = finish {
        let token = if ama_resigns { south } else { north };
        let r = post(
            addr,
            &format!("/api/v1/games/{id}/resign"),
            json!({"token": token}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    id
}

async fn search(addr: SocketAddr, ama: &Browser, q: &str) -> Vec<String> {
    let r = as_browser(
        AMA,
        addr,
        ama,
        "GET",
        &format!("/api/v1/account/games?{q}"),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{q}: {}", r.body);
    let mut ids: Vec<String> = r.json()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

fn sorted(mut v: Vec<&String>) -> Vec<String> {
    v.sort();
    v.into_iter().cloned().collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_finds_games_by_opponent_result_mode_and_date() {
    let (_dir, server) = start_with(oware_server::Config {
        engine_threads: 1,
        rate_limits: None,
        ..Default::default()
    })
    .await;
    let addr = server.addr();
    let ama = sign_up_from(AMA, addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", "houses-and-seeds").await;
    let esi = sign_up_from(ESI, addr, "Esi", "a-long-password").await;
    let won_kofi = online(addr, &ama, (KOFI, &kofi), Some(false)).await;
    let lost_kofi = online(addr, &ama, (KOFI, &kofi), Some(true)).await;
    let won_esi = online(addr, &ama, (ESI, &esi), Some(false)).await;
    let playing_esi = online(addr, &ama, (ESI, &esi), None).await;
    let r = post_signed_in(AMA, addr, &ama, "/api/v1/games", json!({"mode": "hotseat"})).await;
    let hotseat = r.json()["id"].as_str().unwrap().to_string();
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/games",
        json!({"mode": "computer", "level": 1}),
    )
    .await;
    let computer = r.json()["id"].as_str().unwrap().to_string();

    let all = search(addr, &ama, "").await;
    assert_eq!(all.len(), 6);
    assert_eq!(
        search(addr, &ama, "opponent=kof").await,
        sorted(vec![&won_kofi, &lost_kofi])
    );
    assert_eq!(
        search(addr, &ama, "opponent=KOFI&result=won").await,
        vec![won_kofi.clone()]
    );
    assert_eq!(
        search(addr, &ama, "result=won").await,
        sorted(vec![&won_kofi, &won_esi])
    );
    assert_eq!(
        search(addr, &ama, "result=lost").await,
        vec![lost_kofi.clone()]
    );
    assert_eq!(
        search(addr, &ama, "result=drawn").await,
        Vec::<String>::new()
    );
    assert_eq!(
        search(addr, &ama, "result=ongoing").await,
        sorted(vec![&playing_esi, &hotseat, &computer])
    );
    assert_eq!(
        search(addr, &ama, "mode=hotseat").await,
        vec![hotseat.clone()]
    );
    assert_eq!(
        search(addr, &ama, "opponent=computer").await,
        vec![computer.clone()]
    );
    // Dates: all of them today (UTC, the day of their last change), none
    // next year.
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/games", None).await;
    let today = r.json()["games"][0]["updated_at"].as_str().unwrap()[..10].to_string();
    assert_eq!(
        search(addr, &ama, &format!("from={today}&to={today}"))
            .await
            .len(),
        6
    );
    let next_year = format!("{}{}", today[..4].parse::<u32>().unwrap() + 1, &today[4..]);
    assert!(search(addr, &ama, &format!("from={next_year}"))
        .await
        .is_empty());
    // Refusals, each saying which field.
    for (q, field) in [
        ("result=maybe", "result"),
        ("mode=chess", "mode"),
        ("from=2026-02-30", "from"),
        ("from=2026-12-02&to=2026-12-01", "from"),
    ] {
        let r = as_browser(
            AMA,
            addr,
            &ama,
            "GET",
            &format!("/api/v1/account/games?{q}"),
            None,
        )
        .await;
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        assert!(
            r.json()["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with(field),
            "{q}: {}",
            r.body
        );
    }
    // Not signed in: refused.
    let r = get(addr, "/api/v1/account/games?result=won").await;
    assert_eq!(r.status, 401, "{}", r.body);
}
