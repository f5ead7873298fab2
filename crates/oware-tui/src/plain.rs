//! `--plain`: the game line by line, for scripts, screen readers and dumb
//! terminals. Prints the board, reads one move letter (or command) a line.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use oware_core::{format_moves, Game, House, Move, Position, Record, Side};
use oware_engine::{Engine, EngineOptions, Level, Limits};

use crate::app::{
    describe_move, describe_score, outcome_lines, player_name, take_back, Opponent, Settings,
    Starter,
};
use crate::store::{self, Players};

const HELP: &str =
    "Type a house letter (A-F for the bottom row as you see it) to play it, or a command:
  hint      the engine's suggestion and its evaluation
  undo      take back your last move (and the computer's reply)
  redo      replay what undo took back
  resign    give up the game
  agree     propose to stop by agreement (two players, R12)
  save FILE write the game as OGN
  board     show the board again
  rules     the rules of the game
  quit      leave (an unfinished game is saved for next time)";

struct Plain<'a, W: Write> {
    out: &'a mut W,
    game: Game,
    computer: Option<(Side, Level)>,
    bottom: Side,
    engine: Engine,
    settings: &'a Settings,
    redo: Vec<Vec<Move>>,
    seed: u64,
}

/// Plays a game over `input`/`out` until it ends, the input ends or the
/// player quits. `load` resumes a recorded game.
pub fn run<R: BufRead, W: Write>(
    settings: &Settings,
    load: Option<Record>,
    input: R,
    out: &mut W,
) -> io::Result<()> {
    let (game, computer) = match load {
        Some(record) => {
            let to_move = record.game.position().to_move();
            let computer = match Players::from_record(&record) {
                Some(p) => p.computer,
                None => match settings.opponent {
                    Opponent::Computer(level) => Some((to_move.opponent(), level)),
                    Opponent::TwoPlayers => None,
                },
            };
            (record.game, computer)
        }
        None => {
            let computer = match settings.opponent {
                Opponent::TwoPlayers => None,
                Opponent::Computer(level) => {
                    let me_first = match settings.first {
                        Starter::Me => true,
                        Starter::Computer => false,
                        Starter::Lot => std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map(|d| d.subsec_nanos() & 1 == 0)
                            .unwrap_or(true),
                    };
                    Some((if me_first { Side::North } else { Side::South }, level))
                }
            };
            (Game::new(Position::start()), computer)
        }
    };
    let bottom = computer.map(|(c, _)| c.opponent()).unwrap_or(Side::South);
    let mut p = Plain {
        out,
        game,
        computer,
        bottom,
        engine: Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        }),
        settings,
        redo: Vec::new(),
        seed: 0x5eed,
    };
    p.engine.set_book(settings.book.clone());
    p.engine.set_tablebase_loading(settings.tables.clone());
    p.intro()?;
    p.play(input)
}

