//! One answer everywhere (issue 36): the same position, history, depth and
//! tables give the same values, in the same order, from every front end
//! that analyses a position:
//!
//! - `oware analyze --depth D --tablebases DIR --json` (the command line),
//!   and `oware analyze --coach` for the coach's budget (every move to
//!   depth 14, the close ones to 18);
//! - the server's `POST /api/v1/analyze {"depth": D}` and the coach's
//!   `POST /api/v1/coach` (whose best move is also the game page's hint);
//! - the browser's module (`oware_wasm::api::State`, the code of
//!   `oware.wasm` compiled natively), its `analyse` request;
//! - the session's `Analysis` (the terminal game's hint and coach) on
//!   engines of other table sizes and thread counts, after other searches.
//!
//! Before the fix, the issue's position `1-2-0-5-3-1-2-0-4-1-2-3-12-12-S`
//! at depth 14 read B −4.04, A −4.56 on the command line and A −2.10,
//! B −3.75 on the server: the analysis searched in the engine's own table,
//! whose size (64 MiB against 16) and earlier contents differed.
//!
//! Python's `Engine.analyze` is compared with the command line by
//! `python/tests/test_one_answer.py`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use oware_core::{Game, Position};
use oware_engine::{Engine, EngineOptions, Limits, StopHandle};
use oware_server::config::Tablebases;
use oware_server::{Config, Server, ServerOptions};
use oware_session::analysis::{AnalysisCache, Budget};
use oware_session::Analysis;
use serde_json::{json, Value};

/// The coach's depth: the server's coach route always searches it.
const DEPTH: u32 = 14;

/// The browser's tables: files of 0 to 12 seeds.
const TABLE_SEEDS: usize = 12;

/// One question: a start position and the moves played from it (the
/// history since the last capture counts for repetitions).
#[derive(Clone, Debug)]
struct Case {
    start: String,
    moves: String,
}

impl Case {
    fn game(&self) -> Game {
        let start: Position = self.start.parse().unwrap();
        let plies = oware_core::parse_plies(&self.moves).unwrap();
        Game::from_plies(start, &plies).unwrap()
    }
}

/// A small seeded generator, so the positions are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The issue's positions, table endgames, a repetition, and positions of
/// seeded random games (with their moves, so the history travels too).
fn cases() -> Vec<Case> {
    let fixed = [
        // The issue's example, and its three coach positions.
        ("1-2-0-5-3-1-2-0-4-1-2-3-12-12-S", ""),
        ("1-1-2-2-0-2-2-11-0-0-2-1-13-11-N", ""),
        ("0-0-0-2-2-0-1-18-3-1-0-3-12-6-N", ""),
        ("2-4-0-3-1-4-2-0-3-3-3-4-13-6-N", ""),
        // Within the tables (8 and 11 seeds on the board).
        ("1-0-0-0-0-2-0-0-0-0-1-1-20-23-S", ""),
        ("0-0-3-0-1-0-2-0-0-2-1-2-18-19-S", ""),
        // Just above them: the tables answer after a capture.
        ("2-0-1-0-3-1-0-2-1-0-2-2-17-17-N", ""),
        // E11's cycle, 12 plies in: the history since the last capture
        // holds every board once; repetitions are in reach of the search.
        ("0-0-0-0-0-0-1-0-0-0-0-1-23-23-N", "fAaBbCcDdEeF"),
        // Openings from the start.
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "FfBe"),
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "CfEaDbA"),
    ];
    let mut out: Vec<Case> = fixed
        .iter()
        .map(|(s, m)| Case {
            start: s.to_string(),
            moves: m.to_string(),
        })
        .collect();
    let mut rng = Rng(0x0A3E_2026_1203_0036);
    while out.len() < 24 {
        let mut game = Game::new(Position::start());
        let mut moves = String::new();
        let plies = 24 + rng.next() % 50;
        for _ in 0..plies {
            let legal: Vec<_> = game.legal_moves().into_iter().collect();
            if game.is_over() || legal.is_empty() {
                break;
            }
            let mv = legal[(rng.next() % legal.len() as u64) as usize];
            game.play(mv).unwrap();
            moves.push(mv.letter());
        }
        if !game.is_over() && game.legal_moves().len() > 1 {
            out.push(Case {
                start: Position::start().to_string(),
                moves,
            });
        }
    }
    out
}

