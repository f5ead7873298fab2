//! The lessons: the thirteen rule lessons, the worked examples, the common
//! mistakes, the tips and the one-page rules, in English and French, in
//! one file (`data/lessons.json`) that every front end reads: the web
//! server serves it to the page as it is ([`SOURCE`], at
//! `/data/lessons.json`), and the terminal game (`oware learn`) reads the
//! typed [`Teaching`] parsed from it here, once.
//!
//! Each board states, in its `check` object, the facts its text promises
//! (legal moves, what is sown and captured, the outcome, ...).
//! [`Board::verify`] replays the board through `oware-core` and compares
//! every fact; `tests/lessons.rs` runs it on every board and also reads the
//! texts (every number and house a text names must be the board's, and
//! English and French must name the same ones).
//!
//! What a move did, said after every move of a lesson ([`explain`]), comes
//! from the core's trace, in the same words on the web page (the rules
//! service sends them with each move) and in the terminal.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fmt;
use std::sync::LazyLock;

use oware_core::{Game, House, Move, MoveTrace, Position, Side};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use crate::player::side_name;
use crate::Lang;

/// The file, as shipped (the web page fetches exactly this).
pub const SOURCE: &str = include_str!("../data/lessons.json");

static SHIPPED: LazyLock<Teaching> =
    LazyLock::new(|| Teaching::parse(SOURCE).expect("the shipped lesson file is valid"));

/// The shipped lessons.
pub fn shipped() -> &'static Teaching {
    &SHIPPED
}

/// Why a lesson file cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("the lesson file is not valid: {0}")]
pub struct ParseError(#[from] serde_json::Error);

/// A text in both languages.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// English.
    pub en: String,
    /// French.
    pub fr: String,
}

impl Words {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Fr => &self.fr,
        }
    }
}

/// Paragraphs in both languages.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Paragraphs {
    /// English.
    pub en: Vec<String>,
    /// French.
    pub fr: Vec<String>,
}

impl Paragraphs {
    /// The paragraphs in `lang`.
    pub fn get(&self, lang: Lang) -> &[String] {
        match lang {
            Lang::En => &self.en,
            Lang::Fr => &self.fr,
        }
    }
}

/// A move list written as letters (`"Fa"`, `"fAaBb"`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves(pub Vec<Move>);

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Moves, D::Error> {
        let text = String::deserialize(d)?;
        oware_core::parse_moves(&text)
            .map(Moves)
            .map_err(D::Error::custom)
    }
}

/// The whole file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Teaching {
    /// The starting position.
    pub start: Position,
    /// One lesson per rule, R1 to R13.
    pub lessons: Vec<Lesson>,
    /// Worked examples, step by step.
    pub examples: Vec<Example>,
    /// Common mistakes.
    pub mistakes: Vec<CommonMistake>,
    /// Tips.
    pub tips: Paragraphs,
    /// The rules on one page (the web app's rules page).
    pub rules_page: RulesPage,
}

/// A board and the facts its text promises.
#[derive(Clone, Debug, Deserialize)]
pub struct Board {
    /// The position.
    pub position: Position,
    /// The move the text speaks of ("Show me" plays it).
    #[serde(default)]
    pub show: Option<Moves>,
    /// A longer line "Show me" plays.
    #[serde(default)]
    pub sequence: Option<Moves>,
    /// The facts.
    pub check: Check,
}

/// One lesson.
#[derive(Clone, Debug, Deserialize)]
pub struct Lesson {
    /// Its id (`r1` … `r13`).
    pub id: String,
    /// The rule it teaches (`R1` … `R13`).
    pub rule: String,
    /// Its title.
    pub title: Words,
    /// What the rule says.
    pub body: Paragraphs,
    /// What to do on the board.
    #[serde(default)]
    pub task: Option<Words>,
    /// The board.
    #[serde(flatten)]
    pub board: Board,
}

/// A worked example.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: Words,
    /// Its steps.
    pub steps: Vec<Step>,
}

/// One step of a worked example.
#[derive(Clone, Debug, Deserialize)]
pub struct Step {
    /// What happens.
    pub text: Words,
    /// The board.
    #[serde(flatten)]
    pub board: Board,
}

/// A common mistake, with a board when it shows one.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommonMistake {
    /// The mistake.
    pub text: Words,
    /// The position shown.
    #[serde(default)]
    position: Option<Position>,
    #[serde(default)]
    show: Option<Moves>,
    #[serde(default)]
    check: Option<Check>,
}

impl CommonMistake {
    /// Its board, if it shows one.
    pub fn board(&self) -> Option<Board> {
        Some(Board {
            position: self.position?,
            show: self.show.clone(),
            sequence: None,
            check: self.check.clone()?,
        })
    }
}