impl<W: Write> Plain<'_, W> {
    fn name(&self, side: Side) -> String {
        let n = player_name(self.computer, side);
        let s = if side == Side::South {
            "South"
        } else {
            "North"
        };
        if n == s {
            n
        } else {
            format!("{n} ({s})")
        }
    }

    fn intro(&mut self) -> io::Result<()> {
        match self.computer {
            Some((c, level)) => writeln!(
                self.out,
                "Oware Abapa: you play {} against the computer (level {}). Type help for commands.",
                if c == Side::North { "South" } else { "North" },
                level.get()
            )?,
            None => writeln!(
                self.out,
                "Oware Abapa: two players, South against North. Type help for commands."
            )?,
        }
        self.board()
    }

    fn board(&mut self) -> io::Result<()> {
        let pos = *self.game.position();
        let top = self.bottom.opponent();
        let row = |side: Side, rev: bool| -> Vec<House> {
            let mut v: Vec<House> = (0..6).filter_map(|r| House::of(side, r)).collect();
            if rev {
                v.reverse();
            }
            v
        };
        let letters = |hs: &[House]| {
            hs.iter()
                .map(|h| format!("  {} ", h.letter()))
                .collect::<String>()
                .trim_end()
                .to_string()
        };
        let counts = |hs: &[House]| {
            hs.iter()
                .map(|h| format!("[{:>2}]", pos.seeds(*h)))
                .collect::<String>()
        };
        let mark = |s: Side| {
            if !self.game.is_over() && pos.to_move() == s {
                "  <- to move"
            } else {
                ""
            }
        };
        let (t, b) = (row(top, true), row(self.bottom, false));
        writeln!(self.out)?;
        writeln!(
            self.out,
            "{}: captured {}{}",
            self.name(top),
            pos.store(top),
            mark(top)
        )?;
        writeln!(self.out, "  {}", letters(&t))?;
        writeln!(self.out, "  {}", counts(&t))?;
        writeln!(self.out, "  {}", counts(&b))?;
        writeln!(self.out, "  {}", letters(&b))?;
        writeln!(
            self.out,
            "{}: captured {}{}",
            self.name(self.bottom),
            pos.store(self.bottom),
            mark(self.bottom)
        )?;
        writeln!(self.out, "Position {pos}")?;
        Ok(())
    }

    fn play<R: BufRead>(&mut self, input: R) -> io::Result<()> {
        let mut lines = input.lines();
        loop {
            if self.game.is_over() {
                return self.game_over();
            }
            let to_move = self.game.position().to_move();
            if let Some((side, level)) = self.computer.filter(|&(s, _)| s == to_move) {
                let _ = side;
                let seed = self.seed ^ self.game.plies().len() as u64;
                let result = self.engine.search(
                    &self.game,
                    &Limits {
                        seed,
                        ..Limits::level(level)
                    },
                    &mut |_| {},
                );
                let mv = match result
                    .best
                    .or_else(|| self.game.legal_moves().into_iter().next())
                {
                    Some(m) => m,
                    None => continue,
                };
                self.play_move(mv)?;
                continue;
            }
            let legal: Vec<String> = self
                .game
                .legal_moves()
                .into_iter()
                .map(|m| m.letter().to_string())
                .collect();
            write!(
                self.out,
                "{} to move [{}]> ",
                self.name(to_move),
                legal.join(" ")
            )?;
            self.out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(self.out)?;
                return self.quit();
            };
            let line = line?;
            let line = line.trim();
            let (cmd, arg) = line
                .split_once(char::is_whitespace)
                .map(|(c, a)| (c, a.trim()))
                .unwrap_or((line, ""));
            match cmd.to_ascii_lowercase().as_str() {
                "" => {}
                c if c.len() == 1 && ('a'..='f').contains(&c.chars().next().unwrap_or(' ')) => {
                    let rel = (c.as_bytes()[0] - b'a') as usize;
                    let Some(mv) = Move::of(to_move, rel) else {
                        continue;
                    };
                    match self.game.position().check(mv) {
                        Err(reason) => writeln!(
                            self.out,
                            "Refused: {} cannot be played: {} ({}).",
                            mv.letter(),
                            reason,
                            reason.rule()
                        )?,
                        Ok(()) => {
                            self.redo.clear();
                            self.play_move(mv)?;
                        }
                    }
                }
                "hint" => {
                    let limits = Limits {
                        movetime: Some(self.settings.hint_time),
                        depth: Some(30),
                        ..Limits::default()
                    };
                    let r = self.engine.search(&self.game, &limits, &mut |_| {});
                    match r.best {
                        Some(mv) => writeln!(
                            self.out,
                            "Hint: play {} ({}, depth {}).",
                            mv.letter(),
                            describe_score(r.score),
                            r.depth
                        )?,
                        None => writeln!(self.out, "No hint: there is no move to play.")?,
                    }
                }
                "undo" => {
                    let undone = take_back(&mut self.game, self.computer);
                    if undone.is_empty() {
                        writeln!(self.out, "There is no move to take back.")?;
                    } else {
                        writeln!(self.out, "Took back {}.", format_moves(&undone))?;
                        self.redo.push(undone);
                        self.board()?;
                    }
                }
                "redo" => match self.redo.pop() {
                    None => writeln!(self.out, "There is nothing to replay.")?,
                    Some(moves) => {
                        for &m in &moves {
                            let _ = self.game.play(m);
                        }
                        writeln!(self.out, "Replayed {}.", format_moves(&moves))?;
                        self.board()?;
                    }
                },
                "resign" => {
                    let side = self.computer.map(|(c, _)| c.opponent()).unwrap_or(to_move);
                    let _ = self.game.resign(side);
                }
                "agree" | "draw" => {
                    if self.computer.is_some() {
                        writeln!(
                            self.out,
                            "Stopping by agreement (R12) is for two people at one board."
                        )?;
                        continue;
                    }
                    let t = self.game.position().totals_with_own_rows();
                    write!(
                        self.out,
                        "{} proposes to stop here (R12): each takes the seeds of their own row, {}-{}. {}, do you accept? (yes/no)> ",
                        self.name(to_move),
                        t[0],
                        t[1],
                        self.name(to_move.opponent())
                    )?;
                    self.out.flush()?;
                    let answer = match lines.next() {
                        Some(l) => l?,
                        None => String::new(),
                    };
                    let a = answer.trim().to_ascii_lowercase();
                    if a.starts_with('y') || a.starts_with('o') {
                        let _ = self.game.agree_to_stop();
                    } else {
                        writeln!(self.out, "Declined; play on.")?;
                    }
                }
                "save" => {
                    if arg.is_empty() {
                        writeln!(self.out, "save needs a file name, e.g. save game.ogn")?;
                    } else {
                        let path = PathBuf::from(arg);
                        match store::save(
                            &path,
                            &self.game,
                            Players {
                                computer: self.computer,
                            },
                        ) {
                            Ok(()) => writeln!(self.out, "Saved to {}.", path.display())?,
                            Err(e) => writeln!(self.out, "Error: {e}")?,
                        }
                    }
                }
                "board" => self.board()?,
                "rules" => self.rules()?,
                "help" | "?" => writeln!(self.out, "{HELP}")?,
                "quit" | "exit" | "q" => return self.quit(),
                _ => writeln!(
                    self.out,
                    "Unknown command '{line}'. Type a house letter or help."
                )?,
            }
        }
    }

    fn play_move(&mut self, mv: Move) -> io::Result<()> {
        let before = *self.game.position();
        match self.game.play_traced(mv) {
            Ok(trace) => {
                writeln!(
                    self.out,
                    "{}",
                    describe_move(self.computer, &before, &trace)
                )?;
                self.board()
            }
            Err(e) => writeln!(self.out, "Refused: {e}."),
        }
    }

    fn rules(&mut self) -> io::Result<()> {
        let lang = self.settings.lang;
        writeln!(self.out, "{}", lang.rules_title())?;
        for para in lang.rules() {
            if let Some(h) = para.strip_prefix("# ") {
                writeln!(self.out, "\n{h}")?;
                continue;
            }
            let mut width = 0;
            // Split on plain spaces only: French text keeps its no-break spaces.
            for word in para.split(' ').filter(|w| !w.is_empty()) {
                if width > 0 && width + 1 + word.chars().count() > 78 {
                    writeln!(self.out)?;
                    width = 0;
                } else if width > 0 {
                    write!(self.out, " ")?;
                    width += 1;
                }
                write!(self.out, "{word}")?;
                width += word.chars().count();
            }
            writeln!(self.out)?;
        }
        Ok(())
    }

    fn game_over(&mut self) -> io::Result<()> {
        self.board()?;
        writeln!(self.out, "Game over.")?;
        for l in outcome_lines(&self.game, self.computer) {
            writeln!(self.out, "{l}")?;
        }
        let record = Record::from_game(self.game.clone(), &[]);
        writeln!(self.out, "Result: {}", record.result_str())?;
        let text = record.write();
        let movetext = text
            .split_once("\n\n")
            .map(|(_, m)| m.split_whitespace().collect::<Vec<_>>().join(" "));
        writeln!(self.out, "Moves: {}", movetext.unwrap_or_default())?;
        if let Some(path) = &self.settings.autosave {
            let _ = std::fs::remove_file(path);
        }
        Ok(())
    }

    fn quit(&mut self) -> io::Result<()> {
        if let Some(path) = &self.settings.autosave {
            if !self.game.is_over() && !self.game.plies().is_empty() {
                match store::save(
                    path,
                    &self.game,
                    Players {
                        computer: self.computer,
                    },
                ) {
                    Ok(()) => writeln!(
                        self.out,
                        "Unfinished game saved to {}; resume with: oware play --load {}",
                        path.display(),
                        path.display()
                    )?,
                    Err(e) => writeln!(self.out, "Could not save the unfinished game: {e}")?,
                }
            }
        }
        writeln!(self.out, "Bye.")
    }
}
