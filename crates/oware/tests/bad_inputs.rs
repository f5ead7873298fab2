//! Bad inputs through the real binary, as a new user meets them: every
//! failure exits non-zero (status 2 for a mistake of the user's), and no
//! message shows the system's raw errors, the rules' internal codes or
//! Rust's debug formatting.

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

fn oware() -> Command {
    Command::cargo_bin("oware").unwrap()
}

/// Text no message meant for people may contain.
const FORBIDDEN: &[&str] = &[
    "os error",
    "No such file or directory",
    "stream did not contain valid UTF-8",
    "(even-split)",
    "(majority)",
    "(agreement)",
    "(no-moves)",
    "(repetition)",
    "(resignation)",
    "(time)",
    "Some(",
    "None",
    "Err(",
    "Ok(",
    "Os {",
    "kind: ",
    "panicked",
    "-inf",
];

/// Runs `args` (with `stdin`), checks the exit status and that nothing
/// printed contains a forbidden text; returns stdout and stderr.
fn run(args: &[&str], stdin: &str, status: i32) -> (String, String) {
    run_in("en_US.UTF-8", args, stdin, status)
}

/// [`run`] with the locale `lang`.
fn run_in(lang: &str, args: &[&str], stdin: &str, status: i32) -> (String, String) {
    let out: Output = oware()
        .args(args)
        .env("LANG", lang)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env(
            "OWARE_DATA_DIR",
            std::env::temp_dir().join("oware-bad-inputs"),
        )
        .write_stdin(stdin)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        out.status.code(),
        Some(status),
        "{args:?}: status {:?}\nstdout: {stdout}\nstderr: {stderr}",
        out.status.code()
    );
    for bad in FORBIDDEN {
        assert!(
            !stdout.contains(bad) && !stderr.contains(bad),
            "{args:?} printed {bad:?}\nstdout: {stdout}\nstderr: {stderr}"
        );
    }
    (stdout, stderr)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn files_that_cannot_be_read_are_named_with_the_reason_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.ogn");
    let missing = missing.to_str().unwrap();
    let (_, err) = run(&["record", missing], "", 2);
    assert!(
        err.contains(missing) && err.contains("it does not exist"),
        "{err}"
    );

    let binary = write(dir.path(), "binary.ogn", &[0xff, 0xfe, 0x00, 0x80]);
    let (_, err) = run(&["record", &binary], "", 2);
    assert!(err.contains("it is not a text file (UTF-8)"), "{err}");

    let folder = dir.path().to_str().unwrap();
    let (_, err) = run(&["record", folder], "", 2);
    assert!(err.contains("it is a folder, not a file"), "{err}");

    let bad = write(dir.path(), "bad.ogn", b"1. F F\n");
    let (_, err) = run(&["record", &bad], "", 2);
    assert!(err.contains("line 1, column"), "{err}");

    // The game: a file to resume that is not there, in both languages.
    let (_, err) = run(&["play", "--plain", "--load", missing], "", 2);
    assert!(
        err.starts_with("error: Could not read the game file ")
            && err.contains("it does not exist"),
        "{err}"
    );
    let (_, err) = run(
        &["play", "--plain", "--lang", "fr", "--load", missing],
        "",
        2,
    );
    assert!(
        err.starts_with("erreur\u{a0}: Impossible de lire la partie ")
            && err.contains("il n'existe pas"),
        "{err}"
    );
    let (_, err) = run(&["play", "--plain", "--lang", "fr", "--load", &bad], "", 2);
    assert!(err.contains("ligne 1, colonne"), "{err}");

    // Tables in a folder that cannot be made: one clear line.
    let (_, err) = run(
        &[
            "tablebase",
            "build",
            "--dir",
            "/proc/oware-nope",
            "--max-seeds",
            "2",
        ],
        "",
        2,
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn endings_are_told_in_words_not_codes() {
    // Both players have 24 (R10): show, analyze and UCI.
    let even = "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S";
    let (out, _) = run(&["show", "--position", even], "", 0);
    assert!(
        out.contains(
            "Game over: each player captured 24 seeds. Final totals: South 24, North 24. The game is a draw."
        ),
        "{out}"
    );
    let (_, err) = run(&["analyze", "--position", even, "--no-tablebases"], "", 2);
    assert!(
        err.contains("the game is over (each player captured 24 seeds, 24-24)"),
        "{err}"
    );
    let (out, _) = run(
        &["uci", "--no-tablebases"],
        &format!("position fen {even}\ngo depth 2\nquit\n"),
        0,
    );
    assert!(
        out.contains(
            "info string the game is over: both players captured 24 seeds; no move to play"
        ),
        "{out}"
    );
    // A game stopped by agreement (R12).
    let dir = tempfile::tempdir().unwrap();
    let agreed = write(
        dir.path(),
        "agreed.ogn",
        b"[Termination \"agreement\"]\n\n1. F f 24-24\n",
    );
    let (out, _) = run(&["record", &agreed], "", 0);
    assert!(
        out.contains("Game over: the players agreed to stop"),
        "{out}"
    );
}

#[test]
fn show_and_analyze_name_the_side_to_move_alike() {
    let (show, _) = run(&["show", "--moves", "F", "--json"], "", 0);
    let (analyze, _) = run(
        &[
            "analyze",
            "--moves",
            "F",
            "--depth",
            "2",
            "--json",
            "--no-tablebases",
        ],
        "",
        0,
    );
    let show: serde_json::Value = serde_json::from_str(&show).unwrap();
    let analyze: serde_json::Value = serde_json::from_str(&analyze).unwrap();
    assert_eq!(show["to_move"], "N");
    assert_eq!(analyze["to_move"], show["to_move"]);
}

#[test]
fn levels_are_read_by_name_or_number() {
    for level in ["beginner", "Master", "débutant", "1", "10"] {
        let (out, _) = run(
            &["play", "--plain", "--no-tablebases", "--level", level],
            "quit\n",
            0,
        );
        assert!(out.contains("against the computer (level "), "{out}");
    }
    let (out, _) = run(
        &["play", "--plain", "--no-tablebases", "--level", "beginner"],
        "quit\n",
        0,
    );
    assert!(
        out.contains("(level 1, Beginner: the weakest level)"),
        "{out}"
    );
    for bad in ["grandmaster", "0", "11"] {
        let (_, err) = run(&["play", "--plain", "--level", bad], "", 2);
        assert!(
            err.contains(&format!(
                "'{bad}' is not a level: use 1 to 10, or a name: beginner"
            )),
            "{err}"
        );
    }
}

#[test]
fn a_match_whose_engine_cannot_start_fails() {
    let (_, err) = run(
        &[
            "match",
            "--engine1",
            "/nonexistent/engine",
            "--engine2",
            "oware uci --no-tablebases",
            "--depth",
            "1",
            "--games",
            "2",
        ],
        "",
        2,
    );
    assert!(
        err.contains("engine 1 (/nonexistent/engine) cannot play a match")
            && err.contains("it does not exist"),
        "{err}"
    );
}

#[test]
fn match_games_end_in_words() {
    let (_, err) = run(
        &[
            "match",
            "--engine1",
            "oware uci --no-tablebases",
            "--engine2",
            "oware uci --no-tablebases",
            "--option2",
            "Level=beginner",
            "--depth",
            "2",
            "--games",
            "2",
        ],
        "",
        0,
    );
    let games: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{err}");
    for line in games {
        assert!(
            [
                "South captured 25 seeds or more",
                "North captured 25 seeds or more",
                "each player captured 24 seeds",
                "the empty row could not be fed",
                "the same position occurred for the third time",
            ]
            .iter()
            .any(|why| line.contains(why)),
            "{line}"
        );
    }
}

#[test]
fn the_server_log_has_no_colour_codes_when_not_a_terminal() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("oware"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().expect("a log line").unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.contains("INFO"), "{first:?}");
    assert!(!first.contains('\u{1b}'), "colour codes in {first:?}");
}

