//! The API: one JSON request in, one JSON answer out.
//!
//! Every request is parsed once into [`Request`]; every answer is a struct
//! below, with `"ok": true`, or an [`Refusal`] with `"ok": false`, a stable
//! `code` and a message in English. docs/WEB.md lists the requests.

use std::sync::Arc;
use std::time::Duration;

use oware_core::{parse_plies, perft, Game, Move, Position, Side};
use oware_engine::book::Book;
use oware_engine::tablebase::Tablebase;
use oware_engine::{bench, Engine, EngineOptions, Level, Limits, Score, SearchInfo, StopHandle};
use oware_session::analysis::{Analysis, AnalysisCache, AnalysisError, Budget};
use oware_session::puzzles::{self, Puzzle};
use oware_session::review::{self, ReviewedPly};
use oware_session::wire::{self, Code};
use oware_session::{Lang, ScoreKind, TakeBackPlan};
use serde::{Deserialize, Serialize};

/// The transposition table of the browser's engine, in MiB (the server's
/// default too).
pub const DEFAULT_HASH_MB: usize = 16;

/// The largest perft depth accepted (depth 12 from the start is about
/// two minutes natively).
const MAX_PERFT_DEPTH: u32 = 14;

/// A game: a start position (`"start"` or a position string) and the plies
/// played from it (move letters, `-` for a turn lost on time).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// The start position; the usual start when absent.
    #[serde(default)]
    pub start: Option<String>,
    /// The plies played, as in `"FfAa"`.
    #[serde(default)]
    pub moves: String,
}

