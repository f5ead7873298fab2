//! `oware puzzle`: the shipped puzzles (`oware_session::puzzles`) in the
//! terminal. [`Trainer`] is the state machine (which puzzle, the answer,
//! the streak), testable without a terminal; [`draw`] draws it with
//! ratatui; [`run`] owns the terminal (restored on quit, Ctrl-C and
//! panic, as `oware play` does).
//!
//! The puzzles come in order of rating from the player's: each answer
//! moves a rough rating in this session (an Elo step; the web app's
//! accounts get Glicko-2 ratings from the server), and the next puzzle is
//! the unseen one rated nearest to it. The words (solved, failed, why) are
//! the session crate's, the same as the web app's.

use std::io;
use std::time::Duration;

use oware_core::{House, Move, Position, Side};
use oware_session::puzzles::{self, Attempt, Puzzle, PuzzleSet};
use oware_session::Lang;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{enable_raw_mode, EnterAlternateScreen};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::{Frame, Terminal};

/// Which puzzle to start with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// The one rated nearest to the starting rating.
    Nearest,
    /// This one.
    Id(u32),
}

/// The puzzle trainer.
#[derive(Debug)]
pub struct Trainer {
    set: &'static PuzzleSet,
    index: usize,
    seen: Vec<u32>,
    /// The answer given to the current puzzle, if any.
    answer: Option<Attempt>,
    /// The house under the cursor.
    cursor: usize,
    /// The session's rough rating.
    pub rating: f64,
    /// Puzzles solved in a row.
    pub streak: u32,
    /// The longest streak.
    pub best: u32,
    /// Solved and tried in this session.
    pub solved: u32,
    /// Tried in this session.
    pub tried: u32,
    /// The language.
    pub lang: Lang,
    /// Whether the solution's line is shown.
    pub show_line: bool,
    /// A refusal to show (an illegal move).
    pub refusal: Option<String>,
    /// True once the player asked to leave.
    pub quit: bool,
}

/// The rating a session starts from.
pub const START_RATING: f64 = 1500.0;

impl Trainer {
    /// A trainer over `set`, in `lang`.
    pub fn new(set: &'static PuzzleSet, lang: Lang, first: First) -> Trainer {
        let mut t = Trainer {
            set,
            index: 0,
            seen: Vec::new(),
            answer: None,
            cursor: 0,
            rating: START_RATING,
            streak: 0,
            best: 0,
            solved: 0,
            tried: 0,
            lang,
            show_line: false,
            refusal: None,
            quit: false,
        };
        match first {
            First::Id(id) => {
                if let Some(i) = set.puzzles.iter().position(|p| p.id == id) {
                    t.open(i);
                } else {
                    t.next();
                }
            }
            First::Nearest => t.next(),
        }
        t
    }

    /// The shipped puzzles.
    pub fn shipped(lang: Lang, first: First) -> Trainer {
        Trainer::new(puzzles::shipped(), lang, first)
    }

