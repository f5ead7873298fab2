//! OGN (Oware Game Notation), the PGN-like game record format of Aualé.
//!
//! ```text
//! [Variant "Abapa"]
//! [Event "?"]
//! [Site "?"]
//! [Date "2026.11.30"]
//! [Round "?"]
//! [South "Alice"]
//! [North "Bob"]
//! [Result "*"]
//!
//! 1. F f 2. B e {a comment} *
//! ```
//!
//! Reading replays every move with the full rules, so a [`Record`] always
//! holds a legal game; errors name the line and column. Writing is
//! canonical: the tag roster in order, then other tags, then movetext with a
//! move number before each South move and `+K` after each capture.
//! `parse(write(r)) == r` for every record.

use core::fmt;

use crate::game::{EndReason, Game, GameError, Outcome, Ply};
use crate::position::Position;
use crate::types::{Move, Side};

/// The tag roster, written first and in this order.
pub const ROSTER: [&str; 8] = [
    "Variant", "Event", "Site", "Date", "Round", "South", "North", "Result",
];

/// One ply of a record with its annotations.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordPly {
    /// The move, or a turn lost on time (`--`).
    pub ply: Ply,
    /// A comment after the ply.
    pub comment: Option<String>,
    /// Variations after the ply, as their raw text (without the parentheses).
    /// They are kept for writing back, not interpreted.
    pub variations: Vec<String>,
}

/// A game record: tags, the annotated plies, and the game they make.
///
/// The plies and the game always agree (one annotated ply for each ply of
/// the game, the same ply): a record is made only from a game
/// ([`from_game`](Self::from_game)) or by reading OGN, and its fields are
/// reached through accessors.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    // Tags other than `Result`, `FEN`, `Termination` and `Winner` (which
    // come from the game): the roster tags first in roster order, then the
    // others in file order.
    tags: Vec<(String, String)>,
    intro: Option<String>,
    // plies[i].ply == game.plies()[i], and plies.len() == game.plies().len().
    plies: Vec<RecordPly>,
    game: Game,
}

/// What went wrong reading OGN, and where (1-based line and column).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OgnError {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What was wrong.
    pub kind: OgnErrorKind,
}

/// The kinds of OGN errors.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OgnErrorKind {
    /// A tag line that is not `[Name "value"]`.
    BadTag(String),
    /// The `FEN` tag is not a valid position string.
    BadFen(String),
    /// A character that starts no token.
    Unexpected(char),
    /// A `{` comment or `(` variation is not closed.
    Unterminated(&'static str),
    /// A move that cannot be played there.
    Move(GameError),
    /// A `+K` capture mark that disagrees with the capture the move makes.
    CaptureMark {
        /// The move.
        mv: Move,
        /// K as written.
        written: u8,
        /// Seeds the move really captures.
        actual: u8,
    },
    /// A result token or `Result` tag that is neither `S-N` totals nor `*`.
    BadResult(String),
    /// The result disagrees with the end the moves reach, or with the tag.
    ResultMismatch(String),
    /// A `Termination` tag that is not a known end reason.
    BadTermination(String),
    /// A `Winner` tag other than `S` or `N`.
    BadWinner(String),
    /// No game in the text.
    Empty,
    /// More than one game where one was expected.
    TrailingGame,
}

impl OgnErrorKind {
    /// A stable machine-readable code (`bad_tag`, `unexpected`, the
    /// illegal move's [`GameError::code`], `capture_mark`, ...), for
    /// clients that translate errors.
    pub const fn code(&self) -> &'static str {
        match self {
            OgnErrorKind::BadTag(_) => "bad_tag",
            OgnErrorKind::BadFen(_) => "bad_fen",
            OgnErrorKind::Unexpected(_) => "unexpected",
            OgnErrorKind::Unterminated(_) => "unterminated",
            OgnErrorKind::Move(e) => e.code(),
            OgnErrorKind::CaptureMark { .. } => "capture_mark",
            OgnErrorKind::BadResult(_) => "bad_result",
            OgnErrorKind::ResultMismatch(_) => "result_mismatch",
            OgnErrorKind::BadTermination(_) => "bad_termination",
            OgnErrorKind::BadWinner(_) => "bad_winner",
            OgnErrorKind::Empty => "empty",
            OgnErrorKind::TrailingGame => "trailing_game",
        }
    }
}

