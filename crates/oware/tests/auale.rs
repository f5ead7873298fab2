//! `oware uci` driven the way Aualé 2.2 drives an engine, through the real
//! binary, with every reply checked against the dialect's grammar and
//! against what Aualé's own parser accepts.
//!
//! What Aualé does (from its source, `src/auale/uci/client.py`, `engine.py`,
//! `rules.py`, `strength.py` at tag 2.2.0): it sends `uci` and waits for
//! `uciok`; sets `OwnBook` for the chosen strength; sends `ucinewgame` and
//! `isready`; for each of its moves sends the position at the last capture
//! with the moves since (`startpos` if that board is the initial one) and
//! `go depth D movetime T` (hard: 16 and 2400 ms); while the person thinks
//! it sends the position after the engine's move and its expected reply,
//! then `go ponder`, and `stop` when the person moves (never `ponderhit`);
//! finally `quit`. It waits at most 8 s for `uciok`, `readyok`, the
//! `bestmove` after `stop`, and the end of the process after `quit`; it
//! drops replies its grammar does not match (a `bestmove` must be `0000` or
//! one move letter) and stops reading at the first empty line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use oware_core::{format_moves, Game, Move, Position};

/// Aualé's limit for `uciok`, `readyok`, `stop` and `quit`.
const AUALE_LIMIT: Duration = Duration::from_secs(8);

fn is_move(w: &str) -> bool {
    w.len() == 1 && matches!(w.as_bytes()[0], b'A'..=b'F' | b'a'..=b'f')
}

fn is_moves(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|b| matches!(b, b'A'..=b'F' | b'a'..=b'f'))
}

fn is_number(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
}

fn is_integer(w: &str) -> bool {
    is_number(w.strip_prefix(['-', '+']).unwrap_or(w))
}

/// Checks one line from the engine against the grammar of the dialect's
/// replies (INTEROP.md's engine protocol, as Aualé parses it).
fn check_grammar(line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split(' ').collect();
    if line.trim().is_empty() {
        return Err("an empty line (Aualé stops reading there)".into());
    }
    if words.iter().any(|w| w.is_empty()) || line != line.trim() {
        return Err("stray whitespace".into());
    }
    let fail = |why: &str| Err(format!("{why}: '{line}'"));
    match words[0] {
        "uciok" | "readyok" if words.len() == 1 => Ok(()),
        "id" if words.len() >= 3 && matches!(words[1], "name" | "author") => Ok(()),
        "option" => {
            if words.len() < 5 || words[1] != "name" || words[3] != "type" {
                return fail("expected 'option name WORD type TYPE …'");
            }
            if !matches!(words[4], "check" | "spin" | "combo" | "button" | "string") {
                return fail("unknown option type");
            }
            let mut rest = &words[5..];
            while let [key, value, tail @ ..] = rest {
                match *key {
                    "default" | "var" => {}
                    "min" | "max" if is_integer(value) => {}
                    _ => return fail("bad option field"),
                }
                rest = tail;
            }
            if rest.is_empty() {
                Ok(())
            } else {
                fail("dangling option field")
            }
        }
        "bestmove" => match &words[1..] {
            [m] if *m == "0000" || is_move(m) => Ok(()),
            [m, "ponder", p] if is_move(m) && is_move(p) => Ok(()),
            _ => fail("expected 'bestmove (0000|[A-Fa-f]) [ponder [A-Fa-f]]'"),
        },
        "info" => {
            if words.get(1) == Some(&"string") {
                return if words.len() > 2 {
                    Ok(())
                } else {
                    fail("empty info string")
                };
            }
            let mut i = 1;
            while i < words.len() {
                let value = words.get(i + 1).copied().unwrap_or("");
                match words[i] {
                    "depth" | "seldepth" | "time" | "nodes" | "nps" | "hashfull" | "tbhits"
                    | "multipv" | "currmovenumber"
                        if is_number(value) =>
                    {
                        i += 2
                    }
                    "currmove" if is_move(value) => i += 2,
                    "pv" if is_moves(value) => i += 2,
                    "score" => {
                        if !matches!(value, "cp" | "mate")
                            || !is_integer(words.get(i + 2).copied().unwrap_or(""))
                        {
                            return fail("expected 'score cp|mate INTEGER'");
                        }
                        i += 3;
                        if matches!(words.get(i), Some(&"lowerbound" | &"upperbound")) {
                            i += 1;
                        }
                    }
                    _ => return fail("unknown or malformed info field"),
                }
            }
            Ok(())
        }
        _ => fail("not a reply of the dialect"),
    }
}

