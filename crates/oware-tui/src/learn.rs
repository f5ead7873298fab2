//! `oware learn`: the thirteen rule lessons in the terminal, from the same
//! file as the web app's (`oware_session::lessons`), in English and
//! French. [`Tutor`] is the state machine (contents, a lesson's text, its
//! board), testable without a terminal; [`draw`] draws it with ratatui;
//! [`run`] owns the terminal (restored on quit, Ctrl-C and panic, as
//! `oware play` does).
//!
//! Every move on a lesson's board is played through the rules and answered
//! in words from the core's trace (`lessons::explain`: where the last seed
//! landed, what it made there, what was taken), after "Well done!" when it
//! is the move the lesson asks for; a refused move is refused with its
//! reason. The R12 lesson offers the agreement, the R13 lesson shows a
//! lost turn.

use std::io;
use std::time::Duration;

use oware_core::{Game, House, Move, MoveTrace, Position, Side};
use oware_session::lessons::{self, Lesson, Teaching};
use oware_session::{coach, words, Lang, Refusal};
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

use crate::ui::{wrap_items, wrapped_rows};

/// The most presses of "Show me" a lesson's whole line takes.
pub const SHOW_PRESSES: usize = 5;

/// What the tutor shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum View {
    /// The list of lessons.
    Contents,
    /// A lesson's text.
    Read,
    /// A lesson's board.
    Board,
}

/// The answer to the last thing done on the board.
#[derive(Clone, Debug)]
enum Feedback {
    /// A move was played.
    Moved {
        trace: MoveTrace,
        /// The move the lesson asks for (said with "Well done!").
        expected: bool,
    },
    /// A move was refused.
    Refused { mv: Move, refusal: Refusal },
    /// The player to move ran out of time (R13).
    LostTurn(Side),
    /// The players agreed to stop (R12).
    Agreed,
    /// "Show me" has nothing more to show.
    NothingToShow,
}

/// The smallest window the tutor draws in.
pub const MIN_SIZE: (u16, u16) = (56, 18);

/// The lessons' tutor.
#[derive(Debug)]
pub struct Tutor {
    teaching: &'static Teaching,
    /// The lesson open (or selected in the contents).
    pub selected: usize,
    /// What is shown.
    pub view: View,
    /// The language.
    pub lang: Lang,
    /// The lesson's board, as played so far.
    game: Game,
    /// The house under the cursor (of the side to move).
    cursor: usize,
    feedback: Option<Feedback>,
    /// The text view's scroll, in lines.
    pub scroll: u16,
    /// True once the player asked to leave.
    pub quit: bool,
}

impl Tutor {
    /// A tutor over the shipped lessons, in `lang`, showing the contents,
    /// or the lesson of `rule` (`R5`) when given.
    pub fn new(lang: Lang, rule: Option<&str>) -> Tutor {
        let teaching = lessons::shipped();
        let mut t = Tutor {
            teaching,
            selected: 0,
            view: View::Contents,
            lang,
            game: Game::new(teaching.start),
            cursor: 0,
            feedback: None,
            scroll: 0,
            quit: false,
        };
        if let Some(i) = rule.and_then(|r| {
            teaching
                .lessons
                .iter()
                .position(|l| l.rule.eq_ignore_ascii_case(r) || l.id.eq_ignore_ascii_case(r))
        }) {
            t.open(i);
        }
        t
    }