    /// The current puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.set.puzzles[self.index]
    }

    /// The answer given, if any.
    pub fn answer(&self) -> Option<&Attempt> {
        self.answer.as_ref()
    }

    fn open(&mut self, i: usize) {
        self.index = i;
        self.answer = None;
        self.show_line = false;
        self.refusal = None;
        let p = &self.set.puzzles[i];
        if !self.seen.contains(&p.id) {
            self.seen.push(p.id);
        }
        // The cursor starts on the first legal house of the solver's row.
        let legal: Vec<Move> = p.position.legal_moves().into_iter().collect();
        self.cursor = legal.first().map_or(0, |m| m.house().rel());
    }

    /// Goes to the unseen puzzle rated nearest to the session's rating
    /// (all seen: starts over).
    pub fn next(&mut self) {
        if self.seen.len() >= self.set.puzzles.len() {
            self.seen.clear();
        }
        let r = self.rating;
        let best = (0..self.set.puzzles.len())
            .filter(|&i| !self.seen.contains(&self.set.puzzles[i].id))
            .min_by(|&a, &b| {
                let d = |i: usize| (f64::from(self.set.puzzles[i].rating) - r).abs();
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(0);
        self.open(best);
    }

    /// Answers with `mv`.
    pub fn play(&mut self, mv: Move) {
        if self.answer.is_some() {
            return;
        }
        let p = self.puzzle().clone();
        match p.attempt(&[mv]) {
            Ok(a) => {
                self.refusal = None;
                self.tried += 1;
                let expected =
                    1.0 / (1.0 + 10f64.powf((f64::from(p.rating) - self.rating) / 400.0));
                let score = if a.solved { 1.0 } else { 0.0 };
                self.rating = (self.rating + 32.0 * (score - expected)).clamp(400.0, 3000.0);
                if a.solved {
                    self.solved += 1;
                    self.streak += 1;
                    self.best = self.best.max(self.streak);
                } else {
                    self.streak = 0;
                }
                self.answer = Some(a);
            }
            Err(e) => {
                self.refusal = Some(match (e, self.lang) {
                    (puzzles::AttemptError::Illegal { mv, .. }, Lang::En) => {
                        format!("{} cannot be played here.", mv.letter())
                    }
                    (puzzles::AttemptError::Illegal { mv, .. }, Lang::Fr) => {
                        format!("{} ne peut pas être joué ici.", mv.letter())
                    }
                    (_, Lang::En) => "Choose a house.".to_string(),
                    (_, Lang::Fr) => "Choisissez une case.".to_string(),
                });
            }
        }
    }

    /// The position shown: the puzzle's, or after the move answered.
    pub fn shown(&self) -> (Position, Option<Move>) {
        let p = self.puzzle();
        match self.answer {
            Some(a) => (p.position.play_unchecked(a.tried), Some(a.tried)),
            None => (p.position, None),
        }
    }

    /// A key.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        let side = self.puzzle().to_move();
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('l') | KeyCode::Char('g') => self.lang = self.lang.toggled(),
            KeyCode::Char('n') if self.answer.is_some() => self.next(),
            KeyCode::Char('s') if self.answer.is_some() => self.show_line = !self.show_line,
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(5),
            KeyCode::Enter | KeyCode::Char(' ') => {
                if self.answer.is_some() {
                    self.next();
                } else if let Some(h) = House::of(side, self.cursor) {
                    self.play(Move::new(h));
                }
            }
            KeyCode::Char(c) if self.answer.is_none() => {
                // The solver's own letters, in either case.
                let letter = match side {
                    Side::South => c.to_ascii_uppercase(),
                    Side::North => c.to_ascii_lowercase(),
                };
                if let Some(mv) = Move::from_letter(letter) {
                    self.cursor = mv.house().rel();
                    self.play(mv);
                }
            }
            _ => {}
        }
    }

    /// Every line of text under the board, in the trainer's language.
    pub fn lines(&self) -> Vec<String> {
        let p = self.puzzle();
        let lang = self.lang;
        let side = oware_session::Player::of(p.to_move(), None).inner(lang);
        let mut out = Vec::new();
        match &self.answer {
            None => out.push(match lang {
                Lang::En => format!(
                    "{side} to move: find the best move. Press its letter, or ←/→ and Enter."
                ),
                Lang::Fr => format!(
                    "{side} au trait\u{a0}: trouvez le meilleur coup. Tapez sa lettre, ou ←/→ et Entrée."
                ),
            }),
            Some(a) => {
                out.push(a.text(p, lang));
                let themes: Vec<&str> = p.themes.iter().map(|t| t.name(lang)).collect();
                out.push(match lang {
                    Lang::En => format!("Themes: {}", themes.join(", ")),
                    Lang::Fr => format!("Thèmes\u{a0}: {}", themes.join(", ")),
                });
                if self.show_line {
                    let line: Vec<String> = p.line.iter().map(|m| m.letter().to_string()).collect();
                    out.push(match lang {
                        Lang::En => format!("Solution line: {}", line.join(" ")),
                        Lang::Fr => format!("Suite de la solution\u{a0}: {}", line.join(" ")),
                    });
                }
            }
        }
        if let Some(r) = &self.refusal {
            out.push(r.clone());
        }
        out.push(match lang {
            Lang::En => format!(
                "Streak {} (best {}) · solved {} of {} · your rating here {:.0}",
                self.streak, self.best, self.solved, self.tried, self.rating
            ),
            Lang::Fr => format!(
                "Série {} (record {}) · {} résolu{} sur {} · votre classement ici {:.0}",
                self.streak,
                self.best,
                self.solved,
                if self.solved > 1 { "s" } else { "" },
                self.tried,
                self.rating
            ),
        });
        out
    }

    /// The keys line.
    pub fn keys(&self) -> &'static str {
        match (self.answer.is_some(), self.lang) {
            (false, Lang::En) => "A–F or ←/→ Enter: play · l Français · q quit",
            (false, Lang::Fr) => "A–F ou ←/→ Entrée\u{a0}: jouer · l English · q quitter",
            (true, Lang::En) => "n / Enter next · s solution line · l Français · q quit",
            (true, Lang::Fr) => "n / Entrée suivant · s suite · l English · q quitter",
        }
    }

    /// The title line.
    pub fn title(&self) -> String {
        let p = self.puzzle();
        match self.lang {
            Lang::En => format!("Puzzle {} · rating {}", p.id, p.rating),
            Lang::Fr => format!("Problème {} · classement {}", p.id, p.rating),
        }
    }
}