/// The one-page rules.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesPage {
    /// English.
    pub en: RulesText,
    /// French.
    pub fr: RulesText,
}

/// The one-page rules in one language.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesText {
    /// The introduction.
    pub intro: String,
    /// Sections: a heading and its paragraphs.
    pub sections: Vec<(String, Vec<String>)>,
}

/// How a game ended, as a board states it.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ResultFact {
    /// The core's reason code (`majority`, `no-moves`, `repetition`, ...).
    pub reason: String,
    /// South's and North's totals.
    pub totals: [u8; 2],
    /// `S`, `N` or `draw`.
    pub winner: String,
}

/// A position occurring at given plies.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Occurs {
    /// The position (its board and side to move).
    pub position: Position,
    /// The plies (0 = before the first move) it is on the board.
    pub plies: Vec<usize>,
}

/// The seeds left in each row.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Rows {
    /// South's row.
    #[serde(rename = "S", default)]
    pub south: Option<u8>,
    /// North's row.
    #[serde(rename = "N", default)]
    pub north: Option<u8>,
}

/// The facts a board's text promises. Each is optional; an unknown one is
/// refused when the file is read.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The moves played before the facts after a move are read (else the
    /// board's `sequence` or `show`).
    pub moves: Option<Moves>,
    /// The legal moves of the position.
    pub legal: Option<Vec<Move>>,
    /// The legal moves after the moves.
    pub legal_after: Option<Vec<Move>>,
    /// Moves refused in the position, with the core's reason code.
    pub illegal: Option<BTreeMap<Move, String>>,
    /// The houses the last move sowed, in order.
    pub sown: Option<Vec<House>>,
    /// The house of the last move's last seed.
    pub last: Option<House>,
    /// The houses the last move captured, with the seeds of each.
    pub captured: Option<Vec<(House, u8)>>,
    /// Whether the last move's capture was cancelled as a grand slam.
    pub grand_slam: Option<bool>,
    /// The position after the last move.
    pub after: Option<Position>,
    /// The side to move after the moves.
    pub to_move_after: Option<Side>,
    /// The seeds left in the rows after the last move.
    pub rows_after: Option<Rows>,
    /// The plies of the game after the moves.
    pub plies: Option<usize>,
    /// How the game ended (`null`: it goes on).
    pub result: Option<ResultFact>,
    /// A position and the plies it occurs at.
    pub occurs: Option<Occurs>,
    /// The game was still going on after this many plies.
    pub playing_after: Option<usize>,
    /// No move of any position reachable from the board ever captures.
    pub never_captures: Option<bool>,
    /// The totals if the players agreed to stop at the board (R12).
    pub agreement_totals: Option<[u8; 2]>,
    /// The side to move after the player to move loses the turn (R13).
    pub pass_to_move: Option<Side>,
}

impl Check {
    /// True when the check states nothing.
    pub fn is_empty(&self) -> bool {
        *self == Check::default()
    }
}

