//! The game's state machine: screens, keys, turns, animation, the computer
//! and the learning aids. No drawing and no terminal here: [`crate::ui`]
//! draws an [`App`], [`crate::term`] feeds it keys, time and search results,
//! and runs the searches it asks for. Every rule question goes to
//! `oware-core`.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;
use std::time::Duration;

use oware_core::{EndReason, Game, House, Move, MoveTrace, Ply, Position, Record, Side};
use oware_engine::{Level, Limits, Score, SearchResult};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::store::{self, Players};
use crate::text::Lang;

/// Who plays against the person at the keyboard.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Opponent {
    /// The engine at a level.
    Computer(Level),
    /// A second person at the same keyboard.
    TwoPlayers,
}

/// Who moves first against the computer (R2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Starter {
    /// The person.
    Me,
    /// The computer.
    Computer,
    /// Drawn by lot.
    Lot,
}

impl Starter {
    fn label(self) -> &'static str {
        match self {
            Starter::Me => "me",
            Starter::Computer => "the computer",
            Starter::Lot => "drawn by lot",
        }
    }
}

/// Everything the player can choose before and during a game.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The opponent.
    pub opponent: Opponent,
    /// Who starts against the computer.
    pub first: Starter,
    /// Animate sowing seed by seed.
    pub animation: bool,
    /// Mark where the last seed of the chosen move lands and what it takes.
    pub marks: bool,
    /// Warn when the chosen move lets the opponent capture next turn.
    pub warnings: bool,
    /// The rules screen's language.
    pub lang: Lang,
    /// Where an unfinished game is saved on quit (`None`: not saved).
    pub autosave: Option<PathBuf>,
    /// Time the engine spends on a hint.
    pub hint_time: Duration,
    /// The computer's opening book (none: it searches from the first move).
    pub book: Option<std::sync::Arc<oware_engine::book::Book>>,
    /// Endgame tables being loaded or built in the background; the
    /// computer uses them from its first move after they are ready.
    pub tables: Option<oware_tablebase::background::Loading>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            opponent: Opponent::Computer(Level::new(3)),
            first: Starter::Me,
            animation: true,
            marks: true,
            warnings: true,
            lang: Lang::En,
            autosave: None,
            hint_time: Duration::from_millis(1500),
            book: None,
            tables: None,
        }
    }
}

/// How the app starts.
#[derive(Debug)]
pub enum Start {
    /// The new-game screen.
    Setup,
    /// Offer to resume the autosaved game, then the new-game screen.
    OfferResume(Box<Record>),
    /// Resume this game at once (`--load`).
    Load(Box<Record>),
}

/// The screen shown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Screen {
    /// "Resume the unfinished game?"
    Resume,
    /// Choosing opponent, level and who starts.
    Setup,
    /// The board (and the game-over panel once the game has ended).
    Play,
}

/// A question waiting for an answer on the play screen.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Prompt {
    /// "Resign?"
    ConfirmResign,
    /// "Abandon this game for a new one?"
    ConfirmNew,
    /// One player proposed to stop by agreement (R12); the other answers.
    Agreement {
        /// Who proposed.
        proposer: Side,
    },
    /// A file name to save to.
    SavePath(String),
    /// A file name to load from.
    LoadPath(String),
}

/// The tone of a status message.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tone {
    /// Neutral news.
    Info,
    /// Something to be careful about.
    Warn,
    /// A refusal.
    Error,
}

/// The new-game form.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SetupForm {
    /// The focused row: 0 opponent, 1 level, 2 who starts, 3 start.
    pub field: usize,
    /// Two people rather than the computer.
    pub two_players: bool,
    /// The computer's level, 1..=10.
    pub level: u8,
    /// Who starts against the computer.
    pub first: Starter,
}

impl SetupForm {
    fn fields(&self) -> &'static [usize] {
        if self.two_players {
            &[0, 3]
        } else {
            &[0, 1, 2, 3]
        }
    }

    /// The form's rows as (label, value) pairs, in field order.
    pub fn rows(&self) -> Vec<(usize, &'static str, String)> {
        let mut rows = vec![(
            0,
            "Opponent",
            if self.two_players {
                "two people at this keyboard".to_string()
            } else {
                "the computer".to_string()
            },
        )];
        if !self.two_players {
            rows.push((1, "Level", format!("{} of 10", self.level)));
            rows.push((2, "Who starts", self.first.label().to_string()));
        }
        rows.push((3, "", "Start the game".to_string()));
        rows
    }
}

/// What the board shows: the current position, or a frame of an animation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BoardView {
    /// Seeds in each house, in sowing order.
    pub houses: [u8; 12],
    /// Stores, South first.
    pub stores: [u8; 2],
    /// The house that just received a seed (animation).
    pub active: Option<House>,
    /// The house being emptied (animation).
    pub source: Option<House>,
    /// Houses being captured (animation).
    pub capturing: Vec<House>,
}

impl BoardView {
    fn of(pos: &Position) -> BoardView {
        let mut houses = [0; 12];
        for h in House::ALL {
            houses[h.index()] = pos.seeds(h);
        }
        BoardView {
            houses,
            stores: [pos.store(Side::South), pos.store(Side::North)],
            active: None,
            source: None,
            capturing: Vec::new(),
        }
    }
}

/// A move being shown seed by seed. The game already holds the move; this
/// only decides what the board shows meanwhile.
#[derive(Clone, Debug)]
pub struct Animation {
    before: Position,
    trace: MoveTrace,
    step: usize,
    elapsed: Duration,
}

impl Animation {
    fn steps(&self) -> usize {
        // Lifting the seeds, one step a seed, one step a captured house.
        1 + self.trace.sown.len() + self.trace.captured.len()
    }

    fn step_time(&self) -> Duration {
        if self.step > self.trace.sown.len() {
            Duration::from_millis(450)
        } else if self.step == 0 {
            Duration::from_millis(200)
        } else if self.trace.sown.len() > 12 {
            Duration::from_millis(70)
        } else {
            Duration::from_millis(140)
        }
    }

