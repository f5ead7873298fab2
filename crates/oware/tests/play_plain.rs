//! `oware play` in line mode, driven through pipes: complete games.

use assert_cmd::Command;
use oware_core::{Game, Position, Record};

/// A complete game between two simple players: take the biggest capture,
/// else the first legal move. Computed with the rules core.
fn greedy_game() -> Game {
    let mut game = Game::new(Position::start());
    while !game.is_over() && game.plies().len() < 600 {
        let pos = *game.position();
        let best = pos
            .legal_moves()
            .into_iter()
            .max_by_key(|&m| {
                (
                    pos.preview(m).map(|(_, n)| n).unwrap_or(0),
                    std::cmp::Reverse(m.house().index()),
                )
            })
            .unwrap();
        game.play(best).unwrap();
    }
    game
}

fn oware(data: &tempfile::TempDir) -> Command {
    let mut cmd = Command::cargo_bin("oware").unwrap();
    cmd.env("OWARE_DATA_DIR", data.path());
    cmd
}

fn stdout_of(assert: assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

#[test]
fn two_players_play_a_whole_game_through_a_pipe() {
    let game = greedy_game();
    let outcome = *game.outcome().expect("the greedy game ends");
    let mut input: String = game.moves().map(|m| format!("{}\n", m.letter())).collect();
    // Input after the end is never read as moves.
    input.push_str("A\nquit\n");
    let data = tempfile::tempdir().unwrap();
    // No --plain: stdin is a pipe, so the line mode is chosen by itself.
    let stdout = stdout_of(
        oware(&data)
            .args(["play", "--two-players"])
            .write_stdin(input)
            .assert()
            .success(),
    );
    assert!(
        stdout.contains("two players, South against North"),
        "{stdout}"
    );
    assert!(stdout.contains("Game over."), "{stdout}");
    let result = format!("Result: {}-{}", outcome.totals[0], outcome.totals[1]);
    assert!(stdout.contains(&result), "{result} missing:\n{stdout}");
    let totals = format!(
        "Final totals: South {}, North {}.",
        outcome.totals[0], outcome.totals[1]
    );
    assert!(stdout.contains(&totals), "{totals} missing:\n{stdout}");
    let record = Record::from_game(game.clone(), &[]).write();
    let movetext: String = record
        .split_once("\n\n")
        .unwrap()
        .1
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(stdout.contains(&format!("Moves: {movetext}")), "{stdout}");
    // Why it ended, in words and without the rule's id.
    let why = oware_session::words::end_reason(&game, None, oware_session::Lang::En);
    // (The sentence starts with a capital.)
    assert!(
        !why.is_empty() && stdout.contains(&why[1..]),
        "{why}:\n{stdout}"
    );
    let rule = outcome.reason.rule().unwrap();
    assert!(!stdout.contains(&format!("({rule})")), "{rule}:\n{stdout}");
    assert!(
        !data.path().join("autosave.ogn").exists(),
        "a finished game is not autosaved"
    );
}

#[test]
fn illegal_moves_are_refused_with_the_reason_and_commands_work() {
    let input = "F\nf\nF\nhelp\nundo\nredo\nagree\nno\nresign\n";
    let data = tempfile::tempdir().unwrap();
    let stdout = stdout_of(
        oware(&data)
            .args(["play", "--plain", "--two-players", "--hint-ms", "50"])
            .write_stdin(input)
            .assert()
            .success(),
    );
    assert!(
        stdout.contains("Refused: F cannot be played: that house is empty."),
        "{stdout}"
    );
    assert!(stdout.contains("Took back f."), "{stdout}");
    assert!(stdout.contains("Replayed f."), "{stdout}");
    assert!(
        stdout.contains("do you accept?") && stdout.contains("Declined; play on."),
        "{stdout}"
    );
    assert!(stdout.contains("South resigned."), "{stdout}");
    assert!(stdout.contains("North wins."), "{stdout}");
}

#[test]
fn a_game_against_the_computer_ends_with_a_result() {
    // Every letter in turn: refused ones are explained, legal ones played.
    let input: String = "a\nb\nc\nd\ne\nf\n".repeat(400);
    let data = tempfile::tempdir().unwrap();
    let stdout = stdout_of(
        oware(&data)
            .args(["play", "--plain", "--level", "1", "--first", "computer"])
            .write_stdin(input)
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .success(),
    );
    assert!(
        stdout
            .contains("you play North against the computer (level 1, Beginner: the weakest level)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Computer played A.") || stdout.contains("Computer played"),
        "{stdout}"
    );
    assert!(stdout.contains("Game over."), "{stdout}");
    // The printed moves, replayed by the rules core, end the game with the
    // printed result.
    let result = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Result: "))
        .unwrap();
    let moves = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Moves: "))
        .unwrap();
    let record = Record::parse(moves).unwrap();
    let outcome = record.game().outcome().expect("the replayed game is over");
    assert_eq!(
        format!("{}-{}", outcome.totals[0], outcome.totals[1]),
        result
    );
}

#[test]
fn quitting_saves_the_game_and_load_resumes_it() {
    let data = tempfile::tempdir().unwrap();
    let stdout = stdout_of(
        Command::cargo_bin("oware")
            .unwrap()
            .args(["play", "--plain", "--two-players", "--data-dir"])
            .arg(data.path())
            .write_stdin("F\nf\nquit\n")
            .assert()
            .success(),
    );
    let saved = data.path().join("autosave.ogn");
    assert!(stdout.contains("Unfinished game saved to"), "{stdout}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("1. F f *"), "{text}");
    // The next start mentions it; --load resumes it.
    let stdout = stdout_of(
        oware(&data)
            .args(["play", "--plain", "--two-players", "--load"])
            .arg(&saved)
            .write_stdin("board\nquit\n")
            .assert()
            .success(),
    );
    let expected =
        Game::from_moves(Position::start(), &oware_core::parse_moves("Ff").unwrap()).unwrap();
    assert!(
        stdout.contains(&format!("Position {}", expected.position())),
        "{stdout}"
    );
    assert!(stdout.contains("South to move"), "{stdout}");
    let stdout = stdout_of(
        oware(&data)
            .args(["play", "--plain", "--two-players"])
            .write_stdin("quit\n")
            .assert()
            .success(),
    );
    assert!(
        stdout.contains("an unfinished game was saved at"),
        "{stdout}"
    );
    // A missing file is a clear error, not a crash.
    oware(&data)
        .args(["play", "--plain", "--load", "/nonexistent/game.ogn"])
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "Could not read the game file /nonexistent/game.ogn: it does not exist.",
        ));
}
