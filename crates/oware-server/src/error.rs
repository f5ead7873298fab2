//! The server's one error type, mapped to an HTTP status and the JSON body
//! `{"error": {"code", "message", "rule"?, "reason"?}}` (docs/PROTOCOL.md).
//!
//! `code` says what kind of refusal it is, `reason` (when present) the
//! rules core's code for the detail (`empty_house`, `bad_count`, ...).
//! Clients translate by these two, never by the English `message`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use oware_core::{GameError, IllegalMove, ParseMoveError, ParsePositionError};
use oware_session::wire;
use serde::Serialize;

/// The kind of a refusal: one definition with the browser's module
/// (`oware_session::wire::Code`), so a page maps the server's refusals and
/// the module's with one function.
pub use oware_session::wire::Code as ErrorCode;

macro_rules! codes {
    ($($variant:ident => $status:ident, $ctor:ident;)*) => {
        /// The HTTP status that carries a refusal of kind `code`.
        pub const fn status_of(code: ErrorCode) -> StatusCode {
            match code { $(ErrorCode::$variant => StatusCode::$status,)* }
        }

        impl ApiError {
    /// A change the database did not take: said without the database's
    /// own words, which stay in the server's log.
    pub fn not_stored() -> ApiError {
        ApiError::internal("the change could not be stored; nothing was changed")
    }

            $(
                #[doc = concat!("A `", stringify!($ctor), "` error.")]
                pub fn $ctor(message: impl Into<String>) -> ApiError {
                    ApiError::new(ErrorCode::$variant, message)
                }
            )*
        }
    };
}

codes! {
    Malformed => BAD_REQUEST, malformed;
    InvalidRequest => BAD_REQUEST, invalid_request;
    InvalidPosition => BAD_REQUEST, invalid_position;
    InvalidMove => BAD_REQUEST, invalid_move;
    IllegalMove => CONFLICT, illegal_move;
    NotYourTurn => CONFLICT, not_your_turn;
    StalePly => CONFLICT, stale_ply;
    GameOver => CONFLICT, game_over;
    SeatTaken => CONFLICT, seat_taken;
    NotAllowed => CONFLICT, not_allowed;
    MissingToken => UNAUTHORIZED, missing_token;
    NotSignedIn => UNAUTHORIZED, not_signed_in;
    BadCredentials => UNAUTHORIZED, bad_credentials;
    UsernameTaken => CONFLICT, username_taken;
    BadCsrf => FORBIDDEN, bad_csrf;
    BadToken => FORBIDDEN, bad_token;
    BadOrigin => FORBIDDEN, bad_origin;
    NotFound => NOT_FOUND, not_found;
    TooLarge => PAYLOAD_TOO_LARGE, too_large;
    RateLimited => TOO_MANY_REQUESTS, rate_limited;
    Busy => SERVICE_UNAVAILABLE, busy;
    Internal => INTERNAL_SERVER_ERROR, internal;
    Stopped => CONFLICT, stopped;
}

macro_rules! reasons {
    ($($variant:ident => $text:literal,)*) => {
        /// The detail of a refusal that the server decides (a name taken,
        /// a tournament full, a limit reached): sent as `reason` next to
        /// the code, translated by clients as `err.<code>.<reason>`. Every
        /// one has words in the web client, in English and French
        /// (`tests/server/vocabulary.rs`, over [`Reason::ALL`]). The rules
        /// core's details (an empty house, a bad count) keep the core's
        /// own codes ([`ApiError::illegal`], [`ApiError::position`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Reason {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )*
        }

        impl Reason {
            /// Every reason.
            pub const ALL: &'static [Reason] = &[$(Reason::$variant),*];

            /// The reason as sent.
            pub const fn as_str(self) -> &'static str {
                match self { $(Reason::$variant => $text,)* }
            }
        }
    };
}

