//! The server's one error type, mapped to an HTTP status and the JSON body
//! `{"error": {"code", "message", "rule"?}}` (docs/PROTOCOL.md).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use oware_core::{GameError, IllegalMove};
use serde::Serialize;

/// A refused request: a stable code, an HTTP status and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// Stable machine-readable code (`illegal_move`, `stale_ply`, ...).
    pub code: &'static str,
    /// HTTP status.
    pub status: StatusCode,
    /// What was wrong, for people.
    pub message: String,
    /// The rule (docs/RULES.md id) that forbids the action, if one does.
    pub rule: Option<&'static str>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

macro_rules! constructors {
    ($($name:ident => $code:literal, $status:ident;)*) => {
        impl ApiError {
            $(
                #[doc = concat!("A `", $code, "` error.")]
                pub fn $name(message: impl Into<String>) -> ApiError {
                    ApiError { code: $code, status: StatusCode::$status, message: message.into(), rule: None }
                }
            )*
        }
    };
}

constructors! {
    malformed => "malformed", BAD_REQUEST;
    invalid_request => "invalid_request", BAD_REQUEST;
    invalid_position => "invalid_position", BAD_REQUEST;
    invalid_move => "invalid_move", BAD_REQUEST;
    stale_ply => "stale_ply", CONFLICT;
    not_your_turn => "not_your_turn", CONFLICT;
    game_over => "game_over", CONFLICT;
    seat_taken => "seat_taken", CONFLICT;
    not_allowed => "not_allowed", CONFLICT;
    missing_token => "missing_token", UNAUTHORIZED;
    bad_token => "bad_token", FORBIDDEN;
    bad_origin => "bad_origin", FORBIDDEN;
    not_found => "not_found", NOT_FOUND;
    too_large => "too_large", PAYLOAD_TOO_LARGE;
    busy => "busy", SERVICE_UNAVAILABLE;
    internal => "internal", INTERNAL_SERVER_ERROR;
}

impl ApiError {
    /// An illegal move, naming the rule that forbids it.
    pub fn illegal(mv: oware_core::Move, reason: IllegalMove) -> ApiError {
        ApiError {
            code: "illegal_move",
            status: StatusCode::CONFLICT,
            message: format!("illegal move {mv}: {reason} ({})", reason.rule()),
            rule: Some(reason.rule()),
        }
    }

    /// The error body as JSON.
    pub fn body(&self) -> serde_json::Value {
        #[derive(Serialize)]
        struct Inner<'a> {
            code: &'a str,
            message: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            rule: Option<&'a str>,
        }
        serde_json::json!({ "error": Inner { code: self.code, message: &self.message, rule: self.rule } })
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        match e {
            GameError::Over => ApiError::game_over("the game is over"),
            GameError::Illegal {
                mv,
                reason: IllegalMove::GameOver,
            } => ApiError::game_over(format!("move {mv}: the game is over")),
            GameError::Illegal { mv, reason } => ApiError::illegal(mv, reason),
            GameError::NothingToUndo => ApiError::not_allowed("there is no move to undo"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            tracing::error!(code = self.code, "{}", self.message);
        }
        (self.status, axum::Json(self.body())).into_response()
    }
}