/// Every legal move and its value in centiseeds, in the order given.
type Answer = Vec<(char, i32)>;

fn letter(v: &Value) -> char {
    v.as_str()
        .and_then(|s| s.chars().next())
        .unwrap_or_else(|| panic!("not a move: {v}"))
}

/// The command line's answer: `oware analyze --depth 14`, or with `coach`
/// `oware analyze --coach` (the coach's budget: close moves deeper).
fn cli(case: &Case, tables: &Path, coach: bool) -> Answer {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oware"));
    cmd.args(["analyze", "--position", &case.start]);
    if coach {
        cmd.arg("--coach");
    } else {
        cmd.args(["--depth", &DEPTH.to_string()]);
    }
    cmd.args(["--json", "--tablebases"]).arg(tables);
    if !case.moves.is_empty() {
        cmd.args(["--moves", &case.moves]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (letter(&m["move"]), m["score_cp"].as_i64().unwrap() as i32))
        .collect()
}

/// One HTTP request to the server (a fresh connection each time).
fn post(addr: SocketAddr, path: &str, body: &Value) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{path} {body}: {text}");
    let json = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap();
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

fn get(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text
}

fn request(case: &Case) -> Value {
    if case.moves.is_empty() {
        json!({"position": case.start})
    } else {
        json!({"position": case.start, "moves": case.moves})
    }
}

/// The server's analysis route.
fn server_analyze(addr: SocketAddr, case: &Case) -> Answer {
    let mut body = request(case);
    body["depth"] = json!(DEPTH);
    let v = post(addr, "/api/v1/analyze", &body);
    // The search ends early when every move is proven (the tables'
    // positions), never deeper than asked.
    let depth = v["depth"].as_u64().unwrap();
    assert!((1..=u64::from(DEPTH)).contains(&depth), "{v}");
    assert_eq!(v["tables"].as_u64(), Some(TABLE_SEEDS as u64), "{v}");
    moves_of(&v)
}

/// The moves of an analysis answer in JSON (the server's or the module's),
/// in its order, with their values.
fn moves_of(v: &Value) -> Answer {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                letter(&m["move"]),
                m["score"]["cp"].as_i64().unwrap() as i32,
            )
        })
        .collect()
}

/// The server's coach (and so the game page's hint: its best move).
fn server_coach(addr: SocketAddr, case: &Case) -> Answer {
    let v = post(addr, "/api/v1/coach", &request(case));
    let moves = moves_of(&v);
    assert_eq!(letter(&v["best"]), moves[0].0, "the hint is the first move");
    moves
}

/// The browser's module, compiled natively, with the same table files:
/// at depth 14, or with `coach` at the coach's budget (what the page asks).
fn module(state: &mut oware_wasm::api::State, case: &Case, coach: bool) -> Answer {
    let mut req = json!({
        "op": "analyse",
        "game": {"start": case.start, "moves": case.moves},
    });
    if !coach {
        req["depth"] = json!(DEPTH);
    }
    let text = state.handle(&req.to_string(), &mut |_| {});
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["ok"], true, "{text}");
    moves_of(&v)
}

fn session(a: &Analysis) -> Answer {
    a.moves
        .iter()
        .map(|m| (m.mv.letter(), m.score.centiseeds()))
        .collect()
}

fn engine(hash_mb: usize, threads: usize, tables: &Path) -> Engine {
    let mut e = Engine::new(EngineOptions {
        hash_mb,
        tablebase_dir: Some(tables.to_path_buf()),
    });
    assert!(e.tablebase_error().is_none(), "{:?}", e.tablebase_error());
    e.set_threads(threads);
    e
}

