//! Every player-facing subcommand under a French locale: its `--help` and
//! its main outputs and errors hold no English word (a word list, as the
//! tmux test keeps; names, options, paths and metavariables are allowed).
//! The tools left in English (docs/TUI.md, "Languages") are skipped for
//! their options but their one-line descriptions are checked.

use std::process::Output;

use assert_cmd::Command;

fn oware() -> Command {
    Command::cargo_bin("oware").unwrap()
}

/// English words French text may not hold (lower case, whole words). Words
/// both languages share ("position", "options", "tables", "match",
/// "score", "club", "expert", "novice", "moteur"…) are not here.
const ENGLISH: &[&str] = &[
    "the",
    "of",
    "and",
    "or",
    "to",
    "an",
    "in",
    "at",
    "by",
    "for",
    "with",
    "without",
    "from",
    "is",
    "are",
    "not",
    "no",
    "none",
    "this",
    "that",
    "its",
    "it",
    "be",
    "as",
    "than",
    "print",
    "help",
    "usage",
    "commands",
    "command",
    "default",
    "values",
    "value",
    "examples",
    "error",
    "move",
    "moves",
    "seed",
    "seeds",
    "game",
    "games",
    "over",
    "draw",
    "drawn",
    "win",
    "wins",
    "won",
    "loss",
    "lost",
    "south",
    "north",
    "legal",
    "result",
    "depth",
    "nodes",
    "engine",
    "engines",
    "player",
    "players",
    "level",
    "levels",
    "lesson",
    "puzzles",
    "board",
    "house",
    "store",
    "captured",
    "captures",
    "plies",
    "ply",
    "file",
    "files",
    "directory",
    "folder",
    "read",
    "cannot",
    "expected",
    "found",
    "bad",
    "illegal",
    "best",
    "built",
    "building",
    "memory",
    "endgame",
    "tablebase",
    "start",
    "starts",
    "time",
    "per",
    "pairs",
    "view",
    "running",
    "fault",
    "faults",
    "most",
    "side",
    "opponent",
    "agree",
    "valid",
    "checked",
    "headers",
    "sizes",
    "checksums",
    "language",
    "first",
    "who",
    "you",
    "people",
    "keyboard",
    "instead",
    "resume",
    "line",
    "warn",
    "mark",
    "book",
    "opening",
    "openings",
    "random",
    "concurrency",
    "verbose",
    "write",
    "json",
    "object",
    "diagram",
    "think",
    "search",
    "evaluate",
    "network",
    "linear",
    "use",
    "uses",
    "used",
    "difference",
    "interval",
    "unpaired",
    "decided",
    "even",
    "stores",
    "exists",
    "else",
    "small",
    "speak",
    "protocol",
    "dialect",
    "rules",
    "browser",
    "app",
    "every",
    "each",
    "one",
    "two",
    "find",
    "analyse",
    "measure",
    "speed",
    "when",
    "then",
    "after",
    "before",
    "there",
    "here",
    "crash",
    "timeout",
    "waiting",
    "exited",
    "status",
    "killed",
    "unreadable",
    "closed",
    "output",
    "empty",
    "too",
    "short",
    "header",
    "bytes",
    "checksum",
    "mismatch",
    "damaged",
    "rebuild",
    "supported",
    "must",
    "below",
    "give",
    "open",
    "invalid",
    "digit",
    "string",
    "unknown",
    "malformed",
    "tag",
    "closes",
    "nothing",
    "analyse",
    "already",
    "agreed",
    "stop",
    "each",
];

