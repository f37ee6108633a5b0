//! The referee: a JSON-lines protocol that any program can drive.
//!
//! One request per line on stdin, one reply per line on stdout. Every reply has `ok`;
//! a refusal carries `error: {code, rule, message}`. See `docs/protocol.md`.

use std::io::{self, BufRead, Write};

use engine::{NewGame, Seat, Seed, ToMove};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{Catalog, RejectReason, Session, SessionConfig, Step};

/// One referee request, tagged by `cmd`. Every variant is a struct, even those without
/// fields (`Hello {}`), because serde ignores `deny_unknown_fields` for unit variants of
/// a tagged enum: `{"cmd":"hello","x":1}` is refused as `malformed`, as documented.
#[derive(Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The protocol version and the games offered.
    Hello {},
    /// The games, their presets and options.
    Presets {},
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
    Legal {},
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
    Undo {},
    /// A seat's view (no seat: a spectator's).
    View {
        /// The seat.
        #[serde(default)]
        seat: Option<Seat>,
    },
    /// The full state.
    State {},
    /// A setup that reproduces the current position.
    Setup {},
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

    /// The longest request line read, in bytes (its newline not counted): 1 MiB.
    /// [`Referee::serve`] answers a longer line with a `malformed` error and skips it,
    /// without keeping more than this much of it in memory.
    pub const MAX_LINE_BYTES: usize = 1 << 20;

    /// Answers one request line with one reply line (no trailing newline).
    /// Never panics on any input.
    pub fn handle_line(&mut self, line: &str) -> String {
        match serde_json::from_str::<Request>(line) {
            Ok(request) => reply_line(self.handle(request)),
            Err(e) => refusal_line(&RejectReason::Malformed(format!(
                "not a valid request: {e}"
            ))),
        }
    }

    /// Answers one request line given as bytes (without its newline): a line that is
    /// not UTF-8 is refused as `malformed`, like any other line that is not a request.
    /// Never panics on any input.
    pub fn handle_bytes(&mut self, line: &[u8]) -> String {
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_line(text),
            Err(e) => refusal_line(&RejectReason::Malformed(format!(
                "not a valid request: the line is not UTF-8 text (bad byte at offset {})",
                e.valid_up_to()
            ))),
        }
    }

    /// Speaks the protocol: reads request lines from `input` until it ends and writes
    /// one reply line to `output` for each, flushing after each. Blank lines are
    /// skipped (a trailing `\r` is ignored). A line that is not UTF-8 or is longer than
    /// [`Referee::MAX_LINE_BYTES`] gets a `malformed` reply, and reading goes on: no
    /// input stops the referee.
    ///
    /// # Errors
    ///
    /// A failure to read `input` (not its content: the stream itself). A failure to
    /// write `output` ends the loop quietly with `Ok`: the reader went away.
    pub fn serve(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            let reply = match read_line(&mut input, &mut line, Self::MAX_LINE_BYTES)? {
                Line::End => return Ok(()),
                Line::TooLong => refusal_line(&RejectReason::Malformed(format!(
                    "a request line may be at most {} bytes; this one was longer and was skipped",
                    Self::MAX_LINE_BYTES
                ))),
                Line::Read => {
                    let text = line.strip_suffix(b"\r").unwrap_or(&line);
                    if text.trim_ascii().is_empty() {
                        continue;
                    }
                    self.handle_bytes(text)
                }
            };
            if writeln!(output, "{reply}")
                .and_then(|()| output.flush())
                .is_err()
            {
                return Ok(());
            }
        }
    }

    fn session(&self) -> Result<&dyn Session, RejectReason> {
        self.session.as_deref().ok_or(RejectReason::NoGame)
    }

    /// Answers one parsed request.
    pub fn handle(&mut self, request: Request) -> Result<Value, RejectReason> {
        match request {
            Request::Hello {} => Ok(json!({
                "protocol": crate::PROTOCOL_VERSION,
                "games": self.catalog.entries().map(crate::GameEntry::name).collect::<Vec<_>>(),
            })),
            Request::Presets {} => Ok(json!({
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
            Request::Legal {} => {
                let s = self.session()?;
                let (actions, notation) = s.legal_described();
                let mut reply = json!({
                    "to_move": s.to_move(),
                    "version": s.version(),
                    "actions": actions,
                    "notation": notation,
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
            Request::Undo {} => {
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
            Request::State {} => {
                let s = self.session()?;
                Ok(json!({"to_move": s.to_move(), "version": s.version(), "state": s.state()}))
            }
            Request::Setup {} => Ok(json!({"setup": self.session()?.setup()})),
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

/// A reply line for the outcome of a request.
fn reply_line(reply: Result<Value, RejectReason>) -> String {
    match reply {
        Ok(Value::Object(mut map)) => {
            map.insert("ok".into(), Value::Bool(true));
            Value::Object(map).to_string()
        }
        Ok(other) => json!({"ok": true, "result": other}).to_string(),
        Err(reason) => refusal_line(&reason),
    }
}

/// The reply line of a refusal.
fn refusal_line(reason: &RejectReason) -> String {
    json!({"ok": false, "error": reason.body()}).to_string()
}

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line, in the buffer without its newline.
    Read,
    /// A line longer than the limit, read to its end and dropped.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line (up to `\n` or the end of input) into `line`, which it clears
/// first. A line longer than `limit` bytes is consumed to its end but not kept.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, limit: usize) -> io::Result<Line> {
    line.clear();
    let mut seen = false;
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(match (seen, too_long) {
                (false, _) => Line::End,
                (true, true) => Line::TooLong,
                (true, false) => Line::Read,
            });
        }
        seen = true;
        let newline = buffer.iter().position(|&b| b == b'\n');
        let chunk = &buffer[..newline.unwrap_or(buffer.len())];
        if !too_long {
            if line.len() + chunk.len() > limit {
                too_long = true;
                line.clear();
                line.shrink_to(limit);
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = chunk.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<(Line, Vec<u8>)> {
        // A tiny buffer, so lines arrive in many pieces.
        let mut input = io::BufReader::with_capacity(3, input);
        let mut line = Vec::new();
        let mut out = Vec::new();
        loop {
            let found = read_line(&mut input, &mut line, limit).unwrap();
            if found == Line::End {
                return out;
            }
            out.push((found, line.clone()));
        }
    }

    #[test]
    fn lines_are_split_and_capped() {
        let got = lines(b"ab\n\nabcdefgh\nabcde\nxyz", 5);
        assert_eq!(
            got,
            [
                (Line::Read, b"ab".to_vec()),
                (Line::Read, vec![]),
                (Line::TooLong, vec![]),
                (Line::Read, b"abcde".to_vec()),
                (Line::Read, b"xyz".to_vec()),
            ]
        );
        assert_eq!(lines(b"abcdefgh", 5), [(Line::TooLong, vec![])]);
        assert!(lines(b"", 5).is_empty());
    }
}