    /// The lesson selected.
    pub fn lesson(&self) -> &'static Lesson {
        &self.teaching.lessons[self.selected]
    }

    /// The lesson's board as played so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Opens lesson `i` on its text.
    pub fn open(&mut self, i: usize) {
        self.selected = i.min(self.teaching.lessons.len() - 1);
        self.view = View::Read;
        self.scroll = 0;
        self.reset();
    }

    /// Puts the lesson's board back at its start.
    pub fn reset(&mut self) {
        self.game = Game::new(self.lesson().board.position);
        self.feedback = None;
        self.fix_cursor();
    }

    fn fix_cursor(&mut self) {
        let legal: Vec<Move> = self.game.legal_moves().into_iter().collect();
        if !legal.iter().any(|m| m.house().rel() == self.cursor) {
            self.cursor = legal.first().map_or(0, |m| m.house().rel());
        }
    }

    /// The side whose row is drawn at the bottom: the lesson's first mover.
    pub fn bottom(&self) -> Side {
        self.lesson().board.position.to_move()
    }

    /// Plays `mv` on the lesson's board, through the rules, and says what
    /// it did (or why it is refused).
    pub fn play(&mut self, mv: Move) {
        self.play_as(mv, false);
    }

    fn play_as(&mut self, mv: Move, showing: bool) {
        if let Err(refusal) = coach::check(&self.game, mv) {
            self.feedback = Some(Feedback::Refused { mv, refusal });
            return;
        }
        let Ok(trace) = self.game.play_traced(mv) else {
            return;
        };
        let played: Vec<Move> = self.game.moves().collect();
        let expected = !showing && self.lesson().is_expected(&played);
        self.feedback = Some(Feedback::Moved { trace, expected });
        self.cursor = mv.house().rel();
        self.fix_cursor();
    }

    /// "Show me": plays the next moves of what the lesson asks for (from
    /// its start again when the board has left that line): one move for a
    /// short line, more for a long one, so that the whole line takes at
    /// most [`SHOW_PRESSES`] presses (R11's 25 plies: 5 a press).
    pub fn show_next(&mut self) {
        let want = self.lesson().expected().to_vec();
        let played: Vec<Move> = self.game.moves().collect();
        let on_line = want.starts_with(&played) && self.game.plies().len() == played.len();
        if !on_line {
            self.reset();
        }
        let step = want.len().div_ceil(SHOW_PRESSES).max(1);
        let n = self.game.moves().count();
        match want.get(n) {
            Some(_) if !self.game.is_over() => {
                for &mv in want.iter().skip(n).take(step) {
                    if self.game.is_over() {
                        break;
                    }
                    self.play_as(mv, true);
                }
            }
            _ => self.feedback = Some(Feedback::NothingToShow),
        }
    }

    /// R12: the players agree to stop here.
    pub fn agree(&mut self) {
        if self.lesson().offers_agreement() && self.game.agree_to_stop().is_ok() {
            self.feedback = Some(Feedback::Agreed);
        }
    }

    /// R13: the player to move runs out of time and loses the turn.
    pub fn lose_turn(&mut self) {
        if !self.lesson().shows_lost_turn() {
            return;
        }
        let side = self.game.position().to_move();
        if self.game.pass().is_ok() {
            self.feedback = Some(Feedback::LostTurn(side));
            self.fix_cursor();
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
        let last = self.teaching.lessons.len() - 1;
        match (self.view, key.code) {
            (_, KeyCode::Char('q')) => self.quit = true,
            (_, KeyCode::Char('l')) => self.lang = self.lang.toggled(),
            (View::Contents, KeyCode::Esc) => self.quit = true,
            (View::Contents, KeyCode::Up) => self.selected = self.selected.saturating_sub(1),
            (View::Contents, KeyCode::Down) => self.selected = (self.selected + 1).min(last),
            (View::Contents, KeyCode::Enter | KeyCode::Char(' ')) => self.open(self.selected),
            (View::Contents, _) => {}
            (_, KeyCode::Esc) => self.view = View::Contents,
            (_, KeyCode::Char('n')) if self.selected < last => self.open(self.selected + 1),
            (_, KeyCode::Char('p')) if self.selected > 0 => self.open(self.selected - 1),
            (_, KeyCode::Tab) => {
                self.view = if self.view == View::Read {
                    View::Board
                } else {
                    View::Read
                }
            }
            (View::Read, KeyCode::Enter | KeyCode::Char(' ')) => self.view = View::Board,
            (View::Read, KeyCode::Up) => self.scroll = self.scroll.saturating_sub(1),
            (View::Read, KeyCode::Down) => self.scroll = self.scroll.saturating_add(1).min(40),
            (View::Read, _) => {}
            (View::Board, KeyCode::Char('r')) => self.reset(),
            (View::Board, KeyCode::Char('s')) => self.show_next(),
            (View::Board, KeyCode::Char('o')) => self.agree(),
            (View::Board, KeyCode::Char('t')) => self.lose_turn(),
            (View::Board, KeyCode::Left | KeyCode::Right) => {
                // The top row is drawn right to left (its `a` on the right).
                let rightwards = (key.code == KeyCode::Right)
                    == (self.game.position().to_move() == self.bottom());
                self.cursor = if rightwards {
                    (self.cursor + 1).min(5)
                } else {
                    self.cursor.saturating_sub(1)
                };
            }
            (View::Board, KeyCode::Enter | KeyCode::Char(' ')) => {
                if let Some(h) = House::of(self.game.position().to_move(), self.cursor) {
                    self.play(Move::new(h));
                }
            }
            (View::Board, KeyCode::Char(c)) => {
                // The letters of the side to move, in either case.
                let letter = match self.game.position().to_move() {
                    Side::South => c.to_ascii_uppercase(),
                    Side::North => c.to_ascii_lowercase(),
                };
                if let Some(mv) = Move::from_letter(letter) {
                    self.cursor = mv.house().rel();
                    self.play(mv);
                }
            }
            (View::Board, _) => {}
        }
    }

    /// The title line.
    pub fn title(&self) -> String {
        match self.view {
            View::Contents => self
                .lang
                .pick(
                    "Learn Oware: one lesson per rule",
                    "Apprendre l’awalé\u{a0}: une leçon par règle",
                )
                .to_string(),
            _ => {
                let l = self.lesson();
                format!("{} · {}", l.rule, l.title.get(self.lang))
            }
        }
    }

    /// The lessons, for the contents.
    pub fn contents(&self) -> Vec<String> {
        self.teaching
            .lessons
            .iter()
            .map(|l| format!("{:<4} {}", l.rule, l.title.get(self.lang)))
            .collect()
    }

    /// The lesson's text: its paragraphs, then its task.
    pub fn text(&self) -> Vec<String> {
        let l = self.lesson();
        let mut out: Vec<String> = l.body.get(self.lang).to_vec();
        if let Some(task) = &l.task {
            out.push(format!(
                "{} {}",
                self.lang.pick("Try it:", "Essayez\u{a0}:"),
                task.get(self.lang)
            ));
        }
        out
    }

    /// What the board view says under the board: the task, then the answer
    /// to the last thing done, then the end of the game if it is over.
    /// Each with its tone: `None` plain, `Some(true)` good, `Some(false)`
    /// a refusal.
    pub fn said(&self) -> Vec<(Option<bool>, String)> {
        let lang = self.lang;
        let mut out = Vec::new();
        if let Some(task) = &self.lesson().task {
            out.push((None, task.get(lang).to_string()));
        }
        match &self.feedback {
            None => {}
            Some(Feedback::Moved { trace, expected }) => {
                let text = lessons::explain(trace, lang);
                out.push(if *expected {
                    (Some(true), format!("{} {text}", lessons::bravo(lang)))
                } else {
                    (None, text)
                });
            }
            Some(Feedback::Refused { mv, refusal }) => {
                out.push((Some(false), refusal.text(*mv, lang)));
            }
            Some(Feedback::LostTurn(side)) => {
                out.push((Some(true), lessons::lost_turn(*side, lang)));
            }
            Some(Feedback::Agreed) => {}
            Some(Feedback::NothingToShow) => out.push((
                None,
                lang.pick(
                    "Nothing more to show: r starts the lesson again.",
                    "Plus rien à montrer\u{a0}: r recommence la leçon.",
                )
                .to_string(),
            )),
        }
        let over = words::outcome_lines(&self.game, None, lang);
        if !over.is_empty() {
            out.push((Some(true), over.join(" ")));
        }
        out
    }

    /// The keys of the view, one item each.
    pub fn keys(&self) -> Vec<String> {
        let lang = self.lang;
        let mut parts: Vec<&str> = Vec::new();
        match self.view {
            View::Contents => {
                parts.push(lang.pick("↑/↓ choose", "↑/↓ choisir"));
                parts.push(lang.pick("Enter open", "Entrée ouvrir"));
            }
            View::Read => {
                parts.push(lang.pick("Enter try it", "Entrée essayer"));
                parts.push(lang.pick("↑/↓ scroll", "↑/↓ défiler"));
                parts.push(lang.pick("n/p next/previous", "n/p suivante/précédente"));
                parts.push(lang.pick("Esc contents", "Échap sommaire"));
            }
            View::Board => {
                let l = self.lesson();
                parts.push(lang.pick(
                    "letter or ←/→ Enter: play",
                    "lettre ou ←/→ Entrée\u{a0}: jouer",
                ));
                if !l.expected().is_empty() {
                    parts.push(lang.pick("s show me", "s montrez-moi"));
                }
                if l.offers_agreement() {
                    parts.push(lang.pick("o agree to stop", "o arrêter d’un commun accord"));
                }
                if l.shows_lost_turn() {
                    parts.push(lang.pick("t let the time run out", "t laisser passer le temps"));
                }
                parts.push(lang.pick("r reset", "r recommencer"));
                parts.push(lang.pick("Tab text", "Tab texte"));
                parts.push(lang.pick("n/p next/previous", "n/p suivante/précédente"));
                parts.push(lang.pick("Esc contents", "Échap sommaire"));
            }
        }
        parts.push(lang.pick("l Français", "l English"));
        parts.push(lang.pick("q quit", "q quitter"));
        parts.into_iter().map(str::to_string).collect()
    }
}