/// Words of `text` that are in [`ENGLISH`], leaving out what is not a
/// word of the sentence: option names (`--x`), paths, a command after
/// `oware`, metavariables in capitals, the quoted UCI examples, and the
/// example command lines of `--help`.
fn english_words(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    // Under "Commandes :", each line starts with a command's name.
    let mut in_commands = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if line.starts_with("Commandes") {
            in_commands = true;
            continue;
        }
        if trimmed.is_empty() {
            in_commands = false;
        }
        // An example command line, or a usage line.
        if trimmed.starts_with("oware ")
            || trimmed.starts_with("printf ")
            || trimmed.starts_with("RAYON_NUM_THREADS")
            || trimmed.starts_with("Utilisation")
        {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        for (i, token) in tokens.iter().enumerate() {
            if (in_commands && i == 0)
                || (i > 0 && tokens[i - 1].trim_start_matches('`') == "oware")
            {
                continue;
            }
            if token.contains('/')
                || token.starts_with('-')
                || token.starts_with('`')
                || token.starts_with('<')
                || token.starts_with('[')
                || token.contains('=')
                || token.contains('_')
            {
                continue;
            }
            for w in token.split(|c: char| !c.is_alphabetic()) {
                // A metavariable or a name written in capitals (UCI, OGN).
                if w.is_empty() || w.chars().all(|c| c.is_uppercase()) {
                    continue;
                }
                let lower = w.to_lowercase();
                if ENGLISH.contains(&lower.as_str()) {
                    found.push(format!("{lower:?} in {line:?}"));
                }
            }
        }
    }
    found
}

/// Rule ids in parentheses ("(R12)") in `text`: sentences people read say
/// the rule in words (the rules' own reference, the lessons, are not run
/// here).
fn rule_ids(text: &str) -> Vec<String> {
    text.match_indices("(R")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            (digits > 0 && rest[digits..].starts_with(')'))
                .then(|| text[at..at + digits + 3].to_string())
        })
        .collect()
}

fn run(args: &[&str], stdin: &str) -> Output {
    run_in("fr_FR.UTF-8", args, stdin)
}

/// Runs `args` under the locale `lang` with `stdin`.
fn run_in(lang: &str, args: &[&str], stdin: &str) -> Output {
    oware()
        .args(args)
        .env("LANG", lang)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env(
            "OWARE_DATA_DIR",
            std::env::temp_dir().join("oware-french-cli"),
        )
        .write_stdin(stdin)
        .output()
        .unwrap()
}

/// Runs `args` under fr_FR, expects `status`, and fails on English in
/// stdout or stderr; returns both.
fn french(args: &[&str], status: i32) -> (String, String) {
    let out = run(args, "");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        out.status.code(),
        Some(status),
        "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
    );
    let mut bad = english_words(&format!("{stdout}\n{stderr}"));
    bad.extend(rule_ids(&format!("{stdout}\n{stderr}")));
    assert!(
        bad.is_empty(),
        "{args:?}: English or a rule id in French:\n{}\n--- stdout:\n{stdout}\n--- stderr:\n{stderr}",
        bad.join("\n")
    );
    (stdout, stderr)
}

/// The names listed under "Commandes :" (or "Commands:") of a help text.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commandes") && !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect()
}

/// Tools whose options stay English (the binary's `help::ENGLISH_ONLY`).
const ENGLISH_ONLY: &[&str] = &[
    "bench",
    "elo",
    "coach-rate",
    "tune",
    "serve",
    "serve-bench",
    "admin",
    "book build",
    "puzzle build",
    "puzzle check",
    "puzzle reline",
    "puzzle recheck",
    "tablebase bench",
];

