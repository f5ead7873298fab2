//! The rules-core subcommands through the real binary: their output is an
//! interface other tools rely on.

use assert_cmd::Command;
use predicates::prelude::*;

fn oware() -> Command {
    Command::cargo_bin("oware").unwrap()
}

#[test]
fn perft_prints_the_count_last() {
    let out = oware()
        .args(["perft", "5"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(out).unwrap().lines().last(), Some("5219"));
    oware()
        .args([
            "perft",
            "3",
            "--position",
            "0-0-0-0-0-17-1-1-1-0-0-1-14-13-S",
        ])
        .assert()
        .success()
        .stdout("26\n")
        .stderr(predicate::str::contains("moves/s"));
}

#[test]
fn divide_splits_by_first_move() {
    oware()
        .args(["divide", "2"])
        .assert()
        .success()
        .stdout("A 6\nB 6\nC 6\nD 6\nE 6\nF 6\n36\n");
}

#[test]
fn show_json_has_the_documented_fields() {
    let out = oware()
        .args(["show", "--moves", "F f", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["position"], "5-5-5-5-4-0-5-5-5-5-4-0-0-0-S");
    assert_eq!(v["to_move"], "S");
    assert_eq!(v["legal"], serde_json::json!(["A", "B", "C", "D", "E"]));
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["reason"], serde_json::Value::Null);
    assert_eq!(v["score"], serde_json::json!({"south": 0, "north": 0}));
    assert_eq!(v["winner"], serde_json::Value::Null);
}

#[test]
fn show_json_reports_the_end() {
    // E11: repetition ends the game 24-24 after 25 plies.
    let out = oware()
        .args([
            "show",
            "-p",
            "0-0-0-0-0-0-1-0-0-0-0-1-23-23-N",
            "-m",
            "fAaBbCcDdEeFfAaBbCcDdEeFf",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["status"], "over");
    assert_eq!(v["reason"], "repetition");
    assert_eq!(v["legal"], serde_json::json!([]));
    assert_eq!(v["score"], serde_json::json!({"south": 24, "north": 24}));
    assert_eq!(v["winner"], "draw");
}

#[test]
fn show_draws_the_board() {
    oware()
        .args(["show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("   f    e    d    c    b    a"))
        .stdout(predicate::str::contains("   A    B    C    D    E    F"))
        .stdout(predicate::str::contains("legal moves: ABCDEF"));
}

#[test]
fn show_says_captured_as_the_game_does() {
    // The terminal game's word for the seeds a player has taken.
    let out = oware()
        .args([
            "show",
            "--position",
            "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S",
            "--moves",
            "F",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("North  captured 20"), "{stdout}");
    assert!(stdout.contains("South  captured 24"), "{stdout}");
    assert!(!stdout.contains("store"), "{stdout}");
}

#[test]
fn serve_names_the_database_path_it_cannot_use() {
    let out = oware()
        .args([
            "serve",
            "--db",
            "/proc/nope/x.sqlite3",
            "--addr",
            "127.0.0.1:0",
        ])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("/proc/nope/x.sqlite3"), "{stderr}");
    assert!(stderr.contains("/proc/nope "), "{stderr}");
    // A folder that exists but a file that cannot be a database.
    let dir = tempfile::tempdir().unwrap();
    let out = oware()
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path())
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(dir.path().to_str().unwrap()), "{stderr}");
}

#[test]
fn illegal_move_names_move_index_and_legal_moves() {
    oware()
        .args(["show", "--moves", "FfF"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("move 3 (F)"))
        .stderr(predicate::str::contains("that house is empty"))
        .stderr(predicate::str::contains("legal moves there: ABCDE"));
    oware()
        .args(["show", "--moves", "Fz"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("'z'"));
    oware()
        .args(["show", "--position", "4-4-4-4"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("15 fields"));
}

#[test]
fn record_checks_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.ogn");
    std::fs::write(
        &path,
        "[FEN \"1-2-0-1-0-0-0-0-0-0-0-2-21-21-N\"]\n\n1... f+5 21-26\n",
    )
    .unwrap();
    oware()
        .args(["record", path.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("result 21-26"))
        .stdout(predicate::str::contains("North wins"));
    let out = oware()
        .args(["record", path.to_str().unwrap(), "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["reason"], "majority");
    assert_eq!(v["winner"], "N");

    std::fs::write(&path, "1. F f\n2. a\n").unwrap();
    oware()
        .args(["record", path.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("line 2, column 4"));
    oware()
        .args(["record", "/nonexistent/x.ogn"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot read"));
}
