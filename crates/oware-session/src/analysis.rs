//! One analysis of a position answers three questions: the hint (its best
//! move), the coach's verdict on any legal move, and the analysis board
//! (every move's value and line). They read the same [`Analysis`], so they
//! cannot disagree.
//!
//! **Stable answers.** An analysis is a fixed-depth search of every legal
//! move ([`Budget`]) with a cleared transposition table of a fixed size
//! ([`oware_engine::ANALYSIS_HASH_MB`]), on one thread and without the
//! opening book (the engine's one analysis, `Engine::analyze_to_depth`);
//! with the coach's budget, the moves closest to the best ([`Look`]) are
//! then searched again to a deeper depth by the same
//! analysis restricted to them (`Engine::analyze_moves_to_depth`), so the
//! best move is chosen among them by the deeper values. For a given
//! position, history since the last capture, budget and tables, the
//! engine returns the same values, so asking twice answers the same
//! (`tests/coach.rs` checks it). [`AnalysisCache`]
//! keeps recent analyses, keyed by exactly that, so a second ask is also
//! instant. The one way an answer can change is that endgame tables arrive
//! in the meantime (the key holds the tables' coverage): the new answer is
//! then the better one.
//!
//! **Verdicts.** Each move's value is put on one scale, in seeds for the
//! player who moves ([`MoveValue::points`]): an estimate of `v` seeds counts
//! `12·tanh(v/12)` (a seed is a seed while the game is open, and counts
//! less once the game is decided either way), a proven or table win `+12`,
//! a draw `0`, a loss `−12`. The loss of a move is the best move's points
//! less its own, and the verdict follows from the loss alone
//! ([`Verdict::of_loss`]):
//!
//! | verdict | loss (seeds) |
//! |---|---|
//! | best | 0 (the best value) |
//! | good | below 1.0 |
//! | inaccuracy | 1.0 to below 2.5 |
//! | mistake | 2.5 to below 5.0 |
//! | blunder | 5.0 or more |
//!
//! One exception: a move proven lost (by the tables or the search) while
//! the best move is not is at least a mistake, whatever its loss on the
//! scale (an estimate of −20 seeds counts −11.2, a loss −12: 0.8 would read
//! "good"). Where the tables reach, a table win is therefore always "best"
//! (it has the scale's top value) and a table loss never "good".
//!
//! The coach warns only from "mistake" up. Since the verdict is a monotone
//! function of the loss (the exception only raises the lowest values), no
//! move called best or good is ever valued below a move called a mistake, and the hint's move (the first of the analysis)
//! is always "best". Throwing away a table win for a draw loses 12: a
//! blunder. The thresholds were calibrated by the warning rate in games
//! between levels (docs/ENGINE.md, "The coach").

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use oware_core::{Game, Move, Position, Side};
use oware_engine::{Engine, Limits, Score, StopHandle};

use crate::player::Player;
use crate::{Lang, ScoreKind};

/// How much search an analysis gets: a fixed depth, so that its answer
/// does not depend on the machine's speed or load, and for the coach a
/// deeper look at the moves it cannot tell apart, whose depth, breadth and
/// margin depend on the seeds on the board: searches of few seeds are
/// cheap and that is where a deeper look changes the verdict most, while
/// in the first moves of a game, where every move is close and a search
/// costs most, only the moves closest to the best are looked at again.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Budget {
    /// Depth in plies: every legal move is searched to it.
    pub depth: u32,
    /// The deeper look in endings: at most [`Budget::ENDING`] seeds on
    /// the board.
    pub ending: Option<Look>,
    /// The deeper look between the ending and the opening.
    pub middle: Option<Look>,
    /// The deeper look in the opening: [`Budget::OPENING`] seeds or more
    /// on the board.
    pub opening: Option<Look>,
}

/// The coach's deeper look: the moves within `within` tenths of a seed
/// of the best on the coach's scale (at most `moves` of them, the best
/// first; 0: all) are searched again to `depth`, when it is deeper than
/// the budget's, and the best move is chosen among them by the deeper
/// values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Look {
    /// Depth in plies.
    pub depth: u32,
    /// At most this many of the close moves, the best first, are searched
    /// deeper (0: every close move).
    pub moves: usize,
    /// How close to the best a move must be, in tenths of a seed on the
    /// coach's scale.
    pub within: u8,
}