/// A fact a board's text states that the rules do not give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LessonError {
    /// The fact is not what the rules give.
    #[error("{fact}: the text says {said}, the rules give {got}")]
    Wrong {
        /// The fact.
        fact: &'static str,
        /// What the text says.
        said: String,
        /// What the rules give.
        got: String,
    },
    /// A move of the board cannot be played.
    #[error("move {index} ({mv}) refused: {why}")]
    Refused {
        /// 1-based.
        index: usize,
        /// The move.
        mv: Move,
        /// The core's reason.
        why: String,
    },
    /// A fact about a move on a board where none is played.
    #[error("{0}: the fact needs a move played")]
    NoMove(&'static str),
    /// The check states nothing.
    #[error("`check` states nothing")]
    NothingChecked,
    /// A fact cannot be worked out (too many positions).
    #[error("{0}")]
    Unsure(&'static str),
}

impl Teaching {
    /// Reads a lesson file.
    pub fn parse(text: &str) -> Result<Teaching, ParseError> {
        Ok(serde_json::from_str(text)?)
    }

    /// Every board of the file, named for messages ("lesson r5", "example
    /// slam step 1", "mistake 3").
    pub fn boards(&self) -> Vec<(String, Board)> {
        let mut out = Vec::new();
        for l in &self.lessons {
            out.push((format!("lesson {}", l.id), l.board.clone()));
        }
        for ex in &self.examples {
            for (i, step) in ex.steps.iter().enumerate() {
                out.push((
                    format!("example {} step {}", ex.id, i + 1),
                    step.board.clone(),
                ));
            }
        }
        for (i, m) in self.mistakes.iter().enumerate() {
            if let Some(b) = m.board() {
                out.push((format!("mistake {}", i + 1), b));
            }
        }
        out
    }

    /// The lesson of `rule` (`R5` or `r5`, any case).
    pub fn lesson(&self, rule: &str) -> Option<&Lesson> {
        self.lessons
            .iter()
            .find(|l| l.rule.eq_ignore_ascii_case(rule) || l.id.eq_ignore_ascii_case(rule))
    }
}

impl Lesson {
    /// The moves the lesson asks for (what "Show me" plays): a correct
    /// move is one that follows them. Empty when any move will do.
    pub fn expected(&self) -> &[Move] {
        self.board
            .sequence
            .as_ref()
            .or(self.board.show.as_ref())
            .map_or(&[], |m| &m.0)
    }

    /// True when `played` (the lesson's moves so far, at least one) is what
    /// it asks for: the start of [`expected`](Self::expected).
    pub fn is_expected(&self, played: &[Move]) -> bool {
        let want = self.expected();
        !played.is_empty() && !want.is_empty() && want.starts_with(played)
    }

    /// True for the lesson on stopping by agreement (R12), which offers it.
    pub fn offers_agreement(&self) -> bool {
        self.board.check.agreement_totals.is_some()
    }

    /// True for the lesson on time (R13), which shows a lost turn.
    pub fn shows_lost_turn(&self) -> bool {
        self.board.check.pass_to_move.is_some()
    }
}

fn list<T: fmt::Debug>(items: &[T]) -> String {
    let inner: Vec<String> = items.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", inner.join(", "))
}

fn quoted<T: fmt::Display>(items: &[T]) -> String {
    let inner: Vec<String> = items.iter().map(|x| format!("\"{x}\"")).collect();
    format!("[{}]", inner.join(", "))
}

fn wrong(fact: &'static str, said: impl fmt::Debug, got: impl fmt::Debug) -> LessonError {
    LessonError::Wrong {
        fact,
        said: format!("{said:?}"),
        got: format!("{got:?}"),
    }
}

impl Board {
    /// The moves the facts are read after: the check's `moves`, else the
    /// board's `sequence` or `show`.
    pub fn moves(&self) -> &[Move] {
        self.check
            .moves
            .as_ref()
            .or(self.sequence.as_ref())
            .or(self.show.as_ref())
            .map_or(&[], |m| &m.0)
    }

    /// Plays the board's moves through the rules and compares every fact
    /// of its check; the error names the first fact that does not hold.
    pub fn verify(&self) -> Result<(), LessonError> {
        let c = &self.check;
        if c.is_empty() {
            return Err(LessonError::NothingChecked);
        }
        let pos = self.position;
        let mut game = Game::new(pos);
        let mut last: Option<MoveTrace> = None;
        for (i, &mv) in self.moves().iter().enumerate() {
            last = Some(game.play_traced(mv).map_err(|e| LessonError::Refused {
                index: i + 1,
                mv,
                why: e.to_string(),
            })?);
        }
        let trace = |fact: &'static str| last.as_ref().ok_or(LessonError::NoMove(fact));
        if let Some(want) = &c.legal {
            let got: Vec<Move> = pos.legal_moves().into_iter().collect();
            if &got != want {
                return Err(wrong("legal", quoted(want), quoted(&got)));
            }
        }
        if let Some(want) = &c.legal_after {
            let got: Vec<Move> = game.legal_moves().into_iter().collect();
            if &got != want {
                return Err(wrong("legal_after", quoted(want), quoted(&got)));
            }
        }
        if let Some(want) = &c.illegal {
            for (&mv, code) in want {
                let got = match pos.check(mv) {
                    Ok(()) => "legal",
                    Err(e) => e.code(),
                };
                if got != code {
                    return Err(wrong(
                        "illegal",
                        format!("{mv}: {code}"),
                        format!("{mv}: {got}"),
                    ));
                }
            }
        }
        if let Some(want) = &c.sown {
            let got = &trace("sown")?.sown;
            if got != want {
                return Err(wrong("sown", quoted(want), quoted(got)));
            }
        }
        if let Some(want) = c.last {
            let got = trace("last")?.last;
            if got != want {
                return Err(wrong("last", want.to_string(), got.to_string()));
            }
        }
        if let Some(want) = &c.captured {
            let got = &trace("captured")?.captured;
            if got != want {
                let show = |v: &[(House, u8)]| {
                    list(
                        &v.iter()
                            .map(|(h, n)| format!("{h} {n}"))
                            .collect::<Vec<_>>(),
                    )
                };
                return Err(wrong("captured", show(want), show(got)));
            }
        }
        if let Some(want) = c.grand_slam {
            let got = trace("grand_slam")?.grand_slam;
            if got != want {
                return Err(wrong("grand_slam", want, got));
            }
        }
        if let Some(want) = c.after {
            let got = trace("after")?.after;
            if got != want {
                return Err(wrong("after", want.to_string(), got.to_string()));
            }
        }
        if let Some(want) = c.to_move_after {
            let got = game.position().to_move();
            if got != want {
                return Err(wrong("to_move_after", want, got));
            }
        }
        if let Some(want) = &c.rows_after {
            let after = trace("rows_after")?.after;
            let got = Rows {
                south: want.south.map(|_| after.row_seeds(Side::South)),
                north: want.north.map(|_| after.row_seeds(Side::North)),
            };
            if &got != want {
                return Err(wrong("rows_after", want, got));
            }
        }
        if let Some(want) = c.plies {
            let got = game.plies().len();
            if got != want {
                return Err(wrong("plies", want, got));
            }
        }
        if let Some(want) = &c.result {
            let got = game.outcome().map(|o| ResultFact {
                reason: o.reason.as_str().to_string(),
                totals: o.totals,
                winner: o.winner_str().to_string(),
            });
            if got.as_ref() != Some(want) {
                return Err(wrong("result", want, got));
            }
        }
        if let Some(want) = &c.occurs {
            let p = want.position;
            let plies: Vec<usize> = game
                .positions()
                .iter()
                .enumerate()
                .filter(|(_, q)| q.board_key() == p.board_key() && q.to_move() == p.to_move())
                .map(|(i, _)| i)
                .collect();
            if plies != want.plies {
                return Err(wrong("occurs", &want.plies, plies));
            }
        }
        if let Some(n) = c.playing_after {
            let start: Vec<Move> = game.moves().take(n).collect();
            let over = start.len() < n
                || Game::from_moves(pos, &start).map_or(true, |g: Game| g.is_over());
            if over {
                return Err(wrong(
                    "playing_after",
                    format!("still playing after {n} plies"),
                    "over",
                ));
            }
        }
        if let Some(want) = c.never_captures {
            let got = never_captures(pos)?;
            if got != want {
                return Err(wrong("never_captures", want, got));
            }
        }
        if let Some(want) = c.agreement_totals {
            let mut g = Game::new(pos);
            let got = g.agree_to_stop().map(|o| o.totals).ok();
            if got != Some(want) {
                return Err(wrong("agreement_totals", want, got));
            }
        }
        if let Some(want) = c.pass_to_move {
            // The player to move (after the moves) loses the turn on time
            // (R13): same board, the other player moves.
            let before = *game.position();
            let mut g = game.clone();
            let same = before.with_side_to_move(before.to_move().opponent());
            let got = match g.pass() {
                Ok(()) if g.position().key() == same.key() => Some(g.position().to_move()),
                _ => None,
            };
            if got != Some(want) {
                return Err(wrong("pass_to_move", want, got));
            }
        }
        Ok(())
    }
}

/// True when no move in any position reachable from `pos` captures and
/// every one of them has a legal move: the game can only go round until a
/// position occurs for the third time (R11), or the players agree (R12).
fn never_captures(pos: Position) -> Result<bool, LessonError> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([pos]);
    seen.insert(pos.key());
    while let Some(p) = queue.pop_front() {
        if seen.len() > 100_000 {
            return Err(LessonError::Unsure(
                "never_captures: too many positions to explore",
            ));
        }
        let legal = p.legal_moves();
        if legal.is_empty() {
            return Ok(false);
        }
        for mv in legal {
            let Ok(t) = p.trace(mv) else {
                return Ok(false);
            };
            if !t.captured.is_empty() {
                return Ok(false);
            }
            if seen.insert(t.after.key()) {
                queue.push_back(t.after);
            }
        }
    }
    Ok(true)
}

