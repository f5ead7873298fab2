//! OGN reading and writing: the format of docs/INTEROP.md, annotations, results,
//! and errors that name the line and column.

use oware_core::{EndReason, Game, OgnErrorKind, Position, Record, Side};

const SAMPLE: &str = r#"[Variant "Abapa"]
[Event "Club night"]
[Site "?"]
[Date "2026.11.30"]
[Round "3"]
[South "Alice"]
[North "Bob \"the seed\""]
[Result "*"]
[Opening "Quiet"]

{Both players know the opening.}
1. F f 2. B {a developing move} e (2... a 3. A) 3. A
"#;

#[test]
fn reads_tags_comments_and_variations() {
    let rec = Record::parse(SAMPLE).unwrap();
    assert_eq!(rec.tag("North").as_deref(), Some("Bob \"the seed\""));
    assert_eq!(rec.tag("Opening").as_deref(), Some("Quiet"));
    assert_eq!(rec.tag("Result").as_deref(), Some("*"));
    assert_eq!(rec.intro(), Some("Both players know the opening."));
    assert_eq!(rec.plies().len(), 5);
    assert_eq!(rec.plies()[2].comment.as_deref(), Some("a developing move"));
    assert_eq!(rec.plies()[3].variations, vec!["2... a 3. A".to_string()]);
    assert_eq!(
        oware_core::format_moves(&rec.game().moves().collect::<Vec<_>>()),
        "FfBeA"
    );
    assert!(!rec.game().is_over());
}

#[test]
fn writes_canonically_and_round_trips() {
    let rec = Record::parse(SAMPLE).unwrap();
    let out = rec.write();
    let expected_head = "[Variant \"Abapa\"]\n[Event \"Club night\"]\n[Site \"?\"]\n[Date \"2026.11.30\"]\n[Round \"3\"]\n[South \"Alice\"]\n[North \"Bob \\\"the seed\\\"\"]\n[Result \"*\"]\n[Opening \"Quiet\"]\n\n";
    assert!(out.starts_with(expected_head), "{out}");
    let movetext: Vec<&str> = out[expected_head.len()..].split_whitespace().collect();
    assert_eq!(
        movetext.join(" "),
        "{Both players know the opening.} 1. F f 2. B {a developing move} e (2... a 3. A) 3. A *"
    );
    assert!(out.lines().all(|l| l.chars().count() <= 79), "{out}");
    assert_eq!(Record::parse(&out).unwrap(), rec);
    assert_eq!(Record::parse(&out).unwrap().write(), out);
}

