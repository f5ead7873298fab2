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

// ---- What the texts say -----------------------------------------------------
//
// The texts are read too: every number and house a text names is collected
// (digits and number words, house letters b–f and B–F; `a`/`A` are left
// out, being also an English article and a French verb), English and French
// must name the same ones, and for a board, every number must be one the
// rules produce on it and every house one its moves or its position
// involve.

const EN_NUMBERS: &[(&str, u32)] = &[
    ("two", 2),
    ("twos", 2),
    ("both", 2),
    ("twice", 2),
    ("three", 3),
    ("threes", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("forty", 40),
];

const FR_NUMBERS: &[(&str, u32)] = &[
    ("deux", 2),
    ("trois", 3),
    ("quatre", 4),
    ("cinq", 5),
    ("six", 6),
    ("sept", 7),
    ("huit", 8),
    ("neuf", 9),
    ("dix", 10),
    ("onze", 11),
    ("douze", 12),
    ("treize", 13),
    ("quatorze", 14),
    ("quinze", 15),
    ("seize", 16),
    ("dix-sept", 17),
    ("dix-huit", 18),
    ("dix-neuf", 19),
    ("vingt", 20),
    ("quarante", 40),
];

/// The numbers (sorted) and houses a text names.
fn named(text: &str, words: &[(&str, u32)]) -> (Vec<u32>, Vec<char>) {
    let mut numbers = Vec::new();
    let mut houses = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !c.is_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len()
            && (chars[i].is_alphanumeric()
                || (chars[i] == '-' && i + 1 < chars.len() && chars[i + 1].is_alphabetic()))
        {
            i += 1;
        }
        let token: String = chars[start..i].iter().collect();
        // A French elision (d’, c’, l’) is not a house.
        let elided = matches!(chars.get(i), Some('\'' | '’'));
        // Rule ids (R7) are not facts of the board.
        let rule = token.starts_with('R') && token[1..].chars().all(|c| c.is_ascii_digit());
        if rule {
            continue;
        }
        if let Ok(n) = token.parse::<u32>() {
            numbers.push(n);
        } else if let Some(&(_, n)) = words.iter().find(|(w, _)| token.to_lowercase() == *w) {
            numbers.push(n);
        } else if token.chars().count() == 1 && "bcdefBCDEF".contains(c) && !elided {
            houses.push(c);
        }
    }
    numbers.sort_unstable();
    houses.sort_unstable();
    houses.dedup();
    (numbers, houses)
}

/// Every text of an item: (its key, English, French), lists joined.
fn texts(item: &Value) -> Vec<(String, String, String)> {
    let join = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    };
    ["body", "task", "text"]
        .iter()
        .filter_map(|k| {
            let t = item.get(*k)?;
            Some((k.to_string(), join(&t["en"]), join(&t["fr"])))
        })
        .collect()
}

