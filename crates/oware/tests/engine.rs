//! The engine subcommands through the real binary.

use assert_cmd::Command;
use predicates::prelude::*;

fn oware() -> Command {
    Command::cargo_bin("oware").unwrap()
}

#[test]
fn uci_through_the_binary() {
    oware()
        .args(["uci", "--no-tablebases"])
        .write_stdin("uci\nisready\nbogus\nposition startpos moves F\ngo depth 4\nquit\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("uciok"))
        .stdout(predicate::str::contains("readyok"))
        .stdout(predicate::str::contains(
            "info string error: unknown command 'bogus'",
        ))
        .stdout(predicate::str::is_match("(?m)^bestmove [a-f]").unwrap());
}

#[test]
fn analyze_json_lists_every_legal_move() {
    let out = oware()
        .args([
            "analyze",
            "--moves",
            "FfBe",
            "--depth",
            "5",
            "--json",
            "--no-tablebases",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert_eq!(v["depth"], 5);
    assert!(moves.iter().all(|m| m["pv"]
        .as_str()
        .unwrap()
        .starts_with(m["move"].as_str().unwrap())));
}

#[test]
fn analyze_rejects_illegal_moves_clearly() {
    oware()
        .args(["analyze", "--moves", "FF", "--depth", "2"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("move 2 (F) is illegal"));
}

#[test]
fn bench_prints_a_stable_signature() {
    let sig = |_: ()| {
        let out = oware().args(["bench", "--depth", "6"]).output().unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .find(|l| l.starts_with("signature"))
            .unwrap()
            .to_string()
    };
    assert_eq!(sig(()), sig(()));
}

/// The `oware bench` signature at its default depth. It changes exactly when
/// the search's behaviour does: a commit that changes it updates this value,
/// docs/ENGINE.md and README.md together, and says why.
const BENCH_SIGNATURE: u64 = 2_264_595;

#[test]
fn bench_signature_is_pinned_and_documented() {
    let out = oware().arg("bench").output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let line = stdout
        .lines()
        .find(|l| l.starts_with("signature"))
        .unwrap_or_else(|| panic!("no signature line in {stdout}"));
    let nodes: u64 = line
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {line:?}"));
    assert_eq!(nodes, BENCH_SIGNATURE, "{line}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for doc in ["docs/ENGINE.md", "README.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let plain = text.replace(',', "");
        assert!(
            plain.contains(&BENCH_SIGNATURE.to_string()),
            "{doc} does not give the signature {BENCH_SIGNATURE}"
        );
    }
}

#[test]
fn analyze_refuses_limits_out_of_range() {
    for (args, expected) in [
        (vec!["--depth", "0"], "invalid value '0' for '--depth"),
        (vec!["--depth", "-3"], "invalid value '-3' for '--depth"),
        (
            vec!["--movetime", "-5"],
            "invalid value '-5' for '--movetime",
        ),
        (vec!["--movetime", "0"], "invalid value '0' for '--movetime"),
        (
            vec!["--movetime", "soon"],
            "invalid value 'soon' for '--movetime",
        ),
    ] {
        let out = oware()
            .arg("analyze")
            .args(&args)
            .arg("--no-tablebases")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn uci_option_errors_show_the_value_not_rust_internals() {
    let out = oware()
        .args(["uci", "--no-tablebases"])
        .write_stdin(
            "setoption name Level value 99\nsetoption name Level\nsetoption name Hash value lots\n\
             setoption name Greedy value maybe\nsetoption name Seed value -1\nquit\n",
        )
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "info string error: setoption Level: expected a level from 1 to 10 or its name (beginner … master), got '99'",
        "info string error: setoption Level: expected a level from 1 to 10 or its name (beginner … master), got no value",
        "info string error: setoption Hash: expected a size in MiB from 1 to 16384, got 'lots'",
        "info string error: setoption Greedy: expected true or false, got 'maybe'",
        "info string error: setoption Seed: expected a number, got '-1'",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    assert!(!stdout.contains("Some("), "{stdout}");
}

#[test]
fn elo_totals_the_runs_it_is_given() {
    // One run's figure is what `oware match` printed for it (60 pairs);
    // two runs sum their pair counts.
    oware()
        .args(["elo", "--pairs", "0,0,18,18,24"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "score 77.5%  Elo difference +214.8 +/- 53.1 (95%: +166.2 to +272.4; 60 game pairs)  LOS 100.0%",
        ));
    oware()
        .args(["elo", "--pairs", "0,2,31,30,77", "--pairs", "0,0,18,18,24"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(0 1 2 3 4): 0 2 49 48 101"))
        .stdout(predicate::str::contains("200 game pairs"));
    oware()
        .args(["elo", "--wdl", "10,0,0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Elo difference +inf"));
    oware()
        .args(["elo", "--pairs", "1,2,3"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "expected 5 comma-separated counts, got 3",
        ));
    oware()
        .args(["elo", "--wdl", "1,x,3"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("'x' is not a count"));
    oware()
        .args(["elo", "--pairs", "0,0,0,0,0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no game pairs counted"));
}

#[test]
fn match_between_levels_reports_a_result() {
    let out = oware()
        .args([
            "match",
            "--engine1",
            "oware uci --no-tablebases",
            "--engine2",
            "oware uci --no-tablebases",
            "--option2",
            "Level=1",
            "--games",
            "2",
            "--depth",
            "3",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("games 2  W "), "{stdout}");
    assert!(stdout.contains("Elo difference"), "{stdout}");
}

#[test]
fn match_sprt_mode_reports_the_test() {
    let out = oware()
        .args([
            "match",
            "--engine1",
            "oware uci --no-tablebases",
            "--engine2",
            "oware uci --no-tablebases",
            "--option2",
            "Level=1",
            "--games",
            "4",
            "--depth",
            "3",
            "--sprt",
            "--elo0",
            "-10",
            "--elo1",
            "10",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("pairs by engine1's half-points (0 1 2 3 4): "),
        "{stdout}"
    );
    assert!(
        stdout.contains("sprt elo0 -10 elo1 10 alpha 0.05 beta 0.05: LLR "),
        "{stdout}"
    );
    // The bounds and the verdict.
    assert!(stdout.contains("(bounds -2.94, 2.94) after "), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("sprt: LLR "), "{stderr}");
}

#[test]
fn match_rejects_bad_sprt_bounds() {
    oware()
        .args([
            "match",
            "--engine1",
            "x",
            "--engine2",
            "y",
            "--depth",
            "1",
            "--sprt",
            "--elo0",
            "5",
            "--elo1",
            "0",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("elo0 (5) must be below elo1 (0)"));
}

#[test]
fn match_counts_a_crashing_engine_as_a_loss() {
    // An engine that answers the handshake, then dies on its first search.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("crashes.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n  uci) echo uciok ;;\n  isready) echo readyok ;;\n  go*) exit 1 ;;\nesac; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = oware()
        .args([
            "match",
            "--engine1",
            "oware uci --no-tablebases",
            "--engine2",
            script.to_str().unwrap(),
            "--games",
            "2",
            "--depth",
            "2",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("W 2  D 0  L 0"), "{stdout}");
    assert!(stdout.contains("crash"), "{stdout}");
    // Every game was lost by a fault, none played to its end: a failure.
    assert_eq!(out.status.code(), Some(2), "{stdout}");
}

#[test]
fn match_with_an_engine_that_cannot_start_fails_before_playing() {
    let out = oware()
        .args([
            "match",
            "--engine1",
            "oware uci --no-tablebases",
            "--engine2",
            "false",
            "--games",
            "2",
            "--depth",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("engine 2 (false) cannot play a match"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn uci_builds_and_uses_default_tables() {
    // No ./tablebases in the test's working directory: a small table is
    // built in memory in the background, announced when ready, and used
    // from the next search: E10-like endgames are then known at once.
    use std::io::{BufRead, BufReader, Write};
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("oware"))
        .arg("uci")
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = || lines.next().expect("output ends early").unwrap();
    writeln!(stdin, "isready").unwrap();
    assert_eq!(next(), "readyok");
    while !next().starts_with("info string tablebases built in memory up to 12 seeds") {}
    writeln!(
        stdin,
        "position fen 0-0-0-0-0-2-1-1-0-0-0-0-22-22-N\ngo depth 3"
    )
    .unwrap();
    let mut tb_hits = false;
    loop {
        let line = next();
        tb_hits |= line.contains(" tbhits ") && !line.contains(" tbhits 0 ");
        if line.starts_with("bestmove ") {
            break;
        }
    }
    assert!(tb_hits);
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}