/// One request.
#[derive(Deserialize, Debug)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The module's version and what it holds.
    Version,
    /// Parses a position string.
    Position {
        /// The text.
        text: String,
    },
    /// Replays a game through the rules and describes where it stands.
    Replay {
        /// The game.
        game: GameSpec,
        /// An action after the plies: `agree`, `pass`, `resign S|N`,
        /// `time S|N`.
        #[serde(default)]
        action: Option<String>,
        /// Moves whose legality to check in the final position.
        #[serde(default)]
        check: Vec<String>,
    },
    /// The game as an OGN record, written by the core's writer (the
    /// server's records come from the same one), for a game kept on the
    /// device.
    Ogn {
        /// The game.
        game: GameSpec,
        /// An action after the plies, as for `replay`.
        #[serde(default)]
        action: Option<String>,
        /// South's name (`?` when absent).
        #[serde(default)]
        south: Option<String>,
        /// North's name (`?` when absent).
        #[serde(default)]
        north: Option<String>,
        /// The date, `YYYY.MM.DD`.
        #[serde(default)]
        date: Option<String>,
        /// The event.
        #[serde(default)]
        event: Option<String>,
    },
    /// Reads an OGN record (the core's reader, the server's
    /// `POST /games/import` too): the game it holds, to keep on the device
    /// and review there. A record the core refuses answers `bad_record`
    /// with the reader's `reason` code, `line` and `column` (and `rule`
    /// for an illegal move).
    ReadOgn {
        /// The record's text.
        text: String,
    },
    /// How far a take-back goes (oware-session's `plan_take_back`): to
    /// `side`'s turn having taken back its last move, or one ply when
    /// `side` is absent (two people at one board); a game ended by an
    /// `action` (agreement, resignation, time) is reopened instead.
    TakeBack {
        /// The game.
        game: GameSpec,
        /// The action that ended it, if any (as in `replay`).
        #[serde(default)]
        action: Option<String>,
        /// The side taking back (`S` or `N`).
        #[serde(default)]
        side: Option<String>,
    },
    /// Counts the move sequences of `depth` plies.
    Perft {
        /// The position (`"start"` or a position string).
        position: String,
        /// Plies.
        depth: u32,
    },
    /// The engine's move.
    Search {
        /// The game.
        game: GameSpec,
        /// Depth limit.
        #[serde(default)]
        depth: Option<u32>,
        /// Time limit in milliseconds.
        #[serde(default)]
        movetime_ms: Option<u64>,
        /// Node limit.
        #[serde(default)]
        nodes: Option<u64>,
        /// Playing level 1..=10 (its own limits apply, `movetime_ms`
        /// caps a level that has no time limit).
        #[serde(default)]
        level: Option<u8>,
        /// Seed of the weaker levels' choices.
        #[serde(default)]
        seed: u64,
        /// Clear the table first (a new game).
        #[serde(default)]
        new_game: bool,
    },
    /// The coach's analysis: every legal move valued and judged.
    Analyse {
        /// The game.
        game: GameSpec,
        /// Depth (the coach's budget when absent).
        #[serde(default)]
        depth: Option<u32>,
        /// Language of the explanations: `en` or `fr`.
        #[serde(default)]
        lang: Option<String>,
        /// The computer's side, if any (the explanations name the players).
        #[serde(default)]
        computer: Option<String>,
    },
    /// The bench: its node count is the engine's signature.
    Bench {
        /// Depth (as `oware bench --depth`).
        depth: u32,
        /// Table size in MiB (as `oware bench --hash`).
        hash_mb: usize,
    },
    /// Installs the table files added since the last `tables` request
    /// (files of 0, 1, 2, … seeds, in order).
    Tables,
    /// Sets the number of search threads (Lazy SMP, as the native
    /// `Threads`): at most one more than the helper workers the host
    /// started (the threads build, `oware-threads.wasm`); one in the other
    /// builds. Answers the number in force.
    Threads {
        /// Threads wanted (1..=64).
        threads: usize,
    },
    /// Sets the transposition table's size.
    Hash {
        /// MiB (1..=256).
        mb: usize,
    },
    /// The engine's review of a whole game (`oware_session::review`, the
    /// server's `GET /games/{id}/review`): every move played judged by the
    /// coach's analysis of its position (the `analyse` request's).
    Review {
        /// The game.
        game: GameSpec,
        /// Checked (10..=2000) as the server checks it, and unused: the
        /// review's budget is the coach's depth.
        #[serde(default)]
        movetime_ms: Option<u64>,
    },
    /// A puzzle of the shipped set for a player rated `rating`
    /// (`PuzzleSet::nearest` over the starting ratings: offline there is
    /// no server to keep the puzzles' ratings), as the server's
    /// `GET /api/v1/puzzles/next` answers it.
    PuzzleNext {
        /// The player's rating.
        rating: f64,
        /// Puzzle ids to leave out (tried already).
        #[serde(default)]
        skip: Vec<u32>,
        /// Which of the nearest puzzles (the page's random number).
        #[serde(default)]
        seed: u64,
        /// `en` or `fr`.
        #[serde(default)]
        lang: Option<String>,
    },
    /// The day's puzzle (`PuzzleSet::daily`: the server's too).
    PuzzleDaily {
        /// Days since 1970-01-01, UTC.
        day: i64,
        /// `en` or `fr`.
        #[serde(default)]
        lang: Option<String>,
    },
    /// One puzzle by its number.
    Puzzle {
        /// Its number.
        id: u32,
        /// `en` or `fr`.
        #[serde(default)]
        lang: Option<String>,
    },
    /// An attempt at a puzzle judged (`Puzzle::attempt`) and worded
    /// (`Attempt::text`) as the server's `POST /api/v1/puzzles/{id}/attempt`
    /// answers it, never rated.
    PuzzleAttempt {
        /// The puzzle.
        id: u32,
        /// The moves played (letters); the first is judged.
        moves: Vec<String>,
        /// `en` or `fr`.
        #[serde(default)]
        lang: Option<String>,
    },
}

/// A refusal: the server's refusal object (`oware_session::wire`), one
/// code list and one shape for both.
pub type Refusal = wire::Refusal;

fn refuse(code: Code, message: impl Into<String>) -> Refusal {
    Refusal::new(code, message)
}

#[derive(Serialize)]
struct Answer<T: Serialize> {
    ok: bool,
    #[serde(flatten)]
    body: T,
}

