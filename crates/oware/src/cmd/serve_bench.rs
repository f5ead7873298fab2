//! The load generator behind `oware serve-bench`: many simultaneous online
//! games played over WebSocket against a running server, measuring the move
//! round trip (client sends a move, server stores it and sends the `move`
//! event back) and checking afterwards that every acknowledged move is
//! stored. A benchmark, not a test: see docs/SERVER.md for figures.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Options of `oware serve-bench`.
#[derive(clap::Args, Clone, Debug)]
pub struct BenchArgs {
    /// Server to load (loopback only); repeat it (or separate with commas)
    /// for several nodes sharing one PostgreSQL: games are spread over them.
    #[arg(long = "addr", default_value = "127.0.0.1:8080", value_delimiter = ',')]
    pub addrs: Vec<SocketAddr>,
    /// With several nodes, seat each game's two players on two different
    /// nodes (every move then crosses the pub/sub).
    #[arg(long)]
    pub split: bool,
    /// Simultaneous games (two WebSocket connections each).
    #[arg(long, default_value_t = 5000)]
    pub games: usize,
    /// Mean time between two moves of one game, ms (uniform in 0..2x).
    #[arg(long, default_value_t = 2000)]
    pub interval_ms: u64,
    /// Time to open all games, s.
    #[arg(long, default_value_t = 30)]
    pub ramp_s: u64,
    /// Measured time once all games are open, s.
    #[arg(long, default_value_t = 60)]
    pub duration_s: u64,
    /// The server's process id, to report its memory (VmRSS) and CPU;
    /// repeat it for several nodes (figures are summed).
    #[arg(long = "server-pid", value_delimiter = ',')]
    pub server_pids: Vec<u32>,
    /// Write `game-id acknowledged-plies` lines here at the end.
    #[arg(long)]
    pub acked_out: Option<std::path::PathBuf>,
    /// Only check that the games in this file (from --acked-out) hold at least
    /// their acknowledged plies, e.g. after killing and restarting the server.
    #[arg(long)]
    pub verify: Option<std::path::PathBuf>,
    /// Worker threads of the load generator.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// Runs the benchmark on its own runtime and prints the report.
pub fn run_blocking(args: BenchArgs) -> anyhow::Result<()> {
    if let Some(a) = args.addrs.iter().find(|a| !a.ip().is_loopback()) {
        bail!(
            "serve-bench only loads servers on loopback addresses, not {}",
            a.ip()
        );
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads.max(1))
        .enable_all()
        .build()?;
    rt.block_on(async move {
        if let Some(path) = &args.verify {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let mut acked = HashMap::new();
            for (n, line) in text.lines().enumerate() {
                let mut it = line.split_whitespace();
                let (Some(id), Some(p)) = (it.next(), it.next()) else {
                    bail!("{}:{}: expected `id plies`", path.display(), n + 1)
                };
                acked.insert(
                    id.to_string(),
                    p.parse::<u32>()
                        .with_context(|| format!("{}:{}", path.display(), n + 1))?,
                );
            }
            let (ok, bad) = verify(args.addrs[0], &acked).await;
            println!(
                "verify: {} games checked, {ok} hold every acknowledged move, {bad} do not",
                acked.len()
            );
            if bad > 0 {
                bail!("{bad} games lost acknowledged moves");
            }
            return Ok(());
        }
        run(args).await
    })
}

struct Shared {
    latencies_us: Mutex<Vec<u32>>,
    measuring: AtomicBool,
    stop: AtomicBool,
    moves: AtomicU64,
    /// Errors by kind: (before measuring, while measuring).
    errors: Mutex<BTreeMap<String, (u64, u64)>>,
    games_done: AtomicU64,
    open_games: AtomicU64,
    acked: Mutex<HashMap<String, u32>>,
}

impl Shared {
    /// Counts an error under its kind.
    fn error(&self, e: &anyhow::Error) {
        let measuring = self.measuring.load(Ordering::Relaxed);
        let mut errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        let n = errors.entry(error_kind(e)).or_default();
        if measuring {
            n.1 += 1;
        } else {
            n.0 += 1;
        }
    }

