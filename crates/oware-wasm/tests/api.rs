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

/// A refusal's code, and its detail after a dot when it has one (the web
/// client's `err.<code>.<reason>` key).
fn code_of(r: &Value) -> String {
    assert_eq!(r["ok"], false, "{r}");
    match r["reason"].as_str() {
        Some(reason) => format!("{}.{reason}", r["code"].as_str().unwrap()),
        None => r["code"].as_str().unwrap().to_string(),
    }
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
        ("not json", "malformed"),
        (
            r#"{"op":"perft","position":"start","depth":99}"#,
            "invalid_request.too_deep",
        ),
        (
            r#"{"op":"replay","game":{"moves":"FA"}}"#,
            "illegal_move.not_your_house",
        ),
        (r#"{"op":"tables"}"#, "invalid_request.no_tables"),
    ] {
        let r = ask(&mut state, request);
        assert_eq!(r["ok"], false, "{request}");
        assert_eq!(code_of(&r), code, "{request}: {r}");
    }
    state.add_table(vec![0; 10]);
    let r = ask(&mut state, r#"{"op":"tables"}"#);
    assert_eq!(code_of(&r), "invalid_request.damaged_table", "{r}");
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
            "not_allowed.nothing_to_take_back",
        ),
        (
            r#"{"op":"take_back","game":{"moves":"F"},"side":"N"}"#,
            "not_allowed.no_move_of_yours",
        ),
        (
            r#"{"op":"take_back","game":{"moves":"F"},"side":"X"}"#,
            "invalid_request.bad_side",
        ),
    ] {
        let r = ask(&mut state, request);
        assert_eq!(code_of(&r), code, "{request}: {r}");
    }
    // The result names the rule that ended the game, as the server's does.
    let r = ask(
        &mut state,
        r#"{"op":"replay","game":{"moves":"Ff"},"action":"agree"}"#,
    );
    assert_eq!(r["result"]["rule"], "R12", "{r}");
    assert_eq!(r["result"]["reason"], "agreement", "{r}");
}