/// The engine and what it keeps between requests.
pub struct State {
    engine: Engine,
    pending_tables: Vec<Vec<u8>>,
    stop: StopHandle,
    /// The coach's analyses (as the server keeps them): a position the
    /// review judged is answered by the coach from the same analysis.
    analyses: AnalysisCache,
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl State {
    /// An engine with the built-in network and book, no tables.
    pub fn new() -> State {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            tablebase_dir: None,
        });
        engine.set_book(Some(Book::builtin()));
        State {
            engine,
            pending_tables: Vec::new(),
            stop: StopHandle::default(),
            analyses: AnalysisCache::new(ANALYSES_KEPT),
        }
    }

    /// Keeps the bytes of the next table file for the next
    /// [`Request::Tables`]; returns how many are waiting.
    pub fn add_table(&mut self, bytes: Vec<u8>) -> usize {
        self.pending_tables.push(bytes);
        self.pending_tables.len()
    }

    /// Answers one request (JSON text). `report` receives each completed
    /// iteration of a search or analysis, as JSON.
    pub fn handle(&mut self, request: &str, report: &mut dyn FnMut(&str)) -> String {
        let answer = match serde_json::from_str::<Request>(request) {
            Err(e) => Err(refuse(Code::Malformed, e.to_string())),
            Ok(r) => self.answer(r, report),
        };
        match answer {
            Ok(text) => text,
            Err(refusal) => to_json(&Answer {
                ok: false,
                body: refusal,
            }),
        }
    }

    fn answer(&mut self, r: Request, report: &mut dyn FnMut(&str)) -> Result<String, Refusal> {
        Ok(match r {
            Request::Version => ok(VersionView {
                version: env!("CARGO_PKG_VERSION"),
                hash_mb: self.engine.options().hash_mb,
                threads: self.engine.threads(),
                tables: self.engine.tablebase().and_then(|t| t.max_seeds()),
                book: self.engine.book().is_some(),
            }),
            Request::Position { text } => {
                let pos = position(&text)?;
                ok(PositionView {
                    position: pos.to_string(),
                    to_move: side_letter(pos.to_move()),
                    legal: pos.legal_moves().letters(),
                })
            }
            Request::Replay {
                game,
                action,
                check,
            } => ok(replay(&game, action.as_deref(), &check)?),
            Request::Ogn {
                game,
                action,
                south,
                north,
                date,
                event,
            } => {
                let mut g = build_game(&game)?;
                if let Some(action) = action.as_deref() {
                    apply_action(&mut g, action)?;
                }
                // A tag value is one line: names typed on the device may
                // hold anything.
                let line = |v: Option<String>| {
                    v.map(|v| {
                        v.chars()
                            .map(|c| if c.is_control() { ' ' } else { c })
                            .collect::<String>()
                    })
                };
                let given = [
                    ("Event", line(event)),
                    ("Site", Some("oware web app, on this device".to_string())),
                    ("Date", line(date)),
                    ("South", line(south)),
                    ("North", line(north)),
                ];
                let tags: Vec<(&str, &str)> = given
                    .iter()
                    .filter_map(|(k, v)| v.as_deref().map(|v| (*k, v)))
                    .collect();
                ok(OgnView {
                    text: oware_core::ogn::Record::from_game(g, &tags).write(),
                })
            }
            Request::ReadOgn { text } => {
                let record =
                    oware_core::ogn::Record::parse(&text).map_err(|e| Refusal::record(&e))?;

                ok(read_ogn(&record))
            }
            Request::TakeBack { game, action, side } => {
                let mut g = build_game(&game)?;
                if let Some(action) = action.as_deref() {
                    apply_action(&mut g, action)?;
                }
                let side = side.as_deref().map(side_of).transpose()?;
                match oware_session::plan_take_back(&g, side) {
                    Ok(TakeBackPlan::Reopen) => ok(TakeBackView {
                        reopen: true,
                        plies: 0,
                    }),
                    Ok(TakeBackPlan::Plies(n)) => ok(TakeBackView {
                        reopen: false,
                        plies: n,
                    }),
                    Err(e) => return Err(e.into()),
                }
            }
            Request::Perft { position: p, depth } => {
                if depth > MAX_PERFT_DEPTH {
                    return Err(refuse(
                        Code::InvalidRequest,
                        format!("perft depth {depth}: at most {MAX_PERFT_DEPTH}"),
                    )
                    .with_reason("too_deep"));
                }
                let pos = position(&p)?;
                ok(PerftView {
                    nodes: perft(&pos, depth),
                })
            }
            Request::Search {
                game,
                depth,
                movetime_ms,
                nodes,
                level,
                seed,
                new_game,
            } => {
                let game = build_game(&game)?;
                if game.is_over() || game.legal_moves().is_empty() {
                    return Err(refuse(Code::GameOver, "the game is over"));
                }
                let mut limits = match level {
                    Some(n) => Limits::level(Level::new(n)),
                    None => Limits::default(),
                };
                limits.seed = seed;
                if let Some(d) = depth {
                    limits.depth = Some(d.clamp(1, 100));
                }
                if let Some(n) = nodes {
                    limits.nodes = Some(n.max(1));
                }
                let movetime = movetime_ms.map(Duration::from_millis);
                if level.is_some() {
                    limits.movetime = limits.movetime.or(movetime);
                } else if movetime.is_some() {
                    limits.movetime = movetime;
                }
                if new_game {
                    self.engine.new_game();
                }
                self.stop.reset();
                let stop = self.stop.clone();
                let r = self
                    .engine
                    .search_with(&game, &limits, &stop, &mut |i| report(&info_json(i)));
                ok(SearchView {
                    best: r.best.map(|m| m.letter().to_string()),
                    score: ScoreView::from(r.score),
                    pv: moves_text(&r.pv),
                    depth: r.depth,
                    nodes: r.nodes,
                    elapsed_ms: r.elapsed.as_secs_f64() * 1000.0,
                })
            }
            Request::Analyse {
                game,
                depth,
                lang,
                computer,
            } => {
                let game = build_game(&game)?;
                let lang = lang_of(lang.as_deref())?;
                let computer = match computer.as_deref() {
                    None => None,
                    Some(s) => Some(side_of(s)?),
                };
                let budget = depth.map_or(Budget::COACH, Budget::depth);
                self.stop.reset();
                let stop = self.stop.clone();
                let a = self
                    .analyses
                    .analyse(&mut self.engine, &game, budget, &stop)
                    .map_err(analysis_refusal)?;
                ok(analysis_view(&a, lang, computer))
            }
            Request::Bench { depth, hash_mb } => {
                let depth = depth.clamp(1, 30);
                let hash_mb = hash_mb.clamp(1, 256);
                let r = bench::run(depth, hash_mb, &mut |_, _| {});
                ok(BenchView {
                    depth,
                    positions: r.positions,
                    nodes: r.nodes,
                    elapsed_ms: r.elapsed.as_secs_f64() * 1000.0,
                })
            }
            Request::Tables => {
                let files = std::mem::take(&mut self.pending_tables);
                if files.is_empty() {
                    return Err(refuse(Code::InvalidRequest, "no table file was added")
                        .with_reason("no_tables"));
                }
                let tb = Tablebase::from_bytes(files).map_err(|e| {
                    refuse(Code::InvalidRequest, e.to_string()).with_reason("damaged_table")
                })?;
                let max = tb.max_seeds();
                self.engine.set_tablebase(Some(Arc::new(tb)));
                ok(TablesView { max_seeds: max })
            }
            Request::Threads { threads } => {
                self.engine.set_threads(threads.clamp(1, 64));
                ok(ThreadsView {
                    threads: self.engine.threads(),
                })
            }
            Request::Hash { mb } => {
                self.engine.set_hash_mb(mb.clamp(1, 256));
                ok(HashView {
                    hash_mb: self.engine.options().hash_mb,
                })
            }
            Request::Review { game, movetime_ms } => {
                if let Some(ms) = movetime_ms.filter(|ms| !(10..=2000).contains(ms)) {
                    return Err(refuse(
                        Code::InvalidRequest,
                        format!("movetime_ms: expected 10 to 2000, not {ms}"),
                    )
                    .with_reason("out_of_range"));
                }
                let game = build_game(&game)?;
                self.stop.reset();
                let stop = self.stop.clone();
                let (engine, analyses) = (&mut self.engine, &mut self.analyses);
                let plies = review::review_game(&game, &mut |g| {
                    analyses.analyse(engine, g, Budget::COACH, &stop)
                })
                .map_err(|e| match e {
                    AnalysisError::Stopped => refuse(Code::Stopped, "the review was stopped"),
                    e => analysis_refusal(e),
                })?;
                ok(ReviewView {
                    depth: Budget::COACH.depth,
                    plies: plies.iter().map(ReviewPlyView::from).collect(),
                })
            }
            Request::PuzzleNext {
                rating,
                skip,
                seed,
                lang,
            } => {
                let lang = lang_of(lang.as_deref())?;
                if !(100.0..=3500.0).contains(&rating) {
                    return Err(refuse(
                        Code::InvalidRequest,
                        format!("rating: expected 100 to 3500, not {rating}"),
                    )
                    .with_reason("out_of_range"));
                }
                let set = puzzles::shipped();
                let near = set.nearest(&[], rating, &skip);
                if near.is_empty() {
                    return Err(refuse(Code::NotFound, "no puzzles"));
                }
                let i = near[(seed % near.len() as u64) as usize];
                ok(puzzle_view(&set.puzzles[i], lang))
            }
            Request::PuzzleDaily { day, lang } => {
                let lang = lang_of(lang.as_deref())?;
                let p = puzzles::shipped()
                    .daily(day)
                    .ok_or_else(|| refuse(Code::NotFound, "no puzzles"))?;
                ok(puzzle_view(p, lang))
            }
            Request::Puzzle { id, lang } => {
                let lang = lang_of(lang.as_deref())?;
                ok(puzzle_view(shipped_puzzle(id)?, lang))
            }
            Request::PuzzleAttempt { id, moves, lang } => {
                let lang = lang_of(lang.as_deref())?;
                let p = shipped_puzzle(id)?;
                let moves = moves
                    .iter()
                    .map(|m| m.parse::<Move>().map_err(|e| Refusal::moves("move", m, &e)))
                    .collect::<Result<Vec<Move>, Refusal>>()?;
                let judged = p.attempt(&moves).map_err(Refusal::from)?;
                ok(AttemptView {
                    id: p.id,
                    solved: judged.solved,
                    tried: judged.tried.letter(),
                    solution: p.solution.letter(),
                    line: p.line.iter().map(|m| m.letter()).collect(),
                    margin: p.margin,
                    proof: p.proof.source(),
                    text: judged.text(p, lang),
                    rated: false,
                    rating: i32::from(p.rating),
                })
            }
        })
    }
}