#[test]
fn capture_marks_are_written_and_checked() {
    let fen = "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S";
    let game =
        Game::from_moves(fen.parse().unwrap(), &oware_core::parse_moves("F").unwrap()).unwrap();
    let text = Record::from_game(game, &[]).write();
    assert!(
        text.contains("[FEN \"0-0-0-0-0-2-1-1-0-0-4-0-20-20-S\"]"),
        "{text}"
    );
    assert!(text.contains("1. F+4 *"), "{text}");
    let bad = text.replace("F+4", "F+3");
    let err = Record::parse(&bad).unwrap_err();
    assert!(
        matches!(
            err.kind,
            OgnErrorKind::CaptureMark {
                written: 3,
                actual: 4,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.line, 11);
    assert_eq!(err.column, 4);
}

#[test]
fn finished_game_result_must_match() {
    // E8: North captures 3+2 and wins 21-26.
    let fen = "1-2-0-1-0-0-0-0-0-0-0-2-21-21-N";
    let game =
        Game::from_moves(fen.parse().unwrap(), &oware_core::parse_moves("f").unwrap()).unwrap();
    let text = Record::from_game(game, &[]).write();
    assert!(text.contains("[Result \"21-26\"]"));
    assert!(text.contains("1... f+5 21-26"), "{text}");
    let rec = Record::parse(&text).unwrap();
    assert_eq!(rec.game().outcome().unwrap().reason, EndReason::Majority);
    let wrong = text.replace("1... f+5 21-26", "1... f+5 24-24");
    let err = Record::parse(&wrong).unwrap_err();
    assert!(matches!(err.kind, OgnErrorKind::ResultMismatch(_)), "{err}");
}

#[test]
fn resignation_and_agreement_survive_a_round_trip() {
    let mut game =
        Game::from_moves(Position::start(), &oware_core::parse_moves("FfBe").unwrap()).unwrap();
    game.resign(Side::South).unwrap();
    let rec = Record::from_game(game.clone(), &[]);
    let text = rec.write();
    assert!(
        text.contains("[Termination \"resignation\"]") && text.contains("[Winner \"N\"]"),
        "{text}"
    );
    let back = Record::parse(&text).unwrap();
    assert_eq!(back.game().outcome(), game.outcome());

    let mut game =
        Game::from_moves(Position::start(), &oware_core::parse_moves("FfBe").unwrap()).unwrap();
    let o = game.agree_to_stop().unwrap();
    let back = Record::parse(&Record::from_game(game, &[]).write()).unwrap();
    assert_eq!(back.game().outcome(), Some(&o));
}

#[test]
fn agreement_is_inferred_from_totals_without_termination() {
    // After F f each row holds 24: a result of 24-24 with no Termination
    // tag is read as an agreement (R12); 30-18 as a resignation.
    let rec = Record::parse("[Result \"24-24\"]\n\n1. F f 24-24\n").unwrap();
    let o = rec.game().outcome().unwrap();
    assert_eq!(o.reason, EndReason::Agreement);
    assert_eq!(o.winner, None);
    let rec = Record::parse("1. F f 0-0\n").unwrap();
    assert_eq!(rec.game().outcome().unwrap().reason, EndReason::Resignation);
}

#[test]
fn lost_turns_are_written_as_double_dash() {
    let mut game = Game::new(Position::start());
    game.play("F".parse().unwrap()).unwrap();
    game.pass().unwrap();
    game.play("A".parse().unwrap()).unwrap();
    let text = Record::from_game(game.clone(), &[]).write();
    assert!(text.contains("1. F -- 2. A *"), "{text}");
    assert_eq!(Record::parse(&text).unwrap().game(), &game);
}

#[test]
fn errors_name_line_and_column() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("[Event \"x\"]\n\n1. F f 2. a\n", 3, 11, "illegal move a"),
        ("[Event \"x\"\n\n1. F\n", 1, 1, "malformed tag"),
        ("[FEN \"4-4-4\"]\n\n1. F\n", 1, 1, "bad FEN"),
        ("1. F {unclosed\n", 1, 6, "unterminated comment"),
        ("1. F (f\n", 1, 6, "unterminated variation"),
        ("1. F g\n", 1, 6, "unexpected character 'g'"),
        ("1. F f 30-30\n", 1, 8, "bad result"),
        ("1. Fx\n", 1, 5, "unexpected character 'x'"),
        (
            "[Result \"1-2\"]\n1. F *\n",
            2,
            6,
            "disagrees with the Result tag",
        ),
    ];
    for (text, line, column, msg) in cases {
        let err = Record::parse(text).unwrap_err();
        assert_eq!((err.line, err.column), (*line, *column), "{text:?}: {err}");
        assert!(err.to_string().contains(msg), "{text:?}: {err}");
    }
}

#[test]
fn several_games_in_one_file() {
    let text = "[Event \"one\"]\n\n1. F f *\n\n[Event \"two\"]\n\n1. A *\n";
    let all = Record::parse_all(text).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].tag("Event").as_deref(), Some("two"));
    assert!(matches!(
        Record::parse(text).unwrap_err().kind,
        OgnErrorKind::TrailingGame
    ));
}

/// Inputs the fuzzer once broke (`fuzz/`, target `ogn`): each must read and
/// write back to a fixed point, or be refused.
#[test]
fn fuzz_regressions_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ogn-regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        if let Ok(rec) = Record::parse(&text) {
            assert_eq!(Record::parse(&rec.write()).unwrap(), rec, "{text:?}");
        }
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn the_example_of_docs_interop_is_a_valid_record() {
    let doc = include_str!("../../../docs/INTEROP.md");
    let section = &doc[doc.find("## Game records").expect("OGN section")..];
    let start = section.find("```\n").expect("example block") + 4;
    let block = &section[start..];
    let text = &block[..block.find("```").expect("block end")];
    let record = Record::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // What the text under the example says of it.
    assert_eq!(record.plies().len(), 7);
    let pos = record.game().position();
    assert_eq!(pos.store(Side::North), 4);
    assert_eq!(pos.store(Side::South), 3);
    assert!(record.game().outcome().is_none());
}