    /// The board after `self.step` steps.
    pub fn frame(&self) -> BoardView {
        let mut view = BoardView::of(&self.before);
        let src = self.trace.mv.house();
        view.houses[src.index()] = 0;
        view.source = Some(src);
        let sown = self.step.min(self.trace.sown.len());
        for &h in &self.trace.sown[..sown] {
            view.houses[h.index()] += 1;
        }
        if sown > 0 {
            view.active = Some(self.trace.sown[sown - 1]);
        }
        let mover = self.before.to_move().index();
        let taken = self.step.saturating_sub(self.trace.sown.len());
        for &(h, n) in self.trace.captured.iter().take(taken) {
            view.houses[h.index()] = 0;
            view.stores[mover] += n;
            view.capturing.push(h);
        }
        view
    }
}

/// A search the app wants run (on a worker thread, by the runtime).
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Identifies the answer.
    pub id: u64,
    /// The game to search.
    pub game: Game,
    /// The limits.
    pub limits: Limits,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    Move,
    Hint,
}

#[derive(Clone, Copy, Debug)]
struct Thinking {
    id: u64,
    purpose: Purpose,
}

/// The whole state of the terminal game.
#[derive(Debug)]
pub struct App {
    /// Player choices.
    pub settings: Settings,
    /// The screen shown.
    pub screen: Screen,
    /// The game (also kept while on the setup screen).
    pub game: Game,
    /// The computer's side and level; `None` between two people.
    pub computer: Option<(Side, Level)>,
    /// The side whose row is drawn at the bottom.
    pub bottom: Side,
    /// The chosen house of the side to move, 0 = A/a.
    pub cursor: usize,
    /// The new-game form.
    pub setup: SetupForm,
    /// A question waiting for an answer.
    pub prompt: Option<Prompt>,
    /// The status line.
    pub message: Option<(Tone, String)>,
    /// The rules screen is open, scrolled by this many lines.
    pub rules: Option<u16>,
    /// The game offered for resuming.
    pub resume: Option<Box<Record>>,
    /// The last hint: move and a description of its value.
    pub hint: Option<(Move, String)>,
    /// Set once the app wants to end.
    pub quit: bool,
    /// Counts frames of the thinking indicator.
    pub spinner: usize,
    anim: Option<Animation>,
    thinking: Option<Thinking>,
    redo: Vec<Vec<Move>>,
    next_id: u64,
    requests: Vec<SearchRequest>,
    stop: bool,
    spin_time: Duration,
    seed: u64,
}

fn random_u64() -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u64(0x006f_7761_7265);
    h.finish()
}

impl App {
    /// A new app.
    pub fn new(settings: Settings, start: Start) -> App {
        let (two_players, level) = match settings.opponent {
            Opponent::Computer(l) => (false, l.get()),
            Opponent::TwoPlayers => (true, 3),
        };
        let mut app = App {
            setup: SetupForm {
                field: 3,
                two_players,
                level,
                first: settings.first,
            },
            settings,
            screen: Screen::Setup,
            game: Game::new(Position::start()),
            computer: None,
            bottom: Side::South,
            cursor: 0,
            prompt: None,
            message: None,
            rules: None,
            resume: None,
            hint: None,
            quit: false,
            spinner: 0,
            anim: None,
            thinking: None,
            redo: Vec::new(),
            next_id: 1,
            requests: Vec::new(),
            stop: false,
            spin_time: Duration::ZERO,
            seed: random_u64(),
        };
        match start {
            Start::Setup => {}
            Start::OfferResume(record) => {
                app.resume = Some(record);
                app.screen = Screen::Resume;
            }
            Start::Load(record) => app.resume_record(*record),
        }
        app
    }

    // ---- what the runtime and the drawing read -------------------------

    /// Searches to start; the runtime runs them and answers with
    /// [`on_search_result`](Self::on_search_result).
    pub fn take_requests(&mut self) -> Vec<SearchRequest> {
        std::mem::take(&mut self.requests)
    }

    /// True once when the running search should be stopped.
    pub fn take_stop(&mut self) -> bool {
        std::mem::take(&mut self.stop)
    }

    /// True while the engine works on the computer's move.
    pub fn computer_thinking(&self) -> bool {
        matches!(
            self.thinking,
            Some(Thinking {
                purpose: Purpose::Move,
                ..
            })
        )
    }

    /// True while the engine works on a hint.
    pub fn hint_pending(&self) -> bool {
        matches!(
            self.thinking,
            Some(Thinking {
                purpose: Purpose::Hint,
                ..
            })
        )
    }

    /// True while a move is being animated.
    pub fn animating(&self) -> bool {
        self.anim.is_some()
    }

    /// The board to draw.
    pub fn board_view(&self) -> BoardView {
        match &self.anim {
            Some(a) => a.frame(),
            None => BoardView::of(self.game.position()),
        }
    }

    /// The players, for game files.
    pub fn players(&self) -> Players {
        Players {
            computer: self.computer,
        }
    }

    /// A player's name as shown.
    pub fn name(&self, side: Side) -> String {
        player_name(self.computer, side)
    }

    /// True when a person chooses the next move.
    pub fn human_to_move(&self) -> bool {
        self.screen == Screen::Play
            && !self.game.is_over()
            && self
                .computer
                .is_none_or(|(c, _)| c != self.game.position().to_move())
    }

    /// The move under the cursor, when a person is to move.
    pub fn cursor_move(&self) -> Option<Move> {
        if !self.human_to_move() || self.anim.is_some() {
            return None;
        }
        Move::of(self.game.position().to_move(), self.cursor)
    }

    /// The last ply and the seeds it captured.
    pub fn last_move(&self) -> Option<(Move, u8)> {
        let n = self.game.plies().len();
        match self.game.plies().last()? {
            Ply::Move(m) => Some((*m, self.game.captured_by(n - 1))),
            Ply::Pass => None,
        }
    }

    /// Where the cursor move's last seed lands and what it would capture
    /// (the learning aid), when marks are on and the move is legal.
    pub fn landing(&self) -> Option<(House, u8)> {
        if !self.settings.marks {
            return None;
        }
        let mv = self.cursor_move()?;
        let pos = self.game.position();
        pos.check(mv).ok()?;
        pos.preview(mv)
    }