#[test]
fn every_help_is_french() {
    let (top, _) = french(&["--help"], 0);
    assert!(top.contains("Utilisation\u{a0}: oware <COMMANDE>"), "{top}");
    let mut checked = 0;
    for sub in subcommands(&top) {
        if ENGLISH_ONLY.contains(&sub.as_str()) {
            continue;
        }
        for flag in ["--help", "-h"] {
            let (help, _) = french(&[&sub, flag], 0);
            assert!(help.contains("Utilisation\u{a0}:"), "{sub}: {help}");
            checked += 1;
            for inner in subcommands(&help) {
                let path = format!("{sub} {inner}");
                if ENGLISH_ONLY.contains(&path.as_str()) {
                    continue;
                }
                french(&[&sub, &inner, flag], 0);
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} helps checked");
    // A command without its subcommand shows its help, in French, as an
    // error.
    french(&["tablebase"], 2);
}

#[test]
fn no_help_in_english_names_a_rule_by_its_id() {
    let help = |args: &[&str]| {
        let out = run_in("C.UTF-8", args, "");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(text.contains("Usage: oware"), "{args:?}: {text}");
        assert!(rule_ids(&text).is_empty(), "{args:?}: {text}");
        text
    };
    let top = help(&["--help"]);
    let mut checked = 0;
    for sub in subcommands(&top) {
        let text = help(&[&sub, "--help"]);
        checked += 1;
        for inner in subcommands(&text) {
            help(&[&sub, &inner, "--help"]);
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} helps checked");
    assert!(help(&["play", "--help"]).contains("Drawn by lot"));
}

#[test]
fn the_agreement_question_names_no_rule_id() {
    for (lang, input, asked) in [
        (
            "C.UTF-8",
            "F\nf\nagree\nyes\n",
            "South proposes to stop here: each takes the seeds of their own row",
        ),
        (
            "fr_FR.UTF-8",
            "F\nf\naccord\noui\n",
            "Sud propose d'arrêter ici\u{a0}: chacun prend les graines de sa rangée",
        ),
    ] {
        let out = run_in(
            lang,
            &["play", "--plain", "--two-players", "--no-tablebases"],
            input,
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(0), "{lang}: {text}");
        assert!(text.contains(asked), "{lang}: {text}");
        assert!(rule_ids(&text).is_empty(), "{lang}: {text}");
    }
}

#[test]
fn the_rule_id_check_finds_one() {
    assert_eq!(rule_ids("Tiré au sort (R2), (R) ou (R1 à R13)"), ["(R2)"]);
}

#[test]
fn the_word_check_catches_english() {
    assert!(!english_words("Print help for the game").is_empty());
    assert!(english_words("Afficher l'aide  oware play --level 3").is_empty());
}

#[test]
fn show_record_analyze_speak_french() {
    let (out, _) = french(&["show", "--moves", "FfBe"], 0);
    assert!(
        out.contains("Au tour de Sud\u{a0}; coups possibles\u{a0}: ABCDEF"),
        "{out}"
    );
    let (out, _) = french(
        &["show", "--position", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S"],
        0,
    );
    assert!(out.contains("Partie finie\u{a0}:"), "{out}");
    // Mistakes in the position, the move list and the moves.
    french(&["show", "--moves", "FF"], 2);
    french(&["show", "--moves", "Fz"], 2);
    french(&["show", "--position", "4-4"], 2);
    french(&["show", "--position", "4-4-4-4-4-4-4-4-4-4-4-4-0-1-S"], 2);
    french(
        &[
            "show",
            "--position",
            "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S",
            "--moves",
            "A",
        ],
        2,
    );

    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("partie.ogn");
    std::fs::write(&game, "[Termination \"agreement\"]\n\n1. F f 24-24\n").unwrap();
    let (out, _) = french(&["record", game.to_str().unwrap()], 0);
    assert!(
        out.contains("Partie finie\u{a0}: les joueurs ont convenu d’arrêter"),
        "{out}"
    );
    assert!(!out.contains("(R12)"), "{out}");
    assert!(out.contains("résultat 24-24"), "{out}");
    let bad = dir.path().join("faux.ogn");
    std::fs::write(&bad, "1. F F\n").unwrap();
    let (_, err) = french(&["record", bad.to_str().unwrap()], 2);
    assert!(err.contains("ligne 1, colonne"), "{err}");
    let missing = dir.path().join("absent.ogn");
    let (_, err) = french(&["record", missing.to_str().unwrap()], 2);
    assert!(err.contains("il n'existe pas"), "{err}");
    french(&["record", dir.path().to_str().unwrap()], 2);

    let (out, _) = french(
        &[
            "analyze",
            "--moves",
            "FfBe",
            "--depth",
            "6",
            "--no-tablebases",
        ],
        0,
    );
    assert!(out.contains("(au tour de Sud), profondeur"), "{out}");
    assert!(out.contains("graine"), "{out}");
    french(
        &[
            "analyze",
            "--position",
            "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
            "--no-tablebases",
        ],
        2,
    );
}

#[test]
fn match_and_tablebase_speak_french() {
    let me = assert_cmd::cargo::cargo_bin("oware");
    let engine = format!("{} uci --no-tablebases", me.display());
    let (out, err) = french(
        &[
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &engine,
            "--depth",
            "1",
            "--games",
            "2",
        ],
        0,
    );
    assert!(out.contains("parties 2"), "{out}");
    assert!(err.contains("partie   1\u{a0}: moteur 1 (Sud)"), "{err}");
    let (_, err) = french(
        &[
            "match",
            "--engine1",
            "/nonexistent/engine",
            "--engine2",
            &engine,
            "--depth",
            "1",
        ],
        2,
    );
    assert!(err.contains("ne peut pas jouer de match"), "{err}");

    let (out, _) = french(
        &[
            "tablebase",
            "probe",
            "0-0-0-2-0-0-0-1-1-0-0-0-22-22-S",
            "--max-seeds",
            "4",
        ],
        0,
    );
    assert!(
        out.contains("résultat   défaite pour le camp qui joue"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let tables = tables.to_str().unwrap();
    french(
        &["tablebase", "build", "--dir", tables, "--max-seeds", "3"],
        0,
    );
    let (out, _) = french(
        &["tablebase", "verify", "--dir", tables, "--sample", "50"],
        0,
    );
    assert!(out.contains("sommes de contrôle valides"), "{out}");
    french(
        &[
            "tablebase",
            "build",
            "--dir",
            "/proc/oware-nope",
            "--max-seeds",
            "2",
        ],
        2,
    );
    french(
        &["tablebase", "verify", "--dir", dir.path().to_str().unwrap()],
        2,
    );
}

/// A fake UCI engine that answers the handshake and then misbehaves when
/// asked to move, as `mode` says: `quitte` exits with status 3, `dort`
/// sleeps past its time, `charabia` answers a word that is not a move,
/// `interdit` a move the rules refuse, `vide` a `bestmove` with no move,
/// `ferme` closes its output and stays; `muet` exits before the handshake.
fn fake_engine(dir: &std::path::Path) -> String {
    let path = dir.join("faux-moteur.sh");
    std::fs::write(
        &path,
        r#"mode="$1"
[ "$mode" = muet ] && exit 0
while read -r line; do
  case "$line" in
    uci) echo "id name faux"; echo uciok ;;
    isready) echo readyok ;;
    go*)
      case "$mode" in
        quitte) exit 3 ;;
        dort) sleep 3 ;;
        charabia) echo "bestmove zz" ;;
        interdit) echo "bestmove A" ;;
        vide) echo "bestmove" ;;
        ferme) exec 1>&-; sleep 3 ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
