//! One vocabulary for the server and the browser (issue 34): the rules
//! state of a game and the refusals of bad input read the same from the
//! server's `POST /api/v1/rules/state` and from the browser's module
//! (`oware_wasm::api::State`, the code of `oware.wasm` compiled natively),
//! field by field, so the web page's `local.js` takes the module's answer
//! as it is and maps both refusals with one function.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use oware_core::{Game, Ply, Position};
use oware_server::{Config, Server, ServerOptions};
use serde_json::{json, Value};

/// `POST path body`: the status and the JSON answer.
fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
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
    let status = head[9..12].parse().unwrap();
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "{head}"
    );
    let json = serde_json::from_str(rest).unwrap_or_else(|e| panic!("{e}: {rest}"));
    (status, json)
}

/// A small seeded generator, so the games are the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Games as (start, plies): fixed rule examples, and seeded random games
/// of every length up to their end, some with a turn lost on time.
fn games() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = [
        ("start", ""),
        // docs/RULES.md E2 (a double capture) and E9 (must feed).
        ("0-0-0-0-0-2-1-1-0-0-4-0-20-20-S", "F"),
        ("3-0-0-0-0-1-0-0-0-0-0-0-22-22-S", ""),
        // The lessons' explained capture.
        ("0-0-0-5-0-0-3-1-2-0-0-3-17-17-S", "D"),
        ("start", "F-"),
    ]
    .iter()
    .map(|(s, m)| (s.to_string(), m.to_string()))
    .collect();
    let mut rng = Rng(0x5eed_0034);
    for g in 0..12 {
        let mut game = Game::new(Position::start());
        let mut text = String::new();
        let stop_at = if g % 3 == 0 { usize::MAX } else { 5 + 7 * g };
        while !game.is_over() && text.len() < stop_at {
            if g % 4 == 1 && rng.below(15) == 0 {
                game.pass().unwrap();
                text.push('-');
                continue;
            }
            let legal: Vec<_> = game.legal_moves().into_iter().collect();
            let mv = legal[rng.below(legal.len())];
            game.play(mv).unwrap();
            text.push(mv.letter());
        }
        out.push((Position::start().to_string(), text));
    }
    out
}

#[test]
fn the_server_and_the_module_answer_the_same_rules_state_and_refusals() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt
        .block_on(Server::start(ServerOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            db: None,
            config: Config {
                rate_limits: None,
                tablebases: None,
                ..Config::default()
            },
            ..ServerOptions::default()
        }))
        .unwrap();
    let addr = server.addr();
    let mut module = oware_wasm::api::State::new();
    let mut ask = |request: Value| -> Value {
        serde_json::from_str(&module.handle(&request.to_string(), &mut |_| {})).unwrap()
    };

    let mut over = 0;
    let mut passes = 0;
    for (start, moves) in games() {
        let (status, server_state) = post(
            addr,
            "/api/v1/rules/state",
            &json!({ "position": start, "moves": moves }),
        );
        assert_eq!(status, 200, "{start} {moves}: {server_state}");
        let mut module_state = ask(json!({
            "op": "replay",
            "game": { "start": start, "moves": moves },
        }));
        assert_eq!(module_state["ok"], true, "{module_state}");
        // The module's own extras: the answer flag, where the game ended,
        // and the moves it was asked to check.
        let extras = module_state.as_object_mut().unwrap();
        for key in ["ok", "over_at", "checks"] {
            extras.remove(key);
        }
        assert_eq!(
            module_state, server_state,
            "{start} {moves}: the module and the server differ"
        );
        let plies = oware_core::parse_plies(&moves).unwrap();
        over += usize::from(server_state["status"] == "over");
        passes += usize::from(plies.contains(&Ply::Pass));
        // Every field the page reads is there.
        for key in [
            "start", "plies", "ply", "captures", "position", "to_move", "legal", "score", "last",
            "result", "status", "previews",
        ] {
            assert!(
                server_state.get(key).is_some(),
                "{key} missing: {server_state}"
            );
        }
        assert_eq!(
            server_state["captures"].as_array().unwrap().len(),
            plies.len()
        );
    }
    assert!(over >= 4, "only {over} finished games were compared");
    assert!(passes >= 2, "only {passes} games with a lost turn");

    // Bad input: the same code, detail and rule from both.
    for (game, what) in [
        (json!({ "start": "1-2-3", "moves": "" }), "a short position"),
        (
            json!({ "start": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", "moves": "" }),
            "a bad side",
        ),
        (json!({ "moves": "FZ" }), "a letter that is no move"),
        (json!({ "moves": "FA" }), "a house of the opponent"),
        (
            json!({ "start": "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S", "moves": "A" }),
            "an empty house",
        ),
        (
            json!({ "start": "3-0-0-0-0-1-0-0-0-0-0-0-22-22-S", "moves": "A" }),
            "a move that does not feed",
        ),
    ] {
        let (status, server) = post(
            addr,
            "/api/v1/rules/state",
            &json!({ "position": game.get("start").cloned().unwrap_or(json!("start")), "moves": game["moves"] }),
        );
        assert!(status >= 400, "{what}: {server}");
        let server = &server["error"];
        let module = ask(json!({ "op": "replay", "game": game }));
        assert_eq!(module["ok"], false, "{what}: {module}");
        for key in ["code", "reason", "rule"] {
            assert_eq!(
                module[key], server[key],
                "{what}: {key}: {module} / {server}"
            );
        }
        assert!(module["reason"].is_string(), "{what}: no detail: {module}");
    }
    drop(server);
}
