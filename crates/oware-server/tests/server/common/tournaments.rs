//! Tournament helpers for the integration tests: players signed up from
//! their own loopback addresses, their calls, and waiting for a
//! tournament to reach a state.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::*;

pub fn src(i: usize) -> [u8; 4] {
    [127, 0, 1, 10 + i as u8]
}

pub struct Player {
    pub src: [u8; 4],
    pub b: Browser,
    pub name: String,
}

pub async fn players(addr: SocketAddr, n: usize) -> Vec<Player> {
    let mut out = Vec::new();
    for i in 0..n {
        let name = format!("Player{i}");
        let b = sign_up_from(src(i), addr, &name, "a-long-password").await;
        out.push(Player {
            src: src(i),
            b,
            name,
        });
    }
    out
}

pub async fn call(
    addr: SocketAddr,
    p: &Player,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Resp {
    as_browser(p.src, addr, &p.b, method, path, body).await
}

pub async fn view(addr: SocketAddr, p: &Player, id: &str) -> Value {
    let r = call(addr, p, "GET", &format!("/api/v1/tournaments/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Waits (asking as `p`, which marks them present) until `done` holds,
/// moving the server's manual clock on by a director's tick between two
/// looks (`POST /api/v1/clock`), so its rounds run in virtual time.
pub async fn wait_for(
    addr: SocketAddr,
    p: &Player,
    id: &str,
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let v = view(addr, p, id).await;
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < until, "waited for {what}: {v:#}");
        tick(addr).await;
    }
}

/// `p` resigns their current game (seated through their account).
pub async fn resign(addr: SocketAddr, p: &Player, game: &str) {
    let (seated, token) = seated(addr, p, game).await;
    assert_eq!(seated["game"]["rated"], true, "{}", seated["game"]);
    let r = post(
        addr,
        &format!("/api/v1/games/{game}/resign"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// `p` takes their seat in `game`: the answer, and their seat token.
async fn seated(addr: SocketAddr, p: &Player, game: &str) -> (Value, String) {
    let r = call(
        addr,
        p,
        "POST",
        &format!("/api/v1/games/{game}/seat"),
        Some(json!({})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let seated = r.json();
    let you = seated["you"].as_str().unwrap().to_string();
    let token = seated["tokens"][&you].as_str().unwrap().to_string();
    (seated, token)
}

pub fn create(kind: &str, extra: Value) -> Value {
    let mut body = json!({
        "kind": kind,
        "name": format!("Test {kind}"),
        "time_control": {"initial_ms": 180_000, "increment_ms": 2_000},
        "starts_in_s": 0,
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

/// Plays the Swiss round under way: in every game each side moves once,
/// then South resigns. Returns the round's games and bye.
pub async fn play_swiss_round(
    addr: SocketAddr,
    ps: &[Player],
    id: &str,
    round: u64,
) -> (Vec<String>, Vec<String>) {
    let v = wait_for(addr, &ps[0], id, "the round's pairings", |v| {
        v["round"].as_u64() == Some(round)
    })
    .await;
    let pairings: Vec<&Value> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["round"].as_u64() == Some(round))
        .collect();
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for g in pairings {
        match g["id"].as_str() {
            Some(game) => {
                play_and_resign(addr, ps, game).await;
                games.push(game.to_string());
            }
            None => byes.push(g["south"].as_str().unwrap().to_string()),
        }
    }
    (games, byes)
}

/// `p` takes their seat in `game`: their side and seat token.
pub async fn seat(addr: SocketAddr, p: &Player, game: &str) -> (String, String) {
    let (seated, token) = seated(addr, p, game).await;
    (seated["you"].as_str().unwrap().to_string(), token)
}

/// `p` plays the first legal move of `game`, at ply `ply`.
pub async fn play_first_legal(addr: SocketAddr, p: &Player, game: &str, ply: u64) {
    let (_, token) = seat(addr, p, game).await;
    let g = get(addr, &format!("/api/v1/games/{game}")).await.json();
    let mv = legal(&g)[0].clone();
    let r = post(
        addr,
        &format!("/api/v1/games/{game}/moves"),
        json!({"token": token, "move": mv, "ply": ply}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// `p`'s game in tournament `id`, once they are paired (waiting, as `p`).
pub async fn game_of(addr: SocketAddr, p: &Player, id: &str) -> String {
    let v = wait_for(addr, p, id, "a game", |v| v["you"]["game"].is_string()).await;
    v["you"]["game"].as_str().unwrap().to_string()
}

/// A game of `ps` played for real and resigned: each side moves once (a
/// game resigned before that counts for nobody), then South resigns.
pub async fn play_and_resign(addr: SocketAddr, ps: &[Player], game: &str) {
    let g = get(addr, &format!("/api/v1/games/{game}")).await.json();
    let seat = |side: &str| {
        let name = g["seats"][side]["name"].as_str().unwrap().to_string();
        ps.iter().find(|p| p.name == name).unwrap()
    };
    let (south, north) = (seat("S"), seat("N"));
    play_first_legal(addr, south, game, 0).await;
    play_first_legal(addr, north, game, 1).await;
    resign(addr, south, game).await;
}

/// A manual clock for the server, standing at today's date: tournaments'
/// minutes pass when the test moves it (`Time::advance`).
pub fn manual_clock() -> oware_server::time::Time {
    oware_server::time::Time::manual(oware_server::time::Time::wall().unix_ms())
}

/// Moves the server's manual clock on by one tick of the tournaments'
/// director (1 s) and waits for the director's look at the new time to
/// end (its `/metrics` gauge reaches it).
pub async fn tick(addr: SocketAddr) {
    let r = post(addr, "/api/v1/clock", json!({"advance_ms": 1000})).await;
    assert_eq!(r.status, 200, "a manual clock: {}", r.body);
    let now_ms = r.json()["now_ms"].as_i64().expect("the clock's new time");
    director_done(addr, now_ms).await;
}

/// Waits until the director of the server at `addr` has finished a look
/// begun at `at_ms` (the server's clock) or later.
pub async fn director_done(addr: SocketAddr, at_ms: i64) {
    until_gauge(
        addr,
        "oware_director_last_tick_seconds",
        &format!("the director's look at {at_ms}"),
        |last| last >= at_ms,
    )
    .await;
}

/// `ps[0]` creates a tournament from `body` (see [`create`]) and the others
/// join it: its id.
pub async fn create_joined(addr: SocketAddr, ps: &[Player], body: Value) -> String {
    let r = call(addr, &ps[0], "POST", "/api/v1/tournaments", Some(body)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    for p in &ps[1..] {
        let r = call(
            addr,
            p,
            "POST",
            &format!("/api/v1/tournaments/{id}/join"),
            None,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    id
}
