//! `oware tablebase build|probe|verify` from the command line.

use assert_cmd::Command;
use predicates::prelude::*;

fn oware() -> Command {
    Command::cargo_bin("oware").unwrap()
}

#[test]
fn build_probe_verify_and_refuse_a_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    oware()
        .args(["tablebase", "build", "--max-seeds", "6", "--dir", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("tables for 0..=6 seeds"));
    // Resumed: nothing left to build.
    oware()
        .args(["tablebase", "build", "--max-seeds", "6", "--dir", d])
        .assert()
        .success()
        .stderr(predicate::str::contains("6 seeds: valid file kept"));
    // E8: North captures 3 + 2 and wins.
    oware()
        .args([
            "tablebase",
            "probe",
            "--dir",
            d,
            "1-2-0-1-0-0-0-0-0-0-0-2-21-21-N",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("result     win for the side to move")
                .and(predicate::str::contains("best       f")),
        );
    oware()
        .args(["tablebase", "verify", "--dir", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("6 seeds:"));
    // Not covered.
    oware()
        .args([
            "tablebase",
            "probe",
            "--dir",
            d,
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("48 seeds"));
    // A damaged file is refused with its name and the reason.
    let path = dir.path().join("oware-tb-04.otb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    oware()
        .args([
            "tablebase",
            "probe",
            "--dir",
            d,
            "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S",
        ])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("oware-tb-04.otb").and(predicate::str::contains("checksum")),
        );
    oware()
        .args(["tablebase", "build", "--max-seeds", "6", "--dir", d])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("checksum"));
}

#[test]
fn bad_input_gets_a_clear_error() {
    oware()
        .args(["tablebase", "probe", "--max-seeds", "4", "1-2-3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad position"));
    oware()
        .args([
            "tablebase",
            "build",
            "--max-seeds",
            "40",
            "--dir",
            "/nonexistent-oware",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 30"));
    let empty = tempfile::tempdir().unwrap();
    oware()
        .args([
            "tablebase",
            "probe",
            "--dir",
            empty.path().to_str().unwrap(),
            "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no table files"));
}

#[test]
fn probe_build_and_analyze_share_one_default_folder() {
    // `tablebase build` without --dir writes ./tablebases; `probe` without
    // --dir then reads it, as `analyze` and `uci` do.
    let cwd = tempfile::tempdir().unwrap();
    oware()
        .current_dir(cwd.path())
        .args([
            "tablebase",
            "probe",
            "--max-seeds",
            "4",
            "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "tables     built in memory (0..=4 seeds)",
        ));
    oware()
        .current_dir(cwd.path())
        .args(["tablebase", "build", "--max-seeds", "5"])
        .assert()
        .success();
    assert!(cwd.path().join("tablebases/oware-tb-05.otb").is_file());
    oware()
        .current_dir(cwd.path())
        .args(["tablebase", "probe", "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("tables     tablebases (0..=5 seeds)").and(
                predicate::str::contains("to move    South (captured 23, opponent captured 23)"),
            ),
        );
    // A damaged file in the default folder is reported, not skipped.
    let path = cwd.path().join("tablebases/oware-tb-03.otb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    oware()
        .current_dir(cwd.path())
        .args(["tablebase", "probe", "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("oware-tb-03.otb"));
}