/// Draws the trainer.
pub fn draw(frame: &mut Frame, t: &Trainer) {
    let area = frame.area();
    if area.width < 44 || area.height < 14 {
        let msg = match t.lang {
            Lang::En => "Make the window at least 44×14.",
            Lang::Fr => "Agrandissez la fenêtre (44×14 au moins).",
        };
        frame.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        return;
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {} ", t.title()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let board = board_lines(t, inner.width);
    let board_h = board.len() as u16;
    frame.render_widget(
        Paragraph::new(board),
        Rect {
            height: board_h.min(inner.height),
            ..inner
        },
    );
    let text: Vec<Line> = t
        .lines()
        .into_iter()
        .flat_map(|l| [Line::from(l), Line::from("")])
        .collect();
    let rest = Rect {
        y: inner.y + board_h + 1,
        height: inner.height.saturating_sub(board_h + 2),
        ..inner
    };
    let style = match t.answer() {
        Some(a) if a.solved => Style::new().fg(Color::Green),
        Some(_) => Style::new().fg(Color::Red),
        None => Style::new(),
    };
    frame.render_widget(
        Paragraph::new(text).style(style).wrap(Wrap { trim: true }),
        rest,
    );
    let keys = Rect {
        y: inner.y + inner.height.saturating_sub(1),
        height: 1,
        ..inner
    };
    frame.render_widget(
        Paragraph::new(t.keys()).style(Style::new().fg(Color::Gray)),
        keys,
    );
}

/// The widest row: six houses and the longest store words ("South
/// captured 48", "Nord · grenier 48").
const ROW_WITH_STORE: u16 = 56;

/// The board with the solver's row at the bottom; a row with its store
/// fits in 56 columns (a 60-column window). Narrower (`width` below
/// [`ROW_WITH_STORE`], down to the trainer's 44), each store goes on a
/// line of its own, above the top row and below the bottom one, so no
/// count is cut.
fn board_lines(t: &Trainer, width: u16) -> Vec<Line<'static>> {
    let (pos, last) = t.shown();
    let bottom = t.puzzle().to_move();
    let top = bottom.opponent();
    let cursor = t
        .answer()
        .is_none()
        .then(|| House::of(bottom, t.cursor))
        .flatten();
    let row = |side: Side, rev: bool| -> Vec<House> {
        let mut v: Vec<House> = (0..6).filter_map(|r| House::of(side, r)).collect();
        if rev {
            v.reverse();
        }
        v
    };
    let letters = |hs: &[House]| -> Line<'static> {
        let mut spans = vec![Span::raw(" ")];
        for &h in hs {
            let style = if Some(h) == cursor {
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
            } else if last.map(|m| m.house()) == Some(h) {
                Style::new().fg(Color::Magenta)
            } else {
                Style::new()
            };
            let text = if Some(h) == cursor {
                format!(" ▶{}   ", h.letter())
            } else if last.map(|m| m.house()) == Some(h) {
                format!(" [{}]  ", h.letter())
            } else {
                format!("  {}   ", h.letter())
            };
            spans.push(Span::styled(text, style));
        }
        Line::from(spans)
    };
    let wide = width >= ROW_WITH_STORE;
    let store_words = |side: Side| -> String {
        let who = oware_session::Player::of(side, None).inner(t.lang);
        // The play screen's words: "captured", "grenier".
        match t.lang {
            Lang::En => format!(" {who} captured {}", pos.store(side)),
            Lang::Fr => format!(" {who} · grenier {}", pos.store(side)),
        }
    };
    let counts = |hs: &[House], side: Side| -> Line<'static> {
        let mut spans = vec![Span::raw(" ")];
        for &h in hs {
            spans.push(Span::styled(
                format!("[{:>2}]  ", pos.seeds(h)),
                Style::new().add_modifier(Modifier::BOLD),
            ));
        }
        if wide {
            spans.push(Span::raw(store_words(side)));
        }
        Line::from(spans)
    };
    let (top_row, bottom_row) = (row(top, true), row(bottom, false));
    let board = vec![
        letters(&top_row),
        counts(&top_row, top),
        counts(&bottom_row, bottom),
        letters(&bottom_row),
    ];
    if wide {
        return board;
    }
    let mut out = vec![Line::from(store_words(top))];
    out.extend(board);
    out.push(Line::from(store_words(bottom)));
    out
}

