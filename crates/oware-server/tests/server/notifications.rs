//! Notifications and who is online (docs/PROTOCOL.md, "Notifications"):
//! a correspondence move tells the player to move, live on their account
//! socket and in the unread count; notifications are paged, marked read,
//! bounded, never sent between players who block one another, and go
//! with a deleted account. Attacked as a stranger: no session, another
//! account's ids, garbage on the socket. On a manual clock; every wait is
//! for an event, with a time-out.

use std::net::SocketAddr;

use futures_util::SinkExt;
use oware_server::store::notifications::{Kind, KEEP};
use oware_server::time::Time;
use oware_server::Config;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

const AMA: [u8; 4] = [127, 0, 0, 2];
const KOFI: [u8; 4] = [127, 0, 0, 3];
const ESI: [u8; 4] = [127, 0, 0, 4];

/// A server without rate limits on a manual clock standing at now.
async fn on_a_manual_clock() -> (Time, tempfile::TempDir, oware_server::Server) {
    let time = Time::manual(Time::wall().unix_ms());
    let (dir, server) = start_with(Config {
        engine_threads: 1,
        rate_limits: None,
        time: time.clone(),
        ..Config::default()
    })
    .await;
    (time, dir, server)
}

/// An account socket opened by `b` (its session cookie); `None` when the
/// server refuses the upgrade.
pub async fn account_ws(addr: SocketAddr, b: &Browser) -> Result<Ws, String> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/v1/account/ws")
        .into_client_request()
        .unwrap();
    if let Some(c) = &b.cookie {
        req.headers_mut()
            .insert("cookie", format!("oware_session={c}").parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(e) => Err(e.to_string()),
    }
}

