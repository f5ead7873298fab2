//! The game's state machine: screens, keys, turns, animation, the computer
//! and the learning aids. No drawing and no terminal here: [`crate::ui`]
//! draws an [`App`], [`crate::term`] feeds it keys, time and search results,
//! and runs the searches it asks for. Every rule question goes to
//! `oware-core`.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use oware_core::{Game, House, Move, MoveTrace, Ply, Position, Record, Side};
use oware_engine::{Level, Limits, SearchResult};
use oware_session::mistakes::{self, Candidate, Exercise, Retry};
use oware_session::words::TablesState;
use oware_session::{words, Analysis, AnalysisError, Budget, Judgement, Player, Preview, Session};
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
    fn label(self, lang: Lang) -> &'static str {
        match self {
            Starter::Me => lang.pick("me", "moi"),
            Starter::Computer => lang.pick("the computer", "l'ordinateur"),
            Starter::Lot => lang.pick("drawn by lot", "tiré au sort"),
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
    /// The language of every screen.
    pub lang: Lang,
    /// Where an unfinished game is saved on quit (`None`: not saved).
    pub autosave: Option<PathBuf>,
    /// Time the engine spends on a hint.
    pub hint_time: Duration,
    /// The computer's opening book (none: it searches from the first move).
    pub book: Option<std::sync::Arc<oware_engine::book::Book>>,
    /// The computer's evaluation network (the shipped one by default; none:
    /// the linear evaluation).
    pub network: Option<std::sync::Arc<oware_engine::nn::Network>>,
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
            network: Some(oware_engine::nn::Network::builtin()),
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
    /// "Learn from your mistakes" after a game against the computer.
    Mistakes,
}

/// The exercises "learn from your mistakes" offers at most: the moves
/// where the player lost most.
pub const MOST_EXERCISES: usize = 5;

/// "Learn from your mistakes": the person's moves of the finished game,
/// judged one by one by the coach's analysis (`oware_session::mistakes`,
/// as the web app judges them), then the ones where they lost most as
/// exercises.
#[derive(Debug)]
pub struct Review {
    candidates: Vec<Candidate>,
    found: Vec<(Exercise, Arc<Analysis>)>,
    judged: usize,
    /// The exercises, worst first, once every move is judged.
    pub exercises: Option<Vec<(Exercise, Arc<Analysis>)>>,
    /// The exercise shown.
    pub current: usize,
    /// The last try at it, judged.
    pub tried: Option<Retry>,
    /// The best move is shown.
    pub show_best: bool,
    /// The house under the cursor.
    pub cursor: usize,
}

impl Review {
    /// Moves judged so far, and to judge in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.judged, self.candidates.len())
    }

    /// The exercise shown, with the analysis of its position.
    pub fn exercise(&self) -> Option<&(Exercise, Arc<Analysis>)> {
        self.exercises.as_ref()?.get(self.current)
    }
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

/// A status message, kept in both languages.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Said {
    tone: Tone,
    en: String,
    fr: String,
}

impl Said {
    /// The message `text` gives in each language.
    pub fn new(tone: Tone, text: impl Fn(Lang) -> String) -> Said {
        Said {
            tone,
            en: text(Lang::En),
            fr: text(Lang::Fr),
        }
    }

    /// Its tone.
    pub fn tone(&self) -> Tone {
        self.tone
    }