impl Look {
    /// Every move within [`Budget::CLOSE`] seeds of the best to `depth`.
    pub const fn every(depth: u32) -> Look {
        Look {
            depth,
            moves: 0,
            within: 25,
        }
    }

    /// How close to the best a move must be, in seeds on the coach's scale.
    pub fn margin(self) -> f64 {
        f64::from(self.within) / 10.0
    }
}

impl Budget {
    /// The coach's and the hint's budget in the web app, the browser's
    /// module and the terminal game: every move to depth 14; then, in
    /// endings, every move within 2.5 seeds of the best to depth 20; in
    /// the middle game the two best within 1.5 seeds to depth 18; in the
    /// opening the two best within 1 seed to depth 18 (docs/ENGINE.md,
    /// "The coach against a depth-20 search").
    pub const COACH: Budget = Budget {
        depth: 14,
        ending: Some(Look::every(20)),
        middle: Some(Look {
            depth: 18,
            moves: 2,
            within: 15,
        }),
        opening: Some(Look {
            depth: 18,
            moves: 2,
            within: 10,
        }),
    };

    /// The widest margin of a deeper look, in seeds on the coach's scale:
    /// the moves the coach would not warn about ([`Look::every`]).
    pub const CLOSE: f64 = 2.5;

    /// Seeds on the board up to which a position is an ending for the
    /// deeper look ([`Budget::ending`]).
    pub const ENDING: u8 = 30;

    /// Seeds on the board from which a position is an opening for the
    /// deeper look ([`Budget::opening`]): the first moves of a game.
    pub const OPENING: u8 = 46;

    /// A budget of `depth` plies (1..=30), every move alike.
    pub fn depth(depth: u32) -> Budget {
        Budget {
            depth: depth.clamp(1, 30),
            ending: None,
            middle: None,
            opening: None,
        }
    }

    /// The coach's rule at other depths, in every position alike: every
    /// move to `depth`, every move within [`Budget::CLOSE`] seeds of the
    /// best to `close` (each 1..=30).
    pub fn coach(depth: u32, close: u32) -> Budget {
        let look = Some(Look::every(close.clamp(1, 30)));
        Budget {
            depth: depth.clamp(1, 30),
            ending: look,
            middle: look,
            opening: look,
        }
    }

    /// The engine's limits for this budget's first search.
    pub fn limits(self) -> Limits {
        Limits::depth(self.depth)
    }

    /// The deeper look for `position`, if it is deeper than `depth`.
    pub fn look(self, position: &Position) -> Option<Look> {
        let look = match position.seeds_on_board() {
            s if s <= Self::ENDING => self.ending,
            s if s >= Self::OPENING => self.opening,
            _ => self.middle,
        };
        look.filter(|l| l.depth > self.depth)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::COACH
    }
}

/// Why there is no analysis.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The game is over: there is no move to judge.
    #[error("the game is over")]
    GameOver,
    /// The search was stopped before it finished.
    #[error("the analysis was stopped before it finished")]
    Stopped,
}

impl AnalysisError {
    /// A stable identifier: `game_over` or `stopped`.
    pub fn code(self) -> &'static str {
        match self {
            AnalysisError::GameOver => "game_over",
            AnalysisError::Stopped => "stopped",
        }
    }
}

/// One legal move as the analysis values it.
#[derive(Clone, PartialEq, Debug)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The engine's score, for the player who moves.
    pub score: Score,
    /// What the value is, for the player who moves: an estimate, a proven
    /// result, or the tables' verdict (a drawn table position reads as
    /// [`ScoreKind::TablebaseDraw`], not as an even estimate).
    pub kind: ScoreKind,
    /// The engine's line, starting with the move.
    pub line: Vec<Move>,
    /// The depth of the search that valued it: the budget's depth, or its
    /// deeper one for the moves closest to the best ([`Look`]).
    pub depth: u32,
}

/// The scale of [`MoveValue::points`]: a decided game counts this many
/// seeds.
const DECIDED: f64 = 12.0;