impl fmt::Display for OgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            OgnErrorKind::BadTag(t) => write!(f, "malformed tag {t:?}: expected [Name \"value\"]"),
            OgnErrorKind::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            OgnErrorKind::Unexpected(c) => write!(f, "unexpected character {c:?} in movetext"),
            OgnErrorKind::Unterminated(what) => write!(f, "unterminated {what}"),
            OgnErrorKind::Move(e) => write!(f, "{e}"),
            OgnErrorKind::CaptureMark {
                mv,
                written,
                actual,
            } => {
                write!(f, "move {mv} is marked +{written} but captures {actual}")
            }
            OgnErrorKind::BadResult(r) => {
                write!(f, "bad result {r:?}: expected totals like 25-23, or *")
            }
            OgnErrorKind::ResultMismatch(m) => f.write_str(m),
            OgnErrorKind::BadTermination(t) => write!(f, "unknown Termination {t:?}"),
            OgnErrorKind::BadWinner(t) => write!(f, "Winner tag {t:?}: expected S or N"),
            OgnErrorKind::Empty => f.write_str("no game found"),
            OgnErrorKind::TrailingGame => f.write_str("a second game follows; expected one"),
        }
    }
}

impl std::error::Error for OgnError {}

struct Scanner<'a> {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    column: usize,
    _text: &'a str,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            chars: text.chars().collect(),
            pos: 0,
            line: 1,
            column: 1,
            _text: text,
        }
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }
    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
    fn err(&self, line: usize, column: usize, kind: OgnErrorKind) -> OgnError {
        OgnError { line, column, kind }
    }
    fn here(&self, kind: OgnErrorKind) -> OgnError {
        self.err(self.line, self.column, kind)
    }
    fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }
}