fn lang_of(lang: Option<&str>) -> Result<Lang, Refusal> {
    wire::lang(lang)
}

/// A ply of a game the rules refuse: the refusal, saying which ply.
fn at_ply(i: usize, e: oware_core::GameError) -> Refusal {
    let mut r = Refusal::from(e);
    r.message = format!("ply {}: {}", i + 1, r.message);
    r
}

fn shipped_puzzle(id: u32) -> Result<&'static Puzzle, Refusal> {
    puzzles::shipped()
        .get(id)
        .ok_or_else(|| refuse(Code::NotFound, format!("no puzzle {id}")))
}

/// Analyses the module keeps (a few hundred bytes each).
const ANALYSES_KEPT: usize = 1024;

/// An analysis that could not be made, as a refusal.
fn analysis_refusal(e: AnalysisError) -> Refusal {
    match e {
        AnalysisError::GameOver => refuse(Code::GameOver, "the game is over"),
        AnalysisError::Stopped => refuse(Code::Stopped, "the analysis was stopped"),
    }
}

/// A review, as the server's `ReviewResponse` (without the game's id).
#[derive(Serialize)]
struct ReviewView {
    depth: u32,
    plies: Vec<ReviewPlyView>,
}

/// One ply of a review, as the server's `ReviewPly`.
#[derive(Serialize)]
struct ReviewPlyView {
    ply: u32,
    side: char,
    #[serde(rename = "move")]
    mv: char,
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<char>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<ScoreView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best_score: Option<ScoreView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss_cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss: Option<f64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pv: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_south_cp: Option<i32>,
}