/// The `position` command Aualé sends for `game`: the position at the last
/// capture (`startpos` when that is the initial board) and the moves since.
fn auale_position(game: &Game, extra: &[Move]) -> String {
    let plies = game.positions().len() - 1;
    let capture = (1..=plies)
        .rev()
        .find(|&i| game.captured_by(i - 1) > 0)
        .unwrap_or(0);
    let at = game.positions()[capture];
    let board = if at == Position::start() {
        "startpos".to_string()
    } else {
        format!("fen {at}")
    };
    let mut moves: Vec<Move> = game.moves().skip(capture).collect();
    moves.extend_from_slice(extra);
    if moves.is_empty() {
        format!("position {board}")
    } else {
        format!("position {board} moves {}", format_moves(&moves))
    }
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start(dir: &std::path::Path) -> Engine {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("oware"))
            .arg("uci")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads replies until one satisfies `done`, within `limit`; every
    /// reply must be grammatical. Returns the replies and the time taken.
    fn until(&mut self, limit: Duration, done: impl Fn(&str) -> bool) -> (Vec<String>, Duration) {
        let started = Instant::now();
        let mut got = Vec::new();
        loop {
            let left = limit.saturating_sub(started.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Err(e) = check_grammar(&line) {
                        panic!("ungrammatical reply: {e}\nso far: {:?}", self.seen);
                    }
                    assert!(
                        !line.starts_with("info string error"),
                        "error reply: {line}"
                    );
                    self.seen.push(line.clone());
                    got.push(line.clone());
                    if done(&line) {
                        return (got, started.elapsed());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no reply within {limit:?}; so far: {:?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output; so far: {:?}", self.seen)
                }
            }
        }
    }
}

/// The `bestmove` reply's move and ponder move.
fn parse_bestmove(line: &str) -> (Option<Move>, Option<Move>) {
    let words: Vec<&str> = line.split(' ').collect();
    let mv = words[1].parse().ok();
    let ponder = words.get(3).and_then(|p| p.parse().ok());
    (mv, ponder)
}

#[test]
fn grammar_checker_rejects_what_auale_drops() {
    for bad in [
        "bestmove (none)",
        "bestmove",
        "bestmove FA",
        "bestmove F ponder",
        "",
        "info depth x",
        "info pv F-A",
        "info score cp",
        "readyok now",
        "option name Hash",
    ] {
        assert!(check_grammar(bad).is_err(), "accepted '{bad}'");
    }
    for good in [
        "bestmove 0000",
        "bestmove F ponder a",
        "info depth 3 score cp -12 lowerbound nodes 5 pv FaB",
        "info string anything at all",
        "option name Hash type spin default 64 min 1 max 16384",
    ] {
        check_grammar(good).unwrap();
    }
}

#[test]
fn auale_session_replayed() {
    // No ./tablebases here: the engine builds its default table in memory,
    // which must not hold up any reply.
    let dir = tempfile::tempdir().unwrap();
    let mut engine = Engine::start(dir.path());

    engine.send("uci");
    let (lines, took) = engine.until(AUALE_LIMIT, |l| l == "uciok");
    assert!(lines[0].starts_with("id name "), "{lines:?}");
    assert!(took < AUALE_LIMIT);

    engine.send("setoption name OwnBook value true");
    engine.send("ucinewgame");
    engine.send("isready");
    let (_, took) = engine.until(AUALE_LIMIT, |l| l == "readyok");
    // Nothing in the engine waits here; even a loaded machine answers fast.
    assert!(took < Duration::from_secs(2), "readyok took {took:?}");

    // A game with captures, so that Aualé sends `position fen … moves …`:
    // each side plays its biggest capture, else its first legal move.
    let mut game = Game::new(Position::start());
    while game.positions().len() < 25 {
        let pos = *game.position();
        let me = pos.to_move();
        let mv = game
            .legal_moves()
            .into_iter()
            .max_by_key(|&m| {
                (
                    pos.play_unchecked(m).store(me),
                    std::cmp::Reverse(m.house().rel()),
                )
            })
            .unwrap();
        game.play(mv).unwrap();
    }
    let position = auale_position(&game, &[]);
    assert!(
        position.starts_with("position fen ") && position.contains(" moves "),
        "{position}"
    );
    engine.send(&position);
    engine.send("go depth 16 movetime 2400");
    let (lines, took) = engine.until(Duration::from_millis(2400) + AUALE_LIMIT, |l| {
        l.starts_with("bestmove ")
    });
    assert!(
        took < Duration::from_millis(2400 + 2000),
        "go took {took:?}"
    );
    let (best, ponder) = parse_bestmove(lines.last().unwrap());
    let best = best.expect("a move in a game that goes on");
    let searched = game.clone();
    game.play(best).unwrap();
    let ponder = ponder.expect("a ponder move");
    assert!(game.legal_moves().contains(ponder), "{lines:?}");
    // Every principal variation is playable from the position searched.
    for l in lines.iter().filter(|l| l.contains(" pv ")) {
        let pv = l.rsplit(' ').next().unwrap();
        let mut g = searched.clone();
        for m in pv.chars() {
            g.play(m.to_string().parse().unwrap())
                .unwrap_or_else(|e| panic!("pv {pv} of '{l}': {e}"));
        }
    }

    // Pondering on the expected reply while the person thinks, then the
    // person moves: `stop`.
    engine.send(&auale_position(&game, &[ponder]));
    engine.send("go ponder");
    // The ponder search is under way (it reports a depth) and does not end
    // by itself: only the person's move, below, stops it.
    let (lines, _) = engine.until(AUALE_LIMIT, |l| l.starts_with("info depth "));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    engine.send("stop");
    let (lines, took) = engine.until(AUALE_LIMIT, |l| l.starts_with("bestmove "));
    assert!(took < Duration::from_secs(2), "stop took {took:?}");
    assert!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count() == 1,
        "{lines:?}"
    );

    // A finished game (R9: South cannot feed North): the null move.
    engine.send("position fen 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S");
    engine.send("go depth 2 movetime 600");
    let (lines, _) = engine.until(AUALE_LIMIT, |l| l.starts_with("bestmove "));
    assert_eq!(lines.last().unwrap(), "bestmove 0000");

    engine.send("quit");
    let started = Instant::now();
    // The rest of the output (if any) must be grammatical too; then EOF.
    loop {
        match engine.lines.recv_timeout(AUALE_LIMIT) {
            Ok(line) => check_grammar(&line).unwrap(),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => panic!("no exit after quit"),
        }
    }
    let status = engine.child.wait().unwrap();
    assert!(status.success());
    assert!(started.elapsed() < AUALE_LIMIT);
}
