//! The referee: a JSON-lines protocol that any program can drive.
//!
//! One request per line on stdin, one reply per line on stdout. Every reply has `ok`;
//! a refusal carries `error: {code, rule, message}`. See `docs/protocol.md`.

use engine::{NewGame, Seat, Seed, ToMove};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{Catalog, RejectReason, Session, SessionConfig, Step};

/// One referee request, tagged by `cmd`.
#[derive(Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The protocol version and the games offered.
    Hello,
    /// The games, their presets and options.
    Presets,
    /// Start a game from a preset.
    New {
        /// Game family.
        game: String,
        /// Preset name (default: the game's first).
        #[serde(default)]
        preset: Option<String>,
        /// Option overrides.
        #[serde(default)]
        options: serde_json::Map<String, Value>,
        /// Number of players (default: the preset's smallest).
        #[serde(default)]
        players: Option<u8>,
        /// Seed: a number or 64 hex digits (default 0).
        #[serde(default)]
        seed: Option<Seed>,
        /// Let the caller resolve chance nodes.
        #[serde(default)]
        scripted_chance: bool,
        /// Seat names.
        #[serde(default)]
        seats: Vec<String>,
        /// Game identifier for the record.
        #[serde(default)]
        game_id: Option<String>,
    },
    /// Start a game from any setup.
    Load {
        /// Game family.
        game: String,
        /// The setup, in the game's setup format.
        setup: Value,
        /// Seed (default 0).
        #[serde(default)]
        seed: Option<Seed>,
        /// Let the caller resolve chance nodes.
        #[serde(default)]
        scripted_chance: bool,
        /// Seat names.
        #[serde(default)]
        seats: Vec<String>,
        /// Game identifier for the record.
        #[serde(default)]
        game_id: Option<String>,
    },
    /// Who is to move and the legal actions.
    Legal,
    /// Apply an action.
    Apply {
        /// The action, exactly as `legal` listed it.
        action: Value,
        /// When given, the action is refused unless this seat is to move.
        #[serde(default)]
        seat: Option<Seat>,
    },
    /// Take back the last action of the seat to move, if nothing since it may not be
    /// taken back (a die, a reveal, another seat's decision).
    Undo,
    /// A seat's view (no seat: a spectator's).
    View {
        /// The seat.
        #[serde(default)]
        seat: Option<Seat>,
    },
    /// The full state.
    State,
    /// A setup that reproduces the current position.
    Setup,
    /// The record so far.
    Record {
        /// Include the seed even if the game is not over.
        #[serde(default)]
        reveal_seed: bool,
    },
}

/// A referee over a catalog of games, holding at most one game at a time.
pub struct Referee {
    catalog: Catalog,
    session: Option<Box<dyn Session>>,
}

impl Referee {
    /// A referee offering the games of `catalog`.
    pub fn new(catalog: Catalog) -> Self {
        Referee {
            catalog,
            session: None,
        }
    }

    /// Answers one request line with one reply line (no trailing newline).
    /// Never panics on any input.
    pub fn handle_line(&mut self, line: &str) -> String {
        let reply = match serde_json::from_str::<Request>(line) {
            Ok(request) => self.handle(request),
            Err(e) => Err(RejectReason::Malformed(format!("not a valid request: {e}"))),
        };
        let value = match reply {
            Ok(Value::Object(mut map)) => {
                map.insert("ok".into(), Value::Bool(true));
                Value::Object(map)
            }
            Ok(other) => json!({"ok": true, "result": other}),
            Err(reason) => json!({"ok": false, "error": reason.body()}),
        };
        value.to_string()
    }

    fn session(&self) -> Result<&dyn Session, RejectReason> {
        self.session.as_deref().ok_or(RejectReason::NoGame)
    }