    /// Its text in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Fr => &self.fr,
        }
    }
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

    /// The form's rows as (field, label, value), in field order.
    pub fn rows(&self, lang: Lang) -> Vec<(usize, &'static str, String)> {
        let mut rows = vec![(
            0,
            lang.pick("Opponent", "Adversaire"),
            if self.two_players {
                lang.pick("two people at this keyboard", "deux personnes à ce clavier")
            } else {
                lang.pick("the computer", "l'ordinateur")
            }
            .to_string(),
        )];
        if !self.two_players {
            let name = oware_session::levels::name(Level::new(self.level), lang);
            let level = match lang {
                Lang::En => format!("{} of 10 · {name}", self.level),
                Lang::Fr => format!("{} sur 10 · {name}", self.level),
            };
            rows.push((1, lang.pick("Level", "Niveau"), level));
            rows.push((
                2,
                lang.pick("Who starts", "Qui commence"),
                self.first.label(lang).to_string(),
            ));
        }
        rows.push((
            3,
            "",
            lang.pick("Start the game", "Commencer la partie")
                .to_string(),
        ));
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
    /// The limits (of a search).
    pub limits: Limits,
    /// `Some`: analyse every legal move with this budget (the coach's and
    /// the hint's one analysis, answered by
    /// [`App::on_analysis`]) instead of searching.
    pub analysis: Option<Budget>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    Move,
    Hint,
    Coach,
    /// The analysis of the review's candidate with this index.
    Review(usize),
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
    // The game and its players (also kept while on the setup screen).
    session: Session,
    /// The chosen house of the side to move, 0 = A/a.
    pub cursor: usize,
    /// The new-game form.
    pub setup: SetupForm,
    /// A question waiting for an answer.
    pub prompt: Option<Prompt>,
    // The status line, in both languages (switching the language on the
    // rules screen re-words it).
    message: Option<Said>,
    /// The rules screen is open, scrolled by this many lines.
    pub rules: Option<u16>,
    /// The game offered for resuming.
    pub resume: Option<Box<Record>>,
    /// "Learn from your mistakes", once asked for.
    pub review: Option<Review>,
    /// Set once the app wants to end.
    pub quit: bool,
    /// What to tell the player after the screen is closed (the autosave
    /// written, or why it could not be).
    pub farewell: Option<Said>,
    /// Why the unfinished game could not be saved on quitting, if it
    /// could not (the command then fails with it).
    pub unsaved: Option<store::StoreError>,
    /// Counts frames of the thinking indicator.
    pub spinner: usize,
    anim: Option<Animation>,
    thinking: Option<Thinking>,
    next_id: u64,
    requests: Vec<SearchRequest>,
    stop: bool,
    spin_time: Duration,
    seed: u64,
    // The endgame tables' end of loading (ready or failed) has been seen.
    tables_told: bool,
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
            session: Session::new(Game::new(Position::start()), None),
            cursor: 0,
            prompt: None,
            message: None,
            rules: None,
            resume: None,
            review: None,
            quit: false,
            farewell: None,
            unsaved: None,
            spinner: 0,
            anim: None,
            thinking: None,
            next_id: 1,
            requests: Vec::new(),
            stop: false,
            spin_time: Duration::ZERO,
            seed: random_u64(),
            tables_told: false,
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

    /// The game.
    pub fn game(&self) -> &Game {
        self.session.game()
    }

    /// The session: the game, its players, hints and the coach.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The computer's side and level; `None` between two people.
    pub fn computer(&self) -> Option<(Side, Level)> {
        self.session.computer()
    }

    /// The side whose row is drawn at the bottom: the person's.
    pub fn bottom(&self) -> Side {
        self.session.person_side()
    }

    /// The side whose houses the keys choose: the person's against the
    /// computer, the side to move between two people.
    pub fn keys_side(&self) -> Side {
        match self.computer() {
            Some((c, _)) => c.opponent(),
            None => self.game().position().to_move(),
        }
    }

    /// The language of the screens.
    pub fn lang(&self) -> Lang {
        self.settings.lang
    }

    /// The last hint, while it holds for the position: its move and text.
    pub fn hint(&self) -> Option<(Move, String)> {
        self.session
            .hint()
            .map(|h| (h.mv, h.text(self.settings.lang)))
    }

    /// Searches to start; the runtime runs them and answers with
    /// [`on_search_result`](Self::on_search_result).
    pub fn take_requests(&mut self) -> Vec<SearchRequest> {
        self.maybe_start_coach();
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

    /// True while an animation has not yet reached the move's capture: the
    /// move list then shows the move without it.
    pub fn capture_pending(&self) -> bool {
        self.anim
            .as_ref()
            .is_some_and(|a| !a.trace.captured.is_empty() && a.step <= a.trace.sown.len())
    }

    /// The board to draw.
    pub fn board_view(&self) -> BoardView {
        match &self.anim {
            Some(a) => a.frame(),
            None => BoardView::of(self.game().position()),
        }
    }

    /// The players, for game files.
    pub fn players(&self) -> Players {
        Players {
            computer: self.computer(),
        }
    }

    /// A player's name as shown, in the screens' language.
    pub fn name(&self, side: Side) -> &'static str {
        self.session.player(side).name(self.settings.lang)
    }

    /// True when a person chooses the next move.
    pub fn human_to_move(&self) -> bool {
        self.screen == Screen::Play && self.session.person_to_move()
    }

    /// The move under the cursor, when a person is to move.
    pub fn cursor_move(&self) -> Option<Move> {
        if !self.human_to_move() || self.anim.is_some() {
            return None;
        }
        Move::of(self.game().position().to_move(), self.cursor)
    }

    /// The last ply and the seeds it captured.
    pub fn last_move(&self) -> Option<(Move, u8)> {
        let n = self.game().plies().len();
        match self.game().plies().last()? {
            Ply::Move(m) => Some((*m, self.game().captured_by(n - 1))),
            Ply::Pass => None,
        }
    }

    /// What the cursor move would do (the landing mark's learning aid),
    /// when marks are on and the move is legal.
    pub fn landing(&self) -> Option<Preview> {
        if !self.settings.marks {
            return None;
        }
        self.session.preview(self.cursor_move()?).ok()
    }

    /// The coach's word on the cursor move, when warnings are on: its
    /// verdict from the analysis of the position (the one the hint comes
    /// from), once that analysis has arrived. A warning from "mistake" up.
    pub fn advice(&self) -> Option<Judgement> {
        if !self.settings.warnings {
            return None;
        }
        self.session.judge(self.cursor_move()?)
    }

    /// The player who would reply to the side to move.
    pub fn opponent_player(&self) -> Player {
        self.session
            .player(self.game().position().to_move().opponent())
    }

    /// Why the cursor move is illegal, if it is.
    pub fn cursor_refusal(&self) -> Option<String> {
        let mv = self.cursor_move()?;
        let refusal = self.session.preview(mv).err()?;
        let lang = self.settings.lang;
        Some(format!(
            "{}{} {}",
            mv.letter(),
            lang.pick(":", "\u{a0}:"),
            refusal.reason(lang)
        ))
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
            Screen::Mistakes => self.mistakes_key(key.code),
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
                    self.cancel_thinking();
                    if self.session.resign().is_ok() {
                        let m = Said::new(Tone::Info, |l| {
                            self.end_lines_in(l).into_iter().next().unwrap_or_default()
                        });
                        self.say(m);
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
                    if self.session.agree().is_ok() {
                        self.say_t(
                            Tone::Info,
                            "The players agreed to stop.",
                            "Les joueurs ont convenu d’arrêter.",
                        );
                    }
                } else if no {
                    self.prompt = None;
                    let player = self.session.player(proposer.opponent());
                    let m = Said::new(Tone::Info, |l| match l {
                        Lang::En => format!("{} declined; play on.", player.name(l)),
                        Lang::Fr => format!("{} refuse\u{a0}; la partie continue.", player.name(l)),
                    });
                    self.say(m);
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
                            self.say_t(Tone::Error, "No file name given.", "Aucun nom de fichier.");
                        } else if saving {
                            match store::save(&path, self.game(), self.players()) {
                                Ok(()) => self.say(Said::new(Tone::Info, |l| match l {
                                    Lang::En => format!("Game saved to {}.", path.display()),
                                    Lang::Fr => {
                                        format!("Partie enregistrée dans {}.", path.display())
                                    }
                                })),
                                Err(e) => self.say(Said::new(Tone::Error, |l| e.text(l))),
                            }
                        } else {
                            match store::load(&path) {
                                Ok(record) => {
                                    self.resume_record(record);
                                    self.say(Said::new(Tone::Info, |l| match l {
                                        Lang::En => format!("Loaded {}.", path.display()),
                                        Lang::Fr => {
                                            format!("Partie chargée\u{a0}: {}.", path.display())
                                        }
                                    }));
                                }
                                Err(e) => self.say(Said::new(Tone::Error, |l| e.text(l))),
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
                    self.say_t(
                        Tone::Info,
                        "Welcome back: the game goes on where you left it.",
                        "Bon retour\u{a0}: la partie reprend où vous l'aviez laissée.",
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
                if self.game().is_over() || self.game().plies().is_empty() {
                    self.show_setup();
                } else {
                    self.prompt = Some(Prompt::ConfirmNew);
                }
            }
            KeyCode::Char('u') | KeyCode::Char('U') | KeyCode::Backspace => self.undo(),
            KeyCode::Char('r') | KeyCode::Char('R') => self.redo(),
            KeyCode::Char('m') | KeyCode::Char('M') => {
                self.settings.marks = !self.settings.marks;
                self.switched("Landing marks", "Repères d'arrivée", self.settings.marks);
            }
            KeyCode::Char('w') | KeyCode::Char('W') => {
                self.settings.warnings = !self.settings.warnings;
                self.switched(
                    "Capture warnings",
                    "Alertes de prise",
                    self.settings.warnings,
                );
            }
            KeyCode::Char('t') | KeyCode::Char('T') => {
                self.settings.animation = !self.settings.animation;
                self.switched("Animation", "Animation", self.settings.animation);
            }
            KeyCode::Char('e') | KeyCode::Char('E') if self.can_review() => self.start_review(),
            _ if self.game().is_over() => {}
            KeyCode::Char('x') | KeyCode::Char('X') => self.prompt = Some(Prompt::ConfirmResign),
            KeyCode::Char('p') | KeyCode::Char('P') => {
                if self.computer().is_some() {
                    self.say(Said::new(Tone::Error, |l| {
                        oware_session::SessionError::AgreementNeedsTwoPeople.text(l)
                    }));
                } else {
                    self.prompt = Some(Prompt::Agreement {
                        proposer: self.game().position().to_move(),
                    });
                }
            }
            KeyCode::Char('h') | KeyCode::Char('H') => self.ask_hint(),
            KeyCode::Left | KeyCode::Right | KeyCode::Enter | KeyCode::Char(_)
                if !self.human_to_move() =>
            {
                self.say_t(
                    Tone::Warn,
                    "The computer is thinking: wait for its move (u takes back, q quits).",
                    "L'ordinateur réfléchit\u{a0}: attendez son coup (u annule, q quitte).",
                );
            }
            _ if !self.human_to_move() => {}
            KeyCode::Left | KeyCode::Right => {
                // The top row is drawn right to left (its `a` on the right).
                let rightwards =
                    (code == KeyCode::Right) == (self.game().position().to_move() == self.bottom());
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
                    let who = self.session.player(anim.before.to_move());
                    let trace = anim.trace.clone();
                    self.message =
                        Some(Said::new(Tone::Info, |l| words::capturing(who, &trace, l)));
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
        self.tell_tables();
    }

    /// Where the endgame tables stand, when the computer has some coming.
    pub fn tables_state(&self) -> Option<TablesState> {
        let loading = self.settings.tables.as_ref()?;
        Some(match loading.ready() {
            Some(t) => TablesState::Ready {
                seeds: t.max_seeds().unwrap_or(0),
            },
            None if loading.failure().is_some() => TablesState::Failed,
            None => TablesState::Loading,
        })
    }

    /// When the endgame tables finish loading (or fail) during a game,
    /// says so once in the status message, after what it already says: the
    /// panel's tables line gives way on small windows and busy panels.
    fn tell_tables(&mut self) {
        if self.tables_told {
            return;
        }
        let state = match self.tables_state() {
            None | Some(TablesState::Loading) => return,
            Some(state) => state,
        };
        self.tables_told = true;
        if self.screen != Screen::Play || self.game().is_over() {
            return;
        }
        let told = |l: Lang| words::tables(state, l);
        self.message = Some(match self.message.take() {
            Some(m) => Said {
                tone: m.tone,
                en: format!("{} {}", m.en, told(Lang::En)),
                fr: format!("{} {}", m.fr, told(Lang::Fr)),
            },
            None => Said::new(Tone::Info, told),
        });
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
                if let Some(mv) = self.session.computer_move(&result) {
                    self.play_move(mv);
                }
            }
            Purpose::Hint | Purpose::Coach | Purpose::Review(_) => {}
        }
    }

    /// An analysis finished (a hint's or the coach's).
    pub fn on_analysis(&mut self, id: u64, result: Result<Arc<Analysis>, AnalysisError>) {
        let Some(thinking) = self.thinking else {
            return;
        };
        if thinking.id != id {
            return;
        }
        self.thinking = None;
        if let Purpose::Review(i) = thinking.purpose {
            self.on_review_analysis(i, result.ok());
            return;
        }
        let Ok(analysis) = result else {
            return;
        };
        let accepted = self.session.accept_analysis(analysis).is_some();
        if accepted && thinking.purpose == Purpose::Hint {
            self.show_hint();
        }
    }

    // ---- learn from your mistakes ----------------------------------------

    /// True when the finished game was against the computer and the person
    /// played in it: "learn from your mistakes" is offered.
    pub fn can_review(&self) -> bool {
        self.screen == Screen::Play
            && self.game().is_over()
            && self.computer().is_some()
            && !mistakes::candidates(self.game(), self.session.person_side(), 1).is_empty()
    }

    /// Starts judging the person's moves (or shows the review already made).
    fn start_review(&mut self) {
        self.screen = Screen::Mistakes;
        if self.review.is_some() {
            return;
        }
        let candidates = mistakes::candidates(self.game(), self.session.person_side(), 150);
        self.review = Some(Review {
            candidates,
            found: Vec::new(),
            judged: 0,
            exercises: None,
            current: 0,
            tried: None,
            show_best: false,
            cursor: 0,
        });
        self.review_next();
    }

    /// Asks for the analysis of the next move to judge, or ends the review.
    fn review_next(&mut self) {
        let Some(r) = &mut self.review else {
            return;
        };
        if let Some(c) = r.candidates.get(r.judged) {
            let game = c.before.clone();
            let id = self.next_id;
            self.next_id += 1;
            self.thinking = Some(Thinking {
                id,
                purpose: Purpose::Review(r.judged),
            });
            self.requests.push(SearchRequest {
                id,
                game,
                limits: Limits::default(),
                analysis: Some(Budget::COACH),
            });
        } else if r.exercises.is_none() {
            let found = std::mem::take(&mut r.found);
            // The worst first: the exercises sorted by the seeds lost.
            let order: Vec<Exercise> = found.iter().map(|(e, _)| e.clone()).collect();
            let worst = mistakes::worst_first(order, MOST_EXERCISES);
            let exercises = worst
                .into_iter()
                .filter_map(|e| found.iter().find(|(f, _)| f.ply == e.ply).cloned())
                .collect();
            r.exercises = Some(exercises);
            r.current = 0;
            self.fix_review_cursor();
        }
    }

    fn on_review_analysis(&mut self, i: usize, analysis: Option<Arc<Analysis>>) {
        let Some(r) = &mut self.review else {
            return;
        };
        if i != r.judged {
            return;
        }
        if let (Some(a), Some(c)) = (analysis, r.candidates.get(i)) {
            if let Some(ex) = c.judge(&a) {
                r.found.push((ex, a));
            }
        }
        r.judged += 1;
        self.review_next();
    }

    fn fix_review_cursor(&mut self) {
        if let Some(r) = &mut self.review {
            if let Some((ex, _)) = r.exercises.as_ref().and_then(|e| e.get(r.current)) {
                let legal: Vec<Move> = ex.before.legal_moves().into_iter().collect();
                if !legal.iter().any(|m| m.house().rel() == r.cursor) {
                    r.cursor = legal.first().map_or(0, |m| m.house().rel());
                }
            }
        }
    }

    fn mistakes_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('q') => return self.request_quit(),
            KeyCode::Esc => {
                if matches!(
                    self.thinking,
                    Some(Thinking {
                        purpose: Purpose::Review(_),
                        ..
                    })
                ) {
                    // Leaving stops the judging; asking again starts over.
                    self.cancel_thinking();
                    self.review = None;
                }
                self.screen = Screen::Play;
                return;
            }
            KeyCode::Char('?') | KeyCode::F(1) => {
                self.rules = Some(0);
                return;
            }
            _ => {}
        }
        let side = self.session.person_side();
        let Some(r) = &mut self.review else {
            return;
        };
        let Some(n) = r.exercises.as_ref().map(Vec::len).filter(|&n| n > 0) else {
            return;
        };
        match code {
            KeyCode::Char('n') => {
                r.current = (r.current + 1) % n;
                r.tried = None;
                r.show_best = false;
                self.fix_review_cursor();
            }
            KeyCode::Char('s') => r.show_best = true,
            KeyCode::Left | KeyCode::Right => {
                // The person's row is at the bottom, drawn left to right.
                r.cursor = if code == KeyCode::Right {
                    (r.cursor + 1).min(5)
                } else {
                    r.cursor.saturating_sub(1)
                };
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                if let Some(h) = House::of(side, r.cursor) {
                    self.retry(Move::new(h));
                }
            }
            KeyCode::Char(c) => {
                let letter = match side {
                    Side::South => c.to_ascii_uppercase(),
                    Side::North => c.to_ascii_lowercase(),
                };
                if let Some(mv) = Move::from_letter(letter) {
                    r.cursor = mv.house().rel();
                    self.retry(mv);
                }
            }
            _ => {}
        }
    }

    /// A new try at the exercise shown, judged by its analysis.
    fn retry(&mut self, mv: Move) {
        let Some(r) = &mut self.review else {
            return;
        };
        let Some((ex, analysis)) = r.exercise().cloned() else {
            return;
        };
        match ex.retry(&analysis, mv) {
            Some(t) => r.tried = Some(t),
            None => {
                let refusal = oware_session::coach::check(&ex.before, mv).err();
                if let Some(refusal) = refusal {
                    self.say(Said::new(Tone::Error, move |l| refusal.text(mv, l)));
                }
            }
        }
    }

    /// What the mistakes screen says, in the screens' language: the
    /// progress, or the task, the last try judged and the best move when
    /// shown. Each with its tone.
    pub fn review_lines(&self) -> Vec<(Tone, String)> {
        let lang = self.lang();
        let computer = self.session.computer_side();
        let Some(r) = &self.review else {
            return Vec::new();
        };
        let Some(exercises) = &r.exercises else {
            let (k, n) = r.progress();
            return vec![(
                Tone::Info,
                match lang {
                    Lang::En => format!("The coach is going through your moves… {k} of {n}"),
                    Lang::Fr => format!("Le coach passe vos coups en revue… {k} sur {n}"),
                },
            )];
        };
        let Some((ex, analysis)) = exercises.get(r.current) else {
            let n = r.candidates.len();
            return vec![(
                Tone::Info,
                match lang {
                    Lang::En => {
                        format!("The coach found no mistake among your {n} moves. Well played!")
                    }
                    Lang::Fr => format!(
                        "Le coach n’a trouvé aucune erreur parmi vos {n} coups. Bien joué\u{a0}!"
                    ),
                },
            )];
        };
        let mut out = vec![(Tone::Info, ex.task(lang))];
        if let Some(t) = &r.tried {
            let tone = if t.solved { Tone::Info } else { Tone::Warn };
            out.push((tone, t.text(lang, computer)));
        }
        // The best move, once asked, in the coach's words ("B is the best
        // move (…)"), said once: not again when the last try was it.
        let best = analysis.best().mv;
        if r.show_best && r.tried.as_ref().map(|t| t.judgement.mv) != Some(best) {
            out.push((
                Tone::Info,
                match analysis.judge(best) {
                    Some(j) => j.text(lang, computer),
                    None => match lang {
                        Lang::En => format!("The best move: {}.", best.letter()),
                        Lang::Fr => format!("Le meilleur coup\u{a0}: {}.", best.letter()),
                    },
                },
            ));
        }
        if let Some((tone, text)) = self.message() {
            if tone == Tone::Error {
                out.push((tone, text.to_string()));
            }
        }
        out
    }

    fn show_hint(&mut self) {
        if let Some(hint) = self.session.hint() {
            let mv = hint.mv;
            let m = Said::new(Tone::Info, |l| hint.text(l));
            self.cursor = mv.house().rel();
            self.say(m);
        }
    }

    fn ask_hint(&mut self) {
        if !self.human_to_move() {
            return;
        }
        if self.session.analysis().is_some() {
            self.show_hint();
            return;
        }
        match &mut self.thinking {
            // The coach's analysis is under way: it answers the hint too.
            Some(t) if t.purpose == Purpose::Coach => t.purpose = Purpose::Hint,
            Some(_) => return,
            None => self.analyse(Purpose::Hint),
        }
        self.say_t(
            Tone::Info,
            "Looking for a good move…",
            "Recherche d'un bon coup…",
        );
    }

    fn analyse(&mut self, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        self.thinking = Some(Thinking { id, purpose });
        self.requests.push(SearchRequest {
            id,
            game: self.game().clone(),
            limits: Limits::default(),
            analysis: Some(Budget::COACH),
        });
    }

    /// On a person's turn with the coach on, starts the analysis its
    /// verdicts (and the hint) come from.
    fn maybe_start_coach(&mut self) {
        if self.settings.warnings
            && self.human_to_move()
            && self.anim.is_none()
            && self.thinking.is_none()
            && self.session.analysis().is_none()
        {
            self.analyse(Purpose::Coach);
        }
    }

    fn search(&mut self, purpose: Purpose, limits: Limits) {
        let id = self.next_id;
        self.next_id += 1;
        self.thinking = Some(Thinking { id, purpose });
        self.requests.push(SearchRequest {
            id,
            game: self.game().clone(),
            limits,
            analysis: None,
        });
    }

    fn cancel_thinking(&mut self) {
        if self.thinking.take().is_some() {
            self.stop = true;
        }
        self.requests.clear();
    }

    fn maybe_start_computer(&mut self) {
        if self.screen != Screen::Play || self.anim.is_some() || self.thinking.is_some() {
            return;
        }
        let seed =
            self.seed ^ (self.game().plies().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if let Some(limits) = self.session.computer_limits(seed) {
            self.search(Purpose::Move, limits);
        }
    }

    // ---- game actions ------------------------------------------------------

    fn play_cursor(&mut self) {
        let Some(mv) = self.cursor_move() else { return };
        if let Err(refusal) = self.session.preview(mv) {
            self.say(Said::new(Tone::Error, |l| refusal.text(mv, l)));
            return;
        }
        self.cancel_thinking();
        self.play_move(mv);
    }

    fn play_move(&mut self, mv: Move) {
        let before = *self.game().position();
        match self.session.play(mv) {
            Ok(trace) => {
                let who = self.session.player(before.to_move());
                if self.settings.animation {
                    self.message = Some(Said::new(Tone::Info, |l| words::sowing(who, mv, l)));
                    self.anim = Some(Animation {
                        before,
                        trace,
                        step: 0,
                        elapsed: Duration::ZERO,
                    });
                } else {
                    self.message = Some(Said::new(Tone::Info, |l| words::played(who, &trace, l)));
                    self.after_move();
                }
            }
            Err(e) => self.say(Said::new(Tone::Error, |l| e.text(l))),
        }
    }

    fn finish_animation(&mut self) {
        if let Some(anim) = self.anim.take() {
            let who = self.session.player(anim.before.to_move());
            self.message = Some(Said::new(Tone::Info, |l| {
                words::played(who, &anim.trace, l)
            }));
            self.after_move();
        }
    }

    fn after_move(&mut self) {
        self.fix_cursor();
        self.maybe_start_computer();
    }

    /// Puts the cursor on a legal house of the side to move.
    fn fix_cursor(&mut self) {
        let legal = self.game().legal_moves();
        if legal.is_empty() {
            return;
        }
        let here = Move::of(self.game().position().to_move(), self.cursor);
        if here.is_none_or(|m| !legal.contains(m)) {
            if let Some(m) = legal.into_iter().next() {
                self.cursor = m.house().rel();
            }
        }
    }

    fn undo(&mut self) {
        self.finish_animation();
        self.cancel_thinking();
        match self.session.take_back() {
            Ok(done) => self.say(Said::new(Tone::Info, |l| {
                let mut text = done.text(l);
                if !done.moves().is_empty() {
                    text.push(' ');
                    text.push_str(l.pick("r replays.", "r rétablit."));
                }
                text
            })),
            Err(e) => self.say(Said::new(Tone::Error, |l| e.text(l).to_string())),
        }
        self.after_move();
    }

    fn redo(&mut self) {
        self.finish_animation();
        if !self.session.can_redo() {
            self.say(Said::new(Tone::Error, |l| {
                oware_session::SessionError::NothingToRedo.text(l)
            }));
            return;
        }
        self.cancel_thinking();
        if let Ok(moves) = self.session.redo() {
            self.say(Said::new(Tone::Info, |l| replayed_text(&moves, l)));
        }
        self.after_move();
    }

    fn start_game(&mut self) {
        let form = self.setup;
        let computer = if form.two_players {
            self.settings.opponent = Opponent::TwoPlayers;
            self.say_t(
                Tone::Info,
                "South starts; North sits at the top.",
                "Sud commence\u{a0}; Nord est en haut.",
            );
            None
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
            let lot = form.first == Starter::Lot;
            self.say(Said::new(Tone::Info, |lang| {
                let text = match (lang, me_first) {
                    (Lang::En, true) => "You start",
                    (Lang::En, false) => "The computer starts",
                    (Lang::Fr, true) => "Vous commencez",
                    (Lang::Fr, false) => "L'ordinateur commence",
                };
                let how = if lot {
                    lang.pick(" (drawn by lot)", " (tiré au sort)")
                } else {
                    ""
                };
                format!("{text}{how}.")
            }));
            Some((me.opponent(), level))
        };
        self.session = Session::new(Game::new(Position::start()), computer);
        self.seed = random_u64();
        self.begin_play();
    }

    fn begin_play(&mut self) {
        self.screen = Screen::Play;
        self.anim = None;
        self.cancel_thinking();
        self.cursor = 0;
        self.fix_cursor();
        self.maybe_start_computer();
    }

    /// Continues the game of a record: the players from its `Computer` tag,
    /// else the current settings (the computer taking the side not to move).
    fn resume_record(&mut self, record: Record) {
        let computer = record_opponent(&record, &self.settings);
        self.session = Session::new(record.into_game(), computer);
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
            if self.screen == Screen::Play
                && !self.game().is_over()
                && !self.game().plies().is_empty()
            {
                self.farewell = match store::save(&path, self.game(), self.players()) {
                    Ok(()) => Some(Said::new(Tone::Info, |l| {
                        match l {
                        Lang::En => format!(
                            "The unfinished game was saved in {}; it will be offered next time.",
                            path.display()
                        ),
                        Lang::Fr => format!(
                            "La partie inachevée est enregistrée dans {}\u{a0}; elle sera proposée la prochaine fois.",
                            path.display()
                        ),
                    }
                    })),
                    Err(e) => {
                        self.unsaved = Some(e);
                        None
                    }
                };
            } else if self.screen != Screen::Resume {
                let _ = std::fs::remove_file(&path);
            }
        }
        self.quit = true;
    }

    /// The game-over text in the screens' language: why, totals, who won.
    pub fn end_lines(&self) -> Vec<String> {
        self.end_lines_in(self.settings.lang)
    }

    fn end_lines_in(&self, lang: Lang) -> Vec<String> {
        words::outcome_lines(self.game(), self.session.computer_side(), lang)
    }

    /// The status message in the screens' language.
    pub fn message(&self) -> Option<(Tone, &str)> {
        self.message
            .as_ref()
            .map(|m| (m.tone(), m.text(self.settings.lang)))
    }

    /// Shows a message on the current screen (news from outside the
    /// app, such as an autosave that could not be read).
    pub fn notify(&mut self, message: Said) {
        self.say(message);
    }

    fn say(&mut self, message: Said) {
        self.message = Some(message);
    }

    /// Says `en` or `fr`, whichever the language of the screen is.
    fn say_t(&mut self, tone: Tone, en: &str, fr: &str) {
        self.say(Said::new(tone, |l| l.pick(en, fr).to_string()));
    }

    fn switched(&mut self, en: &str, fr: &str, on: bool) {
        self.say(Said::new(Tone::Info, |l| match (l, on) {
            (Lang::En, true) => format!("{en} on."),
            (Lang::En, false) => format!("{en} off."),
            (Lang::Fr, true) => format!("{fr}\u{a0}: oui."),
            (Lang::Fr, false) => format!("{fr}\u{a0}: non."),
        }));
    }
}

