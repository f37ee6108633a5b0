//! Why a request is refused.

use engine::{Problem, SetupErrors, ToMove};
use serde::{Deserialize, Serialize};

/// Every reason a request can be refused, for the referee and the server alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RejectReason {
    /// The game's rules forbid the action; the problem names the rule section.
    Rule(Problem),
    /// The setup (or preset and options) is invalid; every problem at once.
    Setup(SetupErrors),
    /// The request names a seat that is not the one to move.
    NotYourTurn {
        /// Who is to move.
        to_move: ToMove,
    },
    /// The action was chosen at an older version of the game.
    StaleVersion {
        /// The version the client sent.
        sent: u64,
        /// The game's current version.
        current: u64,
    },
    /// The game is over.
    GameOver,
    /// The token does not open this seat or game.
    BadToken,
    /// The request is not well-formed (bad JSON, missing or unknown fields).
    Malformed(String),
    /// No such game family, preset, game or seat.
    NotFound(String),
    /// A command that needs a game before one was started or loaded.
    NoGame,
    /// The seat has no action it may take back: a die, a reveal, a battle or another
    /// seat's decision came after its last one (or it made none).
    NothingToUndo,
}

/// The JSON error object: `{code, rule, message}`, plus the list of problems for an
/// invalid setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// Stable machine-readable code.
    pub code: String,
    /// The rule section, when a rule refused it.
    pub rule: Option<String>,
    /// A sentence for people.
    pub message: String,
    /// Each problem of an invalid setup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
}

impl RejectReason {
    /// The error object sent on the wire.
    pub fn body(&self) -> ErrorBody {
        let plain = |code: &str, message: String| ErrorBody {
            code: code.into(),
            rule: None,
            message,
            problems: vec![],
        };
        match self {
            RejectReason::Rule(p) => ErrorBody {
                code: p.code.clone(),
                rule: p.rule.clone(),
                message: p.message.clone(),
                problems: vec![],
            },
            RejectReason::Setup(errors) => ErrorBody {
                code: "invalid_setup".into(),
                rule: None,
                message: errors.to_string(),
                problems: errors.0.clone(),
            },
            RejectReason::NotYourTurn { to_move } => plain(
                "not_your_turn",
                match to_move {
                    ToMove::Seat(s) => format!("it is {s}'s decision"),
                    ToMove::Chance => "a chance event must be resolved first".into(),
                    ToMove::Over(_) => "the game is over".into(),
                },
            ),
            RejectReason::StaleVersion { sent, current } => plain(
                "stale_version",
                format!(
                    "the action was chosen at version {sent}, but the game is at version {current}"
                ),
            ),
            RejectReason::GameOver => plain("game_over", "the game is over".into()),
            RejectReason::BadToken => plain(
                "bad_token",
                "this link or token does not open that seat".into(),
            ),
            RejectReason::Malformed(m) => plain("malformed", m.clone()),
            RejectReason::NotFound(m) => plain("not_found", m.clone()),
            RejectReason::NoGame => plain(
                "no_game",
                "start a game first with \"new\" or \"load\"".into(),
            ),
            RejectReason::NothingToUndo => plain(
                "nothing_to_undo",
                "there is no move of yours to take back: moves stand once a die is rolled, \
                 something hidden is revealed or another player decides"
                    .into(),
            ),
        }
    }
}

impl std::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = self.body();
        match body.rule {
            Some(rule) => write!(f, "{} (rule {rule})", body.message),
            None => f.write_str(&body.message),
        }
    }
}

impl std::error::Error for RejectReason {}