impl From<&ReviewedPly> for ReviewPlyView {
    fn from(p: &ReviewedPly) -> ReviewPlyView {
        let j = p.judgement.as_ref();
        ReviewPlyView {
            ply: p.ply,
            side: side_letter(p.side),
            mv: match p.played {
                oware_core::Ply::Move(m) => m.letter(),
                oware_core::Ply::Pass => '-',
            },
            best: p.best().map(|m| m.letter()),
            score: j.map(|j| ScoreView::of_kind(j.value.kind, j.value.score.centiseeds())),
            best_score: j.map(|j| ScoreView::of_kind(j.best.kind, j.best.score.centiseeds())),
            loss_cp: p.loss_cp(),
            verdict: j.map(|j| j.verdict.code()),
            loss: j.map(|j| j.loss_tenths()),
            pv: j.map(|j| moves_text(&j.best.line)).unwrap_or_default(),
            eval_south_cp: p.eval_south_cp(),
        }
    }
}

/// A puzzle as the server's `PuzzleView` sends it (no solution); its
/// rating is the starting one.
#[derive(Serialize)]
struct PuzzleView {
    id: u32,
    position: String,
    to_move: char,
    rating: i32,
    attempts: u32,
    themes: Vec<&'static str>,
    theme_names: Vec<&'static str>,
}

