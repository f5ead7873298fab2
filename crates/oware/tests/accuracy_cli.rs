//! `oware tune accuracy` from the command line: the shipped set, a node
//! budget, and a clear refusal of a file that is not a set.

use assert_cmd::Command;
use predicates::prelude::*;

fn oware() -> Command {
    Command::cargo_bin("oware").unwrap()
}

#[test]
fn the_benchmark_reports_on_the_shipped_set() {
    oware()
        .args(["tune", "accuracy", "--nodes", "2000", "--limit", "20"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("checksum f4f6864c81e2e6f1")
                .and(predicate::str::contains("20 positions, 2000 nodes a move"))
                .and(predicate::str::contains("result (win, draw, loss) kept"))
                .and(predicate::str::contains("15 seeds")),
        );
}

#[test]
fn a_file_that_is_not_a_set_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("set.txt");
    std::fs::write(&f, "hello\n").unwrap();
    oware()
        .args([
            "tune",
            "accuracy",
            "--depth",
            "2",
            "--set",
            f.to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not an accuracy set"));
}

#[test]
fn versions_2_and_3_of_the_set_are_shipped_and_other_versions_are_refused() {
    oware()
        .args([
            "tune",
            "accuracy",
            "--set-version",
            "2",
            "--nodes",
            "2000",
            "--limit",
            "10",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("version 2 (checksum d46f8b8f1347555d)")
                .and(predicate::str::contains("10 positions, 2000 nodes a move"))
                .and(predicate::str::contains(
                    "10 have a move that changes the result",
                )),
        );
    oware()
        .args([
            "tune",
            "accuracy",
            "--set-version",
            "3",
            "--nodes",
            "2000",
            "--limit",
            "10",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("version 3 (checksum 7df7be829c8a676e)")
                .and(predicate::str::contains("10 positions, 2000 nodes a move")),
        );
    oware()
        .args(["tune", "accuracy", "--set-version", "4", "--depth", "2"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "no shipped accuracy set of version 4: versions 1 to 3 exist",
        ));
}
