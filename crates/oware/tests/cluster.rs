//! Several `oware serve` nodes sharing one PostgreSQL (docs/DEPLOY.md):
//! real processes on loopback, a throw-away cluster started by the test,
//! and a real `kill -9`.

#[path = "../../oware-server/tests/server/common/mod.rs"]
mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::pg::Cluster;
use common::*;
use serde_json::{json, Value};

/// One `oware serve` process.
struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Node {
    fn start(url: &str) -> Node {
        Node::start_with(url, &[])
    }

    fn start_with(url: &str, extra: &[&str]) -> Node {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_oware"))
            .args(["serve", "--addr", &addr.to_string(), "--db", url])
            .args(["--tablebase-seeds", "0", "--no-rate-limits", "--no-book"])
            .args(["--engine-threads", "1", "--db-pool", "4"])
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .expect("oware serve starts");
        let node = Node { child, addr };
        node.wait_ready();
        node
    }

    fn wait_ready(&self) {
        let started = Instant::now();
        loop {
            if ready(self.addr) {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "node {} not ready",
                self.addr
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `kill -9`: no chance to finish anything.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, as systemd stops a unit; waits for the exit.
    fn stop(&mut self) {
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        let started = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "node did not stop"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `GET /readyz` answers 200 (blocking, short timeouts).
fn ready(addr: SocketAddr) -> bool {
    use std::io::{Read, Write};
    let Ok(mut s) = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    if s.write_all(b"GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer.starts_with("HTTP/1.1 200")
}

/// The tests here run one at a time: each starts a PostgreSQL cluster and
/// several nodes, and on two cores side by side they would starve each
/// other's 5-second waits.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A cluster for one test, and the turn to run it.
fn cluster() -> Option<(std::sync::MutexGuard<'static, ()>, Cluster)> {
    let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    Some((turn, Cluster::start()?))
}

/// Plays random legal moves on the two sockets until the game ends or
/// `until` plies are played; every `move` event is checked on `watchers`
/// in order. Returns the plies played.
async fn play(
    sockets: &mut [Ws; 2],
    watchers: &mut [&mut Ws],
    from: u64,
    mut legal_now: Vec<String>,
    until: u64,
) -> (u64, Vec<String>) {
    let mut ply = from;
    let mut seed = 0x9e3779b97f4a7c15u64 ^ from;
    while !legal_now.is_empty() && ply < until {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = legal_now[(seed % legal_now.len() as u64) as usize].clone();
        let side = (ply % 2) as usize;
        send(
            &mut sockets[side],
            json!({"type": "move", "move": mv, "ply": ply}),
        )
        .await;
        ply += 1;
        let event = recv_move(&mut sockets[1 - side], ply).await;
        assert_eq!(event["move"], mv.as_str());
        let mine = recv_move(&mut sockets[side], ply).await;
        assert_eq!(mine["move"], mv.as_str());
        for w in watchers.iter_mut() {
            let seen = recv_type(w, "move").await;
            assert_eq!(seen["ply"], ply, "a watcher saw plies out of order");
            assert_eq!(seen["move"], mv.as_str());
        }
        legal_now = legal(&event);
    }
    (ply, legal_now)
}

#[test]
fn players_on_two_nodes_and_a_spectator_on_a_third_play_a_whole_game() {
    let Some((_turn, pg)) = cluster() else {
        return;
    };
    let url = pg.database("whole");
    let nodes = [Node::start(&url), Node::start(&url), Node::start(&url)];
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let (a, b, c) = (nodes[0].addr, nodes[1].addr, nodes[2].addr);
        let (id, south, north) = online_game_across(
            a,
            b,
            json!({"time_control": {"initial_ms": 600000, "increment_ms": 1000}}),
        )
        .await;
        let mut s = ws(a, &id, Some(&south)).await;
        let mut n = ws(b, &id, Some(&north)).await;
        let state = recv_type(&mut s, "state").await;
        recv_type(&mut n, "state").await;
        // Presence crosses nodes: South, on node a, sees North (on node b)
        // come in.
        loop {
            let p = recv_type(&mut s, "presence").await;
            if p["seats"]["N"]["connected"] == true {
                assert_eq!(p["seats"]["S"]["connected"], true);
                break;
            }
        }
        // A spectator on a third node, which opens the game now, sees both
        // players connected (it asks the other nodes).
        let mut watcher = ws(c, &id, None).await;
        recv_type(&mut watcher, "state").await;
        let asked = Instant::now();
        loop {
            let g = get(c, &format!("/api/v1/games/{id}")).await.json();
            let seats = &g["seats"];
            if seats["S"]["connected"] == true && seats["N"]["connected"] == true {
                break;
            }
            assert!(
                asked.elapsed() < Duration::from_secs(5),
                "presence unknown on c: {seats}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let mut sockets = [s, n];
        let (plies, left) = play(
            &mut sockets,
            &mut [&mut watcher],
            0,
            legal(&state["game"]),
            1_000,
        )
        .await;
        assert!(left.is_empty(), "the game ends");
        let end = recv_type(&mut watcher, "end").await;
        assert!(end["result"]["reason"].is_string());
        // Every node holds the same game: the moves the other nodes played
        // on their copies from the notices agree with the stored game.
        let views: Vec<Value> = [
            get(a, &format!("/api/v1/games/{id}")).await.json(),
            get(b, &format!("/api/v1/games/{id}")).await.json(),
            get(c, &format!("/api/v1/games/{id}")).await.json(),
        ]
        .into();
        for g in &views {
            assert_eq!(g["ply"], plies);
            assert_eq!(g["status"], "over");
            for key in ["plies", "position", "score", "result", "to_move"] {
                assert_eq!(g[key], views[0][key], "{key} differs between nodes");
            }
            assert_eq!(g["clock"]["running"], Value::Null);
        }
        // And a node that reads it afresh (a fourth, new) agrees too.
        let d = Node::start(&url);
        let fresh = get(d.addr, &format!("/api/v1/games/{id}")).await.json();
        for key in ["plies", "position", "score", "result", "to_move", "clock"] {
            assert_eq!(fresh[key], views[1][key], "{key}: a fresh read differs");
        }
    });
}

#[test]
fn two_moves_at_one_ply_on_two_nodes_only_one_is_stored() {
    let Some((_turn, pg)) = cluster() else {
        return;
    };
    let url = pg.database("race");
    let nodes = [Node::start(&url), Node::start(&url)];
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let (a, b) = (nodes[0].addr, nodes[1].addr);
        for round in 0..10 {
            let (id, south, _north) = online_game_across(a, b, json!({})).await;
            // Both nodes hold the game (a spectator on each).
            let mut wa = ws(a, &id, None).await;
            let mut wb = ws(b, &id, None).await;
            recv_type(&mut wa, "state").await;
            recv_type(&mut wb, "state").await;
            let path = format!("/api/v1/games/{id}/moves");
            let (ra, rb) = tokio::join!(
                post(a, &path, json!({"token": south, "move": "A", "ply": 0})),
                post(b, &path, json!({"token": south, "move": "F", "ply": 0})),
            );
            let accepted = [&ra, &rb].iter().filter(|r| r.status == 200).count();
            assert_eq!(accepted, 1, "round {round}: {} / {}", ra.body, rb.body);
            let refused = if ra.status == 200 { &rb } else { &ra };
            assert!(
                ["stale_ply", "not_your_turn"].contains(&refused.code().as_str()),
                "{}",
                refused.body
            );
            let won = if ra.status == 200 { "A" } else { "F" };
            // Both spectators see the one move, and both nodes agree.
            assert_eq!(recv_type(&mut wa, "move").await["move"], won);
            assert_eq!(recv_type(&mut wb, "move").await["move"], won);
            for node in [a, b] {
                let g = get(node, &format!("/api/v1/games/{id}")).await.json();
                assert_eq!(g["plies"], json!([won]));
            }
        }
    });
}

#[test]
fn a_node_killed_mid_game_loses_nothing_and_its_clocks_still_run() {
    let Some((_turn, pg)) = cluster() else {
        return;
    };
    let url = pg.database("kill");
    let mut a = Node::start(&url);
    let b = Node::start(&url);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        // A game with clocks, both players on node a.
        let (id, south, north) = online_game_across(
            a.addr,
            a.addr,
            json!({"time_control": {"initial_ms": 600000, "increment_ms": 0}}),
        )
        .await;
        let mut s = ws(a.addr, &id, Some(&south)).await;
        let mut n = ws(a.addr, &id, Some(&north)).await;
        let state = recv_type(&mut s, "state").await;
        recv_type(&mut n, "state").await;
        let mut sockets = [s, n];
        let (ply, left) = play(&mut sockets, &mut [], 0, legal(&state["game"]), 20).await;
        assert_eq!(ply, 20);
        // A second game whose clock will run out while nobody holds it.
        let (flag_id, flag_south, _) = online_game_across(
            a.addr,
            a.addr,
            json!({"time_control": {"initial_ms": 3000, "increment_ms": 0}}),
        )
        .await;
        let mut fs = ws(a.addr, &flag_id, Some(&flag_south)).await;
        recv_type(&mut fs, "state").await;
        // kill -9 of the node both games live on.
        a.kill();
        drop(sockets);
        drop(fs);
        // The players reconnect to node b: every acknowledged move is there.
        let mut s = ws(b.addr, &id, Some(&south)).await;
        let mut n = ws(b.addr, &id, Some(&north)).await;
        let st = recv_type(&mut s, "state").await;
        recv_type(&mut n, "state").await;
        assert_eq!(st["game"]["ply"], 20);
        assert_eq!(legal(&st["game"]), left);
        // South's clock kept running across the kill.
        assert_eq!(st["game"]["clock"]["running"], "S");
        let mut sockets = [s, n];
        let (_, rest) = play(&mut sockets, &mut [], 20, left, 1_000).await;
        assert!(rest.is_empty(), "the game is finished on node b");
        // The flag of the other game falls although nobody opened it again:
        // node b claimed its deadline from the database.
        let started = Instant::now();
        loop {
            let g = get(b.addr, &format!("/api/v1/games/{flag_id}"))
                .await
                .json();
            if g["status"] == "over" {
                assert_eq!(g["result"]["reason"], "time");
                assert_eq!(g["result"]["winner"], "N");
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "no flag fell: {g}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
}

/// One game played by a client that reconnects to any live node whenever
/// its node goes away. Returns the moves it saw acknowledged, and how many
/// times it connected.
async fn keep_playing(
    live: std::sync::Arc<std::sync::Mutex<Vec<SocketAddr>>>,
    played: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    id: String,
    tokens: [String; 2],
    target: u64,
) -> (Vec<String>, usize) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let mut acked: Vec<String> = Vec::new();
    let mut attempt = 0usize;
    let mut seed = id
        .bytes()
        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    'connect: loop {
        attempt += 1;
        assert!(attempt < 200, "game {id}: no node would take it");
        let nodes = live.lock().unwrap().clone();
        let node = nodes[attempt % nodes.len()];
        let mut sockets = Vec::new();
        for t in &tokens {
            let url = format!("ws://{node}/api/v1/games/{id}/ws?token={t}");
            match tokio_tungstenite::connect_async(url).await {
                Ok((s, _)) => sockets.push(s),
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue 'connect;
                }
            }
        }
        // Reads the next JSON event of a socket; None when it is gone.
        async fn next(ws: &mut Ws) -> Option<Value> {
            loop {
                match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
                    Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(&t).ok(),
                    Ok(Some(Ok(Message::Close(_)))) | Ok(Some(Err(_))) | Ok(None) | Err(_) => {
                        return None
                    }
                    Ok(Some(Ok(_))) => {}
                }
            }
        }
        let mut game = None;
        while let Some(v) = next(&mut sockets[0]).await {
            if v["type"] == "state" {
                game = Some(v["game"].clone());
                break;
            }
        }
        let Some(game) = game else { continue 'connect };
        let stored: Vec<String> = game["plies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        // Every acknowledged move is there; one more (stored, but its
        // answer lost with the node) may be.
        assert!(
            stored.starts_with(&acked) && stored.len() <= acked.len() + 1,
            "game {id}: acknowledged {acked:?}, stored {stored:?}"
        );
        acked = stored;
        let mut legal_now = legal(&game);
        while (acked.len() as u64) < target && !legal_now.is_empty() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = legal_now[(seed % legal_now.len() as u64) as usize].clone();
            let ply = acked.len() as u64;
            let side = (ply % 2) as usize;
            let msg = json!({"type": "move", "move": mv, "ply": ply}).to_string();
            if futures_util::SinkExt::send(&mut sockets[side], Message::Text(msg.into()))
                .await
                .is_err()
            {
                continue 'connect;
            }
            loop {
                let Some(v) = next(&mut sockets[side]).await else {
                    continue 'connect;
                };
                if v["type"] == "move" && v["ply"] == ply + 1 {
                    acked.push(mv.clone());
                    played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    legal_now = legal(&v);
                    break;
                }
                if v["type"] == "error" {
                    continue 'connect;
                }
            }
            // A player's thinking time (pacing, not a wait for an event):
            // the games last long enough for every restart to cut them.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        return (acked, attempt);
    }
}

#[test]
fn a_rolling_restart_under_play_loses_no_game() {
    let Some((_turn, pg)) = cluster() else {
        return;
    };
    let url = pg.database("rolling");
    let mut nodes = [Node::start(&url), Node::start(&url), Node::start(&url)];
    let live = std::sync::Arc::new(std::sync::Mutex::new(
        nodes.iter().map(|n| n.addr).collect::<Vec<_>>(),
    ));
    let played = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let games = rt.block_on(async {
        let mut games = Vec::new();
        for g in 0..12 {
            let node = nodes[g % 3].addr;
            games.push(online_game_across(node, node, json!({})).await);
        }
        games
    });
    let players: Vec<_> = games
        .iter()
        .map(|(id, s, n)| {
            rt.spawn(keep_playing(
                live.clone(),
                played.clone(),
                id.clone(),
                [s.clone(), n.clone()],
                100,
            ))
        })
        .collect();
    // Restart every node in turn while the games are played: SIGTERM
    // (the node closes its sockets with "service restart"), then a new
    // node on the same database.
    // Each restart comes once the games have made 24 more moves between
    // them (two each) since the last one: they go on playing during the
    // restart itself, so a larger count would use up their 100 moves.
    for node in nodes.iter_mut() {
        let from = played.load(std::sync::atomic::Ordering::Relaxed);
        let asked = Instant::now();
        while played.load(std::sync::atomic::Ordering::Relaxed) < from + 24 {
            assert!(
                asked.elapsed() < Duration::from_secs(60),
                "the games stopped moving: {} moves since the last restart",
                played.load(std::sync::atomic::Ordering::Relaxed) - from
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let gone = node.addr;
        live.lock().unwrap().retain(|a| *a != gone);
        node.stop();
        *node = Node::start(&url);
        live.lock().unwrap().push(node.addr);
    }
    rt.block_on(async {
        let mut reconnects = 0;
        for ((id, _, _), player) in games.iter().zip(players) {
            let (acked, connections) = player.await.expect("the player finished");
            reconnects += connections - 1;
            let g = get(nodes[0].addr, &format!("/api/v1/games/{id}"))
                .await
                .json();
            let stored: Vec<&str> = g["plies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            assert_eq!(stored, acked, "game {id}");
        }
        // The restarts did happen under play: games were cut off and
        // carried on elsewhere.
        assert!(reconnects >= 3, "only {reconnects} reconnections");
        eprintln!("{reconnects} reconnections during the rolling restart");
    });
}

#[test]
fn the_computer_still_answers_when_its_node_dies_mid_search() {
    let Some((_turn, pg)) = cluster() else {
        return;
    };
    let url = pg.database("engine");
    let mut a = Node::start(&url);
    let b = Node::start(&url);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        // The strongest level thinks for the whole move cap (3 s).
        let created = post(
            a.addr,
            "/api/v1/games",
            json!({"mode": "computer", "level": 10, "side": "S"}),
        )
        .await;
        assert_eq!(created.status, 201, "{}", created.body);
        let c = created.json();
        let id = c["id"].as_str().unwrap().to_string();
        let token = c["tokens"]["S"].as_str().unwrap().to_string();
        let moved = post(
            a.addr,
            &format!("/api/v1/games/{id}/moves"),
            json!({"token": token, "move": "F", "ply": 0}),
        )
        .await;
        assert_eq!(moved.status, 200, "{}", moved.body);
        // The computer is thinking on node a: kill it.
        a.kill();
        let started = Instant::now();
        let mut s = ws(b.addr, &id, Some(&token)).await;
        let st = recv_type(&mut s, "state").await;
        assert_eq!(st["game"]["ply"], 1, "South's move was kept");
        // Node b takes the overdue turn over (move cap + 5 s + 1 s grace).
        loop {
            let g = get(b.addr, &format!("/api/v1/games/{id}")).await.json();
            if g["ply"] == 2 {
                assert_eq!(g["to_move"], "S");
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(40),
                "the computer never answered: {g}"
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        eprintln!(
            "the computer answered from node b {:.1} s after node a was killed",
            started.elapsed().as_secs_f64()
        );
        // Exactly one answer (South's move at ply 2 is taken: a second
        // answer would have moved the game on), and the game goes on from
        // node b, the computer answering there.
        let g = get(b.addr, &format!("/api/v1/games/{id}")).await.json();
        let mv = legal(&g).first().cloned().expect("South can move");
        let moved = post(
            b.addr,
            &format!("/api/v1/games/{id}/moves"),
            json!({"token": token, "move": mv, "ply": 2}),
        )
        .await;
        assert_eq!(moved.status, 200, "{}", moved.body);
        let again = Instant::now();
        loop {
            let g = get(b.addr, &format!("/api/v1/games/{id}")).await.json();
            if g["ply"] == 4 || g["status"] == "over" {
                break;
            }
            assert!(
                again.elapsed() < Duration::from_secs(20),
                "the computer did not answer on node b: {g}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
}

/// A tournament's round under way on node a when a is killed: node b
/// claims the tournament, the players finish their games there, and the
/// rounds go on to the end with the standings the results give. While both
/// nodes run, each round is paired once (every player in one pairing).
#[test]
fn a_tournament_whose_node_is_killed_mid_round_finishes_on_another() {
    let Some((_turn, pg)) = cluster() else {
        return;
    };
    let url = pg.database("tournament");
    // Both nodes on manual clocks, standing at the same time: the test
    // moves both to the start (POST /api/v1/clock), then moves the node it
    // watches a second per look, so the director's ticks and the Swiss's
    // breaks between rounds pass in virtual time.
    let at = oware_server::time::Time::wall().unix_ms().to_string();
    let manual = ["--manual-clock", at.as_str()];
    let mut a = Node::start_with(&url, &manual);
    let b = Node::start_with(&url, &manual);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let names = ["Ama", "Kofi", "Esi", "Yaw"];
        let mut players = Vec::new();
        for (i, n) in names.iter().enumerate() {
            let src = [127, 0, 2, 10 + i as u8];
            players.push((src, sign_up_from(src, a.addr, n, "a-long-password").await));
        }
        let r = as_browser(
            players[0].0,
            a.addr,
            &players[0].1,
            "POST",
            "/api/v1/tournaments",
            Some(
                json!({"kind": "swiss", "name": "Cluster Swiss", "rounds": 3, "starts_in_s": 240,
                "time_control": {"initial_ms": 600000, "increment_ms": 0}}),
            ),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let id = r.json()["id"].as_str().unwrap().to_string();
        for (src, p) in &players[1..] {
            let r = as_browser(
                *src,
                b.addr,
                p,
                "POST",
                &format!("/api/v1/tournaments/{id}/join"),
                None,
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        // Four minutes on, on both nodes: the Swiss is due.
        for node in [a.addr, b.addr] {
            let r = post(node, "/api/v1/clock", json!({"advance_ms": 240_000})).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let view = |node: SocketAddr| {
            let id = id.clone();
            async move { get(node, &format!("/api/v1/tournaments/{id}")).await.json() }
        };
        let wait_round = |node: SocketAddr, round: u64| async move {
            let started = Instant::now();
            loop {
                let v = view(node).await;
                let paired = v["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|g| g["round"].as_u64() == Some(round))
                    .count();
                if v["round"].as_u64() == Some(round) && paired == 2 {
                    return v;
                }
                assert!(
                    started.elapsed() < Duration::from_secs(30),
                    "round {round}: {v:#}"
                );
                tick(node).await;
            }
        };
        let resign_round = |node: SocketAddr, v: Value, round: u64| {
            let players = players.clone();
            async move {
                for g in v["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|g| g["round"].as_u64() == Some(round))
                {
                    let game = g["id"].as_str().expect("four players: no bye");
                    let i = names
                        .iter()
                        .position(|n| *n == g["south"].as_str().unwrap())
                        .unwrap();
                    let (src, p) = &players[i];
                    let r = as_browser(
                        *src,
                        node,
                        p,
                        "POST",
                        &format!("/api/v1/games/{game}/seat"),
                        Some(json!({})),
                    )
                    .await;
                    assert_eq!(r.status, 200, "{}", r.body);
                    let token = r.json()["tokens"]["S"].as_str().unwrap().to_string();
                    let r = post(
                        node,
                        &format!("/api/v1/games/{game}/resign"),
                        json!({"token": token}),
                    )
                    .await;
                    assert_eq!(r.status, 200, "{}", r.body);
                }
            }
        };
        // Round 1, paired while both nodes run: then node a dies.
        let v = wait_round(b.addr, 1).await;
        a.kill();
        resign_round(b.addr, v, 1).await;
        for round in 2..=3 {
            let v = wait_round(b.addr, round).await;
            resign_round(b.addr, v, round).await;
        }
        let started = Instant::now();
        let last = loop {
            let v = view(b.addr).await;
            if v["status"] == "finished" {
                break v;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "not finished: {v:#}"
            );
            tick(b.addr).await;
        };
        // Each round paired once: every player in exactly one game of it.
        let games = last["games"].as_array().unwrap();
        assert_eq!(games.len(), 6, "{last:#}");
        for round in 1..=3u64 {
            let mut seen: Vec<&str> = games
                .iter()
                .filter(|g| g["round"].as_u64() == Some(round))
                .flat_map(|g| [g["south"].as_str().unwrap(), g["north"].as_str().unwrap()])
                .collect();
            seen.sort();
            assert_eq!(
                seen,
                {
                    let mut n = names.to_vec();
                    n.sort();
                    n
                },
                "round {round}"
            );
        }
        // The standings are the results': North won every game.
        for s in last["standings"].as_array().unwrap() {
            let name = s["name"].as_str().unwrap();
            let wins = games
                .iter()
                .filter(|g| g["north"] == name && g["outcome"] == "north_won")
                .count();
            assert_eq!(s["score"].as_f64().unwrap(), wins as f64, "{s}");
        }
    });
}

/// Moves a node's manual clock on by one tick of the tournaments' director
/// (1 s) and waits for its look at the new time to end.
async fn tick(node: SocketAddr) {
    let r = post(node, "/api/v1/clock", json!({"advance_ms": 1000})).await;
    assert_eq!(r.status, 200, "a manual clock: {}", r.body);
    let now_ms = r.json()["now_ms"].as_i64().expect("the clock's new time");
    common::tournaments::director_done(node, now_ms).await;
}