"#,
    )
    .unwrap();
    format!("sh {}", path.display())
}

#[test]
fn match_faults_are_said_in_french() {
    let dir = tempfile::tempdir().unwrap();
    let fake = fake_engine(dir.path());
    let me = assert_cmd::cargo::cargo_bin("oware");
    let engine = format!("{} uci --no-tablebases", me.display());
    // Engine 1 (South) moves first, then the fake engine 2 misbehaves: it
    // loses the only game by its fault, so no game ended by the rules.
    for (mode, said) in [
        ("quitte", "le programme s'est arrêté (code de sortie 3)"),
        ("dort", "il n'a pas joué à temps (aucun coup au bout de "),
        (
            "charabia",
            "il a répondu «\u{a0}zz\u{a0}», qui n'est pas une lettre de case (A à F ou a à f)",
        ),
        (
            "interdit",
            "il a joué A, un coup impossible\u{a0}: cette case appartient à l'adversaire",
        ),
        ("vide", "il a répondu «\u{a0}bestmove\u{a0}» sans coup"),
        ("ferme", "le moteur a fermé sa sortie"),
    ] {
        let engine2 = format!("{fake} {mode}");
        let (out, err) = french(
            &[
                "match",
                "--engine1",
                &engine,
                "--engine2",
                &engine2,
                "--movetime",
                "50",
                "--games",
                "1",
                "--random-plies",
                "0",
            ],
            2,
        );
        let fault = format!("faute du moteur 2 ({engine2}) au demi-coup 1\u{a0}: {said}");
        assert!(err.contains(&fault), "{mode}: {fault}\n{err}");
        assert!(
            out.contains(&format!("partie 1\u{a0}: {fault}")),
            "{mode}: {out}"
        );
        assert!(out.contains("1 perdue par une faute de moteur"), "{out}");
        assert!(
            err.contains("aucune partie du match n'a été jouée jusqu'au bout"),
            "{err}"
        );
    }
    // An engine that is not one: refused before the first game.
    let mute = format!("{fake} muet");
    let (_, err) = french(
        &[
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &mute,
            "--movetime",
            "50",
        ],
        2,
    );
    assert!(
        err.contains(&format!(
            "le moteur 2 ({mute}) ne peut pas jouer de match\u{a0}: le programme s'est arrêté (code de sortie 0)"
        )),
        "{err}"
    );
    // Mistakes in the match's own options and files.
    french(
        &[
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &engine,
            "--depth",
            "1",
            "--option1",
            "x",
        ],
        2,
    );
    french(&["match", "--engine1", &engine, "--engine2", &engine], 2);
    // An option the engine does not offer stops the match before its first
    // game (it used to be ignored).
    let out = run(
        &[
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &engine,
            "--depth",
            "1",
            "--option1",
            "Niveau=3",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("il n'a pas d'option «\u{a0}Niveau\u{a0}» (ses options\u{a0}: Hash, "),
        "{err}"
    );
    // The engine's option names are names; the sentence around them is
    // French.
    let sentence = err.split("(ses options").next().unwrap();
    assert!(english_words(sentence).is_empty(), "{err}");
    let openings = dir.path().join("ouvertures.txt");
    std::fs::write(&openings, "FfBe\nFF\n").unwrap();
    let (_, err) = french(
        &[
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &engine,
            "--depth",
            "1",
            "--openings",
            openings.to_str().unwrap(),
        ],
        2,
    );
    assert!(err.contains("ligne 2\u{a0}: coup 2 de"), "{err}");
    french(
        &[
            "match",
            "--engine1",
            &engine,
            "--engine2",
            &engine,
            "--depth",
            "1",
            "--sprt",
            "--elo0",
            "5",
            "--elo1",
            "0",
        ],
        2,
    );
}

#[test]
fn damaged_tables_and_files_are_said_in_french() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // Tables built, then damaged in three ways: a flipped byte, a file
    // cut short, a file that is not a table at all.
    let tables = d("tables");
    french(
        &["tablebase", "build", "--dir", &tables, "--max-seeds", "3"],
        0,
    );
    let file = |n: usize| std::path::Path::new(&tables).join(format!("oware-tb-{n:02}.otb"));
    let mut bytes = std::fs::read(file(3)).unwrap();
    let last = bytes.len() - 1;
    assert_eq!(bytes.len(), 576 + 364, "the table of 3 seeds");
    bytes[last] ^= 1;
    std::fs::write(file(3), &bytes).unwrap();
    let probe = "0-0-0-2-0-0-0-1-0-0-0-0-22-23-S";
    let (_, err) = french(&["tablebase", "probe", probe, "--dir", &tables], 2);
    assert!(err.contains("sa somme de contrôle est fausse"), "{err}");
    assert!(err.contains("Reconstruisez les tables"), "{err}");
    let (_, err) = french(&["tablebase", "verify", "--dir", &tables], 2);
    assert!(err.contains("sa somme de contrôle est fausse"), "{err}");
    let (_, err) = french(
        &[
            "analyze",
            "--position",
            probe,
            "--depth",
            "2",
            "--tablebases",
            &tables,
        ],
        2,
    );
    assert!(
        err.contains("impossible d'ouvrir les tables de finales"),
        "{err}"
    );
    french(&["play", "--plain", "--tablebases", &tables], 2);
    // Every kind of damage the reader finds, each in a real file, in its
    // own French words.
    bytes[last] ^= 1;
    let good = bytes;
    let set = |at: usize, new: &[u8]| {
        let mut b = good.clone();
        b[at..at + new.len()].copy_from_slice(new);
        b
    };
    // The file with its checksum (offset 32) made right for its contents.
    let sum = |mut b: Vec<u8>| {
        b[32..36].fill(0);
        let mut h = crc32fast::Hasher::new();
        h.update(&b);
        let crc = h.finalize();
        b[32..36].copy_from_slice(&crc.to_le_bytes());
        b
    };
    let plen = good[24];
    let mut bad_code = good.clone();
    bad_code[last] = plen;
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"pas une table".to_vec(),
            "le fichier est trop court (13\u{a0}octets, moins que les 576\u{a0}octets d'un en-tête)",
        ),
        (Vec::new(), "le fichier est trop court (0\u{a0}octets"),
        (vec![b'x'; 1000], "ce n'est pas un fichier de tables"),
        (
            set(8, &[3]),
            "il est d'une autre version du format (version 3, ce programme lit la version 2)",
        ),
        (
            sum(set(28, &[20])),
            "il a été construit avec d'autres réglages (cycles comptés jusqu'à 20\u{a0}graines",
        ),
        (
            std::fs::read(file(2)).unwrap(),
            "il contient la table de 2\u{a0}graines au lieu de celle de 3",
        ),
        (
            set(16, &99u64.to_le_bytes()),
            "son en-tête annonce 99\u{a0}positions, mais 3\u{a0}graines en font 364",
        ),
        (
            good[..good.len() - 7].to_vec(),
            "sa taille est fausse, il est tronqué ou rallongé (933\u{a0}octets au lieu de 940)",
        ),
        (
            set(24, &[0]),
            "son en-tête est abîmé (il annonce 0\u{a0}paires de valeurs au lieu de 1 à 256)",
        ),
        (
            set(last, &[good[last] ^ 1]),
            "sa somme de contrôle est fausse, il a été abîmé",
        ),
        (
            sum(set(64, &[3, 2])),
            "son contenu est incohérent, il est abîmé (sa paire de valeurs numéro 0 ne tient pas entre 0 et 3)",
        ),
        (
            sum(bad_code),
            "son contenu est incohérent, il est abîmé (une position renvoie à la paire de valeurs",
        ),
    ];
    for (bytes, words) in cases {
        std::fs::write(file(3), &bytes).unwrap();
        let (_, err) = french(&["tablebase", "probe", probe, "--dir", &tables], 2);
        assert!(
            err.contains(
                "oware-tb-03.otb n'est pas une table de finales que ce programme peut lire\u{a0}: "
            ),
            "{err}"
        );
        assert!(err.contains(words), "{words}\n{err}");
        assert!(err.contains("Reconstruisez les tables"), "{err}");
    }
    std::fs::write(file(3), &good).unwrap();
    french(&["tablebase", "probe", probe, "--dir", &tables], 0);
    // No tables where they are asked for, too many seeds.
    french(&["analyze", "--tablebases", &d("rien"), "--depth", "2"], 2);
    french(
        &["tablebase", "build", "--dir", &d("t"), "--max-seeds", "60"],
        2,
    );
    french(&["tablebase", "probe", probe, "--max-seeds", "99"], 2);

    // Game records that do not read, for record and play.
    for (name, text) in [
        ("etiquette.ogn", &b"[Event \"x\n\n1. F f *\n"[..]),
        ("fen.ogn", b"[FEN \"x\"]\n\n*\n"),
        ("resultat.ogn", b"1. F f 24-x\n"),
        ("commentaire.ogn", b"1. F {sans fin\n"),
        ("vide.ogn", b""),
        ("binaire.ogn", b"\xff\xfe\x00"),
        ("deux.ogn", b"1. F f *\n\n1. F f *\n"),
    ] {
        let path = d(name);
        std::fs::write(&path, text).unwrap();
        french(&["record", &path], 2);
        french(&["play", "--plain", "--no-tablebases", "--load", &path], 2);
    }
    // Numbers and positions that do not read.
    french(&["analyze", "--movetime", "0"], 2);
    french(&["analyze", "--depth", "99"], 2);
    french(&["uci", "--hash", "0"], 2);
    french(&["puzzle", "--id", "abc"], 2);
    french(&["puzzle", "--id", "99999"], 2);
    french(&["learn", "--lesson", "R99"], 2);
    french(&["analyze", "--position", "4-4-4", "--depth", "1"], 2);
    french(&["tablebase", "probe", "x-y"], 2);
    french(&["play", "--plain", "--level", "grand-maître"], 2);
}