    /// The biggest capture the opponent could answer the cursor move with,
    /// when warnings are on: (their move, seeds).
    pub fn danger(&self) -> Option<(Move, u8)> {
        if !self.settings.warnings {
            return None;
        }
        let mv = self.cursor_move()?;
        let after = self.game.position().try_play(mv).ok()?;
        if after.is_decided() {
            return None;
        }
        after
            .legal_moves()
            .into_iter()
            .filter_map(|reply| after.preview(reply).map(|(_, n)| (reply, n)))
            .filter(|&(_, n)| n > 0)
            .max_by_key(|&(m, n)| (n, std::cmp::Reverse(m.house().index())))
    }

    /// Why the cursor move is illegal, if it is.
    pub fn cursor_refusal(&self) -> Option<String> {
        let mv = self.cursor_move()?;
        let reason = self.game.position().check(mv).err()?;
        Some(format!("{}: {} ({})", mv.letter(), reason, reason.rule()))
    }

    // ---- input -----------------------------------------------------------

    /// Handles a key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            self.request_quit();
            return;
        }
        if self.anim.is_some() {
            // Any key ends the animation; `q` still quits.
            self.finish_animation();
            if key.code == KeyCode::Char('q') && self.prompt.is_none() {
                self.request_quit();
            }
            return;
        }
        if let Some(scroll) = self.rules {
            self.rules_key(key.code, scroll);
            return;
        }
        if let Some(prompt) = self.prompt.clone() {
            self.prompt_key(key.code, prompt);
            return;
        }
        match self.screen {
            Screen::Resume => self.resume_key(key.code),
            Screen::Setup => self.setup_key(key.code),
            Screen::Play => self.play_key(key.code),
        }
    }

    fn rules_key(&mut self, code: KeyCode, scroll: u16) {
        self.rules = match code {
            KeyCode::Up | KeyCode::Char('k') => Some(scroll.saturating_sub(1)),
            KeyCode::Down | KeyCode::Char('j') => Some(scroll.saturating_add(1).min(200)),
            KeyCode::PageUp => Some(scroll.saturating_sub(10)),
            KeyCode::PageDown | KeyCode::Char(' ') => Some(scroll.saturating_add(10).min(200)),
            KeyCode::Home => Some(0),
            KeyCode::Char('g') | KeyCode::Char('G') => {
                self.settings.lang = self.settings.lang.toggled();
                Some(0)
            }
            KeyCode::Char('q') => {
                self.request_quit();
                None
            }
            _ => None,
        };
    }

    fn prompt_key(&mut self, code: KeyCode, prompt: Prompt) {
        let yes = matches!(
            code,
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Char('o') | KeyCode::Char('O')
        );
        let no = matches!(code, KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc);
        match prompt {
            Prompt::ConfirmResign => {
                if yes {
                    self.prompt = None;
                    let side = match self.computer {
                        Some((c, _)) => c.opponent(),
                        None => self.game.position().to_move(),
                    };
                    self.cancel_thinking();
                    if self.game.resign(side).is_ok() {
                        self.say(Tone::Info, format!("{} resigned.", self.name(side)));
                    }
                } else if no {
                    self.prompt = None;
                }
            }
            Prompt::ConfirmNew => {
                if yes {
                    self.prompt = None;
                    self.show_setup();
                } else if no {
                    self.prompt = None;
                }
            }
            Prompt::Agreement { proposer } => {
                if yes {
                    self.prompt = None;
                    if self.game.agree_to_stop().is_ok() {
                        self.say(Tone::Info, "The players agreed to stop (R12).".to_string());
                    }
                } else if no {
                    self.prompt = None;
                    self.say(
                        Tone::Info,
                        format!("{} declined; play on.", self.name(proposer.opponent())),
                    );
                }
            }
            Prompt::SavePath(mut text) | Prompt::LoadPath(mut text) => {
                let saving = matches!(self.prompt, Some(Prompt::SavePath(_)));
                match code {
                    KeyCode::Esc => self.prompt = None,
                    KeyCode::Enter => {
                        self.prompt = None;
                        let path = PathBuf::from(text.trim());
                        if text.trim().is_empty() {
                            self.say(Tone::Error, "No file name given.".to_string());
                        } else if saving {
                            match store::save(&path, &self.game, self.players()) {
                                Ok(()) => {
                                    self.say(Tone::Info, format!("Saved to {}.", path.display()))
                                }
                                Err(e) => self.say(Tone::Error, e),
                            }
                        } else {
                            match store::load(&path) {
                                Ok(record) => {
                                    self.resume_record(record);
                                    self.say(Tone::Info, format!("Loaded {}.", path.display()));
                                }
                                Err(e) => self.say(Tone::Error, e),
                            }
                        }
                    }
                    KeyCode::Backspace => {
                        text.pop();
                        self.prompt = Some(if saving {
                            Prompt::SavePath(text)
                        } else {
                            Prompt::LoadPath(text)
                        });
                    }
                    KeyCode::Char(c) if !c.is_control() && text.chars().count() < 200 => {
                        text.push(c);
                        self.prompt = Some(if saving {
                            Prompt::SavePath(text)
                        } else {
                            Prompt::LoadPath(text)
                        });
                    }
                    _ => {}
                }
            }
        }
    }

    fn resume_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Char('o') | KeyCode::Enter => {
                if let Some(record) = self.resume.take() {
                    self.resume_record(*record);
                    self.say(
                        Tone::Info,
                        "Welcome back: the game goes on where you left it.".to_string(),
                    );
                }
            }
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                self.resume = None;
                if let Some(path) = &self.settings.autosave {
                    let _ = std::fs::remove_file(path);
                }
                self.screen = Screen::Setup;
            }
            KeyCode::Char('q') => self.request_quit(),
            _ => {}
        }
    }

    fn setup_key(&mut self, code: KeyCode) {
        let fields = self.setup.fields();
        let pos = fields
            .iter()
            .position(|&f| f == self.setup.field)
            .unwrap_or(fields.len() - 1);
        match code {
            KeyCode::Up => self.setup.field = fields[pos.saturating_sub(1)],
            KeyCode::Down | KeyCode::Tab => {
                self.setup.field = fields[(pos + 1).min(fields.len() - 1)]
            }
            KeyCode::Left | KeyCode::Right => {
                let right = code == KeyCode::Right;
                match self.setup.field {
                    0 => self.setup.two_players = !self.setup.two_players,
                    1 => {
                        self.setup.level = if right {
                            (self.setup.level + 1).min(10)
                        } else {
                            self.setup.level.saturating_sub(1).max(1)
                        }
                    }
                    2 => {
                        let all = [Starter::Me, Starter::Computer, Starter::Lot];
                        let i = all.iter().position(|&s| s == self.setup.first).unwrap_or(0);
                        self.setup.first = all[if right { (i + 1) % 3 } else { (i + 2) % 3 }];
                    }
                    _ => {}
                }
            }
            KeyCode::Char(c @ '1'..='9') if !self.setup.two_players => {
                self.setup.level = c as u8 - b'0'
            }
            KeyCode::Char('0') if !self.setup.two_players => self.setup.level = 10,
            KeyCode::Enter => self.start_game(),
            KeyCode::Char('?') | KeyCode::F(1) => self.rules = Some(0),
            KeyCode::Char('l') => self.prompt = Some(Prompt::LoadPath(String::new())),
            KeyCode::Char('q') | KeyCode::Esc => self.request_quit(),
            _ => {}
        }
    }

    fn play_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('q') => self.request_quit(),
            KeyCode::Char('?') | KeyCode::F(1) => self.rules = Some(0),
            KeyCode::Char('s') | KeyCode::Char('S') => {
                self.prompt = Some(Prompt::SavePath(store::default_save_name()))
            }
            KeyCode::Char('l') | KeyCode::Char('L') => {
                self.prompt = Some(Prompt::LoadPath(String::new()))
            }
            KeyCode::Char('n') | KeyCode::Char('N') => {
                if self.game.is_over() || self.game.plies().is_empty() {
                    self.show_setup();
                } else {
                    self.prompt = Some(Prompt::ConfirmNew);
                }
            }
            KeyCode::Char('u') | KeyCode::Char('U') | KeyCode::Backspace => self.undo(),
            KeyCode::Char('r') | KeyCode::Char('R') => self.redo(),
            KeyCode::Char('m') | KeyCode::Char('M') => {
                self.settings.marks = !self.settings.marks;
                let state = if self.settings.marks { "on" } else { "off" };
                self.say(Tone::Info, format!("Landing marks {state}."));
            }
            KeyCode::Char('w') | KeyCode::Char('W') => {
                self.settings.warnings = !self.settings.warnings;
                let state = if self.settings.warnings { "on" } else { "off" };
                self.say(Tone::Info, format!("Capture warnings {state}."));
            }
            KeyCode::Char('t') | KeyCode::Char('T') => {
                self.settings.animation = !self.settings.animation;
                let state = if self.settings.animation { "on" } else { "off" };
                self.say(Tone::Info, format!("Animation {state}."));
            }
            _ if self.game.is_over() => {}
            KeyCode::Char('x') | KeyCode::Char('X') => self.prompt = Some(Prompt::ConfirmResign),
            KeyCode::Char('p') | KeyCode::Char('P') => {
                if self.computer.is_some() {
                    self.say(
                        Tone::Error,
                        "Stopping by agreement (R12) is for two people at one board.".to_string(),
                    );
                } else {
                    self.prompt = Some(Prompt::Agreement {
                        proposer: self.game.position().to_move(),
                    });
                }
            }
            KeyCode::Char('h') | KeyCode::Char('H') => self.ask_hint(),
            KeyCode::Left | KeyCode::Right | KeyCode::Enter | KeyCode::Char(_)
                if !self.human_to_move() =>
            {
                self.say(
                    Tone::Warn,
                    "The computer is thinking: wait for its move (u takes back, q quits)."
                        .to_string(),
                );
            }
            _ if !self.human_to_move() => {}
            KeyCode::Left | KeyCode::Right => {
                // The top row is drawn right to left (its `a` on the right).
                let rightwards =
                    (code == KeyCode::Right) == (self.game.position().to_move() == self.bottom);
                self.cursor = if rightwards {
                    (self.cursor + 1).min(5)
                } else {
                    self.cursor.saturating_sub(1)
                };
            }
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = 5,
            KeyCode::Char(c) if ('a'..='f').contains(&c.to_ascii_lowercase()) => {
                self.cursor = (c.to_ascii_lowercase() as u8 - b'a') as usize;
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.play_cursor(),
            _ => {}
        }
    }

    // ---- time and the engine ---------------------------------------------

    /// Advances animations and the thinking indicator by `dt`.
    pub fn tick(&mut self, dt: Duration) {
        self.spin_time += dt;
        while self.spin_time >= Duration::from_millis(100) {
            self.spin_time -= Duration::from_millis(100);
            self.spinner = self.spinner.wrapping_add(1);
        }
        let mut done = false;
        if let Some(anim) = &mut self.anim {
            anim.elapsed += dt;
            while anim.elapsed >= anim.step_time() {
                anim.elapsed -= anim.step_time();
                anim.step += 1;
                if anim.step == anim.trace.sown.len() + 1 && !anim.trace.captured.is_empty() {
                    let houses: String = anim
                        .trace
                        .captured
                        .iter()
                        .rev()
                        .map(|(h, _)| h.letter())
                        .collect();
                    let who = player_name(self.computer, anim.before.to_move());
                    let n = anim.trace.captured_seeds();
                    self.message = Some((Tone::Info, format!("{who} captures {n} ({houses})…")));
                }
                if anim.step >= anim.steps() {
                    done = true;
                    break;
                }
            }
        }
        if done {
            self.finish_animation();
        }
    }

    /// A search finished.
    pub fn on_search_result(&mut self, id: u64, result: SearchResult) {
        let Some(thinking) = self.thinking else {
            return;
        };
        if thinking.id != id {
            return;
        }
        self.thinking = None;
        match thinking.purpose {
            Purpose::Move => {
                let mv = result
                    .best
                    .or_else(|| self.game.legal_moves().into_iter().next());
                if let Some(mv) = mv {
                    self.redo.clear();
                    self.play_move(mv);
                }
            }
            Purpose::Hint => {
                if let Some(mv) = result.best {
                    if self.human_to_move() && self.game.position().to_move() == mv.side() {
                        let text = format!(
                            "Hint: play {} ({}, depth {}).",
                            mv.letter(),
                            describe_score(result.score),
                            result.depth
                        );
                        self.cursor = mv.house().rel();
                        self.hint = Some((mv, text.clone()));
                        self.say(Tone::Info, text);
                    }
                }
            }
        }
    }

    fn ask_hint(&mut self) {
        if !self.human_to_move() || self.thinking.is_some() {
            return;
        }
        let limits = Limits {
            movetime: Some(self.settings.hint_time),
            depth: Some(30),
            ..Limits::default()
        };
        self.search(Purpose::Hint, limits);
        self.say(Tone::Info, "Looking for a good move…".to_string());
    }

    fn search(&mut self, purpose: Purpose, limits: Limits) {
        let id = self.next_id;
        self.next_id += 1;
        self.thinking = Some(Thinking { id, purpose });
        self.requests.push(SearchRequest {
            id,
            game: self.game.clone(),
            limits,
        });
    }

    fn cancel_thinking(&mut self) {
        if self.thinking.take().is_some() {
            self.stop = true;
        }
        self.requests.clear();
    }

    fn maybe_start_computer(&mut self) {
        if self.screen != Screen::Play
            || self.game.is_over()
            || self.anim.is_some()
            || self.thinking.is_some()
        {
            return;
        }
        if let Some((side, level)) = self.computer {
            if self.game.position().to_move() == side {
                let seed = self.seed
                    ^ (self.game.plies().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let limits = Limits {
                    seed,
                    ..Limits::level(level)
                };
                self.search(Purpose::Move, limits);
            }
        }
    }

    // ---- game actions ------------------------------------------------------

    fn play_cursor(&mut self) {
        let Some(mv) = self.cursor_move() else { return };
        if let Err(reason) = self.game.position().check(mv) {
            self.say(
                Tone::Error,
                format!(
                    "{} cannot be played: {} ({}).",
                    mv.letter(),
                    reason,
                    reason.rule()
                ),
            );
            return;
        }
        self.cancel_thinking();
        self.redo.clear();
        self.play_move(mv);
    }

    fn play_move(&mut self, mv: Move) {
        let before = *self.game.position();
        match self.game.play_traced(mv) {
            Ok(trace) => {
                self.hint = None;
                if self.settings.animation {
                    let who = player_name(self.computer, before.to_move());
                    self.message = Some((Tone::Info, format!("{who} sows {}…", mv.letter())));
                    self.anim = Some(Animation {
                        before,
                        trace,
                        step: 0,
                        elapsed: Duration::ZERO,
                    });
                } else {
                    self.message =
                        Some((Tone::Info, describe_move(self.computer, &before, &trace)));
                    self.after_move();
                }
            }
            Err(e) => self.say(Tone::Error, e.to_string()),
        }
    }

    fn finish_animation(&mut self) {
        if let Some(anim) = self.anim.take() {
            self.message = Some((
                Tone::Info,
                describe_move(self.computer, &anim.before, &anim.trace),
            ));
            self.after_move();
        }
    }

    fn after_move(&mut self) {
        self.fix_cursor();
        self.maybe_start_computer();
    }

    /// Puts the cursor on a legal house of the side to move.
    fn fix_cursor(&mut self) {
        let legal = self.game.legal_moves();
        if legal.is_empty() {
            return;
        }
        let here = Move::of(self.game.position().to_move(), self.cursor);
        if here.is_none_or(|m| !legal.contains(m)) {
            if let Some(m) = legal.into_iter().next() {
                self.cursor = m.house().rel();
            }
        }
    }

    fn undo(&mut self) {
        self.finish_animation();
        self.cancel_thinking();
        if let Some(o) = self.game.outcome() {
            if matches!(
                o.reason,
                EndReason::Resignation | EndReason::Agreement | EndReason::Time
            ) {
                self.game.reopen();
                self.say(Tone::Info, "Taken back: play on.".to_string());
                self.after_move();
                return;
            }
        }
        let undone = take_back(&mut self.game, self.computer);
        if undone.is_empty() {
            self.say(Tone::Error, "There is no move to take back.".to_string());
        } else {
            let letters: String = undone.iter().map(|m| m.letter()).collect();
            self.redo.push(undone);
            self.say(Tone::Info, format!("Took back {letters}; r replays."));
        }
        self.after_move();
    }

    fn redo(&mut self) {
        self.finish_animation();
        let Some(moves) = self.redo.pop() else {
            self.say(Tone::Error, "There is nothing to replay.".to_string());
            return;
        };
        self.cancel_thinking();
        for &mv in &moves {
            if self.game.play(mv).is_err() {
                break;
            }
        }
        let letters: String = moves.iter().map(|m| m.letter()).collect();
        self.say(Tone::Info, format!("Replayed {letters}."));
        self.after_move();
    }

    fn start_game(&mut self) {
        let form = self.setup;
        if form.two_players {
            self.settings.opponent = Opponent::TwoPlayers;
            self.computer = None;
            self.bottom = Side::South;
        } else {
            let level = Level::new(form.level);
            self.settings.opponent = Opponent::Computer(level);
            self.settings.first = form.first;
            let me_first = match form.first {
                Starter::Me => true,
                Starter::Computer => false,
                Starter::Lot => random_u64() & 1 == 0,
            };
            // South moves first (the start position); the person takes
            // South when they start, North otherwise, and sits at the bottom.
            let me = if me_first { Side::South } else { Side::North };
            self.computer = Some((me.opponent(), level));
            self.bottom = me;
            let who = if me_first { "You" } else { "The computer" };
            let how = if form.first == Starter::Lot {
                " (drawn by lot)"
            } else {
                ""
            };
            self.message = Some((
                Tone::Info,
                format!("{who} start{}{how}.", if me_first { "" } else { "s" }),
            ));
        }
        if form.two_players {
            self.message = Some((
                Tone::Info,
                "South starts; North sits at the top.".to_string(),
            ));
        }
        self.game = Game::new(Position::start());
        self.seed = random_u64();
        self.begin_play();
    }

    fn begin_play(&mut self) {
        self.screen = Screen::Play;
        self.redo.clear();
        self.hint = None;
        self.anim = None;
        self.cancel_thinking();
        self.cursor = 0;
        self.fix_cursor();
        self.maybe_start_computer();
    }

    /// Continues the game of a record: the players from its `Computer` tag,
    /// else the current settings (the computer taking the side not to move).
    fn resume_record(&mut self, record: Record) {
        let to_move = record.game.position().to_move();
        self.computer = match Players::from_record(&record) {
            Some(p) => p.computer,
            None => match self.settings.opponent {
                Opponent::Computer(level) => Some((to_move.opponent(), level)),
                Opponent::TwoPlayers => None,
            },
        };
        self.bottom = match self.computer {
            Some((c, _)) => c.opponent(),
            None => Side::South,
        };
        self.game = record.game;
        self.begin_play();
    }

    fn show_setup(&mut self) {
        self.cancel_thinking();
        self.anim = None;
        self.screen = Screen::Setup;
        self.setup.field = 3;
        self.message = None;
    }

    /// Ends the app, saving an unfinished game for the next start.
    pub fn request_quit(&mut self) {
        self.cancel_thinking();
        self.stop = true;
        if let Some(path) = self.settings.autosave.clone() {
            if self.screen == Screen::Play && !self.game.is_over() && !self.game.plies().is_empty()
            {
                let _ = store::save(&path, &self.game, self.players());
            } else if self.screen != Screen::Resume {
                let _ = std::fs::remove_file(&path);
            }
        }
        self.quit = true;
    }

    fn say(&mut self, tone: Tone, text: String) {
        self.message = Some((tone, text));
    }
}