/// English words a French message may not hold (whole words, lower case).
const ENGLISH: &[&str] = &[
    "error",
    "invalid",
    "value",
    "for",
    "not",
    "is",
    "the",
    "expected",
    "cannot",
    "there",
    "no",
    "use",
    "more",
    "try",
    "found",
    "unexpected",
    "required",
    "missing",
    "needs",
    "stopped",
    "working",
    "level",
    "lesson",
    "puzzle",
    "open",
    "endgame",
    "files",
    "give",
    "folder",
    "leave",
    "out",
    "name",
];

/// Fails on an English word of [`ENGLISH`] in `text` (a path, an option,
/// a file name and a command's name are not words of the message).
fn assert_french(args: &[&str], text: &str) {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    // A command ("oware puzzle") is a name too.
    let words = tokens
        .iter()
        .enumerate()
        .filter(|&(i, _)| i == 0 || tokens[i - 1] != "oware")
        .map(|(_, w)| *w)
        .filter(|w| !w.contains('/') && !w.starts_with("--") && !w.starts_with("oware-tb"))
        .flat_map(|w| w.split(|c: char| !c.is_alphabetic()))
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty());
    for w in words {
        assert!(
            !ENGLISH.contains(&w.as_str()),
            "{args:?}: English word {w:?} in French: {text}"
        );
    }
    assert!(text.starts_with("erreur\u{a0}: "), "{args:?}: {text}");
}