impl MoveValue {
    /// The value on the coach's scale, in seeds for the player who moves
    /// (module documentation): `12·tanh(v/12)` for an estimate of `v`
    /// seeds, ±12 for a proven result, 0 for a draw.
    pub fn points(&self) -> f64 {
        points_of(self.kind)
    }
}

/// A value on the coach's scale ([`MoveValue::points`]).
pub fn points_of(kind: ScoreKind) -> f64 {
    match kind {
        // Clamped to the largest margin there is, so that no estimate
        // reaches a proven result's value.
        ScoreKind::Value { seeds } => DECIDED * (seeds.clamp(-48.0, 48.0) / DECIDED).tanh(),
        ScoreKind::Win { .. } | ScoreKind::TablebaseWin => DECIDED,
        ScoreKind::Loss { .. } | ScoreKind::TablebaseLoss => -DECIDED,
        ScoreKind::Draw | ScoreKind::TablebaseDraw => 0.0,
    }
}

/// The coach's word on a move, from best to worst.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Verdict {
    /// The best value (the hint's move, and any move as good).
    Best,
    /// Less than a seed below the best.
    Good,
    /// 1 to 2.5 seeds below the best.
    Inaccuracy,
    /// 2.5 to 5 seeds below the best: warned about.
    Mistake,
    /// 5 seeds or more below the best: warned about.
    Blunder,
}

impl Verdict {
    /// Losses below this are "good".
    pub const GOOD: f64 = 1.0;
    /// Losses below this are inaccuracies.
    pub const INACCURACY: f64 = 2.5;
    /// Losses below this are mistakes; from it up, blunders.
    pub const MISTAKE: f64 = 5.0;

    /// The verdict for a move that loses `loss` seeds on the coach's scale.
    pub fn of_loss(loss: f64) -> Verdict {
        if loss <= 1e-9 {
            Verdict::Best
        } else if loss < Self::GOOD {
            Verdict::Good
        } else if loss < Self::INACCURACY {
            Verdict::Inaccuracy
        } else if loss < Self::MISTAKE {
            Verdict::Mistake
        } else {
            Verdict::Blunder
        }
    }

    /// The verdict on a move valued `value` where the best move is valued
    /// `best` (the rule of [`Analysis::judge`]): by the loss on the
    /// coach's scale, except that a move proven lost (by the tables or the
    /// search) where the best move is not lost throws the game away,
    /// however lost the best move's estimate looks: never "good", always
    /// warned about.
    pub fn of_values(best: ScoreKind, value: ScoreKind) -> Verdict {
        let loss = (points_of(best) - points_of(value)).max(0.0);
        if value.is_proven_loss() && !best.is_proven_loss() {
            Verdict::of_loss(loss).max(Verdict::Mistake)
        } else {
            Verdict::of_loss(loss)
        }
    }

    /// A stable identifier: `best`, `good`, `inaccuracy`, `mistake`,
    /// `blunder`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// True from "mistake" up: the coach warns before such a move is played.
    pub fn is_warning(self) -> bool {
        self >= Verdict::Mistake
    }
}

/// Every legal move of a position, valued by one search, best first.
#[derive(Clone, PartialEq, Debug)]
pub struct Analysis {
    /// The position analysed.
    pub position: Position,
    /// The budget it was searched with.
    pub budget: Budget,
    /// The depth completed.
    pub depth: u32,
    /// Every legal move, best first (ties keep the engine's order).
    pub moves: Vec<MoveValue>,
    // The game (for replaying lines in explanations).
    game: Game,
}

