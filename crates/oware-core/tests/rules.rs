//! One data-driven test per rule id (R1-R13) and per worked example (E1-E12)
//! of docs/RULES.md. The cases are data in `data/examples.txt` and
//! `data/rules.txt`; this file only knows how to check them.

mod common;

use common::{read_cases, Case};
use oware_core::{parse_moves, Game, IllegalMove, Move, Position, Side};

const EXAMPLES: &str = include_str!("data/examples.txt");
const RULES: &str = include_str!("data/rules.txt");

fn side(s: &str) -> Side {
    Side::from_letter(s.chars().next().unwrap()).unwrap()
}

fn illegal_reason(name: &str) -> IllegalMove {
    match name {
        "GameOver" => IllegalMove::GameOver,
        "NotYourHouse" => IllegalMove::NotYourHouse,
        "EmptyHouse" => IllegalMove::EmptyHouse,
        "MustFeed" => IllegalMove::MustFeed,
        other => panic!("unknown IllegalMove {other}"),
    }
}

/// Runs one case and panics with its id on the first disagreement.
fn check(case: &Case) {
    let id = case.id();
    for text in case.all("invalid") {
        assert!(
            text.parse::<Position>().is_err(),
            "{id}: {text} should be refused"
        );
    }
    let Some(pos) = case.get("pos") else { return };
    let start: Position = if pos == "start" {
        Position::start()
    } else {
        pos.parse().unwrap()
    };
    let moves = parse_moves(case.get("moves").unwrap_or("")).unwrap();
    let mut game = Game::new(start);
    let mut over_at = game.is_over().then_some(0);
    let mut last_trace = None;
    for (i, &mv) in moves.iter().enumerate() {
        let trace = game
            .play_traced(mv)
            .unwrap_or_else(|e| panic!("{id}: move {} ({mv}): {e}", i + 1));
        assert_eq!(
            trace.after,
            *game.position(),
            "{id}: trace agrees with the game"
        );
        last_trace = Some(trace);
        if game.is_over() && over_at.is_none() {
            over_at = Some(i + 1);
        }
    }
    if let Some(action) = case.get("action") {
        let mut words = action.split_whitespace();
        let r = match (words.next(), words.next()) {
            (Some("agree"), None) => game.agree_to_stop().map(|_| ()),
            (Some("pass"), None) => game.pass(),
            (Some("resign"), Some(s)) => game.resign(side(s)).map(|_| ()),
            (Some("time"), Some(s)) => game.lose_on_time(side(s)).map(|_| ()),
            _ => panic!("{id}: unknown action {action}"),
        };
        r.unwrap_or_else(|e| panic!("{id}: action {action}: {e}"));
    }
    let pos = *game.position();
    assert_eq!(
        pos.seeds_on_board() as u32 + pos.store(Side::South) as u32 + pos.store(Side::North) as u32,
        48
    );
    if let Some(after) = case.get("after") {
        assert_eq!(pos.to_string(), after, "{id}: position after the moves");
    }
    if let Some(k) = case.get("captured") {
        let trace = last_trace.as_ref().expect("captured needs moves");
        assert_eq!(
            trace.captured_seeds().to_string(),
            k,
            "{id}: seeds captured by the last move"
        );
    }
    if let Some(sown) = case.get("sown") {
        let trace = last_trace.as_ref().expect("sown needs moves");
        let got: String = trace.sown.iter().map(|h| h.letter()).collect();
        assert_eq!(got, sown, "{id}: houses sown");
    }
    if let Some(legal) = case.get("legal") {
        let want = if legal == "-" { "" } else { legal };
        assert_eq!(game.legal_moves().letters(), want, "{id}: legal moves");
    }
    for text in case.all("illegal") {
        let (mv, why) = text.split_once(' ').unwrap();
        let mv: Move = mv.parse().unwrap();
        assert_eq!(
            pos.check(mv),
            Err(illegal_reason(why)),
            "{id}: {mv} should be illegal"
        );
        let mut copy = game.clone();
        assert!(copy.play(mv).is_err(), "{id}: the game refuses {mv}");
        assert_eq!(copy, game, "{id}: a refused move changes nothing");
    }
    if let Some(to_move) = case.get("to-move") {
        assert_eq!(pos.to_move(), side(to_move), "{id}: side to move");
    }
    if case.get("ongoing").is_some() {
        assert!(
            !game.is_over(),
            "{id}: the game should go on, ended {:?}",
            game.outcome()
        );
    }
    if let Some(fin) = case.get("final") {
        let o = game
            .outcome()
            .unwrap_or_else(|| panic!("{id}: the game should be over"));
        let got = format!(
            "{}-{} {} {}",
            o.totals[0],
            o.totals[1],
            o.reason.as_str(),
            o.winner_str()
        );
        assert_eq!(got, fin, "{id}: outcome");
    }
    if let Some(n) = case.get("over-at") {
        assert_eq!(
            over_at,
            Some(n.parse().unwrap()),
            "{id}: ply at which the game ended"
        );
    }
}

fn run(tag: &str) {
    let cases: Vec<Case> = read_cases(EXAMPLES)
        .into_iter()
        .chain(read_cases(RULES))
        .filter(|c| {
            c.id() == tag
                || c.get("rules")
                    .is_some_and(|r| r.split_whitespace().any(|x| x == tag))
        })
        .collect();
    assert!(!cases.is_empty(), "no case for {tag}");
    for case in &cases {
        check(case);
    }
}