fn puzzle_view(p: &Puzzle, lang: Lang) -> PuzzleView {
    PuzzleView {
        id: p.id,
        position: p.position.to_string(),
        to_move: side_letter(p.to_move()),
        rating: i32::from(p.rating),
        attempts: 0,
        themes: p.themes.iter().map(|t| t.code()).collect(),
        theme_names: p.themes.iter().map(|t| t.name(lang)).collect(),
    }
}

/// An attempt judged, as the server's `AttemptResponse` (never rated).
#[derive(Serialize)]
struct AttemptView {
    id: u32,
    solved: bool,
    tried: char,
    solution: char,
    line: Vec<char>,
    margin: f64,
    proof: &'static str,
    text: String,
    rated: bool,
    rating: i32,
}

fn ok<T: Serialize>(body: T) -> String {
    to_json(&Answer { ok: true, body })
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("answers are plain data")
}

fn position(text: &str) -> Result<Position, Refusal> {
    wire::position(text)
}

fn side_of(s: &str) -> Result<Side, Refusal> {
    let mut chars = s.chars();
    match (chars.next().and_then(Side::from_letter), chars.next()) {
        (Some(side), None) => Ok(side),
        _ => {
            Err(refuse(Code::InvalidRequest, format!("side {s:?}: S or N")).with_reason("bad_side"))
        }
    }
}

fn side_letter(s: Side) -> char {
    match s {
        Side::South => 'S',
        Side::North => 'N',
    }
}

fn build_game(spec: &GameSpec) -> Result<Game, Refusal> {
    let start = position(spec.start.as_deref().unwrap_or("start"))?;
    let plies = parse_plies(&spec.moves).map_err(|e| Refusal::moves("moves", &spec.moves, &e))?;
    Game::from_plies(start, &plies).map_err(|(i, e)| at_ply(i, e))
}

