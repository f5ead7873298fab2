//! A lobby that stays true (issue 23): a seek is listed while its creator
//! is connected, and cancelled soon after they leave, when they cancel it,
//! or when nobody takes it; a cancelled seek refuses every command. On one
//! node (SQLite) and across two nodes sharing PostgreSQL.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use oware_server::config::Config;
use oware_server::time::Time;
use serde_json::{json, Value};

use crate::common::{get, post, recv_type, send, start_with, until_gauge, ws};

/// A short grace, so the test waits seconds, not the default 15 s.
const GRACE: Duration = Duration::from_secs(1);

fn config() -> Config {
    Config {
        engine_threads: 1,
        seek_grace: GRACE,
        ..Config::default()
    }
}

/// Moves the server's manual clock on by `d` and waits until the lobby has
/// been swept after that: a canary seek, whose creator never connects, is
/// cancelled. What the sweep left standing it has judged.
async fn swept_after(time: &Time, addr: SocketAddr, d: Duration) {
    let (canary, _) = seek(addr).await;
    time.advance(d);
    gone_within(addr, &canary, Duration::from_secs(10), Some(time)).await;
    // No round is left to run at the clock's time: the last one finished
    // began less than a round ago (`SEEN_EVERY`, 2 s). A round still due
    // would judge what the test does next against a clock far past the
    // last time the seeks were seen.
    let now = time.unix_ms();
    until_gauge(
        addr,
        "oware_lobby_last_round_seconds",
        &format!("the lobby's round at {now}"),
        |last| last > now - 2000,
    )
    .await;
}