/// Numbers and houses the rules produce on a board: the seeds of every
/// house and store before and after its moves, each capture and their
/// total, the outcome's totals, the rows after, and the game's constants.
fn board_facts(item: &Value) -> Result<(HashSet<u32>, HashSet<char>), String> {
    let pos: Position = item["position"]
        .as_str()
        .ok_or("no position")?
        .parse()
        .map_err(|e| format!("position: {e}"))?;
    let facts = item["check"].as_object().ok_or("no `check` object")?;
    let moves = facts
        .get("moves")
        .or_else(|| item.get("sequence"))
        .or_else(|| item.get("show"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut numbers: HashSet<u32> = [2, 3, 4, 6, 12, 24, 25, 48].into();
    let mut houses: HashSet<char> = HashSet::new();
    let add_position = |p: &Position, numbers: &mut HashSet<u32>, houses: &mut HashSet<char>| {
        for side in [Side::South, Side::North] {
            numbers.insert(p.store(side).into());
            numbers.insert(p.row_seeds(side).into());
            for h in side.houses() {
                let n = p.seeds(h);
                numbers.insert(n.into());
                if n > 0 {
                    houses.insert(h.letter());
                }
            }
        }
        numbers.insert((p.store(Side::South) + p.store(Side::North)).into());
        numbers.insert(p.seeds_on_board().into());
    };
    add_position(&pos, &mut numbers, &mut houses);
    // The houses each of the mover's houses would reach, legal or not ("A
    // would stop at D"): the next ones in sowing order, as far as it has
    // seeds (no more than once round).
    for h in pos.to_move().houses() {
        let mut x = h;
        for _ in 0..pos.seeds(h).min(11) {
            x = x.next();
            houses.insert(x.letter());
        }
    }
    let mut game = Game::new(pos);
    for c in moves.chars() {
        let mv = Move::from_letter(c).ok_or(format!("move {c:?}"))?;
        houses.insert(c);
        let trace = game.play_traced(mv).map_err(|e| format!("{c}: {e}"))?;
        houses.extend(trace.sown.iter().map(|h| h.letter()));
        houses.insert(trace.last.letter());
        let mut total = 0u32;
        for &(h, n) in &trace.captured {
            houses.insert(h.letter());
            numbers.insert(n.into());
            total += u32::from(n);
        }
        numbers.insert(total);
        add_position(&trace.after, &mut numbers, &mut houses);
    }
    if let Some(o) = game.outcome() {
        numbers.extend(o.totals.iter().map(|&t| u32::from(t)));
    }
    numbers.insert(game.plies().len() as u32);
    for key in ["legal", "legal_after"] {
        if let Some(list) = facts.get(key).and_then(Value::as_array) {
            numbers.insert(list.len() as u32);
            houses.extend(list.iter().filter_map(|m| m.as_str()?.chars().next()));
        }
    }
    if let Some(illegal) = facts.get("illegal").and_then(Value::as_object) {
        houses.extend(illegal.keys().filter_map(|m| m.chars().next()));
    }
    Ok((numbers, houses))
}

/// What is wrong with an item's texts, if anything.
fn text_claims(item: &Value) -> Result<(), String> {
    let board = if item.get("position").is_some() && item.get("check").is_some() {
        Some(board_facts(item)?)
    } else {
        None
    };
    for (key, en, fr) in texts(item) {
        let (en_numbers, en_houses) = named(&en, EN_NUMBERS);
        let (fr_numbers, fr_houses) = named(&fr, FR_NUMBERS);
        if en_numbers != fr_numbers || en_houses != fr_houses {
            return Err(format!(
                "{key}: English names {en_numbers:?} {en_houses:?}, French {fr_numbers:?} {fr_houses:?}"
            ));
        }
        if let Some((numbers, houses)) = &board {
            if let Some(n) = en_numbers.iter().find(|n| !numbers.contains(n)) {
                return Err(format!("{key}: {n} is no count of this board: {en}"));
            }
            if let Some(h) = en_houses.iter().find(|h| !houses.contains(h)) {
                return Err(format!("{key}: house {h} has no part on this board: {en}"));
            }
        }
    }
    Ok(())
}

/// Every text item of the file: lessons, example steps, mistakes, tips.
fn text_items(data: &Value) -> Vec<(String, Value)> {
    let mut out = boards(data);
    for (i, m) in data["mistakes"].as_array().unwrap().iter().enumerate() {
        if m.get("position").is_none() {
            out.push((format!("mistake {}", i + 1), m.clone()));
        }
    }
    out
}

#[test]
fn every_number_and_house_a_text_names_is_the_boards_and_both_languages_agree() {
    let data = data();
    let items = text_items(&data);
    let failures: Vec<String> = items
        .iter()
        .filter_map(|(name, item)| text_claims(item).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_wrong_number_or_house_in_a_text_is_caught() {
    let data = data();
    let items = text_items(&data);
    let slam = items
        .iter()
        .find(|(name, _)| name.contains("slam") && name.ends_with("step 1"))
        .expect("the slam example")
        .1
        .clone();
    assert_eq!(text_claims(&slam), Ok(()));
    // Seventeen seeds said sixteen, in both languages: not a count of the board.
    let mut wrong = slam.clone();
    for (lang, from, to) in [
        ("en", "Seventeen", "Eighteen"),
        ("fr", "dix-sept", "dix-huit"),
    ] {
        let t = wrong["text"][lang].as_str().unwrap().replace(from, to);
        wrong["text"][lang] = Value::from(t);
    }
    assert!(text_claims(&wrong).is_err());
    // English and French disagreeing.
    let mut wrong = slam;
    let t = wrong["text"]["fr"]
        .as_str()
        .unwrap()
        .replace("treize", "douze");
    wrong["text"]["fr"] = Value::from(t);
    assert!(text_claims(&wrong).is_err());
}