/// Takes back the last move, and against the computer as many moves as it
/// takes to give the person the move again. Returns the moves taken back, in
/// the order they had been played.
pub fn take_back(game: &mut Game, computer: Option<(Side, Level)>) -> Vec<Move> {
    let mut undone = Vec::new();
    loop {
        match game.undo() {
            Ok(Ply::Move(m)) => undone.push(m),
            Ok(Ply::Pass) => {}
            Err(_) => break,
        }
        let to_move = game.position().to_move();
        if computer.is_none_or(|(c, _)| c != to_move) {
            break;
        }
    }
    undone.reverse();
    undone
}

/// A player's name: "You"/"Computer" against the computer, else the side.
pub fn player_name(computer: Option<(Side, Level)>, side: Side) -> String {
    match computer {
        Some((c, _)) if c == side => "Computer".to_string(),
        Some(_) => "You".to_string(),
        None => match side {
            Side::South => "South".to_string(),
            Side::North => "North".to_string(),
        },
    }
}

/// What a move did, in a sentence.
pub fn describe_move(
    computer: Option<(Side, Level)>,
    before: &Position,
    trace: &MoveTrace,
) -> String {
    let who = player_name(computer, before.to_move());
    let mut s = format!("{who} played {}", trace.mv.letter());
    let n = trace.captured_seeds();
    if n > 0 {
        let mut houses: Vec<char> = trace.captured.iter().map(|(h, _)| h.letter()).collect();
        houses.reverse();
        let houses: String = houses.into_iter().collect();
        s.push_str(&format!(" and captured {n} ({houses})."));
    } else if trace.grand_slam {
        s.push_str(": that capture would have emptied the whole row, so nothing is taken (R7).");
    } else {
        s.push('.');
    }
    s
}