impl Analysis {
    /// Analyses `game`'s position with `budget`, stopped by `stop`. The
    /// engine analyses in a cleared table of a fixed size
    /// ([`oware_engine::ANALYSIS_HASH_MB`]), so the answer depends only on
    /// the position, its history since the last capture, the budget and
    /// the engine's tables, and is the one `oware analyze --depth`, the
    /// server's `POST /api/v1/analyze` and Python's `Engine.analyze` give.
    pub fn run(
        engine: &mut Engine,
        game: &Game,
        budget: Budget,
        stop: &StopHandle,
    ) -> Result<Analysis, AnalysisError> {
        if game.is_over() || game.legal_moves().is_empty() {
            return Err(AnalysisError::GameOver);
        }
        // The engine's one analysis (`Engine::analyze_to_depth`): its own
        // cleared table of a fixed size, one thread, so the answer is the
        // command line's, the server's and the browser's.
        let (found, depth) = engine.analyze_to_depth(game, &budget.limits(), stop, &mut |_| {});
        if stop.is_stopped() || found.len() != game.legal_moves().len() {
            return Err(AnalysisError::Stopped);
        }
        let mut moves: Vec<MoveValue> = found
            .into_iter()
            .map(|a| move_value(engine, game, a, depth))
            .collect();
        // Best first on the coach's scale (the engine's order breaks ties),
        // so the hint is the move of the highest value.
        moves.sort_by(|a, b| b.points().total_cmp(&a.points()));
        if let Some(look) = budget.look(game.position()) {
            search_close_moves(engine, game, look, stop, &mut moves)?;
        }
        Ok(Analysis {
            position: *game.position(),
            budget,
            depth,
            moves,
            game: game.clone(),
        })
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.position.to_move()
    }

    /// The best move: the hint.
    pub fn best(&self) -> &MoveValue {
        &self.moves[0]
    }

    /// The value of `mv`, if it is legal here.
    pub fn value(&self, mv: Move) -> Option<&MoveValue> {
        self.moves.iter().find(|m| m.mv == mv)
    }

    /// True when this analysis is of `game`'s current position (with the
    /// same history since the last capture).
    pub fn is_for(&self, game: &Game) -> bool {
        self.game.since_last_capture() == game.since_last_capture()
    }

    /// The coach's judgement of `mv`, if it is legal here.
    pub fn judge(&self, mv: Move) -> Option<Judgement> {
        let value = self.value(mv)?.clone();
        let best = self.best().clone();
        let loss = (best.points() - value.points()).max(0.0);
        let verdict = if mv == best.mv {
            Verdict::Best
        } else {
            Verdict::of_values(best.kind, value.kind)
        };
        let line = replay_line(&self.game, &value.line);
        Some(Judgement {
            mv,
            mover: self.to_move(),
            verdict,
            loss,
            value,
            best,
            line,
            game: self.game.clone(),
        })
    }

    /// Every legal move judged, best first.
    pub fn judgements(&self) -> Vec<Judgement> {
        self.moves.iter().filter_map(|m| self.judge(m.mv)).collect()
    }
}

/// A move's value from the engine's analysis: the engine's score, read
/// as a result where the move ends the game or reaches the tables.
fn move_value(
    engine: &Engine,
    game: &Game,
    a: oware_engine::MoveAnalysis,
    depth: u32,
) -> MoveValue {
    let mut next = game.clone();
    let kind = match next.play(a.mv) {
        Err(_) => ScoreKind::of(a.score),
        Ok(_) => match next.outcome() {
            Some(o) => ScoreKind::of_outcome(o, game.position().to_move()),
            None => match engine.table_result(&next) {
                // The tables speak for the opponent, who moves next.
                Some(1) => ScoreKind::TablebaseLoss,
                Some(-1) => ScoreKind::TablebaseWin,
                Some(_) => ScoreKind::TablebaseDraw,
                None => ScoreKind::of(a.score),
            },
        },
    };
    MoveValue {
        mv: a.mv,
        score: a.score,
        kind,
        line: a.pv,
        depth,
    }
}

/// The coach's deeper look ([`Look`]): while two moves or more lie within
/// the look's margin of the best on the coach's scale, those of them
/// (the `look.moves` best, when it limits them) not yet searched to
/// `look.depth` and not decided are, with the engine's one analysis
/// restricted to them, and `moves` is sorted again (a move whose deeper
/// value falls may bring another within reach: it is searched in the next
/// round). Deterministic like the first search: each round starts from a
/// cleared table.
fn search_close_moves(
    engine: &mut Engine,
    game: &Game,
    look: Look,
    stop: &StopHandle,
    moves: &mut [MoveValue],
) -> Result<(), AnalysisError> {
    let mut searched: Vec<Move> = Vec::new();
    loop {
        let best = moves[0].points();
        let mut close: Vec<&MoveValue> = moves
            .iter()
            .filter(|m| best - m.points() < look.margin())
            .collect();
        if close.len() < 2 {
            return Ok(());
        }
        if look.moves > 0 {
            close.truncate(look.moves);
        }
        let todo: Vec<Move> = close
            .iter()
            .filter(|m| !m.kind.is_decided() && !searched.contains(&m.mv))
            .map(|m| m.mv)
            .collect();
        if todo.is_empty() {
            return Ok(());
        }
        let (found, depth) = engine.analyze_moves_to_depth(
            game,
            &todo,
            &Limits::depth(look.depth),
            stop,
            &mut |_| {},
        );
        if stop.is_stopped() || found.len() != todo.len() {
            return Err(AnalysisError::Stopped);
        }
        for a in found {
            searched.push(a.mv);
            let v = move_value(engine, game, a, depth);
            if let Some(m) = moves.iter_mut().find(|m| m.mv == v.mv) {
                *m = v;
            }
        }
        moves.sort_by(|a, b| b.points().total_cmp(&a.points()));
    }
}

