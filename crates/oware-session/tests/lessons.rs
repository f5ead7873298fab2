//! Every board the lessons teach with (`data/lessons.json`: the tutorial's
//! lessons, the worked examples and the common mistakes, read by the web
//! page and the terminal game) is replayed through `oware-core` by
//! [`Board::verify`], which compares each fact its `check` states (the
//! facts its text promises: legal moves, captures, the outcome, ...) with
//! what the rules do. The texts are read too: every number and house they
//! name must be the board's, in English and French alike.

use std::collections::HashSet;

use oware_core::{Game, Move, Position, Side};
use oware_session::lessons::{self, Board, Check, Moves, ResultFact, Rows, Teaching, Words};
use serde_json::Value;

fn data() -> &'static Teaching {
    lessons::shipped()
}

fn mv(c: char) -> Move {
    Move::from_letter(c).unwrap()
}

#[test]
fn every_lesson_board_does_what_its_text_says() {
    let all = data().boards();
    assert!(all.len() >= 25, "only {} boards found", all.len());
    let failures: Vec<String> = all
        .iter()
        .filter_map(|(name, b)| b.verify().err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn there_is_a_lesson_for_every_rule() {
    let rules: Vec<&str> = data().lessons.iter().map(|l| l.rule.as_str()).collect();
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
    walk(
        &serde_json::from_str(lessons::SOURCE).unwrap(),
        "",
        &mut missing,
    );
    assert!(missing.is_empty(), "one language only at {missing:?}");
    // English and French have as many paragraphs.
    for l in &data().lessons {
        assert_eq!(l.body.en.len(), l.body.fr.len(), "lesson {}", l.id);
    }
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
    walk(
        &serde_json::from_str(lessons::SOURCE).unwrap(),
        false,
        &mut bad,
    );
    assert!(
        bad.is_empty(),
        "plain spaces before punctuation in {bad:#?}"
    );
}

/// The check must be able to fail: a wrong claim about each kind of fact
/// is caught.
#[test]
fn a_wrong_claim_is_caught() {
    let all = data().boards();
    let find = |has: &dyn Fn(&Check) -> bool| {
        all.iter()
            .find(|(_, b)| has(&b.check))
            .expect("a board states the fact")
            .1
            .clone()
    };
    type Spoil = (&'static str, fn(&Check) -> bool, fn(&mut Check));
    let wrong: [Spoil; 9] = [
        (
            "legal",
            |c| c.legal.is_some(),
            |c| c.legal = Some(vec![mv('A')]),
        ),
        (
            "captured",
            |c| c.captured.as_ref().is_some_and(|v| !v.is_empty()),
            |c| c.captured = Some(vec![(oware_core::House::from_letter('c').unwrap(), 3)]),
        ),
        (
            "grand_slam",
            |c| c.grand_slam == Some(true),
            |c| c.grand_slam = Some(false),
        ),
        (
            "result",
            |c| c.result.is_some(),
            |c| {
                c.result = Some(ResultFact {
                    reason: "majority".into(),
                    totals: [24, 24],
                    winner: "draw".into(),
                })
            },
        ),
        (
            "rows_after",
            |c| c.rows_after.is_some(),
            |c| {
                c.rows_after = Some(Rows {
                    south: None,
                    north: Some(17),
                })
            },
        ),
        (
            "illegal",
            |c| c.illegal.is_some(),
            |c| c.illegal = Some([(mv('A'), "empty_house".to_string())].into()),
        ),
        (
            "after",
            |c| c.after.is_some(),
            |c| c.after = Some(Position::start()),
        ),
        (
            "playing_after",
            |c| c.playing_after.is_some(),
            |c| c.playing_after = Some(25),
        ),
        (
            "pass_to_move",
            |c| c.pass_to_move.is_some(),
            |c| c.pass_to_move = Some(Side::North),
        ),
    ];
    for (key, has, spoil) in wrong {
        let mut board = find(&has);
        assert_eq!(board.verify(), Ok(()), "{key}");
        spoil(&mut board.check);
        assert!(board.verify().is_err(), "a wrong {key} was not caught");
    }
    // The old R12 lesson, which claimed a never-ending position: after F the
    // game ends (R9).
    let old_r12 = Board {
        position: "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S".parse().unwrap(),
        show: None,
        sequence: None,
        check: Check {
            never_captures: Some(true),
            ..Check::default()
        },
    };
    assert!(old_r12.verify().is_err());
    // A move the rules refuse.
    let mut refused = old_r12;
    refused.check = Check {
        moves: Some(Moves(vec![mv('A')])),
        plies: Some(1),
        ..Check::default()
    };
    assert!(refused.verify().is_err());
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

/// A text item: its board, if any, and its texts (key, English, French).
struct Item {
    name: String,
    board: Option<Board>,
    texts: Vec<(&'static str, String, String)>,
}

fn words(key: &'static str, w: &Words) -> (&'static str, String, String) {
    (key, w.en.clone(), w.fr.clone())
}

/// Every text item of the file: lessons, example steps, mistakes.
fn text_items(data: &Teaching) -> Vec<Item> {
    let mut out = Vec::new();
    for l in &data.lessons {
        let mut texts = vec![("body", l.body.en.join(" "), l.body.fr.join(" "))];
        if let Some(t) = &l.task {
            texts.push(words("task", t));
        }
        out.push(Item {
            name: format!("lesson {}", l.id),
            board: Some(l.board.clone()),
            texts,
        });
    }
    for ex in &data.examples {
        for (i, s) in ex.steps.iter().enumerate() {
            out.push(Item {
                name: format!("example {} step {}", ex.id, i + 1),
                board: Some(s.board.clone()),
                texts: vec![words("text", &s.text)],
            });
        }
    }
    for (i, m) in data.mistakes.iter().enumerate() {
        out.push(Item {
            name: format!("mistake {}", i + 1),
            board: m.board(),
            texts: vec![words("text", &m.text)],
        });
    }
    out
}

/// Numbers and houses the rules produce on a board: the seeds of every
/// house and store before and after its moves, each capture and their
/// total, the outcome's totals, the rows after, and the game's constants.
fn board_facts(board: &Board) -> (HashSet<u32>, HashSet<char>) {
    let pos = board.position;
    let facts = &board.check;
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
    for &m in board.moves() {
        houses.insert(m.letter());
        let trace = game.play_traced(m).expect("verified boards play");
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
    for list in [&facts.legal, &facts.legal_after].into_iter().flatten() {
        numbers.insert(list.len() as u32);
        houses.extend(list.iter().map(|m| m.letter()));
    }
    if let Some(illegal) = &facts.illegal {
        houses.extend(illegal.keys().map(|m| m.letter()));
    }
    (numbers, houses)
}

/// What is wrong with an item's texts, if anything.
fn text_claims(item: &Item) -> Result<(), String> {
    let board = item.board.as_ref().map(board_facts);
    for (key, en, fr) in &item.texts {
        let (en_numbers, en_houses) = named(en, EN_NUMBERS);
        let (fr_numbers, fr_houses) = named(fr, FR_NUMBERS);
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

#[test]
fn every_number_and_house_a_text_names_is_the_boards_and_both_languages_agree() {
    let items = text_items(data());
    assert!(items.len() >= 29, "only {} texts", items.len());
    let failures: Vec<String> = items
        .iter()
        .filter_map(|item| {
            text_claims(item)
                .err()
                .map(|e| format!("{}: {e}", item.name))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_wrong_number_or_house_in_a_text_is_caught() {
    let items = text_items(data());
    let slam = items
        .into_iter()
        .find(|item| item.name.contains("slam") && item.name.ends_with("step 1"))
        .expect("the slam example");
    assert_eq!(text_claims(&slam), Ok(()));
    let edit = |item: &Item, lang: usize, from: &str, to: &str| Item {
        name: item.name.clone(),
        board: item.board.clone(),
        texts: item
            .texts
            .iter()
            .map(|(k, en, fr)| match lang {
                0 => (*k, en.replace(from, to), fr.clone()),
                _ => (*k, en.clone(), fr.replace(from, to)),
            })
            .collect(),
    };
    // Seventeen seeds said eighteen, in both languages: not a count of the board.
    let wrong = edit(
        &edit(&slam, 0, "Seventeen", "Eighteen"),
        1,
        "dix-sept",
        "dix-huit",
    );
    assert!(text_claims(&wrong).is_err());
    // English and French disagreeing.
    let wrong = edit(&slam, 1, "treize", "douze");
    assert!(text_claims(&wrong).is_err());
}