// ---- What a move did ---------------------------------------------------

/// What a move just did and why, from the core's trace: where the last
/// seed landed, what it made there, and whether that is taken ("F: the
/// last seed lands in d and makes 5 there; only two or three are taken.").
/// The lesson boards of the web page and of the terminal say it after
/// every move.
pub fn explain(trace: &MoveTrace, lang: Lang) -> String {
    let mover = trace.mv.house().owner();
    let (m, last) = (trace.mv.letter(), trace.last.letter());
    let fr = lang == Lang::Fr;
    if trace.grand_slam {
        let opp = side_name(mover.opponent(), lang);
        return if fr {
            format!("{m}\u{a0}: la dernière graine tombe en {last}, mais prendre laisserait {opp} sans graine, donc rien n’est pris (prise totale).")
        } else {
            format!("{m}: the last seed lands in {last}, but taking would leave {opp} without a seed, so nothing is taken (grand slam).")
        };
    }
    if let Some(&(_, n)) = trace.captured.first() {
        let total = trace.captured_seeds();
        let list = trace
            .captured
            .iter()
            .map(|(h, k)| format!("{} {k}", h.letter()))
            .collect::<Vec<_>>()
            .join(" + ");
        return if fr {
            format!("{m}\u{a0}: la dernière graine tombe en {last} et y fait {n}, elle est donc prise\u{a0}: {list}, {total} graines en tout.")
        } else {
            format!("{m}: the last seed lands in {last} and makes {n} there, so it is taken: {list}, {total} seeds in all.")
        };
    }
    if trace.last.owner() == mover {
        return if fr {
            format!("{m}\u{a0}: la dernière graine tombe en {last}, dans la rangée de celui qui a semé\u{a0}: rien n’est pris.")
        } else {
            format!("{m}: the last seed lands in {last}, in the row of the player who sowed: nothing is taken.")
        };
    }
    let n = trace.after.seeds(trace.last);
    if fr {
        format!("{m}\u{a0}: la dernière graine tombe en {last} et y fait {n}\u{a0}; on ne prend que deux ou trois.")
    } else {
        format!(
            "{m}: the last seed lands in {last} and makes {n} there; only two or three are taken."
        )
    }
}