#[test]
fn in_french_the_command_line_refuses_in_french() {
    let empty = tempfile::tempdir().unwrap();
    let empty = empty.path().to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["play", "--level", "facile"],
        &["play", "--level"],
        &["play", "--first", "personne"],
        &["play", "--frist", "moi"],
        &["joue"],
        &["record"],
        &["play", "--tablebases", empty, "--plain"],
        &["play", "--tablebases", empty, "--no-tablebases"],
        &["learn", "--lesson", "R99"],
        &["learn", "--lang", "de"],
        &["learn"],
        &["puzzle", "--id", "99999"],
        &["puzzle"],
        &["coach-rate", "--level", "truc"],
    ];
    for args in cases {
        let (_, err) = run_in("fr_FR.UTF-8", args, "", 2);
        assert_french(args, &err);
    }
    // --lang fr wins over an English locale; the French names of levels
    // and of who starts are accepted.
    let (_, err) = run(&["play", "--lang", "fr", "--level", "facile"], "", 2);
    assert_french(&["play", "--lang", "fr"], &err);
    assert!(err.contains("débutant, novice, apprenti"), "{err}");
    let (_, err) = run_in("fr_FR.UTF-8", &["play", "--frist", "moi"], "", 2);
    assert!(
        err.contains("Vouliez-vous dire «\u{a0}--first\u{a0}»"),
        "{err}"
    );
    let (_, err) = run_in("fr_FR.UTF-8", &["play", "--first", "personne"], "", 2);
    assert!(err.contains("moi, ordinateur, sort"), "{err}");
    let (out, _) = run_in(
        "fr_FR.UTF-8",
        &[
            "play",
            "--plain",
            "--no-tablebases",
            "--level",
            "maître",
            "--first",
            "ordinateur",
        ],
        "quitter\n",
        0,
    );
    assert!(
        out.contains("vous jouez Nord contre l'ordinateur (niveau 10, Maître"),
        "{out}"
    );
    // The check finds English where there is some.
    let (_, err) = run(&["play", "--level", "facile"], "", 2);
    let caught = std::panic::catch_unwind(|| assert_french(&["en"], &err));
    assert!(caught.is_err(), "{err}");
}

#[test]
fn bad_mail_settings_are_refused_in_words_before_the_server_starts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let db = db.to_str().unwrap();
    for (args, words) in [
        (
            vec![
                "--smtp",
                "smtps://mail.example:465",
                "--mail-from",
                "a@b.cd",
            ],
            "expected smtp://host[:port]",
        ),
        (
            vec![
                "--smtp",
                "smtp://mail.example:25",
                "--mail-from",
                "not an address",
            ],
            "\"--mail-from not an address\" is not an e-mail address",
        ),
        (vec!["--smtp", "smtp://mail.example:25"], "--mail-from"),
    ] {
        let mut all = vec!["serve", "--addr", "127.0.0.1:0", "--db", db];
        all.extend(args);
        let (_, err) = run(&all, "", 2);
        assert!(err.contains(words), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
