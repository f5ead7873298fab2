//! `--plain`: the game line by line, for scripts, screen readers and dumb
//! terminals. Prints the board, reads one move letter (or command) a line.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use oware_core::{Game, House, Move, Position, Record, Side};
use oware_engine::{Engine, EngineOptions};
use oware_session::player::side_name;
use oware_session::{levels, words, Lang, Session};

use crate::app::{record_opponent, replayed_text, Opponent, Settings, Starter};
use crate::store::{self, Players};
use crate::text;
use crate::PlayError;

const HELP_EN: &str =
    "Type a house letter (A-F for the bottom row as you see it) to play it, or a command:
  hint      the engine's suggestion and its evaluation
  undo      take back your last move (and the computer's reply)
  redo      replay what undo took back
  resign    give up the game
  agree     propose to stop by agreement (two players)
  save FILE write the game as OGN
  board     show the board again
  rules     the rules of the game
  quit      leave (an unfinished game is saved for next time)";

const HELP_FR: &str =
    "Tapez la lettre d'une case (A-F pour la rangée du bas telle que vous la voyez) pour la jouer, ou une commande\u{a0}:
  conseil       le coup conseillé par le moteur et son évaluation
  annuler       reprendre votre dernier coup (et la réponse de l'ordinateur)
  rétablir      rejouer ce qu'annuler a repris
  abandon       abandonner la partie
  accord        proposer d'arrêter d'un commun accord (deux joueurs)
  enregistrer FICHIER  enregistrer la partie en OGN
  plateau       afficher à nouveau le plateau
  règles        les règles du jeu
  quitter       partir (une partie inachevée est gardée pour la prochaine fois)";

/// A command typed in the line mode, in English or French.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cmd {
    Hint,
    Undo,
    Redo,
    Resign,
    Agree,
    Save,
    Board,
    Rules,
    Help,
    Quit,
}

impl Cmd {
    /// The command named `word` (either language, any case).
    fn parse(word: &str) -> Option<Cmd> {
        Some(match word.to_lowercase().as_str() {
            "hint" | "conseil" | "indice" => Cmd::Hint,
            "undo" | "annuler" => Cmd::Undo,
            "redo" | "rétablir" | "retablir" | "refaire" => Cmd::Redo,
            "resign" | "abandon" | "abandonner" => Cmd::Resign,
            "agree" | "draw" | "accord" => Cmd::Agree,
            "save" | "enregistrer" => Cmd::Save,
            "board" | "plateau" => Cmd::Board,
            "rules" | "règles" | "regles" => Cmd::Rules,
            "help" | "?" | "aide" => Cmd::Help,
            "quit" | "exit" | "q" | "quitter" => Cmd::Quit,
            _ => return None,
        })
    }
}

struct Plain<'a, W: Write> {
    out: &'a mut W,
    // The same session as the full-screen game's: take-back, replay, hints
    // and wording come from oware-session.
    session: Session,
    engine: Engine,
    settings: &'a Settings,
    seed: u64,
    // Why the unfinished game could not be saved on quitting, if so.
    unsaved: Option<store::StoreError>,
}

/// Plays a game over `input`/`out` until it ends, the input ends or the
/// player quits. `load` resumes a recorded game. An unfinished game that
/// could not be saved on quitting is [`PlayError::NotSaved`].
pub fn run<R: BufRead, W: Write>(
    settings: &Settings,
    load: Option<Record>,
    input: R,
    out: &mut W,
) -> Result<(), PlayError> {
    let session = match load {
        Some(record) => {
            let computer = record_opponent(&record, settings);
            Session::new(record.into_game(), computer)
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
            Session::new(Game::new(Position::start()), computer)
        }
    };
    let mut p = Plain {
        out,
        unsaved: None,
        session,
        engine: Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        }),
        settings,
        seed: 0x5eed,
    };
    p.engine.set_book(settings.book.clone());
    p.engine.set_network(settings.network.clone());
    p.engine.set_tablebase_loading(settings.tables.clone());
    p.intro()?;
    p.play(input)?;
    // A game that could not be kept is an error, for scripts too.
    match p.unsaved.take() {
        Some(e) => Err(PlayError::NotSaved(e)),
        None => Ok(()),
    }
}