/// Draws the tutor.
pub fn draw(frame: &mut Frame, t: &Tutor) {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let msg = match t.lang {
            Lang::En => format!("Make the window at least {}×{}.", MIN_SIZE.0, MIN_SIZE.1),
            Lang::Fr => format!(
                "Agrandissez la fenêtre ({}×{} au moins).",
                MIN_SIZE.0, MIN_SIZE.1
            ),
        };
        frame.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        return;
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {} ", t.title()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // The keys at the bottom, wrapped (two lines on a narrow window).
    let key_lines: Vec<Line> = wrap_items(&t.keys(), usize::from(inner.width))
        .into_iter()
        .map(Line::from)
        .collect();
    let keys_h = (key_lines.len() as u16).clamp(1, 4);
    let keys = Paragraph::new(key_lines).style(Style::new().fg(Color::Gray));
    let keys_area = Rect {
        y: inner.y + inner.height.saturating_sub(keys_h),
        height: keys_h,
        ..inner
    };
    frame.render_widget(keys, keys_area);
    let body = Rect {
        height: inner.height.saturating_sub(keys_h + 1),
        ..inner
    };
    match t.view {
        View::Contents => {
            let lines: Vec<Line> = t
                .contents()
                .into_iter()
                .enumerate()
                .map(|(i, s)| {
                    if i == t.selected {
                        Line::styled(
                            format!("▶ {s}"),
                            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
                        )
                    } else {
                        Line::from(format!("  {s}"))
                    }
                })
                .collect();
            let top = (t.selected as u16).saturating_sub(body.height.saturating_sub(1));
            frame.render_widget(Paragraph::new(lines).scroll((top, 0)), body);
        }
        View::Read => {
            let lines: Vec<Line> = t
                .text()
                .into_iter()
                .flat_map(|p| [Line::from(p), Line::from("")])
                .collect();
            frame.render_widget(
                Paragraph::new(lines)
                    .wrap(Wrap { trim: true })
                    .scroll((t.scroll, 0)),
                body,
            );
        }
        View::Board => {
            let board = board_lines(t, body.width);
            let board_h = (board.len() as u16).min(body.height);
            frame.render_widget(
                Paragraph::new(board),
                Rect {
                    height: board_h,
                    ..body
                },
            );
            let said = t.said();
            // One blank line between the items.
            let rows: usize = said
                .iter()
                .map(|(_, s)| wrapped_rows(s, usize::from(body.width)) + 1)
                .sum::<usize>()
                .saturating_sub(1);
            let mut text: Vec<Line> = Vec::new();
            for (tone, s) in said {
                let style = match tone {
                    Some(true) => Style::new().fg(Color::Green),
                    Some(false) => Style::new().fg(Color::Red),
                    None => Style::new(),
                };
                if !text.is_empty() {
                    text.push(Line::from(""));
                }
                text.push(Line::styled(s, style));
            }
            // What was said last matters most: keep it in view.
            let rest = Rect {
                y: body.y + board_h + 1,
                height: body.height.saturating_sub(board_h + 1),
                ..body
            };
            let para = Paragraph::new(text).wrap(Wrap { trim: true });
            let over = (rows as u16).saturating_sub(rest.height);
            frame.render_widget(para.scroll((over, 0)), rest);
        }
    }
}