/// "Replayed B and a." / "Coups rejoués : B et a."
pub fn replayed_text(moves: &[Move], lang: Lang) -> String {
    let list = words::move_list(moves, lang);
    match lang {
        Lang::En => format!("Replayed {list}."),
        Lang::Fr if moves.len() == 1 => format!("Coup rejoué\u{a0}: {list}."),
        Lang::Fr => format!("Coups rejoués\u{a0}: {list}."),
    }
}

/// Who plays a recorded game: its `Computer` tag, else the settings'
/// opponent taking the side not to move (the person resumes the move).
pub fn record_opponent(record: &Record, settings: &Settings) -> Option<(Side, Level)> {
    match Players::from_record(record) {
        Some(p) => p.computer,
        None => match settings.opponent {
            Opponent::Computer(level) => {
                Some((record.game().position().to_move().opponent(), level))
            }
            Opponent::TwoPlayers => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::{parse_moves, EndReason};

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
            app.game().position().to_string(),
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
        app.on_key(key(KeyCode::Char('A')));
        let why = app.cursor_refusal().unwrap();
        assert!(
            why.contains("does not feed") && !why.contains("R8"),
            "{why}"
        );
        app.on_key(key(KeyCode::Enter));
        let (tone, text) = app.message().unwrap();
        assert_eq!(tone, Tone::Error);
        assert!(
            text.contains("does not feed") && !text.contains("(R8)"),
            "{text}"
        );
        assert!(app.game().plies().is_empty());
        app.on_key(key(KeyCode::Char('B')));
        app.on_key(key(KeyCode::Enter));
        assert!(app.message().unwrap().1.contains("empty"));
    }

    /// Runs an analysis request (at a small depth) and hands it to the app;
    /// returns its best move.
    fn answer_analysis(app: &mut App, req: SearchRequest) -> Move {
        let mut engine = oware_engine::Engine::new(oware_engine::EngineOptions {
            hash_mb: 1,
            tablebase_dir: None,
        });
        let a = Analysis::run(
            &mut engine,
            &req.game,
            Budget::depth(6),
            &oware_engine::StopHandle::default(),
        )
        .unwrap();
        let best = a.best().mv;
        app.on_analysis(req.id, Ok(Arc::new(a)));
        best
    }

    #[test]
    fn marks_and_warnings_follow_the_cursor_and_switch_off() {
        let mut app = two_players();
        // E2's study position: F lands in a... captures 4.
        with_position(&mut app, "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S");
        app.on_key(key(KeyCode::Char('f')));
        let landing = app.landing().unwrap();
        assert_eq!(
            (landing.last, landing.seeds()),
            (House::from_letter('b').unwrap(), 4)
        );
        app.on_key(key(KeyCode::Char('m')));
        assert_eq!(app.landing(), None);
        // From the start, E gives North nothing to take; later positions do.
        with_position(&mut app, "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S");
        app.on_key(key(KeyCode::Char('d')));
        // The coach's analysis is asked for on the person's turn; until it
        // arrives there is no verdict.
        assert_eq!(app.advice(), None);
        let req = app.take_requests().pop().unwrap();
        assert!(req.analysis.is_some());
        answer_analysis(&mut app, req);
        // After D (1 seed to E), North's f (2 seeds) lands in B making 3, and
        // A makes 2: the engine coach calls D a mistake at least.
        let advice = app.advice().unwrap();
        assert!(advice.is_warning(), "{advice:?}");
        let text = advice.text(Lang::En, None);
        assert!(text.starts_with("D is a"), "{text}");
        app.on_key(key(KeyCode::Char('w')));
        assert_eq!(app.advice(), None);
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
        assert!(app.message().unwrap().1.contains("captures 4"));
        app.on_key(key(KeyCode::Char('x')));
        assert!(!app.animating());
        assert_eq!(app.board_view(), BoardView::of(app.game().position()));
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
        assert_eq!(app.computer().map(|c| c.0), Some(Side::North));
        app.on_key(key(KeyCode::Char('f')));
        app.on_key(key(KeyCode::Enter));
        assert!(app.computer_thinking());
        let req = app.take_requests().pop().unwrap();
        assert_eq!(req.game.plies().len(), 1);
        // Keys other than quit/undo do not play while the computer thinks.
        app.on_key(key(KeyCode::Char('a')));
        app.on_key(key(KeyCode::Enter));
        assert_eq!(app.game().plies().len(), 1);
        assert!(app.message().unwrap().1.contains("computer is thinking"));
        let mut engine = oware_engine::Engine::new(oware_engine::EngineOptions {
            hash_mb: 1,
            tablebase_dir: None,
        });
        let result = engine.search(&req.game, &Limits::depth(2), &mut |_| {});
        app.on_search_result(req.id + 100, result.clone()); // stale id: ignored
        assert_eq!(app.game().plies().len(), 1);
        app.on_search_result(req.id, result);
        assert_eq!(app.game().plies().len(), 2);
        assert!(app.human_to_move());
        app.on_key(key(KeyCode::Char('u')));
        assert!(
            app.game().plies().is_empty(),
            "undo takes back the reply and the move"
        );
        app.on_key(key(KeyCode::Char('r')));
        assert_eq!(app.game().plies().len(), 2);
        assert!(app.human_to_move());
    }

    #[test]
    fn after_a_game_against_the_computer_the_worst_moves_come_back_as_exercises() {
        let settings = Settings {
            animation: false,
            warnings: false,
            ..Settings::default()
        };
        let mut app = App::new(settings, Start::Setup);
        app.on_key(key(KeyCode::Enter));
        // After D, North's f captures 5 and reaches 26: D is a mistake.
        with_position(&mut app, "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S");
        assert_eq!(app.computer().map(|c| c.0), Some(Side::North));
        assert!(!app.can_review(), "not while the game goes on");
        app.on_key(key(KeyCode::Char('d')));
        app.on_key(key(KeyCode::Enter));
        let req = app.take_requests().pop().unwrap();
        let mut engine = oware_engine::Engine::new(oware_engine::EngineOptions {
            hash_mb: 1,
            tablebase_dir: None,
        });
        let result = engine.search(&req.game, &Limits::depth(4), &mut |_| {});
        app.on_search_result(req.id, result);
        assert!(app.game().is_over(), "{}", app.game().position());
        assert!(app.can_review());
        assert!(crate::ui::help_text(&app).contains("e learn from your mistakes"));
        app.on_key(key(KeyCode::Char('e')));
        assert_eq!(app.screen, Screen::Mistakes);
        assert!(app.review_lines()[0]
            .1
            .contains("going through your moves… 0 of 1"));
        let req = app
            .take_requests()
            .pop()
            .expect("the analysis of D's position");
        let best = answer_analysis(&mut app, req);
        assert!(app.take_requests().is_empty(), "one move to judge");
        let lines = app.review_lines();
        assert!(
            lines[0].1.starts_with("Move 1: you played D, a "),
            "{lines:?}"
        );
        // A try with the move played again is not yet it; the best move is.
        app.on_key(key(KeyCode::Char('d')));
        assert!(app.review_lines()[1].1.starts_with("Not yet: D is a "));
        app.on_key(key(KeyCode::Char(best.letter().to_ascii_lowercase())));
        assert!(
            app.review_lines()[1].1.starts_with("Better! "),
            "{:?}",
            app.review_lines()
        );
        // Shown after the best move was tried, the best move is not said
        // a second time.
        app.on_key(key(KeyCode::Char('s')));
        let said = |app: &App| {
            app.review_lines()
                .iter()
                .filter(|(_, t)| t.contains("is the best move"))
                .count()
        };
        assert_eq!(said(&app), 1, "{:?}", app.review_lines());
        // After another try, it is said in the coach's words.
        app.on_key(key(KeyCode::Char('d')));
        let lines = app.review_lines();
        assert!(
            lines[2]
                .1
                .starts_with(&format!("{} is the best move", best.letter())),
            "{lines:?}"
        );
        assert_eq!(said(&app), 1, "{lines:?}");
        app.on_key(key(KeyCode::Esc));
        assert_eq!(app.screen, Screen::Play);
        // Asked again, the review is already made.
        app.on_key(key(KeyCode::Char('e')));
        assert!(app.take_requests().is_empty());
        assert_eq!(
            app.review
                .as_ref()
                .unwrap()
                .exercises
                .as_ref()
                .unwrap()
                .len(),
            1
        );
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
        assert_eq!(app.bottom(), Side::North);
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
        assert!(!app.game().is_over());
        app.on_key(key(KeyCode::Char('p')));
        app.on_key(key(KeyCode::Char('y')));
        let o = *app.game().outcome().unwrap();
        assert_eq!(o.reason, EndReason::Agreement);
        assert_eq!(o.totals, app.game().position().totals_with_own_rows());
        assert_eq!(
            app.end_lines()[0],
            "The players agreed to stop, and each took the seeds on their side."
        );
        app.on_key(key(KeyCode::Char('u')));
        assert!(!app.game().is_over(), "an agreement can be taken back");
        app.on_key(key(KeyCode::Char('x')));
        app.on_key(key(KeyCode::Char('y')));
        let o = *app.game().outcome().unwrap();
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
        assert_eq!(record.game().plies().len(), 1);
        let mut app = App::new(settings.clone(), Start::OfferResume(Box::new(record)));
        assert_eq!(app.screen, Screen::Resume);
        app.on_key(key(KeyCode::Char('y')));
        assert_eq!(app.screen, Screen::Play);
        assert_eq!(app.game().plies().len(), 1);
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
        assert!(app.game().is_over());
        let lines = app.end_lines();
        assert!(
            lines[0].starts_with("The empty row could not be fed"),
            "{lines:?}"
        );
        assert!(!lines[0].contains("(R9)"), "{lines:?}");
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
            app.message().unwrap().1.starts_with("Game saved to"),
            "{:?}",
            app.message()
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
        assert_eq!(other.game(), app.game());
        // A bad path is reported, not fatal.
        other.on_key(key(KeyCode::Char('l')));
        for c in "/nonexistent/x.ogn".chars() {
            other.on_key(key(KeyCode::Char(c)));
        }
        other.on_key(key(KeyCode::Enter));
        let (tone, text) = other.message().map(|(t, m)| (t, m.to_string())).unwrap();
        assert_eq!(tone, Tone::Error);
        assert!(text.starts_with("Could not read the game file"), "{text}");
    }

    #[test]
    fn hints_come_from_the_engine_and_move_the_cursor() {
        let mut app = two_players();
        with_position(&mut app, "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S");
        app.on_key(key(KeyCode::Char('a')));
        app.on_key(key(KeyCode::Char('h')));
        assert!(app.hint_pending());
        let req = app.take_requests().pop().unwrap();
        assert!(req.analysis.is_some(), "the hint is the coach's analysis");
        let best = answer_analysis(&mut app, req);
        assert_eq!(app.cursor, best.house().rel());
        let text = app.message().unwrap().1;
        assert!(
            text.starts_with(&format!("Hint: play {}", best.letter())),
            "{text}"
        );
        assert_eq!(app.hint().map(|h| h.0), Some(best));
        // The coach agrees with the hint: the cursor is on the hint's move,
        // and whatever it gives up is explained, not warned about.
        assert!(
            !app.advice().is_some_and(|a| a.is_warning()),
            "{:?}",
            app.advice()
        );
    }
}