/// An engine score for the player to move, in words.
pub fn describe_score(score: Score) -> String {
    if score.is_proven() {
        let plies = Score::WIN - score.0.abs();
        let moves = (plies + 1) / 2;
        if score.0 > 0 {
            format!(
                "a forced win in {moves} move{}",
                if moves == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "a forced loss in {moves} move{}",
                if moves == 1 { "" } else { "s" }
            )
        }
    } else {
        let seeds = score.0 as f64 / 100.0;
        if seeds.abs() < 0.25 {
            "the game is about even".to_string()
        } else if seeds > 0.0 {
            format!("you stand {seeds:.1} seeds better")
        } else {
            format!("you stand {:.1} seeds worse", -seeds)
        }
    }
}

/// The game-over text: why, the totals, who won.
pub fn outcome_lines(game: &Game, computer: Option<(Side, Level)>) -> Vec<String> {
    let Some(o) = game.outcome() else {
        return Vec::new();
    };
    let name = |s: Side| player_name(computer, s);
    let to_move = game.position().to_move();
    let loser = o.winner.map(|w| w.opponent()).unwrap_or(to_move);
    let why = match o.reason {
        EndReason::Majority => {
            format!("{} captured 25 seeds or more (R10).", o.winner.map(name).unwrap_or_default())
        }
        EndReason::EvenSplit => "Both players captured 24 seeds (R10).".to_string(),
        EndReason::NoMoves => format!(
            "{} had no legal move, so each player took the seeds left in their own row (R9).",
            name(to_move)
        ),
        EndReason::Repetition => {
            "The same position came back a third time without a capture; each player took the seeds in their own row (R11)."
                .to_string()
        }
        EndReason::Agreement => {
            "The players agreed to stop; each took the seeds in their own row (R12).".to_string()
        }
        EndReason::Resignation => format!("{} resigned.", name(loser)),
        EndReason::Time => format!("{} ran out of time (R13).", name(loser)),
    };
    let label = |s: Side| {
        let side = if s == Side::South { "South" } else { "North" };
        if computer.is_some() {
            format!("{side} ({})", name(s))
        } else {
            side.to_string()
        }
    };
    let totals = format!(
        "Final totals: {} {}, {} {}.",
        label(Side::South),
        o.totals[0],
        label(Side::North),
        o.totals[1]
    );
    let result = match o.winner {
        None => "The game is a draw.".to_string(),
        Some(w) => match computer {
            Some((c, _)) if c == w => "The computer wins.".to_string(),
            Some(_) => "You win!".to_string(),
            None => format!("{} wins.", name(w)),
        },
    };
    vec![why, totals, result]
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::parse_moves;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    fn two_players() -> App {
        let settings = Settings {
            opponent: Opponent::TwoPlayers,
            animation: false,
            ..Settings::default()
        };
        let mut app = App::new(settings, Start::Setup);
        app.on_key(key(KeyCode::Enter));
        assert_eq!(app.screen, Screen::Play);
        app
    }

    fn with_position(app: &mut App, pos: &str) {
        let record = Record::from_game(Game::new(pos.parse().unwrap()), &[]);
        app.resume_record(record);
    }

    #[test]
    fn letters_choose_and_enter_plays() {
        let mut app = two_players();
        app.on_key(key(KeyCode::Char('f')));
        assert_eq!(app.cursor, 5);
        app.on_key(key(KeyCode::Enter));
        assert_eq!(
            app.game.position().to_string(),
            "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"
        );
        assert_eq!(app.last_move(), Some((Move::from_letter('F').unwrap(), 0)));
    }

    #[test]
    fn arrows_follow_the_screen_for_both_rows() {
        let mut app = two_players();
        app.on_key(key(KeyCode::Char('c')));
        app.on_key(key(KeyCode::Right));
        assert_eq!(app.cursor, 3, "bottom row: right goes towards F");
        app.on_key(key(KeyCode::Enter)); // D
        app.on_key(key(KeyCode::Char('c')));
        app.on_key(key(KeyCode::Right));
        assert_eq!(app.cursor, 1, "top row is drawn f..a: right goes towards a");
    }

    #[test]
    fn illegal_choices_are_refused_with_the_reason() {
        let mut app = two_players();
        // E9: North is empty; only F feeds it (R8).
        with_position(&mut app, "3-0-0-0-0-1-0-0-0-0-0-0-22-22-S");
        app.computer = None;
        app.on_key(key(KeyCode::Char('A')));
        assert!(app.cursor_refusal().unwrap().contains("R8"));
        app.on_key(key(KeyCode::Enter));
        let (tone, text) = app.message.clone().unwrap();
        assert_eq!(tone, Tone::Error);
        assert!(
            text.contains("does not feed") && text.contains("R8"),
            "{text}"
        );
        assert!(app.game.plies().is_empty());
        app.on_key(key(KeyCode::Char('B')));
        app.on_key(key(KeyCode::Enter));
        assert!(app.message.clone().unwrap().1.contains("empty"));
    }

    #[test]
    fn marks_and_warnings_follow_the_cursor_and_switch_off() {
        let mut app = two_players();
        // E2's study position: F lands in a... captures 4.
        with_position(&mut app, "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S");
        app.on_key(key(KeyCode::Char('f')));
        assert_eq!(app.landing(), Some((House::from_letter('b').unwrap(), 4)));
        app.on_key(key(KeyCode::Char('m')));
        assert_eq!(app.landing(), None);
        // From the start, E gives North nothing to take; later positions do.
        with_position(&mut app, "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S");
        app.on_key(key(KeyCode::Char('d')));
        // After D (1 seed to E), North's f (2 seeds) lands in B making 3, and A... (E8-like).
        let danger = app.danger();
        assert!(
            danger.is_some_and(|(m, n)| m.letter() == 'f' && n > 0),
            "{danger:?}"
        );
        app.on_key(key(KeyCode::Char('w')));
        assert_eq!(app.danger(), None);
    }

    #[test]
    fn animation_steps_seed_by_seed_and_a_key_skips_it() {
        let settings = Settings {
            opponent: Opponent::TwoPlayers,
            ..Settings::default()
        };
        let mut app = App::new(settings, Start::Setup);
        app.on_key(key(KeyCode::Enter));
        with_position(&mut app, "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S");
        app.on_key(key(KeyCode::Char('f')));
        app.on_key(key(KeyCode::Enter));
        assert!(app.animating());
        let v = app.board_view();
        assert_eq!(v.houses[5], 0);
        assert_eq!(v.houses[6], 1, "nothing sown yet");
        app.tick(Duration::from_millis(200));
        assert_eq!(app.board_view().houses[6], 2, "first seed in a");
        assert_eq!(app.board_view().houses[7], 1);
        app.tick(Duration::from_millis(140));
        assert_eq!(app.board_view().houses[7], 2, "second seed in b");
        app.tick(Duration::from_millis(450));
        let v = app.board_view();
        assert_eq!(v.capturing, vec![House::from_letter('b').unwrap()]);
        assert_eq!(v.stores[0], 22);
        assert!(app.message.clone().unwrap().1.contains("captures 4"));
        app.on_key(key(KeyCode::Char('x')));
        assert!(!app.animating());
        assert_eq!(app.board_view(), BoardView::of(app.game.position()));
        assert_eq!(app.board_view().stores[0], 24);
    }

    #[test]
    fn computer_moves_come_from_search_results_and_undo_redo_pairs_them() {
        let settings = Settings {
            animation: false,
            ..Settings::default()
        };
        let mut app = App::new(settings, Start::Setup);
        app.on_key(key(KeyCode::Enter));
        assert_eq!(app.computer.map(|c| c.0), Some(Side::North));
        app.on_key(key(KeyCode::Char('f')));
        app.on_key(key(KeyCode::Enter));
        assert!(app.computer_thinking());
        let req = app.take_requests().pop().unwrap();
        assert_eq!(req.game.plies().len(), 1);
        // Keys other than quit/undo do not play while the computer thinks.
        app.on_key(key(KeyCode::Char('a')));
        app.on_key(key(KeyCode::Enter));
        assert_eq!(app.game.plies().len(), 1);
        assert!(app
            .message
            .clone()
            .unwrap()
            .1
            .contains("computer is thinking"));
        let mut engine = oware_engine::Engine::new(oware_engine::EngineOptions {
            hash_mb: 1,
            tablebase_dir: None,
        });
        let result = engine.search(&req.game, &Limits::depth(2), &mut |_| {});
        app.on_search_result(req.id + 100, result.clone()); // stale id: ignored
        assert_eq!(app.game.plies().len(), 1);
        app.on_search_result(req.id, result);
        assert_eq!(app.game.plies().len(), 2);
        assert!(app.human_to_move());
        app.on_key(key(KeyCode::Char('u')));
        assert!(
            app.game.plies().is_empty(),
            "undo takes back the reply and the move"
        );
        app.on_key(key(KeyCode::Char('r')));
        assert_eq!(app.game.plies().len(), 2);
        assert!(app.human_to_move());
    }

    #[test]
    fn computer_can_start_and_then_sits_at_the_top() {
        let settings = Settings {
            first: Starter::Computer,
            animation: false,
            ..Settings::default()
        };
        let mut app = App::new(settings, Start::Setup);
        app.on_key(key(KeyCode::Enter));
        assert_eq!(app.bottom, Side::North);
        assert!(app.computer_thinking());
        assert_eq!(app.take_requests().len(), 1);
        app.on_key(key(KeyCode::Char('q')));
        assert!(app.quit);
        assert!(app.take_stop(), "quitting stops the search");
    }

    #[test]
    fn agreement_and_resignation_end_the_game() {
        let mut app = two_players();
        for c in "FfBe".chars() {
            app.on_key(key(KeyCode::Char(c)));
            app.on_key(key(KeyCode::Enter));
        }
        app.on_key(key(KeyCode::Char('p')));
        assert_eq!(
            app.prompt,
            Some(Prompt::Agreement {
                proposer: Side::South
            })
        );
        app.on_key(key(KeyCode::Char('n')));
        assert!(!app.game.is_over());
        app.on_key(key(KeyCode::Char('p')));
        app.on_key(key(KeyCode::Char('y')));
        let o = *app.game.outcome().unwrap();
        assert_eq!(o.reason, EndReason::Agreement);
        assert_eq!(o.totals, app.game.position().totals_with_own_rows());
        assert!(outcome_lines(&app.game, None)[0].contains("R12"));
        app.on_key(key(KeyCode::Char('u')));
        assert!(!app.game.is_over(), "an agreement can be taken back");
        app.on_key(key(KeyCode::Char('x')));
        app.on_key(key(KeyCode::Char('y')));
        let o = *app.game.outcome().unwrap();
        assert_eq!(
            (o.reason, o.winner),
            (EndReason::Resignation, Some(Side::North))
        );
    }

    #[test]
    fn quitting_saves_an_unfinished_game_and_resume_offers_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = store::autosave_path(dir.path());
        let settings = Settings {
            animation: false,
            autosave: Some(path.clone()),
            ..Settings::default()
        };
        let mut app = App::new(settings.clone(), Start::Setup);
        app.on_key(key(KeyCode::Enter));
        app.on_key(key(KeyCode::Char('e')));
        app.on_key(key(KeyCode::Enter));
        app.on_key(key(KeyCode::Char('q')));
        let record = store::load(&path).unwrap();
        assert_eq!(record.game.plies().len(), 1);
        let mut app = App::new(settings.clone(), Start::OfferResume(Box::new(record)));
        assert_eq!(app.screen, Screen::Resume);
        app.on_key(key(KeyCode::Char('y')));
        assert_eq!(app.screen, Screen::Play);
        assert_eq!(app.game.plies().len(), 1);
        assert!(app.computer_thinking(), "the computer (North) is to move");
        // Declining removes the file.
        let record = store::load(&path).unwrap();
        let mut app = App::new(settings, Start::OfferResume(Box::new(record)));
        app.on_key(key(KeyCode::Char('n')));
        assert_eq!(app.screen, Screen::Setup);
        assert!(!path.exists());
    }

    #[test]
    fn game_over_by_rule_reports_reason_and_totals() {
        let mut app = two_players();
        // E10: North is empty and cannot be fed (R9).
        with_position(&mut app, "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S");
        assert!(app.game.is_over());
        let lines = outcome_lines(&app.game, None);
        assert!(lines[0].contains("R9"), "{lines:?}");
        assert!(lines[1] == "Final totals: South 25, North 23.", "{lines:?}");
        assert_eq!(lines[2], "South wins.");
        let game = Game::from_moves(
            "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S".parse().unwrap(),
            &parse_moves("F").unwrap(),
        )
        .unwrap();
        assert!(!game.is_over());
    }

    #[test]
    fn save_and_load_prompts_write_and_read_ogn() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = two_players();
        for c in "FfB".chars() {
            app.on_key(key(KeyCode::Char(c)));
            app.on_key(key(KeyCode::Enter));
        }
        app.on_key(key(KeyCode::Char('s')));
        assert!(matches!(&app.prompt, Some(Prompt::SavePath(p)) if p.ends_with(".ogn")));
        // Replace the proposed name with our own.
        for _ in 0..40 {
            app.on_key(key(KeyCode::Backspace));
        }
        let path = dir.path().join("g.ogn");
        for c in path.to_str().unwrap().chars() {
            app.on_key(key(KeyCode::Char(c)));
        }
        app.on_key(key(KeyCode::Enter));
        assert_eq!(app.prompt, None);
        assert!(
            app.message.clone().unwrap().1.starts_with("Saved to"),
            "{:?}",
            app.message
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("1. F f 2. B *"), "{text}");
        // Load it into a fresh app.
        let mut other = two_players();
        other.on_key(key(KeyCode::Char('l')));
        for c in path.to_str().unwrap().chars() {
            other.on_key(key(KeyCode::Char(c)));
        }
        other.on_key(key(KeyCode::Enter));
        assert_eq!(other.game, app.game);
        // A bad path is reported, not fatal.
        other.on_key(key(KeyCode::Char('l')));
        for c in "/nonexistent/x.ogn".chars() {
            other.on_key(key(KeyCode::Char(c)));
        }
        other.on_key(key(KeyCode::Enter));
        let (tone, text) = other.message.clone().unwrap();
        assert_eq!(tone, Tone::Error);
        assert!(text.contains("cannot read"), "{text}");
    }

    #[test]
    fn hints_come_from_the_engine_and_move_the_cursor() {
        let mut app = two_players();
        with_position(&mut app, "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S");
        app.on_key(key(KeyCode::Char('a')));
        app.on_key(key(KeyCode::Char('h')));
        assert!(app.hint_pending());
        let req = app.take_requests().pop().unwrap();
        let mut engine = oware_engine::Engine::new(oware_engine::EngineOptions {
            hash_mb: 1,
            tablebase_dir: None,
        });
        let result = engine.search(&req.game, &Limits::depth(4), &mut |_| {});
        let best = result.best.unwrap();
        app.on_search_result(req.id, result);
        assert_eq!(app.cursor, best.house().rel());
        let text = app.message.clone().unwrap().1;
        assert!(
            text.starts_with(&format!("Hint: play {}", best.letter())),
            "{text}"
        );
        assert_eq!(app.hint.as_ref().map(|h| h.0), Some(best));
    }

    #[test]
    fn scores_read_as_words() {
        assert_eq!(describe_score(Score(10)), "the game is about even");
        assert_eq!(describe_score(Score(150)), "you stand 1.5 seeds better");
        assert_eq!(describe_score(Score(-300)), "you stand 3.0 seeds worse");
        assert_eq!(describe_score(Score::win_in(3)), "a forced win in 2 moves");
        assert_eq!(describe_score(Score::loss_in(2)), "a forced loss in 1 move");
    }
}