/// The board, the first mover's row at the bottom, the cursor on the row
/// of the side to move.
fn board_lines(t: &Tutor, width: u16) -> Vec<Line<'static>> {
    let game = t.game();
    let pos: Position = *game.position();
    let cursor = (!game.is_over())
        .then(|| House::of(pos.to_move(), t.cursor))
        .flatten();
    mini_board(&pos, t.bottom(), cursor, game.moves().last(), t.lang, width)
}

/// A small board for the study screens (lessons, mistakes): `bottom`'s
/// row at the bottom, the cursor on `cursor`, the last move marked, each
/// side's captures beside its row when `width` leaves room (55 columns),
/// else on lines of their own.
pub(crate) fn mini_board(
    pos: &Position,
    bottom: Side,
    cursor: Option<House>,
    last: Option<Move>,
    lang: Lang,
    width: u16,
) -> Vec<Line<'static>> {
    let top = bottom.opponent();
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
            let (text, style) = if Some(h) == cursor {
                (
                    format!(" ▶{}  ", h.letter()),
                    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
                )
            } else if last.map(|m| m.house()) == Some(h) {
                (
                    format!(" [{}] ", h.letter()),
                    Style::new().fg(Color::Magenta),
                )
            } else {
                (format!("  {}  ", h.letter()), Style::new())
            };
            spans.push(Span::styled(text, style));
        }
        Line::from(spans)
    };
    let store = |side: Side| -> String {
        let who = oware_session::Player::of(side, None).inner(lang);
        // The play screen's words: "captured", "grenier".
        match lang {
            Lang::En => format!("{who} captured {}", pos.store(side)),
            Lang::Fr => format!("{who} · grenier {}", pos.store(side)),
        }
    };
    let counts = |hs: &[House]| -> Vec<Span<'static>> {
        let mut spans = vec![Span::raw(" ")];
        for &h in hs {
            spans.push(Span::styled(
                format!("[{:>2}] ", pos.seeds(h)),
                Style::new().add_modifier(Modifier::BOLD),
            ));
        }
        spans
    };
    let (top_row, bottom_row) = (row(top, true), row(bottom, false));
    if width >= 55 {
        let with = |mut spans: Vec<Span<'static>>, side: Side| {
            spans.push(Span::raw(format!("  {}", store(side))));
            Line::from(spans)
        };
        vec![
            letters(&top_row),
            with(counts(&top_row), top),
            with(counts(&bottom_row), bottom),
            letters(&bottom_row),
        ]
    } else {
        vec![
            Line::from(format!(" {}", store(top))),
            letters(&top_row),
            Line::from(counts(&top_row)),
            Line::from(counts(&bottom_row)),
            letters(&bottom_row),
            Line::from(format!(" {}", store(bottom))),
        ]
    }
}