reasons! {
    AccountClosed => "account_closed",
    AccountsOnly => "accounts_only",
    BadClientId => "bad_client_id",
    BadDate => "bad_date",
    BadEnd => "bad_end",
    BadLevel => "bad_level",
    BadMode => "bad_mode",
    BadSide => "bad_side",
    Blocked => "blocked",
    Cancelled => "cancelled",
    ChallengeClosed => "challenge_closed",
    Characters => "characters",
    ChatFull => "chat_full",
    Confirm => "confirm",
    Connections => "connections",
    CorrespondenceDays => "correspondence_days",
    CorrespondenceOnlineOnly => "correspondence_online_only",
    Empty => "empty",
    Engine => "engine",
    EngineInUse => "engine_in_use",
    EngineQueueFull => "engine_queue_full",
    Exports => "exports",
    GameInProgress => "game_in_progress",
    LinkExpired => "link_expired",
    LinkUnknown => "link_unknown",
    LinkUsed => "link_used",
    MailOff => "mail_off",
    Mails => "mails",
    BadEmail => "bad_email",
    NameReserved => "name_reserved",
    NoRequest => "no_request",
    NotCorrespondence => "not_correspondence",
    NotFinished => "not_finished",
    NotInTournament => "not_in_tournament",
    NotOnline => "not_online",
    NotWaiting => "not_waiting",
    NotYourGame => "not_your_game",
    NotYours => "not_yours",
    OutOfRange => "out_of_range",
    PasswordIsUsername => "password_is_username",
    PasswordLength => "password_length",
    Rated => "rated",
    RatedNeedsClock => "rated_needs_clock",
    RatingRange => "rating_range",
    Reads => "reads",
    ReportReason => "report_reason",
    Reports => "reports",
    SamePlayer => "same_player",
    SeeksAccount => "seeks_account",
    SeeksAddress => "seeks_address",
    Yourself => "self",
    YourTurn => "your_turn",
    SignInAccount => "sign_in_account",
    SignInPair => "sign_in_pair",
    Sockets => "sockets",
    SpectatorsSignIn => "spectators_sign_in",
    TooLate => "too_late",
    TooLong => "too_long",
    TooMany => "too_many",
    TooManyChallenges => "too_many_challenges",
    TooManyTournaments => "too_many_tournaments",
    TournamentClock => "tournament_clock",
    TournamentFull => "tournament_full",
    TournamentGame => "tournament_game",
    TournamentKind => "tournament_kind",
    TournamentLeft => "tournament_left",
    TournamentLength => "tournament_length",
    TournamentName => "tournament_name",
    TournamentOver => "tournament_over",
    TournamentRounds => "tournament_rounds",
    TournamentStart => "tournament_start",
    TournamentStarted => "tournament_started",
    TournamentsFull => "tournaments_full",
    UsernameCharacters => "username_characters",
    UsernameLength => "username_length",
    UsernameReserved => "username_reserved",
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused request: a stable code, a message for people, and what the
/// rules say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// What kind of refusal.
    pub code: ErrorCode,
    /// What was wrong, for people (English; clients translate by code).
    pub message: String,
    /// The rule (docs/RULES.md id) that forbids the action, if one does.
    pub rule: Option<&'static str>,
    /// The rules core's code for the detail (`empty_house`, `bad_count`...).
    pub reason: Option<&'static str>,
    /// Seconds after which a `rate_limited` request may be retried.
    pub retry_after: Option<u64>,
    /// Where in the client's text the error is (line, column; 1-based).
    pub at: Option<(usize, usize)>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl ApiError {
    /// An error of kind `code`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            rule: None,
            reason: None,
            retry_after: None,
            at: None,
        }
    }

    /// The refusal when a block stands between two players
    /// (`accounts::community`).
    pub fn blocked() -> ApiError {
        ApiError::not_allowed("one of you has blocked the other").with_reason(Reason::Blocked)
    }

    /// The same error with the server's detail.
    pub fn with_reason(mut self, reason: Reason) -> ApiError {
        self.reason = Some(reason.as_str());
        self
    }

    /// The same error with the rules core's (or the session's) detail
    /// code, as the core names it.
    pub(crate) fn with_core_reason(mut self, code: &'static str) -> ApiError {
        self.reason = Some(code);
        self
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        status_of(self.code)
    }

    /// An illegal move, naming the rule that forbids it.
    pub fn illegal(mv: oware_core::Move, reason: IllegalMove) -> ApiError {
        wire::Refusal::illegal(mv, reason).into()
    }

    /// A position string that does not parse.
    pub fn position(text: &str, e: &ParsePositionError) -> ApiError {
        wire::Refusal::position(text, e).into()
    }

    /// Text that is not a move or a move list.
    pub fn moves(what: &str, text: &str, e: &ParseMoveError) -> ApiError {
        wire::Refusal::moves(what, text, e).into()
    }

    /// An OGN record that cannot be read, with where and why.
    pub fn record(e: &oware_core::OgnError) -> ApiError {
        wire::Refusal::record(e).into()
    }

    /// Too many requests from one client.
    pub fn too_many(what: &str, retry_after: std::time::Duration) -> ApiError {
        let secs = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
        let mut e = ApiError::rate_limited(format!("too many {what}; try again in {secs} s"));
        e.retry_after = Some(secs.max(1));
        e
    }

    /// The error body as JSON.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": ErrorBody::from(self) })
    }
}

/// The `error` object of a refusal, as sent over HTTP and the WebSocket.
#[derive(Serialize, Debug)]
pub struct ErrorBody<'a> {
    /// The kind of refusal.
    pub code: ErrorCode,
    /// For people.
    pub message: &'a str,
    /// The rule that forbids it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// The core's detail code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The line of the client's text where the error is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Its column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl<'a> From<&'a ApiError> for ErrorBody<'a> {
    fn from(e: &'a ApiError) -> ErrorBody<'a> {
        ErrorBody {
            code: e.code,
            message: &e.message,
            rule: e.rule,
            reason: e.reason,
            line: e.at.map(|a| a.0),
            column: e.at.map(|a| a.1),
        }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        wire::Refusal::from(e).into()
    }
}

impl From<wire::Refusal> for ApiError {
    fn from(r: wire::Refusal) -> ApiError {
        ApiError {
            code: r.code,
            message: r.message,
            rule: r.rule,
            reason: r.reason,
            retry_after: None,
            at: r.line.zip(r.column),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // A busy engine is the service working as designed (a refusal
        // under load), not a fault: logged at debug, not as an error. A
        // message may quote what a client sent: logged printable.
        match self.code {
            ErrorCode::Busy => {
                tracing::debug!(code = %self.code, "{}", crate::model::printable(&self.message))
            }
            _ if self.status().is_server_error() => {
                tracing::error!(code = %self.code, "{}", crate::model::printable(&self.message))
            }
            _ => {}
        }
        let mut res = (self.status(), axum::Json(self.body())).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_named_as_sent() {
        let mut seen = std::collections::HashSet::new();
        for c in ErrorCode::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
            assert_eq!(
                serde_json::to_value(c).unwrap(),
                serde_json::Value::from(c.as_str())
            );
        }
        assert_eq!(status_of(ErrorCode::RateLimited).as_u16(), 429);
    }

    #[test]
    fn illegal_move_carries_rule_and_reason() {
        let mv: oware_core::Move = "A".parse().unwrap();
        let e = ApiError::illegal(mv, IllegalMove::EmptyHouse);
        let body = e.body();
        assert_eq!(body["error"]["code"], "illegal_move");
        assert_eq!(body["error"]["rule"], "R3");
        assert_eq!(body["error"]["reason"], "empty_house");
    }
}