fn parse_tag_line(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let name_end = inner.find(|c: char| c.is_whitespace())?;
    let name = &inner[..name_end];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = inner[name_end..].trim();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

fn parse_totals(s: &str) -> Option<Option<[u8; 2]>> {
    if s == "*" {
        return Some(None);
    }
    let (a, b) = s.split_once('-')?;
    let ok = |t: &str| !t.is_empty() && t.len() <= 2 && t.bytes().all(|c| c.is_ascii_digit());
    if !ok(a) || !ok(b) {
        return None;
    }
    let (a, b): (u8, u8) = (a.parse().ok()?, b.parse().ok()?);
    (u32::from(a) + u32::from(b) <= 48).then_some(Some([a, b]))
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

fn totals_str(t: [u8; 2]) -> String {
    format!("{}-{}", t[0], t[1])
}

impl Record {
    /// A record of `game` with the given tags (roster tags missing from
    /// `tags` are written as `?`, `Variant` as `Abapa`).
    pub fn from_game(game: Game, tags: &[(&str, &str)]) -> Record {
        let tags = normalize_tags(
            tags.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        let plies = game
            .plies()
            .iter()
            .map(|&ply| RecordPly {
                ply,
                comment: None,
                variations: Vec::new(),
            })
            .collect();
        Record {
            tags,
            intro: None,
            plies,
            game,
        }
    }

    /// The game the plies make, with its outcome.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, dropping the annotations.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// The plies with their comments and variations, one for each ply of
    /// the game.
    pub fn plies(&self) -> &[RecordPly] {
        &self.plies
    }

    /// The tags other than `Result`, `FEN`, `Termination` and `Winner`
    /// (which come from the game): the roster tags first in roster order,
    /// then the others in file order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The comment before the first move.
    pub fn intro(&self) -> Option<&str> {
        self.intro.as_deref()
    }

    /// Sets or clears the comment before the first move.
    pub fn set_intro(&mut self, comment: Option<String>) {
        self.intro = comment;
    }

    /// Sets or clears the comment after ply `index`; false when the game
    /// has no such ply.
    pub fn set_comment(&mut self, index: usize, comment: Option<String>) -> bool {
        match self.plies.get_mut(index) {
            Some(p) => {
                p.comment = comment;
                true
            }
            None => false,
        }
    }

    /// Adds a variation (its raw OGN text, without parentheses) after ply
    /// `index`; false when the game has no such ply.
    pub fn add_variation(&mut self, index: usize, text: String) -> bool {
        match self.plies.get_mut(index) {
            Some(p) => {
                p.variations.push(text);
                true
            }
            None => false,
        }
    }

    /// The value of a tag, `Result` and `FEN` included.
    pub fn tag(&self, name: &str) -> Option<String> {
        match name {
            "Result" => Some(self.result_str()),
            "FEN" => {
                (*self.game.start() != Position::start()).then(|| self.game.start().to_string())
            }
            _ => self
                .tags
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone()),
        }
    }

    /// Sets a tag (other than `Result` and `FEN`, which come from the game).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if matches!(name, "Result" | "FEN" | "Termination" | "Winner") {
            return;
        }
        if let Some(t) = self.tags.iter_mut().find(|(k, _)| k == name) {
            t.1 = value.to_string();
        } else {
            self.tags.push((name.to_string(), value.to_string()));
            self.tags = normalize_tags(core::mem::take(&mut self.tags));
        }
    }

    /// `"S-N"` final totals, or `"*"` while the game is unfinished.
    pub fn result_str(&self) -> String {
        match self.game.outcome() {
            Some(o) => totals_str(o.totals),
            None => "*".to_string(),
        }
    }

    /// Reads exactly one game.
    pub fn parse(text: &str) -> Result<Record, OgnError> {
        let mut sc = Scanner::new(text);
        let rec = parse_one(&mut sc)?.ok_or_else(|| sc.here(OgnErrorKind::Empty))?;
        sc.skip_ws();
        if sc.peek().is_some() {
            return Err(sc.here(OgnErrorKind::TrailingGame));
        }
        Ok(rec)
    }

    /// Reads every game in the text.
    pub fn parse_all(text: &str) -> Result<Vec<Record>, OgnError> {
        let mut sc = Scanner::new(text);
        let mut out = Vec::new();
        while let Some(rec) = parse_one(&mut sc)? {
            out.push(rec);
        }
        Ok(out)
    }

    /// Writes the record in canonical OGN.
    pub fn write(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.tags {
            if k == "Result" {
                continue;
            }
            s.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
            if k == "North" {
                s.push_str(&format!("[Result \"{}\"]\n", self.result_str()));
                if let Some(fen) = self.tag("FEN") {
                    s.push_str(&format!("[FEN \"{fen}\"]\n"));
                }
                if let Some(o) = self.game.outcome() {
                    if matches!(
                        o.reason,
                        EndReason::Agreement | EndReason::Resignation | EndReason::Time
                    ) {
                        s.push_str(&format!("[Termination \"{}\"]\n", o.reason.as_str()));
                    }
                    if matches!(o.reason, EndReason::Resignation | EndReason::Time) {
                        s.push_str(&format!("[Winner \"{}\"]\n", o.winner_str()));
                    }
                }
            }
        }
        s.push('\n');
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.intro {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
        let mut number = 1;
        for (i, rp) in self.plies.iter().enumerate() {
            let side = self.game.positions()[i].to_move();
            let text = match rp.ply {
                Ply::Move(mv) => {
                    let k = self.game.captured_by(i);
                    if k > 0 {
                        format!("{mv}+{k}")
                    } else {
                        mv.to_string()
                    }
                }
                Ply::Pass => "--".to_string(),
            };
            if side == Side::South {
                if i > 0 {
                    number += 1;
                }
                tokens.push(format!("{number}."));
            } else if i == 0 {
                tokens.push(format!("{number}..."));
            }
            tokens.push(text);
            if let Some(c) = &rp.comment {
                tokens.push(format!("{{{}}}", c.replace('}', ")")));
            }
            for v in &rp.variations {
                tokens.push(format!("({v})"));
            }
        }
        tokens.push(self.result_str());
        let mut width = 0;
        for (i, t) in tokens.iter().enumerate() {
            if i > 0 {
                if width + 1 + t.chars().count() > 79 {
                    s.push('\n');
                    width = 0;
                } else {
                    s.push(' ');
                    width += 1;
                }
            }
            s.push_str(t);
            width += t.chars().count();
            if let Some(p) = t.rfind('\n') {
                width = t[p + 1..].chars().count();
            }
        }
        s.push('\n');
        s
    }
}

fn normalize_tags(tags: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in ROSTER {
        if name == "Result" {
            continue;
        }
        let value = tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| {
                if name == "Variant" {
                    "Abapa".to_string()
                } else {
                    "?".to_string()
                }
            });
        out.push((name.to_string(), value));
    }
    for (k, v) in tags {
        if !ROSTER.contains(&k.as_str())
            && !matches!(k.as_str(), "FEN" | "Termination" | "Winner")
            && !out.iter().any(|(o, _)| *o == k)
        {
            out.push((k, v));
        }
    }
    out
}