/// Runs the tutor full screen until the player quits.
pub fn run(mut tutor: Tutor) -> io::Result<()> {
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
    while !tutor.quit {
        terminal.draw(|f| draw(f, &tutor))?;
        if event::poll(Duration::from_millis(100))? {
            match event::read()? {
                Event::Key(key) => tutor.on_key(key),
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
    use ratatui::backend::TestBackend;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    fn code(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    fn last_said(t: &Tutor) -> String {
        t.said().last().map(|(_, s)| s.clone()).unwrap_or_default()
    }

    /// R11's line is 25 plies: "Show me" plays it in at most
    /// [`SHOW_PRESSES`] presses, to its end by repetition.
    #[test]
    fn show_me_plays_a_long_line_in_a_few_presses() {
        let mut t = Tutor::new(Lang::En, Some("R11"));
        t.on_key(code(KeyCode::Tab));
        assert_eq!(t.view, View::Board);
        let want = t.lesson().expected().len();
        assert!(want >= 20, "R11's line is {want} plies");
        let mut presses = 0;
        while !t.game.is_over() && presses < 30 {
            t.on_key(key('s'));
            presses += 1;
        }
        assert!(presses <= SHOW_PRESSES, "{presses} presses");
        assert_eq!(
            t.game.outcome().map(|o| o.reason),
            Some(oware_core::EndReason::Repetition)
        );
        assert_eq!(t.game.moves().count(), want);
        // A one-move line is still one move a press.
        let mut t = Tutor::new(Lang::En, Some("R8"));
        t.on_key(code(KeyCode::Tab));
        t.on_key(key('s'));
        assert_eq!(t.game.moves().count(), 1);
    }

    #[test]
    fn the_asked_move_is_praised_and_explained_from_the_trace() {
        let mut t = Tutor::new(Lang::En, Some("R5"));
        assert_eq!(t.view, View::Read);
        t.on_key(code(KeyCode::Enter));
        assert_eq!(t.view, View::Board);
        t.on_key(key('d'));
        assert_eq!(
            last_said(&t),
            "Well done! D: the last seed lands in c and makes 3 there, so it is taken: c 3 + b 2, 5 seeds in all."
        );
        // Another move is explained without praise, in French too.
        let mut t = Tutor::new(Lang::En, Some("R3"));
        t.on_key(code(KeyCode::Tab));
        t.on_key(key('l'));
        t.on_key(key('a'));
        let said = last_said(&t);
        assert_eq!(
            said,
            "A\u{a0}: la dernière graine tombe en E, dans la rangée de celui qui a semé\u{a0}: rien n’est pris."
        );
        t.on_key(key('r'));
        t.on_key(key('f'));
        assert!(
            last_said(&t).starts_with("Bravo\u{a0}! F\u{a0}:"),
            "{}",
            last_said(&t)
        );
    }

    #[test]
    fn a_refused_move_says_why_and_show_me_plays_the_lesson() {
        let mut t = Tutor::new(Lang::En, Some("R8"));
        t.view = View::Board;
        t.on_key(key('a'));
        let said = last_said(&t);
        assert!(said.contains("feed"), "{said}");
        assert_eq!(t.game().plies().len(), 0);
        t.on_key(key('s'));
        assert_eq!(t.game().plies().len(), 1);
        assert!(
            last_said(&t).starts_with("F: the last seed lands in a"),
            "{}",
            last_said(&t)
        );
    }

    #[test]
    fn r12_offers_the_agreement_and_r13_a_lost_turn() {
        let mut t = Tutor::new(Lang::En, Some("R12"));
        t.view = View::Board;
        assert!(t.keys().iter().any(|k| k == "o agree to stop"));
        t.on_key(key('o'));
        assert!(t.game().is_over());
        assert!(last_said(&t).contains("24"), "{}", last_said(&t));
        let mut t = Tutor::new(Lang::Fr, Some("R13"));
        t.view = View::Board;
        t.on_key(key('f'));
        t.on_key(key('t'));
        assert_eq!(
            last_said(&t),
            "Nord perd son tour (temps). Le plateau reste tel quel\u{a0}: Sud rejoue."
        );
        assert_eq!(t.game().position().to_move(), Side::South);
        // Not offered elsewhere.
        let mut t = Tutor::new(Lang::En, Some("R5"));
        t.view = View::Board;
        t.on_key(key('o'));
        t.on_key(key('t'));
        assert_eq!(t.game().plies().len(), 0);
    }

    #[test]
    fn every_view_fits_a_phone_sized_terminal() {
        for lang in Lang::ALL {
            for rule in ["R1", "R5", "R8", "R11", "R12", "R13"] {
                let mut t = Tutor::new(lang, Some(rule));
                for view in [View::Contents, View::Read, View::Board] {
                    t.view = view;
                    t.on_key(key('s'));
                    let mut term = Terminal::new(TestBackend::new(60, 20)).unwrap();
                    term.draw(|f| draw(f, &t)).unwrap();
                    let screen: String = term
                        .backend()
                        .buffer()
                        .content()
                        .iter()
                        .map(|c| c.symbol())
                        .collect();
                    if view == View::Board {
                        assert!(screen.contains("[ "), "{rule} {view:?}: {screen}");
                        assert!(screen.contains(lang.pick("captured", "grenier")));
                    }
                    assert!(
                        screen.contains(lang.pick("q quit", "q quitter")),
                        "{rule} {view:?} {lang:?}: keys cut"
                    );
                }
            }
        }
    }
}
