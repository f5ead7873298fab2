//! The UCI loop driven through in-memory input and output.

use std::io::Cursor;
#[cfg(feature = "tablebase")]
use std::io::{BufReader, Read};
#[cfg(feature = "tablebase")]
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oware_core::{parse_moves, Game, Position};
use oware_engine::uci;
use oware_engine::EngineOptions;

/// Runs the loop over `script` and returns the output lines.
fn session(script: &str) -> Vec<String> {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: uci::Output = buf.clone();
    uci::run(
        Cursor::new(script.to_string()),
        out,
        EngineOptions {
            hash_mb: 4,
            tablebase_dir: None,
        },
    );
    let bytes = buf.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|m| m.split(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn handshake_lists_options() {
    let lines = session("uci\nisready\nquit\n");
    assert!(lines[0].starts_with("id name "));
    for opt in ["Hash", "TablebaseDir", "Level", "Greedy"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} "))),
            "{opt} missing: {lines:?}"
        );
    }
    let ok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(lines[ok + 1], "readyok");
}

#[test]
fn go_depth_answers_a_legal_move_with_info() {
    let lines = session("position startpos moves FfBe\ngo depth 6\nisready\n");
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), 1);
    let game = Game::from_moves(Position::start(), &parse_moves("FfBe").unwrap()).unwrap();
    let mv = moves[0].parse().unwrap();
    assert!(game.legal_moves().contains(mv), "{lines:?}");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 6 "))
        .expect("depth 6 info");
    for field in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info.contains(field), "{info}");
    }
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let started = Instant::now();
    let lines = session("position startpos\ngo infinite\nstop\nisready\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let b = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let r = lines.iter().position(|l| l == "readyok").unwrap();
    assert!(b < r);
}

#[test]
fn threads_option_is_listed_checked_and_stops_at_once() {
    let started = Instant::now();
    let lines = session(
        "uci\nsetoption name Threads value 0\nsetoption name Threads value 2\nposition startpos\ngo infinite\nstop\nisready\n",
    );
    assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 64".to_string()));
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(
        errors,
        vec!["info string error: setoption Threads: expected 1 to 64, got 0"]
    );
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn infinite_search_waits_for_stop_even_when_done() {
    // A won position is proven at once, but "go infinite" must not answer
    // before "stop"; end of input stops it.
    let lines = session("position fen 0-0-0-0-0-17-2-1-1-0-0-1-13-13-S\ngo infinite\n");
    assert_eq!(bestmoves(&lines), vec!["F"]);
}

#[test]
fn bad_input_is_reported_and_the_loop_goes_on() {
    let lines = session(
        "hello\ngo depth x\nposition startpos moves FF\nsetoption name Hash value lots\nsetoption name Nope value 1\n\
         position fen 5-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nisready\nposition startpos moves F\ngo depth 2\n",
    );
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 6, "{lines:?}");
    assert!(errors[0].contains("unknown command 'hello'"));
    assert!(errors[2].contains("move 2 (F) cannot be played"));
    assert!(lines.contains(&"readyok".to_string()));
    // The last good position (after F) stands: North moves.
    let mv = &bestmoves(&lines)[0];
    assert!(mv.chars().all(|c| c.is_ascii_lowercase()), "{mv}");
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let lines = session("position startpos\ngo ponder movetime 50\nponderhit\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn levels_and_greedy_answer_legal_moves() {
    let lines = session(
        "setoption name Level value 2\nsetoption name Seed value 9\nposition startpos moves FfBe\ngo movetime 100\n\
         setoption name Greedy value true\nposition fen 0-0-0-5-0-0-3-1-2-0-0-3-17-17-S\ngo depth 3\n",
    );
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), 2, "{lines:?}");
    assert!("ABCDEF".contains(moves[0].as_str()));
    assert_eq!(moves[1], "D");
}