fn read_braced(sc: &mut Scanner) -> Result<String, OgnError> {
    let (line, column) = (sc.line, sc.column);
    sc.bump(); // '{'
    let mut s = String::new();
    loop {
        match sc.bump() {
            None => return Err(sc.err(line, column, OgnErrorKind::Unterminated("comment"))),
            Some('}') => return Ok(s.trim().to_string()),
            Some(c) => s.push(c),
        }
    }
}

fn read_variation(sc: &mut Scanner) -> Result<String, OgnError> {
    let (line, column) = (sc.line, sc.column);
    sc.bump(); // '('
    let mut s = String::new();
    let mut depth = 1;
    loop {
        match sc.peek() {
            None => return Err(sc.err(line, column, OgnErrorKind::Unterminated("variation"))),
            Some('{') => {
                let c = read_braced(sc)?;
                s.push('{');
                s.push_str(&c);
                s.push('}');
            }
            Some(c) => {
                sc.bump();
                if c == '(' {
                    depth += 1;
                } else if c == ')' {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(s.trim().to_string());
                    }
                }
                s.push(c);
            }
        }
    }
}

fn append_comment(slot: &mut Option<String>, c: String) {
    if c.is_empty() {
        return;
    }
    match slot {
        Some(existing) => {
            existing.push(' ');
            existing.push_str(&c);
        }
        None => *slot = Some(c),
    }
}