    fn error_count(&self) -> u64 {
        let errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        errors.values().map(|(a, b)| a + b).sum()
    }
}

/// An error's kind, for the report: the step that failed (the outermost
/// context) and the root cause, with numbers masked so that errors of one
/// kind (whatever the game id, ply or port) count together.
fn error_kind(e: &anyhow::Error) -> String {
    let step = e.to_string();
    let root = e.root_cause().to_string();
    let text = if step == root {
        root
    } else {
        format!("{step}: {root}")
    };
    let mut out = String::new();
    for c in text.chars().take(100) {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A minimal HTTP/1.1 JSON request (the bench needs nothing more).
async fn http_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> anyhow::Result<(u16, Value)> {
    let mut s = TcpStream::connect(addr).await.context("connect")?;
    s.set_nodelay(true)?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.context("send request")?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.context("read response")?;
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow!("no HTTP header end"))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| anyhow!("bad status line"))?;
    let value = serde_json::from_str(body).unwrap_or(Value::Null);
    Ok((status, value))
}

async fn connect(addr: SocketAddr, id: &str, token: &str) -> anyhow::Result<Ws> {
    let url = format!("ws://{addr}/api/v1/games/{id}/ws?token={token}");
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
        .await
        .context("WebSocket connect")?;
    Ok(ws)
}

async fn next_json(ws: &mut Ws) -> anyhow::Result<Value> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => return Ok(serde_json::from_str(&t)?),
            Some(Ok(Message::Close(_))) | None => bail!("connection closed"),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.into()),
        }
    }
}

/// Reads until the `move` event with this ply (or an error event).
async fn wait_move(ws: &mut Ws, ply: u64) -> anyhow::Result<Value> {
    loop {
        let v = next_json(ws).await?;
        match v["type"].as_str() {
            Some("move") if v["ply"].as_u64() == Some(ply) => return Ok(v),
            Some("error") => bail!("server refused the move: {}", v["code"]),
            Some("state") if v["game"]["ply"].as_u64() == Some(ply) => return Ok(v["game"].clone()),
            _ => continue,
        }
    }
}