/// Runs the trainer full screen until the player quits.
pub fn run(mut trainer: Trainer) -> io::Result<()> {
    crate::term::install_panic_hook();
    enable_raw_mode()?;
    struct Guard;
    impl Drop for Guard {
        fn drop(&mut self) {
            crate::term::restore_terminal();
        }
    }
    let _guard = Guard;
    execute!(io::stdout(), EnterAlternateScreen, Hide)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    while !trainer.quit {
        terminal.draw(|f| draw(f, &trainer))?;
        if event::poll(Duration::from_millis(100))? {
            match event::read()? {
                Event::Key(key) => trainer.on_key(key),
                Event::Resize(..) => terminal.autoresize()?,
                _ => {}
            }
        }
    }
    drop(terminal);
    let _ = execute!(io::stdout(), Show);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn a_solved_and_a_failed_puzzle_move_the_streak_and_the_rating() {
        let mut t = Trainer::shipped(Lang::En, First::Nearest);
        let p = t.puzzle().clone();
        t.on_key(key(p.solution.letter()));
        let a = *t.answer().unwrap();
        assert!(a.solved);
        assert_eq!((t.streak, t.solved, t.tried), (1, 1, 1));
        assert!(t.rating > START_RATING);
        assert!(t.lines()[0].starts_with("Solved! "));
        t.on_key(key('n'));
        let q = t.puzzle().clone();
        assert_ne!(q.id, p.id);
        let wrong = q
            .position
            .legal_moves()
            .into_iter()
            .find(|&m| m != q.solution)
            .unwrap();
        t.on_key(key('l'));
        t.on_key(key(wrong.letter()));
        assert!(!t.answer().unwrap().solved);
        assert_eq!(t.streak, 0);
        assert_eq!(t.best, 1);
        let text = &t.lines()[0];
        assert!(
            text.starts_with(&format!("Pas {}", wrong.letter())),
            "{text}"
        );
    }

    #[test]
    fn an_empty_house_is_refused_in_words() {
        let set = puzzles::shipped();
        let p = set
            .puzzles
            .iter()
            .find(|p| p.position.legal_moves().len() < 6)
            .unwrap();
        let mut t = Trainer::shipped(Lang::En, First::Id(p.id));
        assert_eq!(t.puzzle().id, p.id);
        let side = p.to_move();
        let illegal = (0..6)
            .filter_map(|r| House::of(side, r))
            .map(Move::new)
            .find(|&m| !p.position.is_legal(m))
            .unwrap();
        t.play(illegal);
        assert!(t.answer().is_none());
        assert!(t.refusal.as_deref().unwrap().contains("cannot be played"));
    }

    #[test]
    fn both_stores_are_whole_from_44_to_60_columns() {
        use ratatui::backend::TestBackend;
        // A puzzle with two-digit stores.
        let set = puzzles::shipped();
        let p = set
            .puzzles
            .iter()
            .find(|p| p.position.store(Side::South) >= 10 && p.position.store(Side::North) >= 10)
            .unwrap();
        for (lang, width) in [Lang::En, Lang::Fr]
            .into_iter()
            .flat_map(|l| [44u16, 50, 55, 56, 60].map(|w| (l, w)))
        {
            let t = Trainer::shipped(lang, First::Id(p.id));
            let mut terminal = ratatui::Terminal::new(TestBackend::new(width, 20)).unwrap();
            terminal.draw(|f| draw(f, &t)).unwrap();
            let buf = terminal.backend().buffer().clone();
            let screen: String = (0..20)
                .map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
                .collect();
            for side in [Side::South, Side::North] {
                let who = oware_session::Player::of(side, None).inner(lang);
                let store = match lang {
                    Lang::En => format!("{who} captured {} ", p.position.store(side)),
                    Lang::Fr => format!("{who} · grenier {} ", p.position.store(side)),
                };
                assert!(
                    screen.contains(&store),
                    "{store:?} not on screen at {width} columns:\n{screen}"
                );
            }
        }
    }
}