    /// Answers one parsed request.
    pub fn handle(&mut self, request: Request) -> Result<Value, RejectReason> {
        match request {
            Request::Hello => Ok(json!({
                "protocol": crate::PROTOCOL_VERSION,
                "games": self.catalog.entries().map(crate::GameEntry::name).collect::<Vec<_>>(),
            })),
            Request::Presets => Ok(json!({
                "games": self.catalog.entries().map(|e| json!({"game": e.name(), "presets": e.presets()})).collect::<Vec<_>>(),
            })),
            Request::New {
                game,
                preset,
                options,
                players,
                seed,
                scripted_chance,
                seats,
                game_id,
            } => {
                let entry = self.catalog.get(&game)?;
                let config = config(seed, scripted_chance, seats, game_id);
                let session = entry.create(
                    &NewGame {
                        preset,
                        options,
                        players,
                    },
                    config,
                )?;
                Ok(self.started(session))
            }
            Request::Load {
                game,
                setup,
                seed,
                scripted_chance,
                seats,
                game_id,
            } => {
                let entry = self.catalog.get(&game)?;
                let session = entry.load(setup, config(seed, scripted_chance, seats, game_id))?;
                Ok(self.started(session))
            }
            Request::Legal => {
                let s = self.session()?;
                let mut reply = json!({
                    "to_move": s.to_move(),
                    "version": s.version(),
                    "actions": s.legal(),
                    "notation": s.describe_legal(),
                });
                if s.to_move() == ToMove::Chance {
                    reply["probabilities"] =
                        s.chance_outcomes().into_iter().map(|(_, p)| p).collect();
                }
                Ok(reply)
            }
            Request::Apply { action, seat } => {
                let s = self.session.as_deref_mut().ok_or(RejectReason::NoGame)?;
                if let Some(seat) = seat {
                    let to_move = s.to_move();
                    if to_move != ToMove::Seat(seat) {
                        return Err(RejectReason::NotYourTurn { to_move });
                    }
                }
                let steps = s.apply(action)?;
                Ok(steps_reply(s, &steps, 1))
            }
            Request::Undo => {
                let s = self.session.as_deref_mut().ok_or(RejectReason::NoGame)?;
                let ToMove::Seat(seat) = s.to_move() else {
                    return Err(RejectReason::NothingToUndo);
                };
                let step = s.undo(seat)?;
                Ok(json!({"undone": step.index, "to_move": s.to_move(), "version": s.version()}))
            }
            Request::View { seat } => {
                let s = self.session()?;
                if let Some(seat) = seat.filter(|k| k.0 >= s.seats()) {
                    return Err(RejectReason::NotFound(format!(
                        "there is no {seat} at a table of {}",
                        s.seats()
                    )));
                }
                Ok(json!({"seat": seat, "view": s.view(seat)}))
            }
            Request::State => {
                let s = self.session()?;
                Ok(json!({"to_move": s.to_move(), "version": s.version(), "state": s.state()}))
            }
            Request::Setup => Ok(json!({"setup": self.session()?.setup()})),
            Request::Record { reveal_seed } => {
                let s = self.session()?;
                Ok(json!({"record": s.record(reveal_seed || s.to_move().is_over())}))
            }
        }
    }

    fn started(&mut self, mut session: Box<dyn Session>) -> Value {
        // Chance pending at the start (an opening draw) is resolved and reported like
        // the chance that follows an action.
        let steps = session.resolve_chance();
        let mut reply = steps_reply(session.as_ref(), &steps, 0);
        reply["game"] = json!(session.game());
        reply["seats"] = session.record(false)["seats"].clone();
        reply["seed_commitment"] = json!(session.seed_commitment());
        self.session = Some(session);
        reply
    }
}

fn config(
    seed: Option<Seed>,
    scripted_chance: bool,
    seat_names: Vec<String>,
    game_id: Option<String>,
) -> SessionConfig {
    let seed = seed.unwrap_or_else(|| Seed::from_u64(0));
    SessionConfig {
        game_id: game_id.unwrap_or_else(|| format!("referee-{}", &seed.to_hex()[..12])),
        seed,
        scripted_chance,
        seat_names,
    }
}

/// The reply to anything that applied actions: all their events in order, and the
/// chance outcomes the referee applied itself (the steps after the first `skip`).
fn steps_reply(s: &dyn Session, steps: &[Step], skip: usize) -> Value {
    let events: Vec<&Value> = steps.iter().flat_map(|st| &st.events).collect();
    let notation: Vec<String> = events.iter().map(|e| s.describe_event(e)).collect();
    let chance: Vec<&Value> = steps.iter().skip(skip).map(|st| &st.action).collect();
    json!({
        "events": events,
        "notation": notation,
        "chance": chance,
        "to_move": s.to_move(),
        "version": s.version(),
    })
}