#[test]
fn one_answer_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let built = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args([
            "tablebase",
            "build",
            "--max-seeds",
            &TABLE_SEEDS.to_string(),
        ])
        .arg("--dir")
        .arg(&tables)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );

    // The server, with the same table files.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let server = runtime
        .block_on(Server::start(ServerOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            db: Some(dir.path().join("games.sqlite3")),
            config: Config {
                engine_threads: 1,
                engine_study_threads: 1,
                engine_request_cap: Duration::from_secs(600),
                rate_limits: None,
                tablebases: Some(Tablebases {
                    dir: Some(tables.clone()),
                    max_seeds: TABLE_SEEDS,
                }),
                ..Config::default()
            },
            ..ServerOptions::default()
        }))
        .unwrap();
    let addr = server.addr();
    let t0 = Instant::now();
    while !get(addr, "/api/v1/health").contains(&format!("\"tablebase_seeds\":{TABLE_SEEDS}")) {
        assert!(t0.elapsed() < Duration::from_secs(120), "no tables");
        std::thread::sleep(Duration::from_millis(100));
    }

    // The browser's module, given the files as the page gives them.
    let mut wasm = oware_wasm::api::State::new();
    for n in 0..=TABLE_SEEDS {
        let file = tables.join(format!("oware-tb-{n:02}.otb"));
        wasm.add_table(std::fs::read(file).unwrap());
    }
    let installed = wasm.handle(r#"{"op":"tables"}"#, &mut |_| {});
    assert!(
        installed.contains(&format!("\"max_seeds\":{TABLE_SEEDS}")),
        "{installed}"
    );

    // Engines unlike the others: the terminal game's table (32 MiB, its
    // analyses kept in a cache), Python's default (64 MiB) on two threads
    // and a 1 MiB one; each has searched other positions first.
    let mut terminal = engine(32, 1, &tables);
    let mut terminal_cache = AnalysisCache::default();
    let mut big = engine(64, 2, &tables);
    let mut small = engine(1, 1, &tables);
    for e in [&mut terminal, &mut big, &mut small] {
        let warm = Game::new(Position::start());
        e.search(&warm, &Limits::depth(12), &mut |_| {});
    }

    let stop = StopHandle::default();
    // A search to depth 14, and the coach's budget (every move to 14, the
    // close ones deeper): each has one answer everywhere.
    let plain = Budget::depth(DEPTH);
    let coach = Budget::COACH;
    assert_eq!(coach.depth, DEPTH);
    let all = cases();
    assert!(all.len() >= 20);
    let mut differing = Vec::new();
    let mut deeper_looks = 0;
    for case in &all {
        let game = case.game();
        let reference = cli(case, &tables, false);
        let coach_reference = cli(case, &tables, true);
        assert_eq!(reference.len(), game.legal_moves().len(), "{case:?}");
        assert_eq!(coach_reference.len(), game.legal_moves().len(), "{case:?}");
        deeper_looks += usize::from(coach_reference != reference);
        let answers = [
            ("server analyze", false, server_analyze(addr, case)),
            (
                "browser module at depth 14",
                false,
                module(&mut wasm, case, false),
            ),
            (
                "session at depth 14 (1 MiB)",
                false,
                session(&Analysis::run(&mut small, &game, plain, &stop).unwrap()),
            ),
            (
                "engine (64 MiB, 2 threads)",
                false,
                big.analyze(&game, &Limits::depth(DEPTH))
                    .iter()
                    .map(|m| (m.mv.letter(), m.score.centiseeds()))
                    .collect(),
            ),
            ("server coach", true, server_coach(addr, case)),
            (
                "browser module's coach",
                true,
                module(&mut wasm, case, true),
            ),
            (
                "terminal (32 MiB, cached)",
                true,
                session(
                    &terminal_cache
                        .analyse(&mut terminal, &game, coach, &stop)
                        .unwrap(),
                ),
            ),
            (
                "coach (1 MiB)",
                true,
                session(&Analysis::run(&mut small, &game, coach, &stop).unwrap()),
            ),
        ];
        for (who, is_coach, answer) in answers {
            let (want, name) = if is_coach {
                (&coach_reference, "oware analyze --coach")
            } else {
                (&reference, "oware analyze --depth 14")
            };
            if answer != *want {
                differing.push(format!(
                    "{} {}: {name} {want:?}, {who} {answer:?}",
                    case.start, case.moves
                ));
            }
        }
        // The engines go on to other work between questions.
        big.search(&game, &Limits::depth(8), &mut |_| {});
    }
    assert!(differing.is_empty(), "{}", differing.join("\n"));
    // The coach's deeper look changed some answers: it is compared too.
    assert!(deeper_looks > 0, "the coach's budget changed no answer");
    drop(server);
    drop(runtime);
}
