//! Every board the web app teaches with (`web/data/lessons.json`: the
//! tutorial's lessons, the worked examples and the common mistakes) is
//! replayed through `oware-core`, and each fact its `check` object states
//! (the facts its text promises: legal moves, captures, the outcome, ...)
//! is compared with what the rules do. The page reads the same file, so a
//! lesson whose text and board disagree fails here.

use std::collections::{HashSet, VecDeque};
use std::path::Path;

use oware_core::{Game, IllegalMove, Move, MoveTrace, Position, Side};
use serde_json::Value;

fn data() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/data/lessons.json");
    let text = std::fs::read_to_string(&path).expect("web/data/lessons.json is readable");
    serde_json::from_str(&text).expect("web/data/lessons.json is JSON")
}

/// Every board of the file with a position: (a name for messages, the item).
fn boards(data: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for l in data["lessons"].as_array().expect("lessons") {
        out.push((format!("lesson {}", l["id"]), l.clone()));
    }
    for ex in data["examples"].as_array().expect("examples") {
        for (i, step) in ex["steps"].as_array().expect("steps").iter().enumerate() {
            out.push((format!("example {} step {}", ex["id"], i + 1), step.clone()));
        }
    }
    for (i, m) in data["mistakes"]
        .as_array()
        .expect("mistakes")
        .iter()
        .enumerate()
    {
        if m.get("position").is_some() {
            out.push((format!("mistake {}", i + 1), m.clone()));
        }
    }
    out
}

fn letters(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    moves.into_iter().map(|m| m.letter().to_string()).collect()
}

fn reason_code(e: IllegalMove) -> &'static str {
    match e {
        IllegalMove::GameOver => "game_over",
        IllegalMove::NotYourHouse => "not_your_house",
        IllegalMove::EmptyHouse => "empty_house",
        IllegalMove::MustFeed => "must_feed",
    }
}

fn side_of(s: &str) -> Side {
    match s {
        "S" => Side::South,
        "N" => Side::North,
        other => panic!("side {other:?}"),
    }
}

/// Plays `moves` from the item's position and checks every fact of its
/// `check` object; the error names the first fact that does not hold.
fn check(item: &Value) -> Result<(), String> {
    let pos: Position = item["position"]
        .as_str()
        .ok_or("no position")?
        .parse()
        .map_err(|e| format!("position: {e}"))?;
    let facts = item["check"].as_object().ok_or("no `check` object")?;
    if facts.is_empty() {
        return Err("`check` states nothing".into());
    }
    // The moves shown: `moves` in the check, else the lesson's `sequence` or `show`.
    let moves = facts
        .get("moves")
        .or_else(|| item.get("sequence"))
        .or_else(|| item.get("show"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut game = Game::new(pos);
    let mut last: Option<MoveTrace> = None;
    for (i, c) in moves.chars().enumerate() {
        let mv = Move::from_letter(c).ok_or(format!("move {c:?} is not a letter"))?;
        last = Some(
            game.play_traced(mv)
                .map_err(|e| format!("move {} ({c}) refused: {e}", i + 1))?,
        );
    }
    let trace = || {
        last.as_ref()
            .ok_or("the fact needs a move played".to_string())
    };
    for (key, want) in facts {
        let got: Value = match key.as_str() {
            "moves" => continue,
            "legal" => Value::from(letters(pos.legal_moves())),
            "legal_after" => Value::from(letters(game.legal_moves())),
            "illegal" => {
                let mut out = serde_json::Map::new();
                for mv in want.as_object().ok_or("illegal: an object")?.keys() {
                    let m = Move::from_letter(mv.chars().next().unwrap_or('?'))
                        .ok_or(format!("illegal: {mv} is not a move"))?;
                    let code = match pos.check(m) {
                        Ok(()) => "legal",
                        Err(e) => reason_code(e),
                    };
                    out.insert(mv.clone(), Value::from(code));
                }
                Value::Object(out)
            }
            "sown" => Value::from(letters(trace()?.sown.iter().map(|&h| Move::new(h)))),
            "last" => Value::from(trace()?.last.letter().to_string()),
            "captured" => Value::from(
                trace()?
                    .captured
                    .iter()
                    .map(|&(h, n)| {
                        Value::from(vec![Value::from(h.letter().to_string()), Value::from(n)])
                    })
                    .collect::<Vec<_>>(),
            ),
            "grand_slam" => Value::from(trace()?.grand_slam),
            "after" => Value::from(trace()?.after.to_string()),
            "to_move_after" => Value::from(side_str(game.position().to_move())),
            "rows_after" => {
                let mut out = serde_json::Map::new();
                for side in want.as_object().ok_or("rows_after: an object")?.keys() {
                    out.insert(
                        side.clone(),
                        Value::from(trace()?.after.row_seeds(side_of(side))),
                    );
                }
                Value::Object(out)
            }
            "plies" => Value::from(game.plies().len()),
            "result" => match game.outcome() {
                None => Value::Null,
                Some(o) => serde_json::json!({
                    "reason": o.reason.as_str(),
                    "totals": o.totals,
                    "winner": o.winner_str(),
                }),
            },
            "occurs" => {
                let p: Position = want["position"]
                    .as_str()
                    .ok_or("occurs: a position")?
                    .parse()
                    .map_err(|e| format!("occurs: {e}"))?;
                let plies: Vec<usize> = game
                    .positions()
                    .iter()
                    .enumerate()
                    .filter(|(_, q)| q.board_key() == p.board_key() && q.to_move() == p.to_move())
                    .map(|(i, _)| i)
                    .collect();
                serde_json::json!({"position": want["position"], "plies": plies})
            }
            "playing_after" => {
                // The game was still going on after this many plies.
                let n = want.as_u64().ok_or("playing_after: a number")? as usize;
                let start: Vec<Move> = game.moves().take(n).collect();
                let g = Game::from_moves(pos, &start)
                    .map_err(|(i, e)| format!("playing_after: move {i}: {e}"))?;
                Value::from(if g.is_over() { 0 } else { n })
            }
            "never_captures" => Value::from(never_captures(pos)?),
            "agreement_totals" => {
                let mut g = Game::new(pos);
                let o = g.agree_to_stop().map_err(|e| format!("agreement: {e}"))?;
                Value::from(o.totals.to_vec())
            }
            "pass_to_move" => {
                // The player to move (after the moves shown) loses the turn
                // on time (R13): same board, the other player moves.
                let before = *game.position();
                let mut g = game.clone();
                g.pass().map_err(|e| format!("pass: {e}"))?;
                let same = before.with_side_to_move(before.to_move().opponent());
                if g.position().key() != same.key() {
                    return Err("pass: the board changed".into());
                }
                Value::from(side_str(g.position().to_move()))
            }
            other => return Err(format!("unknown fact {other:?}")),
        };
        if &got != want {
            return Err(format!("{key}: the text says {want}, the rules give {got}"));
        }
    }
    Ok(())
}

fn side_str(s: Side) -> &'static str {
    match s {
        Side::South => "S",
        Side::North => "N",
    }
}

/// True when no move in any position reachable from `pos` captures and
/// every one of them has a legal move: the game can only go round until a
/// position occurs for the third time (R11), or the players agree (R12).
fn never_captures(pos: Position) -> Result<bool, String> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([pos]);
    seen.insert(pos.key());
    while let Some(p) = queue.pop_front() {
        if seen.len() > 100_000 {
            return Err("never_captures: too many positions to explore".into());
        }
        let legal = p.legal_moves();
        if legal.is_empty() {
            return Ok(false);
        }
        for mv in legal {
            let t = p.trace(mv).map_err(|e| e.to_string())?;
            if !t.captured.is_empty() {
                return Ok(false);
            }
            if seen.insert(t.after.key()) {
                queue.push_back(t.after);
            }
        }
    }
    Ok(true)
}