async fn unread(src: [u8; 4], addr: SocketAddr, b: &Browser) -> u64 {
    let r = as_browser(src, addr, b, "GET", "/api/v1/account", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["unread"].as_u64().expect("unread in /account")
}

async fn online(addr: SocketAddr, name: &str) -> bool {
    let r = get(addr, &format!("/api/v1/players/{name}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["online"].as_bool().expect("online in a profile")
}

/// A public game between people, `a` South and `b` North, with
/// `time_control`: id and both tokens.
pub async fn game_between(
    addr: SocketAddr,
    (sa, a): ([u8; 4], &Browser),
    (sb, b): ([u8; 4], &Browser),
    time_control: Value,
) -> (String, String, String) {
    let r = post_signed_in(
        sa,
        addr,
        a,
        "/api/v1/games",
        json!({"mode": "online", "public": true, "side": "S", "time_control": time_control}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let south = r.json()["tokens"]["S"].as_str().unwrap().to_string();
    let j = post_signed_in(sb, addr, b, &format!("/api/v1/games/{id}/join"), json!({})).await;
    assert_eq!(j.status, 200, "{}", j.body);
    (id, south, j.json()["token"].as_str().unwrap().to_string())
}

/// A correspondence game, `a` South and `b` North: id and both tokens.
async fn correspondence(
    addr: SocketAddr,
    a: ([u8; 4], &Browser),
    b: ([u8; 4], &Browser),
) -> (String, String, String) {
    game_between(addr, a, b, json!({"days_per_move": 3})).await
}

/// A live game, 5 minutes + 3 s, `a` South and `b` North: id and both
/// tokens.
pub async fn live_game(
    addr: SocketAddr,
    a: ([u8; 4], &Browser),
    b: ([u8; 4], &Browser),
) -> (String, String, String) {
    game_between(
        addr,
        a,
        b,
        json!({"initial_ms": 300_000, "increment_ms": 3_000}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_move_notifies_the_player_to_move_live_and_once() {
    let (time, _dir, server) = on_a_manual_clock().await;
    let addr = server.addr();
    let ama = sign_up_from(AMA, addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", "houses-and-seeds").await;

    // Strangers: no session, no notifications and no socket.
    let r = get_as(ESI, addr, "/api/v1/account/notifications").await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert!(account_ws(addr, &Browser::default()).await.is_err());

    // Online while an account socket is open; the socket opens with the count.
    assert!(!online(addr, "Kofi").await);
    let mut kofi_ws = account_ws(addr, &kofi).await.unwrap();
    assert_eq!(
        recv(&mut kofi_ws).await,
        json!({"type": "unread", "unread": 0})
    );
    assert!(online(addr, "kofi").await);
    let mut ama_ws = account_ws(addr, &ama).await.unwrap();
    assert_eq!(recv_type(&mut ama_ws, "unread").await["unread"], 0);

    // Ama moves: Kofi is told, live and in his count.
    let (id, south, north) = correspondence(addr, (AMA, &ama), (KOFI, &kofi)).await;
    play_first_legal_move(addr, &id, &south, 0).await;
    let n = recv_type(&mut kofi_ws, "notification").await;
    assert_eq!(n["unread"], 1, "{n}");
    let note = &n["notification"];
    assert_eq!(
        (&note["kind"], &note["game"], &note["from"], &note["read"]),
        (
            &json!("your_turn"),
            &json!(id),
            &json!("Ama"),
            &json!(false)
        )
    );
    assert!(note.get("account").is_none() && note.get("from_account").is_none());
    let first = note["id"].as_str().unwrap().to_string();
    assert_eq!(unread(KOFI, addr, &kofi).await, 1);
    // Ama's own move reads hers (none) and sends her count.
    assert_eq!(recv_type(&mut ama_ws, "unread").await["unread"], 0);

    // Kofi moves: his "your turn" is read, Ama is told.
    time.advance(std::time::Duration::from_secs(3600));
    play_first_legal_move(addr, &id, &north, 1).await;
    assert_eq!(recv_type(&mut ama_ws, "notification").await["unread"], 1);
    assert_eq!(recv_type(&mut kofi_ws, "unread").await["unread"], 0);
    // Seeing the game's page reads its "your turn" (another game's, or
    // another account's, is left alone).
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/account/notifications/read",
        json!({"game": "nosuchgame"}),
    )
    .await;
    assert_eq!(r.json(), json!({"unread": 1}), "{}", r.body);
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        "/api/v1/account/notifications/read",
        json!({"game": id}),
    )
    .await;
    assert_eq!(r.json(), json!({"unread": 0}), "{}", r.body);
    assert_eq!(unread(AMA, addr, &ama).await, 1);
    assert_eq!(recv_type(&mut ama_ws, "unread").await["unread"], 1);
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/account/notifications/read",
        json!({"game": id}),
    )
    .await;
    assert_eq!(r.json(), json!({"unread": 0}), "{}", r.body);
    assert_eq!(recv_type(&mut ama_ws, "unread").await["unread"], 0);
    let list = as_browser(
        KOFI,
        addr,
        &kofi,
        "GET",
        "/api/v1/account/notifications",
        None,
    )
    .await;
    assert_eq!(list.json()["unread"], 0, "{}", list.body);
    assert_eq!(list.json()["items"][0]["id"], json!(first));
    assert_eq!(list.json()["items"][0]["read"], true);

    // At most one unread "your turn" per game: once read, a new one is
    // stored; a second for the same game, while that is unread, is not.
    let hub = server.hub();
    let ama_id = account_id(&server, "Ama").await;
    let mut again = hub.notifications().draft(&ama_id, Kind::YourTurn);
    again.game = Some(id.clone());
    assert!(hub.notifications().notify(again.clone()).await.unwrap());
    assert_eq!(recv_type(&mut ama_ws, "notification").await["unread"], 1);
    again.id = "another-id".into();
    assert!(!hub.notifications().notify(again).await.unwrap());
    assert_eq!(unread(AMA, addr, &ama).await, 1);

    // Marking read: someone else's ids change nothing; garbage is refused.
    let amas = as_browser(
        AMA,
        addr,
        &ama,
        "GET",
        "/api/v1/account/notifications",
        None,
    )
    .await;
    let amas_id = amas.json()["items"][0]["id"].as_str().unwrap().to_string();
    let r = post_signed_in(
        KOFI,
        addr,
        &kofi,
        "/api/v1/account/notifications/read",
        json!({"ids": [amas_id]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(unread(AMA, addr, &ama).await, 1);
    for body in [
        json!({}),
        json!({"ids": []}),
        json!({"ids": ["a"], "all": true}),
        json!({"ids": "all"}),
        json!({"ids": vec!["x"; 101]}),
    ] {
        let r = post_signed_in(
            AMA,
            addr,
            &ama,
            "/api/v1/account/notifications/read",
            body.clone(),
        )
        .await;
        assert!(matches!(r.status, 400 | 413 | 422), "{body}: {}", r.body);
    }
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/account/notifications/read",
        json!({"ids": [amas_id]}),
    )
    .await;
    assert_eq!(r.json(), json!({"unread": 0}));
    assert_eq!(recv_type(&mut ama_ws, "unread").await["unread"], 0);

    // Bounded: the newest hundred are kept; pages run newest first.
    for i in 0..KEEP + 5 {
        let mut n = hub.notifications().draft(&ama_id, Kind::TournamentStarting);
        n.tournament = Some(format!("t{i}"));
        assert!(hub.notifications().notify(n).await.unwrap());
    }
    assert_eq!(unread(AMA, addr, &ama).await, u64::from(KEEP));
    let page = as_browser(
        AMA,
        addr,
        &ama,
        "GET",
        "/api/v1/account/notifications?limit=2",
        None,
    )
    .await;
    let items = page.json()["items"].as_array().unwrap().clone();
    assert_eq!(items[0]["tournament"], format!("t{}", KEEP + 4));
    assert_eq!(items[1]["tournament"], format!("t{}", KEEP + 3));
    let before = items[1]["id"].as_str().unwrap();
    let next = as_browser(
        AMA,
        addr,
        &ama,
        "GET",
        &format!("/api/v1/account/notifications?limit=2&before={before}"),
        None,
    )
    .await;
    assert_eq!(
        next.json()["items"][0]["tournament"],
        format!("t{}", KEEP + 2)
    );
    let r = as_browser(
        AMA,
        addr,
        &ama,
        "GET",
        "/api/v1/account/notifications?limit=500",
        None,
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/account/notifications/read",
        json!({"all": true}),
    )
    .await;
    assert_eq!(r.json(), json!({"unread": 0}));

    // Garbage on the account socket: refused, and the socket stays.
    for bad in ["not json", "{\"type\":\"move\"}", &"x".repeat(5000)] {
        send_text(&mut kofi_ws, bad).await;
        assert_eq!(recv_type(&mut kofi_ws, "error").await["type"], "error");
    }
    kofi_ws
        .send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    recv_type(&mut kofi_ws, "error").await;
    send(&mut kofi_ws, json!({"type": "ping"})).await;
    recv_type(&mut kofi_ws, "pong").await;

    // A block in the middle of the game: Kofi blocks Ama, and her moves no
    // longer tell him. (Ama's own count comes after Kofi's notification
    // would have been stored.)
    drop(ama_ws);
    let mut ama_ws = account_ws(addr, &ama).await.unwrap();
    recv_type(&mut ama_ws, "unread").await;
    let r = post_signed_in(KOFI, addr, &kofi, "/api/v1/players/Ama/block", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    play_first_legal_move(addr, &id, &south, 2).await;
    recv_type(&mut ama_ws, "unread").await;
    assert_eq!(unread(KOFI, addr, &kofi).await, 0);

    // Closed sockets: offline.
    drop(kofi_ws);
    until(|| async { !online(addr, "Kofi").await }, "Kofi offline").await;

    // A deleted account's notifications go with it.
    let esi = sign_up_from(ESI, addr, "Esi", "a-long-password").await;
    let esi_id = account_id(&server, "Esi").await;
    let n = hub.notifications().draft(&esi_id, Kind::Challenge);
    let nid = n.id.clone();
    assert!(hub.notifications().notify(n).await.unwrap());
    let r = post_signed_in(
        ESI,
        addr,
        &esi,
        "/api/v1/account/delete",
        json!({"password": "a-long-password"}),
    )
    .await;
    assert!(r.status < 300, "{}", r.body);
    // Looked up in the database itself: the hub keeps its store to itself.
    let store = oware_server::store::open(Some(server.db())).await.unwrap();
    let gone = tokio::task::spawn_blocking(move || store.notification(&nid))
        .await
        .unwrap()
        .unwrap();
    assert!(gone.is_none());
    // And nothing is stored for an account that is no more.
    assert!(!hub
        .notifications()
        .notify(hub.notifications().draft(&esi_id, Kind::Challenge))
        .await
        .unwrap());
}

/// The id of the account named `name`.
pub async fn account_id(server: &oware_server::Server, name: &'static str) -> String {
    server
        .hub()
        .accounts()
        .by_name(name)
        .await
        .unwrap()
        .expect("the account")
        .id
}

pub async fn send_text(ws: &mut Ws, text: &str) {
    ws.send(Message::Text(text.to_string().into()))
        .await
        .unwrap();
}

/// Waits (5 s at most) for `holds` to come true: polled, not a pause.
pub async fn until<F, Fut>(holds: F, what: &str)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let t = std::time::Instant::now();
    while !holds().await {
        assert!(t.elapsed().as_secs() < 5, "{what}: not within 5 s");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Across two nodes on PostgreSQL: a move on one node tells the player
/// whose socket is on the other, and each node sees the other's players
/// online.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_and_presence_cross_nodes_on_postgresql() {
    let Some(cluster) = crate::common::pg::Cluster::start() else {
        return;
    };
    let url = cluster.database("notifications");
    let node = || async {
        oware_server::Server::start(oware_server::ServerOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            postgres: Some(url.clone()),
            config: Config {
                engine_threads: 1,
                rate_limits: None,
                ..Config::default()
            },
            ..oware_server::ServerOptions::default()
        })
        .await
        .expect("node starts")
    };
    let (a, b) = (node().await, node().await);
    let (a, b) = (a.addr(), b.addr());
    let ama = sign_up_from(AMA, a, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, b, "Kofi", "houses-and-seeds").await;
    let mut kofi_ws = account_ws(b, &kofi).await.unwrap();
    recv_type(&mut kofi_ws, "unread").await;
    until(
        || async { online(a, "Kofi").await },
        "Kofi online on node a",
    )
    .await;
    let (id, south, _) = correspondence(a, (AMA, &ama), (KOFI, &kofi)).await;
    play_first_legal_move(a, &id, &south, 0).await;
    let n = recv_type(&mut kofi_ws, "notification").await;
    assert_eq!(n["notification"]["kind"], "your_turn");
    assert_eq!(n["unread"], 1);
    assert_eq!(unread(KOFI, b, &kofi).await, 1);
    assert_eq!(unread(KOFI, a, &kofi).await, 1);
    // A challenge made on node a reaches Kofi's socket on node b; the cap
    // of open challenges holds across both nodes.
    for (i, node) in [a, b, a].into_iter().enumerate() {
        let r = post_signed_in(AMA, node, &ama, "/api/v1/players/Kofi/challenge", json!({})).await;
        assert_eq!(r.status, 201, "{}", r.body);
        let c = recv_type(&mut kofi_ws, "challenge").await;
        assert_eq!(c["challenge"]["id"], r.json()["id"], "challenge {i}");
    }
    let r = post_signed_in(AMA, b, &ama, "/api/v1/players/Kofi/challenge", json!({})).await;
    assert_eq!(
        r.json()["error"]["reason"],
        "too_many_challenges",
        "{}",
        r.body
    );
    drop(kofi_ws);
    until(
        || async { !online(a, "Kofi").await },
        "Kofi offline on node a",
    )
    .await;
}

/// A tournament's start tells each of its entrants, live and stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_starting_tells_its_entrants() {
    use crate::common::tournaments::{call as t_call, create, players, view, wait_for};
    let (time, _dir, server) = on_a_manual_clock().await;
    let addr = server.addr();
    let ps = players(addr, 2).await;
    let mut ws1 = account_ws(addr, &ps[1].b).await.unwrap();
    recv_type(&mut ws1, "unread").await;
    let r = t_call(
        addr,
        &ps[0],
        "POST",
        "/api/v1/tournaments",
        Some(create("arena", json!({"minutes": 20, "starts_in_s": 60}))),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = t_call(
        addr,
        &ps[1],
        "POST",
        &format!("/api/v1/tournaments/{id}/join"),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(view(addr, &ps[0], &id).await["status"], "created");
    time.advance(std::time::Duration::from_secs(59));
    wait_for(addr, &ps[1], &id, "the arena running", |v| {
        v["status"] == "running"
    })
    .await;
    let n = recv_type(&mut ws1, "notification").await;
    assert_eq!(n["notification"]["kind"], "tournament_starting", "{n}");
    assert_eq!(n["notification"]["tournament"], json!(id));
    let list = as_browser(
        ps[0].src,
        addr,
        &ps[0].b,
        "GET",
        "/api/v1/account/notifications",
        None,
    )
    .await;
    assert_eq!(
        list.json()["items"][0]["tournament"],
        json!(id),
        "{}",
        list.body
    );
}

/// A prepared reply (a conditional move) is played in the same request as
/// the move it answers: the turn's notifications follow the plies in
/// order, so the player whose move it is in the end is the one told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prepared_reply_leaves_the_your_turn_with_the_right_player() {
    let (_time, _dir, server) = on_a_manual_clock().await;
    let addr = server.addr();
    let ama = sign_up_from(AMA, addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", "houses-and-seeds").await;
    let mut kofi_ws = account_ws(addr, &kofi).await.unwrap();
    recv_type(&mut kofi_ws, "unread").await;
    let (id, south, north) = correspondence(addr, (AMA, &ama), (KOFI, &kofi)).await;
    play_first_legal_move(addr, &id, &south, 0).await;
    play_first_legal_move(addr, &id, &north, 1).await;
    // Kofi prepares a reply to Ama's first legal move at ply 2.
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    let expected = legal(&g)[0].clone();
    let mut prepared = false;
    for reply in ["a", "b", "c", "d", "e", "f"] {
        let r = post(
            addr,
            &format!("/api/v1/games/{id}/conditional"),
            json!({"token": north, "ply": 2, "replies": {expected.clone(): reply}}),
        )
        .await;
        if r.status == 200 {
            prepared = true;
            break;
        }
    }
    assert!(prepared, "a legal reply to {expected}");
    let mut ama_ws = account_ws(addr, &ama).await.unwrap();
    recv_type(&mut ama_ws, "unread").await;
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        json!({"token": south, "move": expected, "ply": 2}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let g = get(addr, &format!("/api/v1/games/{id}")).await.json();
    assert_eq!(g["ply"], 4, "the reply was played: {g}");
    // Ama is told it is her move; then Kofi's "your turn" for the move
    // he answered is read.
    let n = recv_type(&mut ama_ws, "notification").await;
    assert_eq!(n["notification"]["kind"], "your_turn");
    loop {
        let u = recv_type(&mut kofi_ws, "unread").await;
        if u["unread"] == 0 && unread(KOFI, addr, &kofi).await == 0 {
            break;
        }
    }
    assert_eq!(unread(AMA, addr, &ama).await, 1);
    assert_eq!(unread(KOFI, addr, &kofi).await, 0);
}

/// Moves the manual clock on by `ms` and waits for the tournaments'
/// director to finish a look begun at the new time (its metrics say when).
async fn director_at(server: &oware_server::Server, time: &Time, ms: u64) {
    time.advance(std::time::Duration::from_millis(ms));
    let at = time.unix_ms();
    until(
        || async move { server.hub().metrics().director_done_at() >= at },
        "the director's look at the new time",
    )
    .await;
}

/// An account's notifications, newest first.
async fn items(addr: SocketAddr, p: &crate::common::tournaments::Player) -> Vec<Value> {
    let r = as_browser(
        p.src,
        addr,
        &p.b,
        "GET",
        "/api/v1/account/notifications",
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["items"].as_array().unwrap().clone()
}

/// A Swiss's entrants are told once, five minutes before it starts (not
/// before, and not again on the director's next looks or its start), then
/// at its start, and each where their game of the round is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_reminds_its_entrants_once_then_tells_them_their_games() {
    use crate::common::tournaments::{create, create_joined, players, wait_for};
    let (time, _dir, server) = on_a_manual_clock().await;
    let addr = server.addr();
    let ps = players(addr, 3).await;
    let id = create_joined(
        addr,
        &ps,
        create("swiss", json!({"rounds": 2, "starts_in_s": 1800})),
    )
    .await;
    let kinds = |items: &[Value]| -> Vec<String> {
        items
            .iter()
            .map(|n| {
                format!(
                    "{}/{}",
                    n["kind"].as_str().unwrap(),
                    n["detail"].as_str().unwrap_or("-")
                )
            })
            .collect()
    };
    // 25 minutes on: five minutes and a second before the start, nothing.
    director_at(&server, &time, 25 * 60_000 - 1_000).await;
    for p in &ps {
        assert_eq!(kinds(&items(addr, p).await), Vec::<String>::new());
    }
    // A second later every entrant is told, once, however many looks.
    let mut ws2 = account_ws(addr, &ps[2].b).await.unwrap();
    recv_type(&mut ws2, "unread").await;
    director_at(&server, &time, 1_000).await;
    let n = recv_type(&mut ws2, "notification").await;
    assert_eq!(n["notification"]["detail"], "soon", "{n}");
    assert_eq!(n["notification"]["tournament"], json!(id));
    for _ in 0..3 {
        director_at(&server, &time, 1_000).await;
    }
    for p in &ps {
        assert_eq!(
            kinds(&items(addr, p).await),
            ["tournament_starting/soon"],
            "{}",
            p.name
        );
    }
    // Its start, then the first round paired: two players told where
    // their game is, from whom; the third has the bye.
    let mut sockets = Vec::new();
    for p in &ps {
        let mut ws = account_ws(addr, &p.b).await.unwrap();
        recv_type(&mut ws, "unread").await;
        sockets.push(ws);
    }
    time.advance(std::time::Duration::from_secs(5 * 60));
    let v = wait_for(addr, &ps[0], &id, "the first round paired", |v| {
        v["round"] == 1
    })
    .await;
    let game = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| !g["id"].is_null())
        .expect("a game")
        .clone();
    let south = ps
        .iter()
        .position(|p| game["south"] == json!(p.name))
        .unwrap();
    loop {
        let n = recv_type(&mut sockets[south], "notification").await;
        if n["notification"]["detail"] == "paired" {
            break;
        }
    }
    let paired = items(addr, &ps[south]).await;
    assert_eq!(
        kinds(&paired),
        [
            "tournament_starting/paired",
            "tournament_starting/-",
            "tournament_starting/soon"
        ]
    );
    assert_eq!(paired[0]["game"], game["id"]);
    assert_eq!(paired[0]["from"], game["north"]);
    assert_eq!(paired[0]["tournament"], json!(id));
}

/// A take-back request and a rematch offer tell the opponent's account
/// (in case they left the page), naming the game to open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_request_and_a_rematch_tell_the_opponent() {
    let (_time, _dir, server) = on_a_manual_clock().await;
    let addr = server.addr();
    let ama = sign_up_from(AMA, addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", "houses-and-seeds").await;
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/games",
        json!({"mode": "online", "public": true, "side": "S"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let south = r.json()["tokens"]["S"].as_str().unwrap().to_string();
    let j = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/games/{id}/join"),
        json!({}),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let north = j.json()["token"].as_str().unwrap().to_string();
    let mut ws = account_ws(addr, &kofi).await.unwrap();
    recv_type(&mut ws, "unread").await;
    // Kofi is at the board (so the move itself tells him nothing).
    let mut kofi_game = crate::common::ws(addr, &id, Some(&north)).await;
    recv_type(&mut kofi_game, "state").await;
    play_first_legal_move(addr, &id, &south, 0).await;
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/takeback"),
        json!({"token": south, "action": "offer"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let n = recv_type(&mut ws, "notification").await;
    assert_eq!(n["notification"]["kind"], "takeback", "{n}");
    assert_eq!(n["notification"]["game"], json!(id));
    assert_eq!(n["notification"]["from"], "Ama");
    // Kofi declines, resigns; Ama offers a rematch: Kofi is told of it.
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/takeback"),
        json!({"token": north, "action": "decline"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/resign"),
        json!({"token": north}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(
        addr,
        &format!("/api/v1/games/{id}/rematch"),
        json!({"token": south}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let rematch = r.json()["id"].as_str().unwrap().to_string();
    let n = recv_type(&mut ws, "notification").await;
    assert_eq!(n["notification"]["kind"], "rematch", "{n}");
    assert_eq!(n["notification"]["game"], json!(rematch));
    assert_eq!(n["notification"]["from"], "Ama");
    assert_eq!(unread(KOFI, addr, &kofi).await, 2);
}

/// Waits on a game socket for the `presence` event saying `seat` ("S"
/// or "N") is connected or not.
async fn seat_presence(ws: &mut Ws, seat: &str, connected: bool) {
    loop {
        let p = recv_type(ws, "presence").await;
        if p["seats"][seat]["connected"] == connected {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_game_tells_a_player_who_is_away_on_their_turn() {
    let (time, _dir, server) = on_a_manual_clock().await;
    let addr = server.addr();
    let ama = sign_up_from(AMA, addr, "Ama", "seeds-and-houses").await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", "houses-and-seeds").await;
    let mut ama_inbox = account_ws(addr, &ama).await.unwrap();
    assert_eq!(recv_type(&mut ama_inbox, "unread").await["unread"], 0);
    let mut kofi_inbox = account_ws(addr, &kofi).await.unwrap();
    assert_eq!(recv_type(&mut kofi_inbox, "unread").await["unread"], 0);

    let (id, south, north) = live_game(addr, (AMA, &ama), (KOFI, &kofi)).await;
    let mut ama_game = ws(addr, &id, Some(&south)).await;
    let mut kofi_game = ws(addr, &id, Some(&north)).await;
    seat_presence(&mut ama_game, "N", true).await;

    // Both at the board: a move tells nobody (each sees it on the board).
    play_first_legal_move(addr, &id, &south, 0).await;
    recv_move(&mut kofi_game, 1).await;
    play_first_legal_move(addr, &id, &north, 1).await;
    recv_move(&mut ama_game, 2).await;

    // Kofi leaves the game's page; Ama's move tells him at once, live,
    // marked as a live game's (no mail for it).
    drop(kofi_game);
    seat_presence(&mut ama_game, "N", false).await;
    play_first_legal_move(addr, &id, &south, 2).await;
    let n = recv_type(&mut kofi_inbox, "notification").await;
    assert_eq!(n["unread"], 1, "{n}");
    let note = &n["notification"];
    assert_eq!(
        (&note["kind"], &note["game"], &note["from"], &note["detail"]),
        (
            &json!("your_turn"),
            &json!(id),
            &json!("Ama"),
            &json!("live")
        )
    );
    // Coming back to the game reads it.
    let mut kofi_game = ws(addr, &id, Some(&north)).await;
    assert_eq!(recv_type(&mut kofi_inbox, "unread").await["unread"], 0);
    recv_type(&mut kofi_game, "state").await;

    // Kofi moves; Ama leaves on her turn. A reload is not leaving: back
    // within the grace, nothing is told.
    play_first_legal_move(addr, &id, &north, 3).await;
    recv_move(&mut ama_game, 4).await;
    drop(ama_game);
    seat_presence(&mut kofi_game, "S", false).await;
    let ama_game = ws(addr, &id, Some(&south)).await;
    seat_presence(&mut kofi_game, "S", true).await;
    time.advance(std::time::Duration::from_secs(16));
    // Away for good: told once the grace (15 s) has passed.
    let left = time.unix_ms();
    drop(ama_game);
    seat_presence(&mut kofi_game, "S", false).await;
    time.advance(std::time::Duration::from_secs(10));
    time.advance(std::time::Duration::from_secs(6));
    let n = recv_type(&mut ama_inbox, "notification").await;
    assert_eq!(
        (&n["unread"], &n["notification"]["detail"]),
        (&json!(1), &json!("live")),
        "{n}"
    );
    // Dated to the second, in a fixed-width UTC form that sorts as text.
    let at = n["notification"]["at"].as_str().unwrap();
    let grace_over = oware_server::model::rfc3339(left + 15_000);
    assert!(at >= grace_over.as_str(), "told at {at}, left at {left} ms");
    let list = as_browser(
        AMA,
        addr,
        &ama,
        "GET",
        "/api/v1/account/notifications",
        None,
    )
    .await;
    assert_eq!(
        list.json()["items"].as_array().unwrap().len(),
        1,
        "one notice, the reload told nothing: {}",
        list.body
    );
    // Her move (from another device, without the page) reads it.
    play_first_legal_move(addr, &id, &south, 4).await;
    assert_eq!(recv_type(&mut ama_inbox, "unread").await["unread"], 0);
    // Kofi is at the board: he is not told.
    recv_move(&mut kofi_game, 5).await;
    assert_eq!(unread(KOFI, addr, &kofi).await, 0);
}