#[test]
fn puzzles_offline_are_the_shipped_set_judged_and_worded_by_the_session_layer() {
    use oware_session::puzzles;
    use oware_session::Lang;
    let mut state = State::new();
    let set = puzzles::shipped();
    let p = &set.puzzles[0];
    // One puzzle: as the server sends it, without its solution.
    let r = ask(
        &mut state,
        &format!(r#"{{"op":"puzzle","id":{},"lang":"fr"}}"#, p.id),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["position"], p.position.to_string());
    assert_eq!(r["rating"], i64::from(p.rating));
    assert!(r.get("solution").is_none(), "{r}");
    assert_eq!(r["theme_names"][0], p.themes[0].name(Lang::Fr));
    // The solution is solved, another legal move fails; the words are the
    // session layer's, in the asked language.
    let solution = p.solution.letter();
    let other = p
        .position
        .legal_moves()
        .into_iter()
        .find(|&m| m != p.solution)
        .expect("a puzzle has another legal move");
    for (mv, solved) in [(p.solution, true), (other, false)] {
        let r = ask(
            &mut state,
            &format!(
                r#"{{"op":"puzzle_attempt","id":{},"moves":["{}"],"lang":"fr"}}"#,
                p.id,
                mv.letter()
            ),
        );
        assert_eq!(r["solved"], solved, "{r}");
        assert_eq!(r["solution"], solution.to_string());
        assert_eq!(r["rated"], false);
        let judged = p.attempt(&[mv]).unwrap();
        assert_eq!(r["text"], judged.text(p, Lang::Fr));
        assert_eq!(r["line"].as_array().unwrap().len(), p.line.len());
    }
    // The day's puzzle is the server's (PuzzleSet::daily).
    let r = ask(&mut state, r#"{"op":"puzzle_daily","day":20424}"#);
    assert_eq!(r["id"], set.daily(20_424).unwrap().id);
    // The next puzzle is one of the nearest to the rating, never a skipped one.
    let near = set.nearest(&[], 1700.0, &[]);
    let skip = near[0..2]
        .iter()
        .map(|&i| set.puzzles[i].id.to_string())
        .collect::<Vec<_>>()
        .join(",");
    for seed in 0..20 {
        let r = ask(
            &mut state,
            &format!(r#"{{"op":"puzzle_next","rating":1700,"skip":[{skip}],"seed":{seed}}}"#),
        );
        let id = r["id"].as_u64().unwrap() as u32;
        let allowed = set.nearest(
            &[],
            1700.0,
            &[set.puzzles[near[0]].id, set.puzzles[near[1]].id],
        );
        assert!(allowed.iter().any(|&i| set.puzzles[i].id == id), "{id}");
    }
    for (request, code) in [
        (r#"{"op":"puzzle","id":999999}"#, "not_found"),
        (
            r#"{"op":"puzzle_next","rating":9000}"#,
            "invalid_request.out_of_range",
        ),
        (r#"{"op":"puzzle","id":1,"lang":"de"}"#, "invalid_request"),
        (
            r#"{"op":"puzzle_attempt","id":1,"moves":[]}"#,
            "invalid_request",
        ),
        (
            r#"{"op":"puzzle_attempt","id":1,"moves":["Z"]}"#,
            "invalid_move.bad_letter",
        ),
    ] {
        assert_eq!(code_of(&ask(&mut state, request)), code, "{request}");
    }
}

#[test]
fn a_review_offline_is_the_session_layers_review() {
    let mut state = State::new();
    let r = ask(
        &mut state,
        r#"{"op":"review","game":{"start":"0-2-0-1-3-0-1-0-2-0-3-2-17-17-S","moves":"Ea"},"movetime_ms":50}"#,
    );
    assert_eq!(r["ok"], true, "{r}");
    let plies = r["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2);
    assert_eq!(plies[0]["ply"], 1);
    assert_eq!(plies[0]["side"], "S");
    assert_eq!(plies[0]["move"], "E");
    assert_eq!(plies[1]["side"], "N");
    for p in plies {
        assert!(p["loss_cp"].as_i64().unwrap() >= 0, "{p}");
        assert!(p["best"].is_string(), "{p}");
        assert!(p["score"]["kind"].is_string(), "{p}");
        // South's view of the move played: its player's value, signed.
        let cp = p["score"]["cp"].as_i64().unwrap();
        let south = if p["side"] == "S" { cp } else { -cp };
        assert_eq!(p["eval_south_cp"], south, "{p}");
    }
    // Each ply's verdict is the coach's (`analyse`, a module that has
    // reviewed nothing) on the position before it, and a second review,
    // on another module, answers the same.
    assert_eq!(r["depth"], 14, "{r}");
    let start = "0-2-0-1-3-0-1-0-2-0-3-2-17-17-S";
    for (i, p) in plies.iter().enumerate() {
        let coach = ask(
            &mut State::new(),
            &format!(
                r#"{{"op":"analyse","game":{{"start":"{start}","moves":"{}"}}}}"#,
                &"Ea"[..i]
            ),
        );
        let played = coach["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == p["move"])
            .unwrap_or_else(|| panic!("{coach}"));
        assert_eq!(p["verdict"], played["verdict"], "{p} {coach}");
        assert_eq!(p["loss"], played["loss"], "{p} {coach}");
        assert_eq!(p["best"], coach["best"], "{p} {coach}");
    }
    let again = ask(
        &mut State::new(),
        r#"{"op":"review","game":{"start":"0-2-0-1-3-0-1-0-2-0-3-2-17-17-S","moves":"Ea"}}"#,
    );
    assert_eq!(again, r);
    let r = ask(
        &mut state,
        r#"{"op":"review","game":{"moves":"F"},"movetime_ms":5}"#,
    );
    assert_eq!(code_of(&r), "invalid_request.out_of_range", "{r}");
}

#[test]
fn a_game_on_the_device_is_written_as_ogn_by_the_core_and_reads_back() {
    let mut state = State::new();
    let r = ask(
        &mut state,
        r#"{"op":"ogn","game":{"moves":"FfA"},"action":"resign N","south":"Ama \"A\"\nNew line","north":"Computer 3","date":"2026.12.02","event":"oware, computer game"}"#,
    );
    let text = r["text"].as_str().unwrap_or_else(|| panic!("{r}"));
    assert!(
        text.contains("[South \"Ama \\\"A\\\" New line\"]"),
        "{text}"
    );
    assert!(text.contains("[Date \"2026.12.02\"]"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    // The record reads back to the same game, resignation and all.
    let record = oware_core::Record::parse(text).expect("the record reads back");
    let game = record.game();
    assert_eq!(game.plies().len(), 3);
    assert_eq!(record.tag("South").as_deref(), Some("Ama \"A\" New line"));
    let o = game.outcome().expect("over");
    assert_eq!(o.reason.as_str(), "resignation");
    assert_eq!(o.winner_str(), "S");
    // A bad game or action is refused with its code, as elsewhere.
    for (request, code) in [
        (
            r#"{"op":"ogn","game":{"moves":"FA"}}"#,
            "illegal_move.not_your_house",
        ),
        (
            r#"{"op":"ogn","game":{"moves":"F"},"action":"fly"}"#,
            "invalid_request.bad_action",
        ),
    ] {
        let r = ask(&mut state, request);
        assert_eq!(code_of(&r), code, "{request}: {r}");
    }
}

#[test]
fn an_ogn_record_is_read_by_the_core_for_the_device_and_refused_with_its_place() {
    let mut state = State::new();
    // Written by the module, read back: the same game, its end and names.
    for action in ["resign N", "agree", "time S"] {
        let r = ask(
            &mut state,
            &format!(
                r#"{{"op":"ogn","game":{{"start":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S","moves":"F-A"}},"action":"{action}","south":"Ama","north":"Kofi"}}"#
            ),
        );
        let text = r["text"].as_str().unwrap_or_else(|| panic!("{r}"));
        let read = ask(
            &mut state,
            &serde_json::json!({ "op": "read_ogn", "text": text }).to_string(),
        );
        assert_eq!(read["ok"], true, "{read}");
        assert_eq!(read["start"], "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "{read}");
        assert_eq!(read["moves"], "F-A", "{read}");
        assert_eq!(read["action"], action, "{read}");
        assert_eq!(read["south"], "Ama");
        assert_eq!(read["north"], "Kofi");
    }
    // A game ended by the rules has no action; missing names are null.
    let r = ask(
        &mut state,
        &serde_json::json!({ "op": "read_ogn", "text": "1. F f\n" }).to_string(),
    );
    assert_eq!(r["moves"], "Ff", "{r}");
    assert_eq!(r["action"], Value::Null, "{r}");
    assert_eq!(r["south"], Value::Null, "{r}");
    // An illegal move: the reader's code, its place and the rule.
    let r = ask(
        &mut state,
        &serde_json::json!({ "op": "read_ogn", "text": "[South \"A\"]\n\n1. F A\n" }).to_string(),
    );
    assert_eq!(r["ok"], false, "{r}");
    assert_eq!(r["code"], "invalid_request", "{r}");
    assert_eq!(r["line"], 3, "{r}");
    assert!(r["reason"].is_string(), "{r}");
    assert!(r["rule"].is_string(), "{r}");
    // Not a record at all.
    let r = ask(
        &mut state,
        &serde_json::json!({ "op": "read_ogn", "text": "[South \"A\"\n" }).to_string(),
    );
    assert_eq!(r["code"], "invalid_request", "{r}");
    assert_eq!(r["line"], 1, "{r}");
    assert_eq!(r["rule"], Value::Null, "{r}");
}
