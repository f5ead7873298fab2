//! `oware book build|probe` and `oware play`'s book and table options from
//! the command line.

use assert_cmd::Command;
use predicates::prelude::*;

fn oware() -> Command {
    Command::cargo_bin("oware").unwrap()
}

#[test]
fn build_a_small_book_probe_it_and_refuse_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.book");
    let p = path.to_str().unwrap();
    oware()
        .args([
            "book",
            "build",
            "--out",
            p,
            "--plies",
            "2",
            "--full-plies",
            "1",
            "--depth",
            "3",
            "--threads",
            "2",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("book of ").and(predicate::str::contains("positions")));
    // Every first move is followed, so every position after one move is in it.
    oware()
        .args(["book", "probe", "--book", p, "--moves", "C"])
        .assert()
        .success()
        .stdout(predicate::str::contains("book: ").and(predicate::str::contains("not in").not()));
    oware()
        .args(["book", "probe", "--book", p, "--moves", "FfBeAa"])
        .assert()
        .success()
        .stdout(predicate::str::contains("not in the book"));
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 20] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    oware()
        .args(["book", "probe", "--book", p])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("checksum mismatch"));
}

#[test]
fn the_shipped_book_answers_the_start() {
    oware()
        .args(["book", "probe"])
        .assert()
        .success()
        .stdout(predicate::str::contains("book: ").and(predicate::str::contains("depth 14")));
}

#[test]
fn play_refuses_a_tablebase_directory_it_cannot_open() {
    let dir = tempfile::tempdir().unwrap();
    oware()
        .args(["play", "--plain", "--no-autosave", "--tablebases"])
        .arg(dir.path().join("missing"))
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there are no endgame table files"));
}