/// The praise before the explanation of a move the lesson asked for.
pub fn bravo(lang: Lang) -> &'static str {
    lang.pick("Well done!", "Bravo\u{a0}!")
}

/// "South lost the turn (time). The board stays as it is: North plays
/// again." (R13: `side` ran out of time.)
pub fn lost_turn(side: Side, lang: Lang) -> String {
    let (s, o) = (side_name(side, lang), side_name(side.opponent(), lang));
    if lang == Lang::Fr {
        format!("{s} perd son tour (temps). Le plateau reste tel quel\u{a0}: {o} rejoue.")
    } else {
        format!("{s} lost the turn (time). The board stays as it is: {o} plays again.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_is_read() {
        let t = shipped();
        assert_eq!(t.lessons.len(), 13);
        assert_eq!(t.lesson("R5").unwrap().id, "r5");
        assert!(t.lesson("R14").is_none());
    }

    #[test]
    fn an_unknown_fact_is_refused() {
        let text = SOURCE.replacen("\"legal\":", "\"legle\":", 1);
        let e = Teaching::parse(&text).unwrap_err().to_string();
        assert!(e.contains("legle"), "{e}");
    }

    #[test]
    fn moves_are_explained_from_the_trace() {
        let p: Position = "0-0-0-5-0-0-3-1-2-0-0-3-17-17-S".parse().unwrap();
        let d = Move::from_letter('D').unwrap();
        let t = p.trace(d).unwrap();
        assert_eq!(
            explain(&t, Lang::En),
            "D: the last seed lands in c and makes 3 there, so it is taken: c 3 + b 2, 5 seeds in all."
        );
        let start = Position::start();
        let f = start.trace(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(
            explain(&f, Lang::Fr),
            "F\u{a0}: la dernière graine tombe en d et y fait 5\u{a0}; on ne prend que deux ou trois."
        );
        let slam: Position = "1-0-0-0-0-2-1-1-0-0-0-0-21-22-S".parse().unwrap();
        let s = slam.trace(Move::from_letter('F').unwrap()).unwrap();
        assert!(explain(&s, Lang::En)
            .ends_with("leave North without a seed, so nothing is taken (grand slam)."));
        let own: Position = "2-0-1-0-0-0-4-4-4-4-4-4-11-10-S".parse().unwrap();
        let a = own.trace(Move::from_letter('A').unwrap()).unwrap();
        assert!(explain(&a, Lang::En).contains("in the row of the player who sowed"));
    }

    #[test]
    fn a_lesson_knows_what_it_asks_for() {
        let r5 = shipped().lesson("R5").unwrap();
        let d = Move::from_letter('D').unwrap();
        let a = Move::from_letter('A').unwrap();
        assert!(r5.is_expected(&[d]));
        assert!(!r5.is_expected(&[a]));
        assert!(!shipped().lesson("R1").unwrap().is_expected(&[a]));
        assert!(shipped().lesson("R12").unwrap().offers_agreement());
        assert!(shipped().lesson("R13").unwrap().shows_lost_turn());
    }
}
