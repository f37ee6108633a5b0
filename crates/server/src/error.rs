//! Why the server refuses a request: every refusal is an HTTP 4xx (or 503 when the
//! database fails) with the JSON body `{code, rule, message}` of [`ErrorBody`].

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use protocol::{ErrorBody, RejectReason};

use crate::store::StoreError;

/// A refused request.
#[derive(Debug)]
pub enum ApiError {
    /// The engine or the protocol refused it.
    Reject(RejectReason),
    /// The request is well-formed but conflicts with the game's seats or status
    /// (a seat already taken, a resigned seat acting).
    Conflict {
        /// Stable machine-readable code.
        code: &'static str,
        /// A sentence for people.
        message: String,
    },
    /// The client sent too many requests.
    RateLimited,
    /// The request body is larger than the server accepts.
    TooLarge,
    /// The database failed; the request changed nothing that was acknowledged.
    Unavailable(String),
}

impl ApiError {
    /// A malformed request.
    pub fn malformed(message: impl Into<String>) -> Self {
        ApiError::Reject(RejectReason::Malformed(message.into()))
    }

    /// A missing game (or other thing).
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::Reject(RejectReason::NotFound(message.into()))
    }

    /// The HTTP status and the JSON body.
    pub fn parts(&self) -> (StatusCode, ErrorBody) {
        let plain = |code: &str, message: String| ErrorBody {
            code: code.into(),
            rule: None,
            message,
            problems: vec![],
        };
        match self {
            ApiError::Reject(reason) => {
                let status = match reason {
                    RejectReason::Rule(_) | RejectReason::Setup(_) => {
                        StatusCode::UNPROCESSABLE_ENTITY
                    }
                    RejectReason::NotYourTurn { .. }
                    | RejectReason::StaleVersion { .. }
                    | RejectReason::GameOver
                    | RejectReason::NothingToUndo => StatusCode::CONFLICT,
                    RejectReason::BadToken => StatusCode::FORBIDDEN,
                    RejectReason::Malformed(_) => StatusCode::BAD_REQUEST,
                    RejectReason::NotFound(_) | RejectReason::NoGame => StatusCode::NOT_FOUND,
                };
                (status, reason.body())
            }
            ApiError::Conflict { code, message } => {
                (StatusCode::CONFLICT, plain(code, message.clone()))
            }
            ApiError::RateLimited => (
                StatusCode::TOO_MANY_REQUESTS,
                plain(
                    "rate_limited",
                    "too many requests from this address; wait a moment".into(),
                ),
            ),
            ApiError::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                plain("too_large", "the request body is too large".into()),
            ),
            ApiError::Unavailable(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                plain(
                    "unavailable",
                    "the game store is unavailable; nothing was changed, try again".into(),
                ),
            ),
        }
    }
}

impl From<RejectReason> for ApiError {
    fn from(reason: RejectReason) -> Self {
        ApiError::Reject(reason)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NoGame(id) => ApiError::not_found(format!("there is no game {id:?}")),
            StoreError::Conflict { expected } => ApiError::Conflict {
                code: "stale_version",
                message: format!(
                    "another action was stored first at version {expected}; reload and choose again"
                ),
            },
            StoreError::SeatChanged => ApiError::Conflict {
                code: "seat_changed",
                message: "the seat was changed meanwhile; look at the game again".into(),
            },
            other => ApiError::Unavailable(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Unavailable(detail) = &self {
            // The detail is for the operator's log, not for the client.
            tracing::error!(%detail, "store failure");
        }
        let (status, body) = self.parts();
        (status, Json(body)).into_response()
    }
}