#[test]
fn french_examples_use_french_level_names() {
    let (help, _) = french(&["play", "--help"], 0);
    assert!(help.contains("oware play --level débutant"), "{help}");
    assert!(help.contains("--first ordinateur"), "{help}");
    assert!(!help.contains("--level beginner"), "{help}");
    // What the examples say works: the French names are accepted.
    for level in ["débutant", "club", "avancé", "maître"] {
        let (out, _) = {
            let out = run(
                &["play", "--plain", "--no-tablebases", "--level", level],
                "quitter\n",
            );
            assert_eq!(out.status.code(), Some(0), "{level}");
            (String::from_utf8_lossy(&out.stdout).to_string(), ())
        };
        assert!(
            out.contains("contre l'ordinateur (niveau "),
            "{level}: {out}"
        );
    }
    let (uci, _) = french(&["uci", "--help"], 0);
    assert!(uci.contains("Level value débutant"), "{uci}");
    let out = run(
        &["uci", "--no-tablebases"],
        "setoption name Level value débutant\nposition startpos\ngo depth 1\nquit\n",
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!said.contains("info string error"), "{said}");
    assert!(said.contains("bestmove "), "{said}");
}

/// What a French newcomer met in an audit of every subcommand (issue 24),
/// each case as it is said now.
#[test]
fn the_newcomers_audit_cases_are_said_in_french() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // perft's summary (it was English).
    let (out, err) = french(&["perft", "3"], 0);
    assert_eq!(out, "190\n");
    assert!(
        err.starts_with("perft 3 de 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\u{a0}: 190\u{a0}feuilles en "),
        "{err}"
    );
    assert!(err.contains("232\u{a0}coups joués"), "{err}");
    // The book's probe: its lines and its refusals (they were English).
    let (out, _) = french(&["book", "probe"], 0);
    assert!(out.starts_with("livre\u{a0}: "), "{out}");
    assert!(out.contains("graine"), "{out}");
    let (out, _) = french(&["book", "probe", "--moves", "FfBe"], 0);
    assert!(out.contains("\u{a0}: absente du livre"), "{out}");
    let (_, err) = french(&["book", "probe", "--moves", "ZZ"], 2);
    assert!(
        err.contains("liste de coups «\u{a0}ZZ\u{a0}» illisible"),
        "{err}"
    );
    let (_, err) = french(&["book", "probe", "--moves", "FfFfFf"], 2);
    assert!(err.contains("coup 3 (F) impossible"), "{err}");
    let (_, err) = french(&["book", "probe", "--book", &d("absent.book")], 2);
    assert!(
        err.contains("impossible de lire le livre d'ouvertures") && err.contains("il n'existe pas"),
        "{err}"
    );
    let (_, err) = french(&["book", "probe", "--book", &d("")], 2);
    assert!(err.contains("c'est un dossier, pas un fichier"), "{err}");
    std::fs::write(d("faux.book"), b"pas un livre").unwrap();
    let (_, err) = french(&["book", "probe", "--book", &d("faux.book")], 2);
    assert!(
        err.contains("n'est pas un livre d'ouvertures que ce programme peut lire\u{a0}: ce n'est pas un fichier de livre d'ouvertures"),
        "{err}"
    );
    // Tables: singular for 0 and 1, a file given as their folder.
    let (_, err) = french(
        &["tablebase", "build", "--dir", &d("t"), "--max-seeds", "2"],
        0,
    );
    assert!(
        err.contains(" 0\u{a0}graine\u{a0}: 1\u{a0}position construite en "),
        "{err}"
    );
    assert!(
        err.contains(" 2\u{a0}graines\u{a0}: 78\u{a0}positions construites en "),
        "{err}"
    );
    let (out, _) = french(&["tablebase", "verify", "--dir", &d("t")], 0);
    assert!(
        out.contains(
            " 0\u{a0}graine\u{a0}: 1\u{a0}position s'accorde avec les valeurs de ses coups"
        ),
        "{out}"
    );
    std::fs::write(d("fichier"), b"x").unwrap();
    for args in [&["build", "--max-seeds", "1"][..], &["verify"][..]] {
        let mut args = args.to_vec();
        args.insert(0, "tablebase");
        let file = d("fichier");
        args.extend(["--dir", &file]);
        let (_, err) = french(&args, 2);
        assert!(
            err.contains("fichier est un fichier\u{a0}: donnez le dossier des tables"),
            "{err}"
        );
    }
    // Tables asked for by `uci` that do not open stop it at once (it said
    // so in English on its output and went on).
    let (out, err) = french(&["uci", "--tablebases", &d("rien")], 2);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("il n'y a pas de fichiers de tables de finales"),
        "{err}"
    );
    // Options that cannot go together, numbers that cannot be.
    let (_, err) = french(&["play", "--two-players", "--level", "3"], 2);
    assert!(
        err.contains("--two-players ne peut pas aller avec --level"),
        "{err}"
    );
    let (_, err) = french(&["play", "--two-players", "--first", "ordinateur"], 2);
    assert!(
        err.contains("--two-players ne peut pas aller avec --first"),
        "{err}"
    );
    let (_, err) = french(&["perft", "-1"], 2);
    assert!(
        err.contains("«\u{a0}-1\u{a0}»\u{a0}: un nombre négatif n'est pas possible ici."),
        "{err}"
    );
    let (_, err) = french(&["perft", "99999999999999999999"], 2);
    assert!(err.contains("99999999999999999999 est trop grand"), "{err}");
    let (_, err) = french(&["record", &d("fichier"), "encore"], 2);
    assert!(
        err.contains("«\u{a0}encore\u{a0}» est de trop ici."),
        "{err}"
    );
    // An autosave that cannot be written is said in one sentence, and a
    // file where its folder should be is named so.
    let out = run(
        &[
            "play",
            "--plain",
            "--no-tablebases",
            "--level",
            "1",
            "--data-dir",
            &d("fichier"),
        ],
        "F\nquitter\n",
    );
    // Said once, as the command's error, and the exit code says so too.
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(
            "La partie inachevée n'a pas été enregistrée. Impossible de créer le dossier"
        ),
        "{said}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("n'a pas été enregistrée"),
        "said twice: {out:?}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Au revoir."),
        "{out:?}"
    );
    assert!(
        said.contains("une partie du chemin n'est pas un dossier"),
        "{said}"
    );
    assert!(english_words(&said).is_empty(), "{said}");
}