macro_rules! tests {
    ($($name:ident => $tag:literal,)*) => { $( #[test] fn $name() { run($tag); } )* };
}

tests! {
    r01_board_and_seeds => "R1",
    r02_turns_alternate => "R2",
    r03_sowing => "R3",
    r04_laps_skip_the_emptied_house => "R4",
    r05_capture_chain => "R5",
    r06_only_the_last_seed_captures => "R6",
    r07_grand_slam_captures_nothing => "R7",
    r08_feeding => "R8",
    r09_no_move_ends_the_game => "R9",
    r10_winning_totals => "R10",
    r11_threefold_repetition => "R11",
    r12_agreement => "R12",
    r13_time => "R13",
    e01_first_move => "E1",
    e02_study_position => "E2",
    e03_grand_slam => "E3",
    e04_chain_stops_at_four => "E4",
    e05_lap_without_capture => "E5",
    e06_two_laps_capture_and_win => "E6",
    e07_two_laps_grand_slam => "E7",
    e08_north_wins_by_capture => "E8",
    e09_must_feed => "E9",
    e10_cannot_feed => "E10",
    e11_repetition_with_empty_row => "E11",
    e12_grand_slam_then_no_feed => "E12",
}

#[test]
fn every_rule_and_example_has_a_case() {
    for i in 1..=13 {
        let tag = format!("R{i}");
        assert!(
            read_cases(EXAMPLES)
                .iter()
                .chain(read_cases(RULES).iter())
                .any(|c| c
                    .get("rules")
                    .is_some_and(|r| r.split_whitespace().any(|x| x == tag))),
            "{tag} has no case"
        );
    }
    for i in 1..=12 {
        let tag = format!("E{i}");
        assert!(
            read_cases(EXAMPLES).iter().any(|c| c.id() == tag),
            "{tag} has no case"
        );
    }
}

/// The specification in the repository, docs/RULES.md.
const SPEC: &str = include_str!("../../../docs/RULES.md");
/// This file, to check that each id has a test named after it.
const THIS_FILE: &str = include_str!("rules.rs");

/// The rows of the spec's tables whose first cell is an id with `prefix`.
fn spec_rows(prefix: char) -> Vec<Vec<String>> {
    SPEC.lines()
        .filter_map(|l| l.strip_prefix("| "))
        .map(|l| {
            l.split('|')
                .map(|c| c.replace('`', "").trim().to_string())
                .collect::<Vec<_>>()
        })
        .filter(|cells| {
            cells[0]
                .strip_prefix(prefix)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect()
}

#[test]
fn every_id_of_the_spec_has_a_test_named_after_it() {
    let rules = spec_rows('R');
    let examples = spec_rows('E');
    assert_eq!(rules.len(), 13, "R1-R13 in docs/RULES.md");
    assert_eq!(examples.len(), 12, "E1-E12 in docs/RULES.md");
    for row in rules.iter().chain(&examples) {
        let id = &row[0];
        // `tests!` maps a test named after the id (`r01_…`, `e12_…`) to it.
        let (letter, number) = id.split_at(1);
        let name = format!("{}{:0>2}_", letter.to_ascii_lowercase(), number);
        let line = THIS_FILE
            .lines()
            .find(|l| l.trim_end().ends_with(&format!(" => \"{id}\",")))
            .unwrap_or_else(|| panic!("{id} of docs/RULES.md has no test"));
        assert!(
            line.trim_start().starts_with(&name),
            "{id}: the test {line:?} is not named after it"
        );
    }
}

#[test]
fn the_spec_examples_are_the_tested_examples() {
    // Each worked example's position, move and result in docs/RULES.md is
    // the one the data-driven test plays.
    let cases = read_cases(EXAMPLES);
    for row in spec_rows('E') {
        let id = &row[0];
        let case = cases
            .iter()
            .find(|c| c.id() == id.as_str())
            .unwrap_or_else(|| panic!("{id} has no case"));
        let (pos, mv, after) = (&row[2], &row[3], &row[4]);
        let case_pos = case.get("pos").unwrap();
        if case_pos == "start" {
            assert_eq!(pos.as_str(), Position::start().to_string(), "{id}");
        } else {
            assert_eq!(pos, case_pos, "{id}: position");
        }
        if mv != "—" {
            let spec_moves: String = mv
                .replace("twice, then", "")
                .split_whitespace()
                .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
                .collect::<Vec<_>>()
                .join("");
            let case_moves = case.get("moves").unwrap().replace(' ', "");
            let expected = if mv.contains("twice") {
                let parts: Vec<&str> = mv.split_whitespace().collect();
                format!("{}{}{}", parts[0], parts[0], parts.last().unwrap())
            } else {
                spec_moves
            };
            assert_eq!(expected, case_moves, "{id}: moves");
        }
        if let Some(rest) = after.strip_prefix("ends ") {
            let totals = rest.replace('–', "-");
            let final_ = case.get("final").unwrap();
            assert!(final_.starts_with(&totals), "{id}: {final_} vs {totals}");
        } else if after != "—" {
            assert_eq!(Some(after.as_str()), case.get("after"), "{id}: after");
        }
    }
}