/// One ply of a line as played through the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LinePly {
    /// The side that plays it.
    pub side: Side,
    /// The move.
    pub mv: Move,
    /// Seeds it captures.
    pub captures: u8,
}

/// The first plies of `line` played through `Game` (stops at the first
/// move that cannot be played or when the game ends).
fn replay_line(game: &Game, line: &[Move]) -> Vec<LinePly> {
    let mut g = game.clone();
    let mut out = Vec::new();
    for &mv in line.iter().take(LINE_PLIES) {
        let side = g.position().to_move();
        match g.play(mv) {
            Ok(captures) => out.push(LinePly { side, mv, captures }),
            Err(_) => break,
        }
        if g.is_over() {
            break;
        }
    }
    out
}

/// Plies of the engine's line an explanation speaks of.
const LINE_PLIES: usize = 6;

/// The coach's word on one move.
#[derive(Clone, PartialEq, Debug)]
pub struct Judgement {
    /// The move.
    pub mv: Move,
    /// The side that plays it.
    pub mover: Side,
    /// Its verdict.
    pub verdict: Verdict,
    /// Seeds lost against the best move on the coach's scale (0 for the
    /// best).
    pub loss: f64,
    /// Its value.
    pub value: MoveValue,
    /// The best move's value.
    pub best: MoveValue,
    /// The first plies of the engine's line after the move, played through
    /// the rules (who plays, what each captures).
    pub line: Vec<LinePly>,
    // The game before the move.
    game: Game,
}

impl Judgement {
    /// True from "mistake" up.
    pub fn is_warning(&self) -> bool {
        self.verdict.is_warning()
    }

    /// The loss rounded to a tenth of a seed, as shown.
    pub fn loss_tenths(&self) -> f64 {
        (self.loss * 10.0).round() / 10.0
    }

    /// The verdict and its reason in words, from the engine's line; the
    /// players are named as `computer` (the computer's side, `None`
    /// between two people) makes them: "B is a mistake (−2.1 seeds for
    /// South; A: +1.3 seeds). After B, North replies f and captures 3."
    pub fn text(&self, lang: Lang, computer: Option<Side>) -> String {
        let me = Player::of(self.mover, computer);
        let value = self.value.kind.short(lang);
        let best = self.best.kind.short(lang);
        let for_me = match lang {
            Lang::En => format!("for {}", me.inner(lang).to_lowercase_you()),
            Lang::Fr => format!("pour {}", me.inner(lang)),
        };
        let (m, b) = (self.mv.letter(), self.best.mv.letter());
        let head = match (self.verdict, lang) {
            (Verdict::Best, Lang::En) => format!("{m} is the best move ({value} {for_me})."),
            (Verdict::Best, Lang::Fr) => {
                format!("{m} est le meilleur coup ({value} {for_me}).")
            }
            (v, Lang::En) => {
                let what = match v {
                    Verdict::Good => "a good move",
                    Verdict::Inaccuracy => "an inaccuracy",
                    Verdict::Mistake => "a mistake",
                    _ => "a blunder",
                };
                format!("{m} is {what} ({value} {for_me}; {b}: {best}).")
            }
            (v, Lang::Fr) => {
                let what = match v {
                    Verdict::Good => "un bon coup",
                    Verdict::Inaccuracy => "une imprécision",
                    Verdict::Mistake => "une erreur",
                    _ => "une faute grave",
                };
                format!("{m} est {what} ({value} {for_me}\u{a0}; {b}\u{a0}: {best}).")
            }
        };
        match self.explain(lang, computer) {
            Some(why) => format!("{head} {why}"),
            None => head,
        }
    }