#[test]
fn every_lesson_board_does_what_its_text_says() {
    let data = data();
    let all = boards(&data);
    assert!(all.len() >= 25, "only {} boards found", all.len());
    let failures: Vec<String> = all
        .iter()
        .filter_map(|(name, item)| check(item).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn there_is_a_lesson_for_every_rule() {
    let data = data();
    let rules: Vec<String> = data["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["rule"].as_str().unwrap().to_string())
        .collect();
    let want: Vec<String> = (1..=13).map(|i| format!("R{i}")).collect();
    assert_eq!(rules, want);
}

#[test]
fn every_text_is_in_english_and_french() {
    fn walk(v: &Value, path: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if m.contains_key("en") != m.contains_key("fr") {
                    out.push(path.to_string());
                }
                for (k, x) in m {
                    walk(x, &format!("{path}.{k}"), out);
                }
            }
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| walk(x, &format!("{path}[{i}]"), out)),
            _ => {}
        }
    }
    let mut missing = Vec::new();
    walk(&data(), "", &mut missing);
    assert!(missing.is_empty(), "one language only at {missing:?}");
}

#[test]
fn french_punctuation_has_non_breaking_spaces() {
    // French sets a (non-breaking) space before ; : ? ! and inside « »;
    // a plain space there lets a line break before the sign.
    fn walk(v: &Value, fr: bool, out: &mut Vec<String>) {
        match v {
            Value::String(s) if fr => {
                for bad in [" ;", " :", " ?", " !", "« ", " »"] {
                    if s.contains(bad) {
                        out.push(s.clone());
                    }
                }
            }
            Value::Object(m) => m.iter().for_each(|(k, x)| walk(x, fr || k == "fr", out)),
            Value::Array(a) => a.iter().for_each(|x| walk(x, fr, out)),
            _ => {}
        }
    }
    let mut bad = Vec::new();
    walk(&data(), false, &mut bad);
    assert!(
        bad.is_empty(),
        "plain spaces before punctuation in {bad:#?}"
    );
}

/// The check must be able to fail: a wrong claim about each kind of fact
/// is caught.
#[test]
fn a_wrong_claim_is_caught() {
    let data = data();
    let all = boards(&data);
    let find = |key: &str| {
        all.iter()
            .find(|(_, item)| item["check"].get(key).is_some())
            .unwrap_or_else(|| panic!("no board states {key}"))
            .1
            .clone()
    };
    let wrong: [(&str, Value); 8] = [
        ("legal", serde_json::json!(["A"])),
        ("captured", serde_json::json!([["c", 3]])),
        ("grand_slam", serde_json::json!(false)),
        (
            "result",
            serde_json::json!({"reason": "majority", "totals": [24, 24], "winner": "draw"}),
        ),
        ("rows_after", serde_json::json!({"N": 17})),
        ("illegal", serde_json::json!({"A": "empty_house"})),
        ("after", serde_json::json!("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")),
        ("playing_after", serde_json::json!(25)),
    ];
    for (key, value) in wrong {
        let mut item = find(key);
        item["check"][key] = value;
        assert!(check(&item).is_err(), "a wrong {key} was not caught");
    }
    // The old R12 lesson, which claimed a never-ending position: after F the
    // game ends (R9).
    let old_r12 = serde_json::json!({
        "position": "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S",
        "check": {"never_captures": true}
    });
    assert!(check(&old_r12).is_err());
}