fn legal_of(v: &Value) -> Vec<String> {
    v["legal"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A game created on `addr`, joined (and North seated) on `north_addr`.
async fn open_game(
    addr: SocketAddr,
    north_addr: SocketAddr,
) -> anyhow::Result<(String, Ws, Ws, Value)> {
    let (status, created) = http_json(
        addr,
        "POST",
        "/api/v1/games",
        Some(&json!({"mode": "online", "side": "S", "name": "bench"})),
    )
    .await
    .context("create")?;
    if status != 201 {
        bail!("create: HTTP {status} {}", created["error"]["code"]);
    }
    let id = created["id"]
        .as_str()
        .ok_or_else(|| anyhow!("no id"))?
        .to_string();
    let tok_s = created["tokens"]["S"]
        .as_str()
        .ok_or_else(|| anyhow!("no South token"))?
        .to_string();
    let invite = created["invite_url"]
        .as_str()
        .and_then(|u| u.split("invite=").nth(1))
        .unwrap_or_default()
        .to_string();
    let (status, joined) = http_json(
        north_addr,
        "POST",
        &format!("/api/v1/games/{id}/join"),
        Some(&json!({"invite": invite, "name": "bench"})),
    )
    .await
    .context("join")?;
    if status != 200 {
        bail!("join: HTTP {status} {}", joined["error"]["code"]);
    }
    let tok_n = joined["token"]
        .as_str()
        .ok_or_else(|| anyhow!("no North token"))?
        .to_string();
    let mut ws_s = connect(addr, &id, &tok_s).await?;
    let mut ws_n = connect(north_addr, &id, &tok_n).await?;
    let state = next_json(&mut ws_s).await?;
    next_json(&mut ws_n).await?;
    Ok((id, ws_s, ws_n, state["game"].clone()))
}

async fn game_loop(
    addr: SocketAddr,
    north_addr: SocketAddr,
    interval: Duration,
    shared: Arc<Shared>,
    start_delay: Duration,
) {
    tokio::time::sleep(start_delay).await;
    while !shared.stop.load(Ordering::Relaxed) {
        let opened = open_game(addr, north_addr).await;
        let (id, mut ws_s, mut ws_n, state) = match opened {
            Ok(x) => x,
            Err(e) => {
                shared.error(&e);
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        shared.open_games.fetch_add(1, Ordering::Relaxed);
        let result = play(&id, &mut ws_s, &mut ws_n, state, interval, &shared).await;
        shared.open_games.fetch_sub(1, Ordering::Relaxed);
        let _ = ws_s.close(None).await;
        let _ = ws_n.close(None).await;
        match result {
            Ok(true) => {
                shared.games_done.fetch_add(1, Ordering::Relaxed);
            }
            Ok(false) => {}
            Err(e) => {
                shared.error(&e);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Plays random legal moves until the game ends (true) or the run stops (false).
async fn play(
    id: &str,
    ws_s: &mut Ws,
    ws_n: &mut Ws,
    state: Value,
    interval: Duration,
    shared: &Shared,
) -> anyhow::Result<bool> {
    let mut legal = legal_of(&state);
    let mut ply = state["ply"].as_u64().unwrap_or(0);
    let mut south_to_move = state["to_move"].as_str() == Some("S");
    loop {
        if legal.is_empty() {
            return Ok(true);
        }
        let pause = rand::rng().random_range(0..=2 * interval.as_millis() as u64);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        if shared.stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let mv = legal[rand::rng().random_range(0..legal.len())].clone();
        let (mover, other) = if south_to_move {
            (&mut *ws_s, &mut *ws_n)
        } else {
            (&mut *ws_n, &mut *ws_s)
        };
        let msg = json!({"type": "move", "move": mv, "ply": ply}).to_string();
        let t0 = Instant::now();
        mover
            .send(Message::Text(msg.into()))
            .await
            .context("send move")?;
        let ev = wait_move(mover, ply + 1)
            .await
            .context("wait for own move")?;
        let rtt = t0.elapsed();
        shared
            .acked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string(), (ply + 1) as u32);
        if shared.measuring.load(Ordering::Relaxed) {
            shared.moves.fetch_add(1, Ordering::Relaxed);
            shared
                .latencies_us
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(rtt.as_micros().min(u32::MAX as u128) as u32);
        }
        tokio::time::timeout(Duration::from_secs(30), wait_move(other, ply + 1))
            .await
            .context("opponent never saw the move")??;
        ply += 1;
        legal = legal_of(&ev);
        south_to_move = ev["to_move"].as_str() == Some("S");
    }
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time (user + system) of a process, seconds.
fn cpu_s(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at state.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

async fn verify(addr: SocketAddr, acked: &HashMap<String, u32>) -> (u64, u64) {
    let ids: Vec<(String, u32)> = acked.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let ok = Arc::new(AtomicU64::new(0));
    let bad = Arc::new(AtomicU64::new(0));
    let sem = Arc::new(tokio::sync::Semaphore::new(32));
    let mut tasks = Vec::new();
    for (id, want) in ids {
        let (ok, bad, sem) = (ok.clone(), bad.clone(), sem.clone());
        tasks.push(tokio::spawn(async move {
            let _p = sem.acquire().await;
            match http_json(addr, "GET", &format!("/api/v1/games/{id}"), None).await {
                Ok((200, g)) if g["ply"].as_u64().unwrap_or(0) >= want as u64 => {
                    ok.fetch_add(1, Ordering::Relaxed)
                }
                Ok((status, g)) => {
                    eprintln!(
                        "game {id}: acknowledged {want} plies, server has {} (HTTP {status})",
                        g["ply"]
                    );
                    bad.fetch_add(1, Ordering::Relaxed)
                }
                Err(e) => {
                    eprintln!("game {id}: {e}");
                    bad.fetch_add(1, Ordering::Relaxed)
                }
            };
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    (ok.load(Ordering::Relaxed), bad.load(Ordering::Relaxed))
}

/// A figure summed over several processes (`None` if one is unreadable).
fn sum<T: std::iter::Sum<T>>(pids: &[u32], f: fn(u32) -> Option<T>) -> Option<T> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|&p| f(p)).sum()
}

/// The nodes' `/api/v1/health` counters, summed (the largest for maxima).
async fn health(addrs: &[SocketAddr]) -> anyhow::Result<Value> {
    let mut total = serde_json::Map::new();
    for &addr in addrs {
        let (status, h) = http_json(addr, "GET", "/api/v1/health", None)
            .await
            .with_context(|| format!("is the server at {addr} running?"))?;
        if status != 200 {
            bail!("health check of {addr}: HTTP {status}");
        }
        for (k, v) in h.as_object().into_iter().flatten() {
            let Some(v) = v.as_u64() else { continue };
            let t = total.entry(k.clone()).or_insert(json!(0));
            let old = t.as_u64().unwrap_or(0);
            *t = json!(if k.starts_with("max_") {
                old.max(v)
            } else {
                old + v
            });
        }
    }
    Ok(Value::Object(total))
}

async fn run(args: BenchArgs) -> anyhow::Result<()> {
    let health0 = health(&args.addrs).await?;
    let shared = Arc::new(Shared {
        latencies_us: Mutex::new(Vec::with_capacity(1 << 20)),
        measuring: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        moves: AtomicU64::new(0),
        errors: Mutex::new(BTreeMap::new()),
        games_done: AtomicU64::new(0),
        open_games: AtomicU64::new(0),
        acked: Mutex::new(HashMap::new()),
    });
    let rss0 = sum(&args.server_pids, rss_kib);
    println!(
        "serve-bench: {} games ({} connections), a move every {} ms per game on average, ramp {} s, measure {} s",
        args.games,
        2 * args.games,
        args.interval_ms,
        args.ramp_s,
        args.duration_s
    );
    let interval = Duration::from_millis(args.interval_ms);
    let mut tasks = Vec::with_capacity(args.games);
    for i in 0..args.games {
        let delay = Duration::from_millis(args.ramp_s * 1000 * i as u64 / args.games.max(1) as u64);
        let n = args.addrs.len();
        let north = if args.split { (i + 1) % n } else { i % n };
        tasks.push(tokio::spawn(game_loop(
            args.addrs[i % n],
            args.addrs[north],
            interval,
            shared.clone(),
            delay,
        )));
    }
    let started = Instant::now();
    let ramp_deadline =
        started + Duration::from_secs(args.ramp_s) + Duration::from_secs(args.ramp_s / 2 + 5);
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let open = shared.open_games.load(Ordering::Relaxed);
        if open as usize >= args.games || Instant::now() > ramp_deadline {
            break;
        }
    }
    let open_at_start = shared.open_games.load(Ordering::Relaxed);
    let rss1 = sum(&args.server_pids, rss_kib);
    println!(
        "ramp: {open_at_start} games open after {:.1} s; measuring",
        started.elapsed().as_secs_f64()
    );
    let health1 = health(&args.addrs).await.unwrap_or(health0);
    shared.measuring.store(true, Ordering::Relaxed);
    let cpu_server0 = sum(&args.server_pids, cpu_s);
    let cpu_self0 = cpu_s(std::process::id());
    let t0 = Instant::now();
    let mut min_open = open_at_start;
    let mut peak_rss = rss1;
    while t0.elapsed() < Duration::from_secs(args.duration_s) {
        tokio::time::sleep(Duration::from_secs(5)).await;
        let open = shared.open_games.load(Ordering::Relaxed);
        min_open = min_open.min(open);
        if let Some(r) = sum(&args.server_pids, rss_kib) {
            peak_rss = Some(peak_rss.map_or(r, |p| p.max(r)));
        }
        println!(
            "  t={:>4.0}s open games {open}, moves {}, errors {}",
            t0.elapsed().as_secs_f64(),
            shared.moves.load(Ordering::Relaxed),
            shared.error_count()
        );
    }
    shared.measuring.store(false, Ordering::Relaxed);
    let elapsed = t0.elapsed().as_secs_f64();
    let cpu_server = sum(&args.server_pids, cpu_s)
        .zip(cpu_server0)
        .map(|(b, a)| b - a);
    let cpu_self = cpu_s(std::process::id()).zip(cpu_self0).map(|(b, a)| b - a);
    let health2 = health(&args.addrs).await.unwrap_or(Value::Null);
    shared.stop.store(true, Ordering::Relaxed);
    let mut lat = std::mem::take(
        &mut *shared
            .latencies_us
            .lock()
            .unwrap_or_else(|e| e.into_inner()),
    );
    lat.sort_unstable();
    let moves = lat.len();
    println!("concurrent games: {open_at_start} at the start of the measurement, {min_open} at the lowest ({} connections)", 2 * min_open);
    println!(
        "moves acknowledged: {moves} in {elapsed:.1} s = {:.0} moves/s",
        moves as f64 / elapsed
    );
    println!(
        "move round trip (ms): p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
        percentile(&lat, 0.50),
        percentile(&lat, 0.90),
        percentile(&lat, 0.99),
        percentile(&lat, 0.999),
        percentile(&lat, 1.0)
    );
    let d = |k: &str| {
        health2[k]
            .as_u64()
            .unwrap_or(0)
            .saturating_sub(health1[k].as_u64().unwrap_or(0))
    };
    if d("commits") > 0 {
        println!(
            "server storage: {} writes in {} commits ({:.1} writes per fsynced commit, {:.0} commits/s, mean commit {:.2} ms, longest {:.1} ms, largest group {})",
            d("writes"),
            d("commits"),
            d("writes") as f64 / d("commits") as f64,
            d("commits") as f64 / elapsed,
            d("commit_us") as f64 / d("commits") as f64 / 1000.0,
            health2["max_commit_us"].as_u64().unwrap_or(0) as f64 / 1000.0,
            health2["max_group"]
        );
    }
    if let Some(c) = cpu_server {
        println!(
            "server CPU: {:.1} s in {elapsed:.1} s = {:.0}% of one core, {:.0} us per move",
            c,
            100.0 * c / elapsed,
            1e6 * c / moves.max(1) as f64
        );
    }
    if let Some(c) = cpu_self {
        println!(
            "load generator CPU: {:.0}% of one core",
            100.0 * c / elapsed
        );
    }
    println!(
        "errors: {}, games finished: {}",
        shared.error_count(),
        shared.games_done.load(Ordering::Relaxed)
    );
    for (kind, (ramp, measured)) in shared
        .errors
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
    {
        println!("  {ramp:>6} during the ramp, {measured:>6} while measuring: {kind}");
    }
    if let (Some(a), Some(b)) = (rss0, peak_rss) {
        println!(
            "server memory (VmRSS): {:.1} MiB before, {:.1} MiB peak, {:.1} KiB per open game",
            a as f64 / 1024.0,
            b as f64 / 1024.0,
            (b.saturating_sub(a)) as f64 / open_at_start.max(1) as f64
        );
    }
    // Let the games' tasks notice the stop (they finish their current pause).
    let grace = Instant::now() + interval * 2 + Duration::from_secs(5);
    for t in tasks {
        let left = grace.saturating_duration_since(Instant::now());
        if tokio::time::timeout(left, t).await.is_err() {
            break;
        }
    }
    let acked = std::mem::take(&mut *shared.acked.lock().unwrap_or_else(|e| e.into_inner()));
    if let Some(path) = &args.acked_out {
        let text: String = acked.iter().map(|(id, p)| format!("{id} {p}\n")).collect();
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        println!(
            "acknowledged plies of {} games written to {}",
            acked.len(),
            path.display()
        );
    }
    let (ok, bad) = verify(args.addrs[0], &acked).await;
    println!(
        "durability: {ok} of {} games hold every acknowledged move ({bad} do not)",
        acked.len()
    );
    if bad > 0 {
        bail!("{bad} games lost acknowledged moves");
    }
    Ok(())
}
