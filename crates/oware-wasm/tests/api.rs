//! The module's API natively: the same `State` the WebAssembly exports
//! drive (the Node tests in e2e/wasm/ run the module itself).

use oware_core::{Game, Position};
use oware_engine::{Engine, EngineOptions, Limits};
use oware_wasm::api::{State, DEFAULT_HASH_MB};
use serde_json::Value;

fn ask(state: &mut State, request: &str) -> Value {
    let mut reports = Vec::new();
    let text = state.handle(request, &mut |r| reports.push(r.to_string()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_search_counts_the_nodes_of_the_engine_itself() {
    let position = "0-2-0-1-3-0-1-0-2-0-3-2-17-17-S";
    let mut state = State::new();
    let r = ask(
        &mut state,
        &format!(r#"{{"op":"search","game":{{"start":"{position}"}},"depth":9,"new_game":true}}"#),
    );
    assert_eq!(r["ok"], true, "{r}");
    let mut engine = Engine::new(EngineOptions {
        hash_mb: DEFAULT_HASH_MB,
        tablebase_dir: None,
    });
    let game = Game::new(position.parse::<Position>().unwrap());
    let direct = engine.search(&game, &Limits::depth(9), &mut |_| {});
    assert_eq!(r["nodes"], direct.nodes);
    assert_eq!(r["best"], direct.best.unwrap().letter().to_string());
}

#[test]
fn refusals_carry_codes_and_the_state_goes_on() {
    let mut state = State::new();
    for (request, code) in [
        ("not json", "bad_request"),
        (
            r#"{"op":"perft","position":"start","depth":99}"#,
            "too_deep",
        ),
        (r#"{"op":"replay","game":{"moves":"FA"}}"#, "illegal_move"),
        (r#"{"op":"tables"}"#, "no_tables"),
    ] {
        let r = ask(&mut state, request);
        assert_eq!(r["ok"], false, "{request}");
        assert_eq!(r["code"], code, "{request}: {r}");
    }
    state.add_table(vec![0; 10]);
    let r = ask(&mut state, r#"{"op":"tables"}"#);
    assert_eq!(r["code"], "damaged_table", "{r}");
    let r = ask(&mut state, r#"{"op":"perft","position":"start","depth":4}"#);
    assert_eq!(r["nodes"], 1_014, "the perft vector of the start");
}

#[test]
fn a_take_back_is_planned_by_the_session_layer() {
    let mut state = State::new();
    // South played F and B, North f: back to South's turn is one ply, to
    // North's two, and two people at one board take back one ply.
    for (side, plies) in [(r#","side":"S""#, 1), (r#","side":"N""#, 2), ("", 1)] {
        let r = ask(
            &mut state,
            &format!(r#"{{"op":"take_back","game":{{"moves":"FfB"}}{side}}}"#),
        );
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(r["reopen"], false, "{r}");
        assert_eq!(r["plies"], plies, "{side}: {r}");
    }
    // A resignation is reopened, keeping every ply.
    let r = ask(
        &mut state,
        r#"{"op":"take_back","game":{"moves":"Ff"},"action":"resign S","side":"S"}"#,
    );
    assert_eq!(
        (r["reopen"].clone(), r["plies"].clone()),
        (true.into(), 0.into()),
        "{r}"
    );
    for (request, code) in [
        (
            r#"{"op":"take_back","game":{"moves":""}}"#,
            "nothing_to_take_back",
        ),
        (
            r#"{"op":"take_back","game":{"moves":"F"},"side":"N"}"#,
            "no_move_of_yours",
        ),
        (
            r#"{"op":"take_back","game":{"moves":"F"},"side":"X"}"#,
            "bad_request",
        ),
    ] {
        let r = ask(&mut state, request);
        assert_eq!(r["code"], code, "{request}: {r}");
    }
    // The result names the rule that ended the game, as the server's does.
    let r = ask(
        &mut state,
        r#"{"op":"replay","game":{"moves":"Ff"},"action":"agree"}"#,
    );
    assert_eq!(r["outcome"]["rule"], "R12", "{r}");
    assert_eq!(r["outcome"]["reason"], "agreement", "{r}");
}