    /// What the engine's line after the move shows: its captures and the
    /// opponent's reply. `None` when the line captures nothing.
    fn explain(&self, lang: Lang, computer: Option<Side>) -> Option<String> {
        let first = self.line.first()?;
        let reply = self.line.get(1);
        let mut parts = Vec::new();
        let m = self.mv.letter();
        if first.captures > 0 {
            parts.push(match lang {
                Lang::En => format!("{m} captures {}", first.captures),
                Lang::Fr => format!("{m} prend {}", first.captures),
            });
        }
        if reply.is_none() && self.line.len() == 1 {
            // The engine's line stops at the move (the tables value the
            // position after it): say what the opponent can take at once.
            if let Some(t) = crate::coach::threat(&self.game, self.mv) {
                let who = Player::of(self.mover.opponent(), computer);
                parts.push(match lang {
                    Lang::En => format!(
                        "{} can reply {} and capture {}",
                        who.inner(lang),
                        t.reply.letter(),
                        t.seeds
                    ),
                    Lang::Fr => format!(
                        "{} {} répondre {} et prendre {}",
                        who.inner(lang),
                        who.fr("pouvez", "peut"),
                        t.reply.letter(),
                        t.seeds
                    ),
                });
            }
        }
        if let Some(r) = reply {
            let who = Player::of(r.side, computer);
            if r.captures > 0 {
                parts.push(match lang {
                    Lang::En => format!(
                        "{} {} {} and {} {}",
                        who.inner(lang),
                        if who.is_you() { "reply" } else { "replies" },
                        r.mv.letter(),
                        if who.is_you() { "capture" } else { "captures" },
                        r.captures
                    ),
                    Lang::Fr => format!(
                        "{} {} {} et {} {}",
                        who.inner(lang),
                        who.fr("répondez", "répond"),
                        r.mv.letter(),
                        who.fr("prenez", "prend"),
                        r.captures
                    ),
                });
            }
        }
        // Captures further down the line, side by side.
        let later: Vec<&LinePly> = self.line.iter().skip(2).collect();
        let sum = |s: Side| -> u32 {
            later
                .iter()
                .filter(|p| p.side == s)
                .map(|p| u32::from(p.captures))
                .sum()
        };
        let (mine, theirs) = (sum(self.mover), sum(self.mover.opponent()));
        if mine + theirs > 0 {
            let moves: String = self
                .line
                .iter()
                .skip(2)
                .map(|p| p.mv.letter())
                .collect::<Vec<char>>()
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ");
            let me = Player::of(self.mover, computer);
            let them = Player::of(self.mover.opponent(), computer);
            parts.push(match lang {
                Lang::En => format!(
                    "then {moves}: {} {mine}, {} {theirs}",
                    me.inner(lang).to_lowercase_you(),
                    them.inner(lang).to_lowercase_you()
                ),
                Lang::Fr => format!(
                    "puis {moves}\u{a0}: {} {mine}, {} {theirs}",
                    me.inner(lang),
                    them.inner(lang)
                ),
            });
        }
        if parts.is_empty() {
            return None;
        }
        let intro = match lang {
            Lang::En => format!("After {m}: "),
            Lang::Fr => format!("Après {m}\u{a0}: "),
        };
        Some(format!("{intro}{}.", parts.join("; ")))
    }
}

/// "You" inside an English sentence is "you".
trait YouLower {
    fn to_lowercase_you(&self) -> String;
}

impl YouLower for str {
    fn to_lowercase_you(&self) -> String {
        if self == "You" {
            "you".to_string()
        } else {
            self.to_string()
        }
    }
}

/// What an analysis is kept under: the position with its history since
/// the last capture (what repetitions, and so values, depend on), the
/// budget, and the seeds the engine's tables cover.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AnalysisKey {
    history: Vec<Position>,
    budget: Budget,
    tables: u8,
}