fn parse_one(sc: &mut Scanner) -> Result<Option<Record>, OgnError> {
    // Tag section.
    let mut raw_tags: Vec<(String, String)> = Vec::new();
    let mut fen: Option<(usize, usize, String)> = None;
    let mut result_tag: Option<(usize, usize, String)> = None;
    let mut derived: Vec<(String, String)> = Vec::new();
    loop {
        sc.skip_ws();
        if sc.peek() != Some('[') {
            break;
        }
        let (line, column) = (sc.line, sc.column);
        let text = sc.rest_of_line();
        let (k, v) = parse_tag_line(&text)
            .ok_or_else(|| sc.err(line, column, OgnErrorKind::BadTag(text.clone())))?;
        match k.as_str() {
            "FEN" => fen = Some((line, column, v)),
            "Result" => result_tag = Some((line, column, v)),
            "Termination" | "Winner" => derived.push((k, v)),
            _ => raw_tags.push((k, v)),
        }
    }
    sc.skip_ws();
    if raw_tags.is_empty() && fen.is_none() && result_tag.is_none() && sc.peek().is_none() {
        return Ok(None);
    }
    let start = match &fen {
        Some((line, column, v)) => v
            .parse::<Position>()
            .map_err(|e| sc.err(*line, *column, OgnErrorKind::BadFen(e.to_string())))?,
        None => Position::start(),
    };
    let mut game = Game::new(start);
    let mut intro = None;
    let mut plies: Vec<RecordPly> = Vec::new();
    let mut result_token: Option<(usize, usize, String)> = None;

    // Movetext, up to the result token, the next tag section or the end.
    loop {
        sc.skip_ws();
        let (line, column) = (sc.line, sc.column);
        let Some(c) = sc.peek() else { break };
        match c {
            '[' => break,
            '{' => {
                let text = read_braced(sc)?;
                match plies.last_mut() {
                    Some(p) => append_comment(&mut p.comment, text),
                    None => append_comment(&mut intro, text),
                }
            }
            ';' => {
                sc.bump();
                // A '}' could not be written back inside braces: keep the
                // comment writable by turning it into ')'.
                let text = sc.rest_of_line().trim().replace('}', ")");
                match plies.last_mut() {
                    Some(p) => append_comment(&mut p.comment, text),
                    None => append_comment(&mut intro, text),
                }
            }
            '(' => {
                let v = read_variation(sc)?;
                // A variation before the first move replaces nothing: skip it.
                if let Some(p) = plies.last_mut() {
                    p.variations.push(v);
                }
            }
            '*' => {
                sc.bump();
                result_token = Some((line, column, "*".into()));
                break;
            }
            '-' if sc.peek_at(1) == Some('-') => {
                sc.bump();
                sc.bump();
                game.pass()
                    .map_err(|e| sc.err(line, column, OgnErrorKind::Move(e)))?;
                plies.push(RecordPly {
                    ply: Ply::Pass,
                    comment: None,
                    variations: Vec::new(),
                });
            }
            '0'..='9' => {
                let mut digits = String::new();
                while let Some(d) = sc.peek().filter(char::is_ascii_digit) {
                    digits.push(d);
                    sc.bump();
                }
                match sc.peek() {
                    Some('.') => {
                        while sc.peek() == Some('.') {
                            sc.bump();
                        }
                    }
                    Some('-') => {
                        sc.bump();
                        let mut tok = digits;
                        tok.push('-');
                        while let Some(d) = sc.peek().filter(|c| !c.is_whitespace()) {
                            tok.push(d);
                            sc.bump();
                        }
                        if parse_totals(&tok).is_none() {
                            return Err(sc.err(line, column, OgnErrorKind::BadResult(tok)));
                        }
                        result_token = Some((line, column, tok));
                        break;
                    }
                    _ => {
                        return Err(sc.err(line, column, OgnErrorKind::BadResult(digits)));
                    }
                }
            }
            c if Move::from_letter(c).is_some() => {
                sc.bump();
                let mv = Move::from_letter(c).expect("checked");
                let mut mark = None;
                if sc.peek() == Some('+') {
                    sc.bump();
                    let mut digits = String::new();
                    while let Some(d) = sc.peek().filter(char::is_ascii_digit) {
                        digits.push(d);
                        sc.bump();
                    }
                    mark = Some(
                        digits
                            .parse::<u8>()
                            .map_err(|_| sc.err(line, column, OgnErrorKind::Unexpected('+')))?,
                    );
                }
                if let Some(next) = sc.peek() {
                    if !(next.is_whitespace() || matches!(next, '{' | '(' | ';' | ')')) {
                        return Err(sc.here(OgnErrorKind::Unexpected(next)));
                    }
                }
                let actual = game
                    .play(mv)
                    .map_err(|e| sc.err(line, column, OgnErrorKind::Move(e)))?;
                if let Some(written) = mark {
                    if written != actual {
                        return Err(sc.err(
                            line,
                            column,
                            OgnErrorKind::CaptureMark {
                                mv,
                                written,
                                actual,
                            },
                        ));
                    }
                }
                plies.push(RecordPly {
                    ply: Ply::Move(mv),
                    comment: None,
                    variations: Vec::new(),
                });
            }
            other => return Err(sc.here(OgnErrorKind::Unexpected(other))),
        }
    }

    // Result: the token and the tag must agree with each other and with the board.
    let mut claimed: Option<(usize, usize, Option<[u8; 2]>)> = None;
    for (line, column, text) in [&result_tag, &result_token].into_iter().flatten() {
        let totals = parse_totals(text)
            .ok_or_else(|| sc.err(*line, *column, OgnErrorKind::BadResult(text.clone())))?;
        if let Some((_, _, earlier)) = claimed {
            if earlier != totals {
                return Err(sc.err(
                    *line,
                    *column,
                    OgnErrorKind::ResultMismatch(format!(
                        "the result {text} disagrees with the Result tag {}",
                        earlier.map(totals_str).unwrap_or("*".into())
                    )),
                ));
            }
        }
        claimed = Some((*line, *column, totals));
    }
    let termination = derived
        .iter()
        .find(|(k, _)| k == "Termination")
        .map(|(_, v)| v.clone());
    let winner_tag = derived
        .iter()
        .find(|(k, _)| k == "Winner")
        .map(|(_, v)| v.clone());
    if let Some((line, column, Some(totals))) = claimed {
        match game.outcome() {
            Some(o) => {
                if o.totals != totals {
                    return Err(sc.err(
                        line,
                        column,
                        OgnErrorKind::ResultMismatch(format!(
                            "the result {} disagrees with the end of the game: {} ({})",
                            totals_str(totals),
                            totals_str(o.totals),
                            o.reason
                        )),
                    ));
                }
            }
            None => {
                let outcome =
                    off_board_outcome(&game, totals, termination.as_deref(), winner_tag.as_deref())
                        .map_err(|kind| sc.err(line, column, kind))?;
                game.set_outcome(outcome)
                    .map_err(|e| sc.err(line, column, OgnErrorKind::Move(e)))?;
            }
        }
    }
    Ok(Some(Record {
        tags: normalize_tags(raw_tags),
        intro,
        plies,
        game,
    }))
}