/// A record's game as the device keeps one: the start, the plies (`-`
/// for a lost turn), the action that ended it when the rules did not
/// (agreement, resignation, time: the words of `apply_action`), and the
/// players' names (one line each, at most 40 characters).
fn read_ogn(record: &oware_core::ogn::Record) -> RecordView {
    let game = record.game();
    let moves = game
        .plies()
        .iter()
        .map(|p| match p {
            oware_core::Ply::Move(m) => m.letter(),
            oware_core::Ply::Pass => '-',
        })
        .collect();
    let action = game.outcome().and_then(|o| match o.reason {
        oware_core::EndReason::Agreement => Some("agree".to_string()),
        oware_core::EndReason::Resignation | oware_core::EndReason::Time => {
            let loser = o.winner.map_or(game.position().to_move(), Side::opponent);
            let word = if o.reason == oware_core::EndReason::Time {
                "time"
            } else {
                "resign"
            };
            Some(format!("{word} {}", side_letter(loser)))
        }
        _ => None,
    });
    let name = |tag: &str| {
        record
            .tag(tag)
            .filter(|n| n != "?" && !n.trim().is_empty())
            .map(|n| {
                n.chars()
                    .filter(|c| !c.is_control())
                    .take(40)
                    .collect::<String>()
            })
    };
    RecordView {
        start: game.start().to_string(),
        moves,
        action,
        south: name("South"),
        north: name("North"),
    }
}

/// A record read (`read_ogn`).
#[derive(Serialize)]
struct RecordView {
    start: String,
    moves: String,
    action: Option<String>,
    south: Option<String>,
    north: Option<String>,
}