/// A public online game (a seek): its id and the creator's token.
async fn seek(addr: SocketAddr) -> (String, String) {
    let r = post(
        addr,
        "/api/v1/games",
        json!({"mode": "online", "public": true, "name": "Ama"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    let token = v["tokens"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    (v["id"].as_str().unwrap().to_string(), token)
}

async fn listed(addr: SocketAddr) -> Vec<String> {
    get(addr, "/api/v1/lobby").await.json()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

async fn status(addr: SocketAddr, id: &str) -> Value {
    get(addr, &format!("/api/v1/games/{id}")).await.json()["status"].clone()
}

/// Waits (polling, up to `within`) until `id` has left the lobby of
/// `addr`; returns how long that took. With a manual `clock`, each poll
/// also moves it on by the lobby task's round (2 s): the task sleeps on
/// the server's clock, and a round that was running when the test moved
/// the clock waits for the next move.
async fn gone_within(
    addr: SocketAddr,
    id: &str,
    within: Duration,
    clock: Option<&Time>,
) -> Duration {
    let started = Instant::now();
    while listed(addr).await.contains(&id.to_string()) {
        assert!(
            started.elapsed() < within,
            "seek {id} still listed after {within:?}"
        );
        match clock {
            Some(time) => {
                time.advance(Duration::from_secs(2));
                tokio::task::yield_now().await;
            }
            None => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
    started.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_listed_while_its_creator_is_there() {
    // On a manual clock: the grace passes when the test says.
    let time = Time::manual(Time::wall().unix_ms());
    let (_dir, server) = start_with(Config {
        time: time.clone(),
        ..config()
    })
    .await;
    let addr = server.addr();

    // Listed while the creator's page is open, many times the grace.
    let (id, token) = seek(addr).await;
    let mut creator = ws(addr, &id, Some(&token)).await;
    recv_type(&mut creator, "state").await;
    swept_after(&time, addr, GRACE * 60).await;
    assert_eq!(listed(addr).await, vec![id.clone()]);

    // A reload (close, reconnect at once) keeps it.
    creator.close(None).await.unwrap();
    let mut creator = ws(addr, &id, Some(&token)).await;
    recv_type(&mut creator, "state").await;
    swept_after(&time, addr, GRACE * 60).await;
    assert_eq!(listed(addr).await, vec![id.clone()]);

    // The creator leaves: the seek goes once the grace has passed.
    creator.close(None).await.unwrap();
    time.advance(GRACE * 2);
    let took = gone_within(addr, &id, Duration::from_secs(8), Some(&time)).await;
    eprintln!("seek gone {took:?} after its creator left");
    assert_eq!(status(addr, &id).await, "cancelled");
    // Nobody can join it now, and its creator cannot play on it.
    let j = post(addr, &format!("/api/v1/games/{id}/join"), json!({})).await;
    assert_eq!(j.code(), "game_over", "{}", j.body);
    assert_eq!(j.json()["error"]["reason"], "cancelled", "{}", j.body);

    // A seek whose creator never connects goes the same way.
    let (never, _) = seek(addr).await;
    time.advance(GRACE * 2);
    gone_within(addr, &never, Duration::from_secs(8), Some(&time)).await;

    // A seek taken before its creator leaves is a game: it stays.
    let (taken, token) = seek(addr).await;
    let mut creator = ws(addr, &taken, Some(&token)).await;
    recv_type(&mut creator, "state").await;
    let j = post(addr, &format!("/api/v1/games/{taken}/join"), json!({})).await;
    assert_eq!(j.status, 200, "{}", j.body);
    creator.close(None).await.unwrap();
    swept_after(&time, addr, GRACE * 60).await;
    assert_eq!(status(addr, &taken).await, "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_creator_cancels_a_seek() {
    let (_dir, server) = start_with(config()).await;
    let addr = server.addr();

    // Over HTTP: only with the seat's token.
    let (id, token) = seek(addr).await;
    let mut creator = ws(addr, &id, Some(&token)).await;
    recv_type(&mut creator, "state").await;
    let path = format!("/api/v1/games/{id}/cancel");
    assert_eq!(post(addr, &path, json!({})).await.code(), "missing_token");
    let wrong = post(
        addr,
        &path,
        json!({"token": "0123456789abcdef0123456789abcdef"}),
    )
    .await;
    assert_eq!(wrong.code(), "bad_token");
    let ok = post(addr, &path, json!({"token": token})).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.json()["game"]["status"], "cancelled");
    // The creator's page hears it, and the lobby no longer lists it.
    let state = recv_type(&mut creator, "state").await;
    assert_eq!(state["game"]["status"], "cancelled", "{state}");
    assert!(listed(addr).await.is_empty());
    // Cancelling twice, or a move, is refused with the reason.
    let again = post(addr, &path, json!({"token": token})).await;
    assert_eq!(again.code(), "game_over");
    assert_eq!(again.json()["error"]["reason"], "cancelled");

    // Over the WebSocket.
    let (id, token) = seek(addr).await;
    let mut creator = ws(addr, &id, Some(&token)).await;
    recv_type(&mut creator, "state").await;
    send(&mut creator, json!({"type": "cancel"})).await;
    let state = recv_type(&mut creator, "state").await;
    assert_eq!(state["game"]["status"], "cancelled", "{state}");

    // A game under way cannot be cancelled.
    let (id, token) = seek(addr).await;
    post(addr, &format!("/api/v1/games/{id}/join"), json!({})).await;
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/cancel"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(r.code(), "not_allowed", "{}", r.body);
    assert_eq!(r.json()["error"]["reason"], "not_waiting");
}

/// Two nodes on one PostgreSQL database: a seek whose creator is connected
/// to node A stays in B's lobby (A says it is seen), and goes from both
/// when the creator leaves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_stays_true_across_two_nodes_on_postgresql() {
    let Some(cluster) = crate::common::pg::Cluster::start() else {
        return;
    };
    let url = cluster.database("lobby");
    // Across nodes the seek stays only while A's last "seen" mark (every
    // 2 s) is younger than the grace when B sweeps (every 2 s, out of
    // step with A): the grace must exceed those 2 s and a busy machine's
    // delays, as the default 15 s does. One node needs no such margin (it
    // knows its own connections), so the other tests keep 1 s.
    let grace = Duration::from_secs(5);
    // Both nodes on one manual clock, moved a round (2 s) at a time; after
    // each move the test waits until both nodes' rounds for that time are
    // done, so A's "seen" mark and B's sweep of each round are both in.
    let time = Time::manual(Time::wall().unix_ms());
    let node = || async {
        oware_server::Server::start(oware_server::ServerOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            postgres: Some(url.clone()),
            config: Config {
                seek_grace: grace,
                time: time.clone(),
                ..config()
            },
            ..oware_server::ServerOptions::default()
        })
        .await
        .expect("node starts")
    };
    let (node_a, node_b) = (node().await, node().await);
    let (a, b) = (node_a.addr(), node_b.addr());
    let round = || async {
        time.advance(Duration::from_secs(2));
        let at = time.unix_ms();
        let started = Instant::now();
        for n in [&node_a, &node_b] {
            while n.hub().metrics().lobby_done_at() < at {
                assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "a lobby round did not end"
                );
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
    };
    let (id, token) = seek(a).await;
    let mut creator = ws(a, &id, Some(&token)).await;
    recv_type(&mut creator, "state").await;
    // Four rounds of both nodes, longer than the grace: still listed.
    for _ in 0..4 {
        round().await;
    }
    assert_eq!(listed(b).await, vec![id.clone()]);
    creator.close(None).await.unwrap();
    // Gone within the grace and two rounds.
    let mut rounds = 0;
    while listed(b).await.contains(&id) {
        assert!(rounds <= 5, "seek {id} still listed after {rounds} rounds");
        round().await;
        rounds += 1;
    }
    assert!(listed(a).await.is_empty());
    assert_eq!(status(b, &id).await, "cancelled");
}