#[test]
fn game_over_position_gets_no_move() {
    let lines = session("position fen 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S\ngo depth 3\n");
    assert_eq!(bestmoves(&lines), vec!["0000"]);
    assert!(
        lines.contains(&"info string the game is over: the player to move could not feed the opponent; no move to play".to_string()),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
}

#[test]
fn pondering_a_finished_game_answers_0000_only_when_stopped() {
    let lines = session("position fen 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S\ngo ponder\nisready\nstop\n");
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    let best = lines.iter().position(|l| l == "bestmove 0000");
    assert!(best.is_some_and(|b| b > ready), "{lines:?}");
}

#[test]
fn own_book_is_accepted() {
    let lines =
        session("setoption name OwnBook value true\nsetoption name OwnBook value false\nisready\n");
    assert_eq!(lines, vec!["readyok"]);
}

#[test]
fn eval_net_is_an_option_that_plays_legal_moves() {
    let lines = session(
        "uci\nsetoption name EvalNet value true\nposition startpos moves FfBe\ngo depth 6\n\
         setoption name EvalNet value maybe\nsetoption name EvalNet value false\nisready\n",
    );
    assert!(lines
        .iter()
        .any(|l| l == "option name EvalNet type check default true"));
    let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    // After FfBe South is to move: one of its houses.
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(mv.len() == 1 && "ABCDEF".contains(mv), "{best}");
    let errors: Vec<_> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("EvalNet"), "{errors:?}");
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn eval_file_loads_a_network_and_refuses_a_bad_file() {
    let dir = std::env::temp_dir().join(format!("oware-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.nn");
    std::fs::write(&good, oware_engine::nn::Network::builtin().to_bytes()).unwrap();
    let bad = dir.join("bad.nn");
    std::fs::write(&bad, b"not a network").unwrap();
    let missing = dir.join("missing.nn");
    let lines = session(&format!(
        "uci\nsetoption name EvalFile value {}\nposition startpos\ngo depth 5\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value <empty>\nisready\n",
        good.display(),
        bad.display(),
        missing.display()
    ));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(lines
        .iter()
        .any(|l| l == "option name EvalFile type string default <empty>"));
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    let errors: Vec<_> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(
        errors[0].contains("EvalFile") && errors[0].contains("bad magic"),
        "{errors:?}"
    );
    assert!(
        errors[1].contains("EvalFile") && errors[1].contains("missing.nn"),
        "{errors:?}"
    );
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[cfg(feature = "tablebase")]
/// Lines written to a channel, read by the loop as its input.
struct ChannelInput {
    rx: mpsc::Receiver<String>,
    pending: Vec<u8>,
}

#[cfg(feature = "tablebase")]
impl Read for ChannelInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(line) => self.pending = format!("{line}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

#[cfg(feature = "tablebase")]
/// The `tbhits` field of an info line.
fn tb_hits(line: &str) -> Option<u64> {
    let mut words = line.split(' ');
    words.find(|w| *w == "tbhits")?;
    words.next()?.parse().ok()
}

#[cfg(feature = "tablebase")]
/// Waits (up to 30 s) for an output line satisfying `pred`.
fn wait_for(buf: &Arc<Mutex<Vec<u8>>>, pred: impl Fn(&str) -> bool) -> Vec<String> {
    let started = Instant::now();
    loop {
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.iter().any(|l| pred(l)) {
            return lines;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no such line in {lines:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(feature = "tablebase")]
#[test]
fn tables_built_in_the_background_keep_nobody_waiting() {
    // The builder is held until the test releases it, so the order of
    // events is fixed: `readyok` and a first search come while the tables
    // are still being built; the search after they arrive probes them.
    let (release, hold) = mpsc::channel::<()>();
    let build: uci::TableBuilder = Box::new(move || {
        let _ = hold.recv();
        oware_engine::tablebase::build_in_memory(8)
    });
    let (tx, rx) = mpsc::channel::<String>();
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: uci::Output = buf.clone();
    let session = std::thread::spawn(move || {
        let input = BufReader::new(ChannelInput {
            rx,
            pending: Vec::new(),
        });
        uci::run_with_builder(input, out, EngineOptions::default(), Some(build));
    });
    let endgame = "position fen 0-0-0-0-0-2-1-1-0-0-0-0-22-22-N";
    for line in [
        "uci",
        "setoption name OwnBook value true",
        "ucinewgame",
        "isready",
    ] {
        tx.send(line.into()).unwrap();
    }
    let lines = wait_for(&buf, |l| l == "readyok");
    assert!(!lines.iter().any(|l| l.contains("tablebases")), "{lines:?}");
    tx.send(endgame.into()).unwrap();
    tx.send("go depth 3".into()).unwrap();
    let lines = wait_for(&buf, |l| l.starts_with("bestmove "));
    assert!(
        lines.iter().all(|l| tb_hits(l).unwrap_or(0) == 0),
        "{lines:?}"
    );

    release.send(()).unwrap();
    wait_for(&buf, |l| {
        l == "info string tablebases built in memory up to 8 seeds; used from the next search"
    });
    tx.send("go depth 3".into()).unwrap();
    let lines = wait_for(&buf, |l| tb_hits(l).is_some_and(|n| n > 0));
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    tx.send("quit".into()).unwrap();
    session.join().unwrap();
}

#[test]
fn own_book_plays_the_book_move_at_once_and_can_be_turned_off() {
    let book = oware_engine::book::Book::builtin();
    let after = Game::from_moves(Position::start(), &parse_moves("Ff").unwrap()).unwrap();
    let best = book.moves(after.position()).expect("Ff is in the book")[0].mv;
    let lines = session(
        "setoption name OwnBook value true\nposition startpos moves Ff\ngo depth 8\n\
         setoption name OwnBook value false\nposition startpos moves Ff\ngo depth 8\n\
         setoption name OwnBook value maybe\n",
    );
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), 2, "{lines:?}");
    assert_eq!(moves[0], best.to_string());
    // The book move comes without a search; the second `go` searches.
    let first_bestmove = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(!lines[..first_bestmove]
        .iter()
        .any(|l| l.starts_with("info depth")));
    assert!(lines[first_bestmove..]
        .iter()
        .any(|l| l.starts_with("info depth 8")));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("setoption OwnBook: expected true or false")),
        "{lines:?}"
    );
}

/// The deepest `info depth N` of `lines`.
fn max_depth(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|r| r.split(' ').next()?.parse().ok())
        .max()
        .unwrap_or(0)
}

#[test]
fn level_is_a_combo_of_names_and_takes_numbers_too() {
    let lines = session("uci\n");
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name Level "))
        .expect("a Level option");
    assert_eq!(
        option,
        "option name Level type combo default master var beginner var novice var learner \
         var casual var club var intermediate var advanced var strong var expert var master"
    );
    // Level 1 reads two plies at most, whatever depth is asked for; the
    // full strength would go deeper.
    for value in ["beginner", "Beginner", "débutant", "1"] {
        let lines = session(&format!(
            "setoption name Level value {value}\nposition startpos\ngo depth 6\n"
        ));
        assert_eq!(bestmoves(&lines).len(), 1, "{value}: {lines:?}");
        assert!(max_depth(&lines) <= 2, "{value}: {lines:?}");
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{value}: {lines:?}"
        );
    }
    let full = session("position startpos\ngo depth 6\n");
    assert_eq!(max_depth(&full), 6, "{full:?}");
    let lines = session("setoption name Level value grandmaster\n");
    assert_eq!(
        lines,
        vec![
            "info string error: setoption Level: expected a level from 1 to 10 or its name \
             (beginner … master), got 'grandmaster'"
        ]
    );
}