impl<W: Write> Plain<'_, W> {
    fn lang(&self) -> Lang {
        self.settings.lang
    }

    fn game(&self) -> &Game {
        self.session.game()
    }

    fn name(&self, side: Side) -> String {
        let lang = self.lang();
        let n = self.session.player(side).name(lang);
        let s = side_name(side, lang);
        if n == s {
            n.to_string()
        } else {
            format!("{n} ({s})")
        }
    }

    fn players(&self) -> Players {
        Players {
            computer: self.session.computer(),
        }
    }

    fn intro(&mut self) -> io::Result<()> {
        let lang = self.lang();
        let text = match (self.session.computer(), lang) {
            (Some((c, level)), Lang::En) => format!(
                "Oware Abapa: you play {} against the computer ({}: {}). Type help for commands.",
                side_name(c.opponent(), lang),
                levels::label(level, lang),
                levels::strength(level, lang)
            ),
            (Some((c, level)), Lang::Fr) => format!(
                "Awalé (Abapa)\u{a0}: vous jouez {} contre l'ordinateur ({}\u{a0}: {}). Tapez aide pour les commandes.",
                side_name(c.opponent(), lang),
                levels::label(level, lang),
                levels::strength(level, lang)
            ),
            (None, _) => lang
                .pick(
                    "Oware Abapa: two players, South against North. Type help for commands.",
                    "Awalé (Abapa)\u{a0}: deux joueurs, Sud contre Nord. Tapez aide pour les commandes.",
                )
                .to_string(),
        };
        writeln!(self.out, "{text}")?;
        self.board()
    }

    fn board(&mut self) -> io::Result<()> {
        let lang = self.lang();
        let pos = *self.game().position();
        let bottom = self.session.person_side();
        let top = bottom.opponent();
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
        let over = self.game().is_over();
        let mark = |s: Side| {
            if !over && pos.to_move() == s {
                lang.pick("  <- to move", "  <- à jouer")
            } else {
                ""
            }
        };
        let captured = lang.pick("captured", "grenier");
        let colon = lang.pick(":", "\u{a0}:");
        let (t, b) = (row(top, true), row(bottom, false));
        writeln!(self.out)?;
        writeln!(
            self.out,
            "{}{colon} {captured} {}{}",
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
            "{}{colon} {captured} {}{}",
            self.name(bottom),
            pos.store(bottom),
            mark(bottom)
        )?;
        writeln!(self.out, "Position {pos}")?;
        Ok(())
    }

    fn play<R: BufRead>(&mut self, input: R) -> io::Result<()> {
        let mut lines = input.lines();
        loop {
            let lang = self.lang();
            if self.game().is_over() {
                return self.game_over();
            }
            let to_move = self.session.to_move();
            let seed = self.seed ^ self.game().plies().len() as u64;
            if let Some(limits) = self.session.computer_limits(seed) {
                let result = self
                    .engine
                    .search(self.session.game(), &limits, &mut |_| {});
                match self.session.computer_move(&result) {
                    Some(mv) => self.play_move(mv)?,
                    None => return self.game_over(),
                }
                continue;
            }
            let legal: Vec<String> = self
                .game()
                .legal_moves()
                .into_iter()
                .map(|m| m.letter().to_string())
                .collect();
            let prompt = match (lang, self.session.player(to_move).is_you()) {
                (Lang::En, _) => format!("{} to move", self.name(to_move)),
                (Lang::Fr, true) => format!("À vous ({})", side_name(to_move, lang)),
                (Lang::Fr, false) => format!("{}, à vous", self.name(to_move)),
            };
            write!(self.out, "{prompt} [{}]> ", legal.join(" "))?;
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
            let refused = lang.pick("Refused: ", "Refusé\u{a0}: ");
            let lower = cmd.to_ascii_lowercase();
            if lower.is_empty() {
                continue;
            }
            if lower.len() == 1 && ('a'..='f').contains(&lower.chars().next().unwrap_or(' ')) {
                let c = lower.as_str();
                {
                    let rel = (c.as_bytes()[0] - b'a') as usize;
                    let Some(mv) = Move::of(to_move, rel) else {
                        continue;
                    };
                    match self.session.preview(mv) {
                        Err(refusal) => writeln!(self.out, "{refused}{}", refusal.text(mv, lang))?,
                        Ok(_) => self.play_move(mv)?,
                    }
                }
                continue;
            }
            match Cmd::parse(cmd) {
                Some(Cmd::Hint) => {
                    // The coach's analysis: the hint is its best move.
                    let stop = self.engine.stop_handle();
                    stop.reset();
                    let analysis = oware_session::Analysis::run(
                        &mut self.engine,
                        self.session.game(),
                        oware_session::Budget::COACH,
                        &stop,
                    );
                    let hint = match analysis {
                        Ok(a) => self.session.accept_analysis(std::sync::Arc::new(a)),
                        Err(_) => None,
                    };
                    match hint {
                        Some(h) => {
                            let text = h.text(lang);
                            writeln!(self.out, "{text}")?
                        }
                        None => writeln!(
                            self.out,
                            "{}",
                            lang.pick(
                                "No hint: there is no move to play.",
                                "Pas de conseil\u{a0}: aucun coup à jouer."
                            )
                        )?,
                    }
                }
                Some(Cmd::Undo) => match self.session.take_back() {
                    Ok(done) => {
                        writeln!(self.out, "{}", done.text(lang))?;
                        self.board()?;
                    }
                    Err(e) => writeln!(self.out, "{}", e.text(lang))?,
                },
                Some(Cmd::Redo) => match self.session.redo() {
                    Ok(moves) => {
                        writeln!(self.out, "{}", replayed_text(&moves, lang))?;
                        self.board()?;
                    }
                    Err(e) => writeln!(self.out, "{}", e.text(lang))?,
                },
                Some(Cmd::Resign) => {
                    let _ = self.session.resign();
                }
                Some(Cmd::Agree) => {
                    if self.session.computer().is_some() {
                        let e = oware_session::SessionError::AgreementNeedsTwoPeople;
                        writeln!(self.out, "{}", e.text(lang))?;
                        continue;
                    }
                    let t = self.game().position().totals_with_own_rows();
                    let (me, other) = (self.name(to_move), self.name(to_move.opponent()));
                    match lang {
                        Lang::En => write!(
                            self.out,
                            "{me} proposes to stop here: each takes the seeds of their own row, {}-{}. {other}, do you accept? (yes/no)> ",
                            t[0], t[1]
                        )?,
                        Lang::Fr => write!(
                            self.out,
                            "{me} propose d'arrêter ici\u{a0}: chacun prend les graines de sa rangée, {}-{}. {other}, acceptez-vous\u{a0}? (oui/non)> ",
                            t[0], t[1]
                        )?,
                    }
                    self.out.flush()?;
                    let answer = match lines.next() {
                        Some(l) => l?,
                        None => String::new(),
                    };
                    let a = answer.trim().to_ascii_lowercase();
                    if a.starts_with('y') || a.starts_with('o') {
                        let _ = self.session.agree();
                    } else {
                        writeln!(
                            self.out,
                            "{}",
                            lang.pick("Declined; play on.", "Refusé\u{a0}; la partie continue.")
                        )?;
                    }
                }
                Some(Cmd::Save) => {
                    if arg.is_empty() {
                        writeln!(
                            self.out,
                            "{}",
                            lang.pick(
                                "save needs a file name, e.g. save game.ogn",
                                "enregistrer demande un nom de fichier, par exemple enregistrer partie.ogn"
                            )
                        )?;
                    } else {
                        let path = PathBuf::from(arg);
                        match store::save(&path, self.session.game(), self.players()) {
                            Ok(()) => match lang {
                                Lang::En => writeln!(self.out, "Saved to {}.", path.display())?,
                                Lang::Fr => writeln!(
                                    self.out,
                                    "Partie enregistrée dans {}.",
                                    path.display()
                                )?,
                            },
                            Err(e) => writeln!(
                                self.out,
                                "{}{}",
                                lang.pick("Error: ", "Erreur\u{a0}: "),
                                e.text(lang)
                            )?,
                        }
                    }
                }
                Some(Cmd::Board) => self.board()?,
                Some(Cmd::Rules) => self.rules()?,
                Some(Cmd::Help) => writeln!(self.out, "{}", lang.pick(HELP_EN, HELP_FR))?,
                Some(Cmd::Quit) => return self.quit(),
                None => match lang {
                    Lang::En => writeln!(
                        self.out,
                        "Unknown command '{line}'. Type a house letter or help."
                    )?,
                    Lang::Fr => writeln!(
                        self.out,
                        "Commande inconnue «\u{a0}{line}\u{a0}». Tapez une lettre de case ou aide."
                    )?,
                },
            }
        }
    }

    fn play_move(&mut self, mv: Move) -> io::Result<()> {
        let lang = self.lang();
        let who = self.session.player(self.session.to_move());
        match self.session.play(mv) {
            Ok(trace) => {
                writeln!(self.out, "{}", words::played(who, &trace, lang))?;
                self.board()
            }
            Err(e) => writeln!(
                self.out,
                "{}{}",
                lang.pick("Refused: ", "Refusé\u{a0}: "),
                e.text(lang)
            ),
        }
    }

    fn rules(&mut self) -> io::Result<()> {
        let lang = self.settings.lang;
        writeln!(self.out, "{}", text::rules_title(lang))?;
        for para in text::rules(lang) {
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
        let lang = self.lang();
        self.board()?;
        writeln!(self.out, "{}", lang.pick("Game over.", "Partie finie."))?;
        let lines = words::outcome_lines(self.game(), self.session.computer_side(), lang);
        for l in lines {
            writeln!(self.out, "{l}")?;
        }
        // The result and the moves in OGN, for scripts (labelled in the
        // language of the game).
        let record = Record::from_game(self.game().clone(), &[]);
        let (result, moves) = match lang {
            Lang::En => ("Result: ", "Moves: "),
            Lang::Fr => ("Résultat\u{a0}: ", "Coups\u{a0}: "),
        };
        writeln!(self.out, "{result}{}", record.result_str())?;
        let text = record.write();
        let movetext = text
            .split_once("\n\n")
            .map(|(_, m)| m.split_whitespace().collect::<Vec<_>>().join(" "));
        writeln!(self.out, "{moves}{}", movetext.unwrap_or_default())?;
        if let Some(path) = &self.settings.autosave {
            let _ = std::fs::remove_file(path);
        }
        Ok(())
    }

    fn quit(&mut self) -> io::Result<()> {
        let lang = self.lang();
        if let Some(path) = &self.settings.autosave {
            if !self.game().is_over() && !self.game().plies().is_empty() {
                match (store::save(path, self.session.game(), self.players()), lang) {
                    (Ok(()), Lang::En) => writeln!(
                        self.out,
                        "Unfinished game saved to {}; resume with: oware play --load {}",
                        path.display(),
                        path.display()
                    )?,
                    (Ok(()), Lang::Fr) => writeln!(
                        self.out,
                        "Partie inachevée enregistrée dans {}\u{a0}; pour la reprendre\u{a0}: oware play --load {}",
                        path.display(),
                        path.display()
                    )?,
                    // Said once, by the command's error (and its exit code).
                    (Err(e), _) => self.unsaved = Some(e),
                }
            }
        }
        writeln!(self.out, "{}", lang.pick("Bye.", "Au revoir."))
    }
}