// The outcome of a game that the board did not end: the Termination tag
// says why (and the Winner tag who won a resignation or time loss); without
// one, totals equal to the stores plus the own rows mean an agreement, any
// others a resignation by the player behind.
fn off_board_outcome(
    game: &Game,
    totals: [u8; 2],
    termination: Option<&str>,
    winner_tag: Option<&str>,
) -> Result<Outcome, OgnErrorKind> {
    let pos = game.position();
    let own_rows = pos.totals_with_own_rows();
    let stores = [pos.store(Side::South), pos.store(Side::North)];
    if totals[0] < stores[0] || totals[1] < stores[1] {
        return Err(OgnErrorKind::ResultMismatch(format!(
            "the result {} gives a player fewer seeds than they have captured ({})",
            totals_str(totals),
            totals_str(stores)
        )));
    }
    let reason = match termination {
        Some(t) => {
            EndReason::from_str_id(t).ok_or_else(|| OgnErrorKind::BadTermination(t.to_string()))?
        }
        None if totals == own_rows => EndReason::Agreement,
        None => EndReason::Resignation,
    };
    let by_totals = match totals[0].cmp(&totals[1]) {
        core::cmp::Ordering::Greater => Some(Side::South),
        core::cmp::Ordering::Less => Some(Side::North),
        core::cmp::Ordering::Equal => None,
    };
    let winner = match reason {
        EndReason::Agreement | EndReason::Repetition => {
            if totals != own_rows {
                return Err(OgnErrorKind::ResultMismatch(format!(
                    "the result {} is not the stores plus each player's own row ({})",
                    totals_str(totals),
                    totals_str(own_rows)
                )));
            }
            by_totals
        }
        EndReason::Resignation | EndReason::Time => {
            // The player who resigned or lost on time is named by a
            // `Loser` tag when the totals alone do not say it.
            match winner_tag {
                Some("S") => Some(Side::South),
                Some("N") => Some(Side::North),
                Some(other) => return Err(OgnErrorKind::BadWinner(other.to_string())),
                None => by_totals.or(Some(pos.to_move().opponent())),
            }
        }
        EndReason::Majority | EndReason::EvenSplit | EndReason::NoMoves => {
            return Err(OgnErrorKind::ResultMismatch(format!(
                "Termination {} does not match the position, where the game is not over",
                reason.as_str()
            )))
        }
    };
    Ok(Outcome {
        reason,
        totals,
        winner,
    })
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write())
    }
}