fn moves_text(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

#[derive(Serialize)]
struct VersionView {
    version: &'static str,
    hash_mb: usize,
    threads: usize,
    tables: Option<usize>,
    book: bool,
}

#[derive(Serialize)]
struct ThreadsView {
    threads: usize,
}

#[derive(Serialize)]
struct OgnView {
    text: String,
}

#[derive(Serialize)]
struct PositionView {
    position: String,
    to_move: char,
    legal: String,
}

#[derive(Serialize)]
struct TakeBackView {
    /// The game ended off the board: reopen it, keeping every ply.
    reopen: bool,
    /// Plies to undo (0 when reopening).
    plies: usize,
}

#[derive(Serialize)]
struct PerftView {
    nodes: u64,
}

#[derive(Serialize)]
struct TablesView {
    max_seeds: Option<usize>,
}

#[derive(Serialize)]
struct HashView {
    hash_mb: usize,
}

#[derive(Serialize)]
struct BenchView {
    depth: u32,
    positions: usize,
    nodes: u64,
    elapsed_ms: f64,
}

/// A value as the server's `ScoreView` sends it.
#[derive(Serialize)]
struct ScoreView {
    kind: &'static str,
    cp: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    win_in: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss_in: Option<u32>,
}

impl ScoreView {
    fn of_kind(kind: ScoreKind, cp: i32) -> ScoreView {
        let (win_in, loss_in) = match kind {
            ScoreKind::Win { plies } => (Some(plies), None),
            ScoreKind::Loss { plies } => (None, Some(plies)),
            _ => (None, None),
        };
        ScoreView {
            kind: kind.code(),
            cp,
            win_in,
            loss_in,
        }
    }
}

impl From<Score> for ScoreView {
    fn from(s: Score) -> ScoreView {
        ScoreView::of_kind(ScoreKind::of(s), s.centiseeds())
    }
}

#[derive(Serialize)]
struct SearchView {
    best: Option<String>,
    score: ScoreView,
    pv: String,
    depth: u32,
    nodes: u64,
    elapsed_ms: f64,
}

#[derive(Serialize)]
struct InfoView {
    info: bool,
    depth: u32,
    score: ScoreView,
    pv: String,
    nodes: u64,
    elapsed_ms: f64,
}

fn info_json(i: &SearchInfo) -> String {
    to_json(&InfoView {
        info: true,
        depth: i.depth,
        score: ScoreView::from(i.score),
        pv: moves_text(&i.pv),
        nodes: i.nodes,
        elapsed_ms: i.elapsed.as_secs_f64() * 1000.0,
    })
}

#[derive(Serialize)]
struct CheckView {
    #[serde(rename = "move")]
    mv: String,
    legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
}

/// A game replayed: the server's rules state (`POST /api/v1/rules/state`,
/// from the same definition), with the ply at which the game ended and
/// the legality of any moves asked about.
#[derive(Serialize)]
struct ReplayView {
    #[serde(flatten)]
    state: wire::RulesState,
    /// The ply at which the game ended, if it ended by a ply.
    #[serde(skip_serializing_if = "Option::is_none")]
    over_at: Option<usize>,
    checks: Vec<CheckView>,
}

/// Applies an action after the plies: `agree`, `pass`, `resign S|N`,
/// `time S|N`.
fn apply_action(game: &mut Game, action: &str) -> Result<(), Refusal> {
    let mut words = action.split_whitespace();
    let done = match (words.next(), words.next(), words.next()) {
        (Some("agree"), None, None) => game.agree_to_stop().map(|_| ()),
        (Some("pass"), None, None) => game.pass(),
        (Some("resign"), Some(s), None) => game.resign(side_of(s)?).map(|_| ()),
        (Some("time"), Some(s), None) => game.lose_on_time(side_of(s)?).map(|_| ()),
        _ => {
            return Err(refuse(
                Code::InvalidRequest,
                format!("action {action:?}: agree, pass, resign S|N or time S|N"),
            )
            .with_reason("bad_action"))
        }
    };
    done.map_err(|e| {
        let mut r = Refusal::from(e);
        r.message = format!("{action}: {}", r.message);
        r
    })
}

fn replay(spec: &GameSpec, action: Option<&str>, check: &[String]) -> Result<ReplayView, Refusal> {
    let start = position(spec.start.as_deref().unwrap_or("start"))?;
    let plies = parse_plies(&spec.moves).map_err(|e| Refusal::moves("moves", &spec.moves, &e))?;
    let mut game = Game::new(start);
    let mut over_at = game.is_over().then_some(0);
    for (i, &ply) in plies.iter().enumerate() {
        let played = match ply {
            oware_core::Ply::Move(mv) => game.play(mv).map(|_| ()),
            oware_core::Ply::Pass => game.pass(),
        };
        played.map_err(|e| at_ply(i, e))?;
        if game.is_over() && over_at.is_none() {
            over_at = Some(i + 1);
        }
    }
    if let Some(action) = action {
        apply_action(&mut game, action)?;
    }
    let mut checks = Vec::new();
    for text in check {
        let mv: Move = text
            .parse()
            .map_err(|e| Refusal::moves("check", text, &e))?;
        let result = oware_session::coach::check(&game, mv);
        checks.push(CheckView {
            mv: text.clone(),
            legal: result.is_ok(),
            code: result.err().map(|r| r.code()),
        });
    }
    Ok(ReplayView {
        state: wire::state(&game),
        over_at,
        checks,
    })
}

/// One move judged: the fields of the server's coach (`JudgedMove` in
/// `oware-server`'s `coach_routes.rs`), so the page reads either.
#[derive(Serialize)]
struct JudgedView {
    #[serde(rename = "move")]
    mv: char,
    verdict: &'static str,
    warn: bool,
    loss: f64,
    score: ScoreView,
    value: String,
    line: Vec<char>,
    text: String,
}

/// The coach's analysis, as the server's `POST /api/v1/coach` answers it.
#[derive(Serialize)]
struct AnalysisView {
    position: String,
    to_move: char,
    depth: u32,
    /// The hint: the best move.
    best: char,
    /// Every legal move, best first.
    moves: Vec<JudgedView>,
}

fn analysis_view(a: &Analysis, lang: Lang, computer: Option<Side>) -> AnalysisView {
    AnalysisView {
        position: a.position.to_string(),
        to_move: side_letter(a.to_move()),
        depth: a.depth,
        best: a.best().mv.letter(),
        moves: a
            .judgements()
            .into_iter()
            .map(|j| JudgedView {
                mv: j.mv.letter(),
                verdict: j.verdict.code(),
                warn: j.is_warning(),
                loss: j.loss_tenths(),
                score: ScoreView::of_kind(j.value.kind, j.value.score.centiseeds()),
                value: j.value.kind.short(lang),
                line: j.value.line.iter().map(|m| m.letter()).collect(),
                text: j.text(lang, computer),
            })
            .collect(),
    }
}