impl AnalysisKey {
    /// The key of `game`'s position analysed with `budget` by an engine
    /// whose tables cover `tables` seeds.
    pub fn new(game: &Game, budget: Budget, tables: u8) -> AnalysisKey {
        AnalysisKey {
            history: game.since_last_capture().to_vec(),
            budget,
            tables,
        }
    }
}

/// Recent analyses, so a position asked about twice is answered from the
/// first answer (the oldest forgotten first).
#[derive(Debug)]
pub struct AnalysisCache {
    map: HashMap<AnalysisKey, Arc<Analysis>>,
    order: VecDeque<AnalysisKey>,
    capacity: usize,
}

impl AnalysisCache {
    /// A cache of at most `capacity` analyses.
    pub fn new(capacity: usize) -> AnalysisCache {
        AnalysisCache {
            map: HashMap::new(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
        }
    }

    /// The analysis kept under `key`, if any.
    pub fn get(&self, key: &AnalysisKey) -> Option<Arc<Analysis>> {
        self.map.get(key).cloned()
    }

    /// Keeps `analysis` under `key`; returns the one kept (an earlier
    /// answer wins, so two concurrent asks still agree).
    pub fn insert(&mut self, key: AnalysisKey, analysis: Arc<Analysis>) -> Arc<Analysis> {
        if let Some(a) = self.map.get(&key) {
            return a.clone();
        }
        self.order.push_back(key.clone());
        self.map.insert(key, analysis.clone());
        while self.order.len() > self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
        analysis
    }

    /// Analyses kept.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The analysis of `game` with `budget`: the kept one, or a new one
    /// from `engine` (kept when it finished).
    pub fn analyse(
        &mut self,
        engine: &mut Engine,
        game: &Game,
        budget: Budget,
        stop: &StopHandle,
    ) -> Result<Arc<Analysis>, AnalysisError> {
        let key = AnalysisKey::new(game, budget, engine.tablebase_seeds());
        if let Some(a) = self.get(&key) {
            return Ok(a);
        }
        let a = Arc::new(Analysis::run(engine, game, budget, stop)?);
        Ok(self.insert(key, a))
    }
}

impl Default for AnalysisCache {
    fn default() -> Self {
        AnalysisCache::new(1024)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_engine::EngineOptions;

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            hash_mb: 4,
            tablebase_dir: None,
        })
    }

    #[test]
    fn verdicts_follow_the_loss() {
        assert_eq!(Verdict::of_loss(0.0), Verdict::Best);
        assert_eq!(Verdict::of_loss(0.5), Verdict::Good);
        assert_eq!(Verdict::of_loss(1.0), Verdict::Inaccuracy);
        assert_eq!(Verdict::of_loss(2.5), Verdict::Mistake);
        assert_eq!(Verdict::of_loss(12.0), Verdict::Blunder);
        assert!(!Verdict::Inaccuracy.is_warning());
        assert!(Verdict::Mistake.is_warning() && Verdict::Blunder.is_warning());
    }

    #[test]
    fn a_lost_capture_is_explained_from_the_line() {
        // After D, North's f captures 5 (the old coach's example).
        let g = Game::new("1-2-0-1-0-0-0-0-0-0-0-2-21-21-S".parse().unwrap());
        let mut e = engine();
        let a = Analysis::run(&mut e, &g, Budget::depth(6), &StopHandle::default()).unwrap();
        assert_eq!(a.judge(a.best().mv).unwrap().verdict, Verdict::Best);
        let d = a.judge(Move::from_letter('D').unwrap()).unwrap();
        assert!(d.is_warning(), "{d:?}");
        let en = d.text(Lang::En, None);
        assert!(en.starts_with("D is a "), "{en}");
        assert!(en.contains("North replies f and captures"), "{en}");
        let fr = d.text(Lang::Fr, Some(Side::North));
        assert!(fr.contains("l'ordinateur répond f et prend"), "{fr}");
    }

    #[test]
    fn the_game_over_has_no_analysis() {
        let mut g = Game::new(Position::start());
        g.agree_to_stop().unwrap();
        let mut e = engine();
        assert_eq!(
            Analysis::run(&mut e, &g, Budget::depth(2), &StopHandle::default()),
            Err(AnalysisError::GameOver)
        );
    }
}
