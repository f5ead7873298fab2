//! Accounts as an attacker and as players would use them: wrong passwords,
//! guessing in a loop, stolen and expired sessions, requests without the
//! CSRF token, acting on someone else's game or account, names made of
//! HTML, deleting an account; and a rated game that moves both ratings.

use std::net::SocketAddr;

use crate::common::*;
use oware_server::accounts::{token_hash, SessionRow};
use oware_server::store::account_rows::AccountOp;
use oware_server::store::WriteOp;
use oware_server::{Config, RateLimits, Server};
use serde_json::{json, Value};

/// A clock of the slow class (10 min + 5 s): rated games need a deadline.
fn slow() -> Value {
    json!({"initial_ms": 600_000, "increment_ms": 5_000})
}

async fn start() -> (tempfile::TempDir, Server) {
    start_with(Config {
        engine_threads: 1,
        rate_limits: Some(RateLimits {
            sign_ups_per_hour: 100,
            ..RateLimits::default()
        }),
        ..Config::default()
    })
    .await
}

async fn request(
    addr: SocketAddr,
    b: &Browser,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Resp {
    as_browser([127, 0, 0, 1], addr, b, method, path, body).await
}

async fn sign_up(addr: SocketAddr, name: &str, password: &str) -> Browser {
    sign_up_from([127, 0, 0, 1], addr, name, password).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_in_and_out_and_wrong_passwords() {
    let (_dir, server) = start().await;
    let addr = server.addr();
    let ama = sign_up(addr, "Ama", "seeds-and-houses").await;
    let me = request(addr, &ama, "GET", "/api/v1/account", None).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.json()["username"], "Ama");
    assert_eq!(me.json()["ratings"].as_array().unwrap().len(), 4);
    // The name is taken, whatever its case.
    let r = request(
        addr,
        &Browser::default(),
        "POST",
        "/api/v1/account/signup",
        Some(json!({"username": "AMA", "password": "another-password"})),
    )
    .await;
    assert_eq!(r.code(), "username_taken");
    // Wrong password and unknown name: the same answer.
    for (name, pw) in [("Ama", "wrong-password"), ("Nobody", "seeds-and-houses")] {
        let r = request(
            addr,
            &Browser::default(),
            "POST",
            "/api/v1/account/signin",
            Some(json!({"username": name, "password": pw})),
        )
        .await;
        assert_eq!(
            (r.status, r.code()),
            (401, "bad_credentials".into()),
            "{name}"
        );
        assert!(session_cookie(&r).is_none());
    }
    let r = request(
        addr,
        &Browser::default(),
        "POST",
        "/api/v1/account/signin",
        Some(json!({"username": "ama", "password": "seeds-and-houses"})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let second = Browser {
        cookie: session_cookie(&r),
        csrf: r.json()["csrf"].as_str().map(str::to_string),
    };
    // Signing out ends that session only.
    let r = request(addr, &second, "POST", "/api/v1/account/signout", None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = request(addr, &second, "GET", "/api/v1/account", None).await;
    assert_eq!(r.code(), "not_signed_in");
    let r = request(addr, &ama, "GET", "/api/v1/account", None).await;
    assert_eq!(r.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_a_password_in_a_loop_is_throttled() {
    let (_dir, server) = start().await;
    let addr = server.addr();
    sign_up(addr, "Kofi", "a-long-password").await;
    let mut statuses = Vec::new();
    for i in 0..7 {
        let r = request(
            addr,
            &Browser::default(),
            "POST",
            "/api/v1/account/signin",
            Some(json!({"username": "Kofi", "password": format!("guess-{i}")})),
        )
        .await;
        statuses.push(r.status);
    }
    assert_eq!(statuses[..5], [401; 5]);
    assert_eq!(statuses[5..], [429; 2]);
    // Even the right password waits now: the account is throttled.
    let r = request(
        addr,
        &Browser::default(),
        "POST",
        "/api/v1/account/signin",
        Some(json!({"username": "Kofi", "password": "a-long-password"})),
    )
    .await;
    assert_eq!(r.code(), "rate_limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_stolen_and_expired_sessions_and_missing_csrf_tokens() {
    let (_dir, server) = start().await;
    let addr = server.addr();
    let ama = sign_up(addr, "Ama", "seeds-and-houses").await;
    // A made-up cookie is no session.
    let forged = Browser {
        cookie: Some("0".repeat(64)),
        csrf: None,
    };
    let r = request(addr, &forged, "GET", "/api/v1/account", None).await;
    assert_eq!(r.code(), "not_signed_in");
    // A stolen cookie without the CSRF token cannot change anything (a page
    // on another site sends the cookie, but cannot read the token).
    let no_csrf = Browser {
        cookie: ama.cookie.clone(),
        csrf: None,
    };
    for (path, body) in [
        ("/api/v1/account/signout", json!({})),
        (
            "/api/v1/account/password",
            json!({"old_password": "seeds-and-houses", "new_password": "stolen-now-1"}),
        ),
        (
            "/api/v1/account/delete",
            json!({"password": "seeds-and-houses"}),
        ),
        ("/api/v1/games", json!({"mode": "online"})),
    ] {
        let r = request(addr, &no_csrf, "POST", path, Some(body)).await;
        assert_eq!((r.status, r.code()), (403, "bad_csrf".into()), "{path}");
    }
    let wrong = Browser {
        cookie: ama.cookie.clone(),
        csrf: Some("f".repeat(32)),
    };
    let r = request(addr, &wrong, "POST", "/api/v1/account/signout", None).await;
    assert_eq!(r.code(), "bad_csrf");
    // An expired session is no session.
    let token = "e".repeat(64);
    // Through the operator's own opening of the database: the hub keeps
    // its store to itself.
    let store = oware_server::store::open(Some(server.db())).await.unwrap();
    let account_id = {
        let me = store.account_by_name("ama").unwrap().unwrap();
        me.id
    };
    store
        .write(WriteOp::Account(AccountOp::CreateSession(SessionRow {
            token_hash: token_hash(&token),
            account_id,
            csrf: "c".repeat(32),
            created_at: 0,
            expires_at: 1,
        })))
        .await
        .unwrap()
        .unwrap();
    let expired = Browser {
        cookie: Some(token),
        csrf: Some("c".repeat(32)),
    };
    let r = request(addr, &expired, "GET", "/api/v1/account", None).await;
    assert_eq!(r.code(), "not_signed_in");
    // A password change signs out every other session.
    let other = {
        let r = request(
            addr,
            &Browser::default(),
            "POST",
            "/api/v1/account/signin",
            Some(json!({"username": "Ama", "password": "seeds-and-houses"})),
        )
        .await;
        Browser {
            cookie: session_cookie(&r),
            csrf: r.json()["csrf"].as_str().map(str::to_string),
        }
    };
    let r = request(
        addr,
        &ama,
        "POST",
        "/api/v1/account/password",
        Some(json!({"old_password": "seeds-and-houses", "new_password": "new-seeds-and-houses"})),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = request(addr, &other, "GET", "/api/v1/account", None).await;
    assert_eq!(r.code(), "not_signed_in");
    let r = request(addr, &ama, "GET", "/api/v1/account", None).await;
    assert_eq!(r.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_made_of_html_are_refused_and_other_peoples_games_are_out_of_reach() {
    let (_dir, server) = start().await;
    let addr = server.addr();
    for name in ["<script>", "<b>x</b>", "a&amp;b", "admin"] {
        let r = request(
            addr,
            &Browser::default(),
            "POST",
            "/api/v1/account/signup",
            Some(json!({"username": name, "password": "a-long-password"})),
        )
        .await;
        assert_eq!(r.code(), "invalid_request", "{name}");
    }
    let ama = sign_up(addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up(addr, "Kofi", "houses-and-seeds").await;
    // Ama's game: Kofi, signed in, holds no seat of it.
    let r = request(
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "hotseat"})),
    )
    .await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    for (path, body) in [
        ("moves", json!({"move": "F", "ply": 0})),
        ("resign", json!({})),
        ("undo", json!({})),
    ] {
        let r = request(
            addr,
            &kofi,
            "POST",
            &format!("/api/v1/games/{id}/{path}"),
            Some(body),
        )
        .await;
        assert_eq!(r.code(), "missing_token", "{path}");
    }
    // Kofi's own games do not list it; Ama's do, with her seats (their
    // tokens are not stored: she asks for her own on this device).
    let r = request(addr, &kofi, "GET", "/api/v1/account/games", None).await;
    assert_eq!(r.json()["games"].as_array().unwrap().len(), 0);
    let r = request(addr, &ama, "GET", "/api/v1/account/games", None).await;
    assert_eq!(r.json()["games"][0]["id"], id.as_str());
    assert_eq!(r.json()["games"][0]["mine"], json!(["S", "N"]));
    let r = request(
        addr,
        &ama,
        "POST",
        &format!("/api/v1/games/{id}/seat"),
        Some(json!({})),
    )
    .await;
    assert!(r.json()["tokens"]["S"].is_string(), "{}", r.body);
    assert!(r.json()["tokens"]["N"].is_string(), "{}", r.body);
    // A rated game cannot be played against oneself.
    let r = request(
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "online", "rated": true, "public": true, "time_control": slow()})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let rid = r.json()["id"].as_str().unwrap().to_string();
    let r = request(
        addr,
        &ama,
        "POST",
        &format!("/api/v1/games/{rid}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.code(), "not_allowed");
    // Nor anonymously.
    let r = request(
        addr,
        &Browser::default(),
        "POST",
        &format!("/api/v1/games/{rid}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.code(), "not_signed_in");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_both_ratings_and_a_deleted_account_leaves_its_games() {
    let (_dir, server) = start().await;
    let addr = server.addr();
    let ama = sign_up(addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up(addr, "Kofi", "houses-and-seeds").await;
    let r = request(
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(
            json!({"mode": "online", "rated": true, "public": true, "side": "S",
                    "time_control": slow()}),
        ),
    )
    .await;
    let c = r.json();
    let id = c["id"].as_str().unwrap().to_string();
    let ama_token = c["tokens"]["S"].as_str().unwrap().to_string();
    assert_eq!(c["game"]["seats"]["S"]["name"], "Ama");
    let r = request(
        addr,
        &kofi,
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["game"]["seats"]["N"]["name"], "Kofi");
    let kofi_token = r.json()["token"].as_str().unwrap().to_string();
    // One move each (a resignation before that would abort the game).
    for (ply, (mv, token)) in [("F", &ama_token), ("f", &kofi_token)]
        .into_iter()
        .enumerate()
    {
        let r = request(
            addr,
            &Browser::default(),
            "POST",
            &format!("/api/v1/games/{id}/moves"),
            Some(json!({"token": token, "move": mv, "ply": ply})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = request(
        addr,
        &ama,
        "POST",
        &format!("/api/v1/games/{id}/resign"),
        Some(json!({"token": ama_token})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let profile = |name: &'static str| async move {
        request(
            addr,
            &Browser::default(),
            "GET",
            &format!("/api/v1/players/{name}"),
            None,
        )
        .await
        .json()
    };
    let slow = |p: &Value| {
        p["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["class"] == "slow")
            .unwrap()
            .clone()
    };
    let (a, k) = (profile("Ama").await, profile("Kofi").await);
    let (ra, rk) = (slow(&a), slow(&k));
    assert!(ra["rating"].as_i64().unwrap() < 1500, "{ra}");
    assert!(rk["rating"].as_i64().unwrap() > 1500, "{rk}");
    assert_eq!(ra["games"], 1);
    assert_eq!(ra["provisional"], true);
    assert_eq!(a["history"].as_array().unwrap().len(), 1);
    assert_eq!(a["games"][0]["id"], id.as_str());
    // Provisional ratings stay off the leaderboard.
    let board = request(
        addr,
        &Browser::default(),
        "GET",
        "/api/v1/ratings/slow",
        None,
    )
    .await;
    assert_eq!(board.json()["players"].as_array().unwrap().len(), 0);
    // Kofi deletes his account: the game stays, his seat anonymous.
    let r = request(
        addr,
        &kofi,
        "POST",
        "/api/v1/account/delete",
        Some(json!({"password": "houses-and-seeds"})),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["seats"]["N"]["name"], "Deleted player");
    assert_eq!(g["status"], "over");
    let r = request(
        addr,
        &Browser::default(),
        "GET",
        "/api/v1/players/Kofi",
        None,
    )
    .await;
    assert_eq!(r.code(), "not_found");
    let r = request(
        addr,
        &Browser::default(),
        "POST",
        "/api/v1/account/signin",
        Some(json!({"username": "Kofi", "password": "houses-and-seeds"})),
    )
    .await;
    assert_eq!(r.code(), "bad_credentials");
    let r = request(addr, &kofi, "GET", "/api/v1/account", None).await;
    assert_eq!(r.code(), "not_signed_in");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_keeps_out_players_outside_its_rating_range() {
    let (_dir, server) = start().await;
    let addr = server.addr();
    let ama = sign_up(addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up(addr, "Kofi", "houses-and-seeds").await;
    let r = request(
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(
            json!({"mode": "online", "rated": true, "public": true, "time_control": slow(),
                    "rating_range": {"min": 1600, "max": 2000}}),
        ),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    // The lobby shows the seek with its range and the seeker's rating.
    let lobby = get(addr, "/api/v1/lobby").await.json();
    let seek = &lobby["games"][0];
    assert_eq!(seek["rating_range"]["min"], 1600);
    assert_eq!(seek["rated"], true);
    let seeker = if seek["seats"]["S"]["taken"] == true {
        &seek["seats"]["S"]
    } else {
        &seek["seats"]["N"]
    };
    assert_eq!(seeker["rating"]["rating"], 1500);
    assert_eq!(seeker["rating"]["provisional"], true);
    let r = request(
        addr,
        &kofi,
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.code(), "not_allowed");
    assert_eq!(r.json()["error"]["reason"], "out_of_range");
    // A range on a casual game makes no sense.
    let r = request(
        addr,
        &ama,
        "POST",
        "/api/v1/games",
        Some(json!({"mode": "online", "rating_range": {"min": 1, "max": 2}})),
    )
    .await;
    assert_eq!(r.code(), "invalid_request");
}

/// Regression: "My games" said "Their move" for every game in progress,
/// since the list read the game's row, which a plain move does not
/// rewrite (it stores only its ply): ply 0, South to move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_carry_the_real_ply_and_side_to_move() {
    let (_dir, server) = start().await;
    let addr = server.addr();
    let ama = sign_up(addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up(addr, "Kofi", "houses-and-seeds").await;
    // A correspondence game played to ply 5 and a 5+3 game to ply 2.
    let mut games = Vec::new();
    for (tc, moves) in [
        (json!({"days_per_move": 3}), &["F", "f", "E", "e", "D"][..]),
        (
            json!({"initial_ms": 300_000, "increment_ms": 3_000}),
            &["C", "c"][..],
        ),
    ] {
        let r = request(
            addr,
            &ama,
            "POST",
            "/api/v1/games",
            Some(json!({"mode": "online", "side": "S", "time_control": tc})),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
        let id = r.json()["id"].as_str().unwrap().to_string();
        let south = r.json()["tokens"]["S"].as_str().unwrap().to_string();
        let invite = invite_of(&r.json());
        let r = request(
            addr,
            &kofi,
            "POST",
            &format!("/api/v1/games/{id}/join"),
            Some(json!({"invite": invite})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let north = r.json()["token"].as_str().unwrap().to_string();
        for (ply, mv) in moves.iter().enumerate() {
            let token = if ply % 2 == 0 { &south } else { &north };
            let r = request(
                addr,
                &Browser::default(),
                "POST",
                &format!("/api/v1/games/{id}/moves"),
                Some(json!({"token": token, "move": mv, "ply": ply})),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        games.push((id, moves.len()));
    }
    for who in [&ama, &kofi] {
        let r = request(addr, who, "GET", "/api/v1/account/games", None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let list = r.json()["games"].as_array().unwrap().clone();
        for (id, plies) in &games {
            let g = list.iter().find(|g| g["id"] == id.as_str()).unwrap();
            // The game's own view says the same.
            let view = request(addr, who, "GET", &format!("/api/v1/games/{id}"), None)
                .await
                .json();
            assert_eq!(g["ply"], *plies, "{g}");
            assert_eq!(g["to_move"], if plies % 2 == 0 { "S" } else { "N" }, "{g}");
            assert_eq!(g["to_move"], view["to_move"], "{g}");
            assert_eq!(g["score"], view["score"], "{g}");
        }
    }
}
