//! The lobby: creating games, seats claimed by invite links, leaving, resigning, the
//! notification settings of a seat and in-game messages.
//!
//! Seats (server rules, not rulebook rules): every person's seat gets a token when the
//! game is created, unless it is created *open*, in which case the first visitor who
//! claims it gets one. A seat that leaves keeps its token (the same link lets someone
//! rejoin). A seat that resigns is played by the random bot from then on; when only one
//! seat has not resigned, the game is over and that seat wins.

use std::sync::Arc;

use engine::NewGame;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::bots;
use crate::error::ApiError;
use crate::hub::{Hub, log_entries, public_seats};
use crate::secrets::{new_seed, new_token};
use crate::store::{GameRow, Progress, SeatRow, StatusChange, StoreError};
use protocol::{RejectReason, SessionConfig};

/// Longest display name, in characters.
pub const MAX_NAME: usize = 40;
/// Longest message, in characters.
pub const MAX_MESSAGE: usize = 2000;

/// One seat of a game to create.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSpec {
    /// `person` (the default) or `bot`.
    #[serde(default = "person")]
    pub kind: String,
    /// For bots: the level (see `GET /api/catalog`).
    #[serde(default)]
    pub level: Option<String>,
    /// For people: a name, which claims the seat at once (the creator's own seat).
    #[serde(default)]
    pub name: Option<String>,
    /// For people: no invite link; the first visitor to claim the seat gets it.
    #[serde(default)]
    pub open: bool,
}

fn person() -> String {
    "person".into()
}

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// Game family (`viktory`).
    pub game: String,
    /// Preset (default: the family's first).
    #[serde(default)]
    pub preset: Option<String>,
    /// Option overrides.
    #[serde(default)]
    pub options: serde_json::Map<String, Value>,
    /// The seats, in order; their number is the number of players.
    pub seats: Vec<SeatSpec>,
    /// Start from this position (the game's setup format, as the referee's `load`)
    /// instead of the preset's start: puzzles, lessons, tests. Its creator knows
    /// everything in it, face-down tiles included.
    #[serde(default)]
    pub setup: Option<Value>,
}

/// A created seat, with its secret link (shown once).
#[derive(Clone, Debug, Serialize)]
pub struct CreatedSeat {
    /// Seat index.
    pub seat: u8,
    /// `person` or `bot`.
    pub kind: String,
    /// The secret token (people's seats that are not open).
    pub token: Option<String>,
    /// The invite link that carries it.
    pub invite: Option<String>,
}

/// The reply to `POST /api/games`.
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// The new game's id.
    pub id: String,
    /// The SHA-256 commitment to the game's dice seed.
    pub seed_commitment: String,
    /// Every seat, with its link.
    pub seats: Vec<CreatedSeat>,
}

/// The bot levels a seat can have.
pub const BOT_LEVELS: &[&str] = &["random", "easy", "normal", "hard"];

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Whether `c` may not appear in text people write (names, messages): controls other
/// than the line breaks and tabs a message may hold, and the invisible formatting
/// characters (Unicode's Cf: bidirectional overrides, embeddings and isolates, zero
/// widths, joiners, tags) with which one name can pass for another or reorder the text
/// around it. U+0000 is also refused by PostgreSQL's text columns.
fn forbidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{0600}'..='\u{0605}'
                | '\u{061C}'
                | '\u{06DD}'
                | '\u{070F}'
                | '\u{0890}'..='\u{0891}'
                | '\u{08E2}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{110BD}'
                | '\u{110CD}'
                | '\u{13430}'..='\u{1343F}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0001}'
                | '\u{E0020}'..='\u{E007F}'
        )
}

/// Text people wrote, checked: normalised (NFC, so that one name has one spelling),
/// trimmed, 1 to `max` characters, none of them [`forbidden`] (in a message, line
/// breaks and tabs are allowed).
fn clean_text(text: &str, max: usize, what: &str, lines: bool) -> Result<String, ApiError> {
    use unicode_normalization::UnicodeNormalization;
    let text: String = text.trim().nfc().collect();
    if let Some(bad) = text
        .chars()
        .find(|&c| forbidden(c) && !(lines && matches!(c, '\n' | '\t')))
    {
        return Err(ApiError::malformed(format!(
            "{what} may not hold the invisible or control character U+{:04X}",
            u32::from(bad)
        )));
    }
    let count = text.chars().count();
    if count == 0 || count > max {
        return Err(ApiError::malformed(format!(
            "{what} is 1 to {max} characters"
        )));
    }
    Ok(text)
}

/// A display name, checked ([`clean_text`]): one line of 1 to [`MAX_NAME`] characters.
fn clean_name(name: &str) -> Result<String, ApiError> {
    clean_text(name, MAX_NAME, "a name", false)
}

/// The status a game takes when its seats become `seats`, and the result when that
/// ends it: the last seat standing wins when the others resigned (a server rule).
fn status_after(live: &crate::hub::Live, seats: &[SeatRow]) -> (&'static str, Option<String>) {
    let standing: Vec<u8> = seats
        .iter()
        .filter(|s| !s.resigned)
        .map(|s| s.seat)
        .collect();
    if live.row.status != "over" && standing.len() == 1 && !live.session.to_move().is_over() {
        let result = json!({"winners": standing, "reason": "resignation"}).to_string();
        return ("over", Some(result));
    }
    (crate::hub::status_of(live.is_over(), seats), None)
}

/// Where `session` stands for the lists of games ([`Progress`]): the game turn as a
/// spectator's view numbers it (`position.turn`, or its `number`) and who decides now,
/// both of which every spectator sees.
pub(crate) fn progress(session: &dyn protocol::Session) -> Progress {
    Progress {
        turn: session.game_turn(),
        to_move: json!(session.to_move()).to_string(),
    }
}

/// An invite link for `token`: the token rides in the fragment, which browsers never
/// send to servers, so it stays out of logs.
pub(crate) fn invite(hub: &Hub, id: &str, token: &str) -> String {
    format!("{}/play/{id}#token={token}", hub.config.base_url())
}

impl Hub {
    /// Creates a game: draws its seed, makes its seats and tokens, resolves any chance
    /// at the start, and stores it all in one transaction; then its bots start. Runs in
    /// a task of its own (`Hub::to_completion`), so a stored game's bots always start.
    pub async fn create_game(self: &Arc<Self>, request: CreateGame) -> Result<Created, ApiError> {
        let hub = Arc::clone(self);
        self.to_completion(async move { hub.create_game_now(request).await })
            .await
    }

    async fn create_game_now(self: &Arc<Self>, request: CreateGame) -> Result<Created, ApiError> {
        let players =
            u8::try_from(request.seats.len()).map_err(|_| ApiError::malformed("too many seats"))?;
        for (i, spec) in request.seats.iter().enumerate() {
            if spec.open && (spec.name.is_some() || spec.kind != "person") {
                return Err(ApiError::malformed(format!(
                    "seat {i}: an open seat is a person's seat with no name yet (the first \
                     visitor to claim it names it)"
                )));
            }
            match spec.kind.as_str() {
                "person" if spec.level.is_some() => {
                    return Err(ApiError::malformed(format!(
                        "seat {i}: a person has no bot level"
                    )));
                }
                "person" => {}
                "bot" => {
                    let level = spec.level.as_deref().unwrap_or("random");
                    if !BOT_LEVELS.contains(&level) {
                        return Err(ApiError::malformed(format!(
                            "seat {i}: no bot level {level:?}; the levels are {BOT_LEVELS:?}"
                        )));
                    }
                }
                other => {
                    return Err(ApiError::malformed(format!(
                        "seat {i}: kind {other:?} is neither \"person\" nor \"bot\""
                    )));
                }
            }
        }
        let entry = self.catalog.get(&request.game)?;
        let new_game = NewGame {
            preset: request.preset.clone(),
            options: request.options.clone(),
            players: Some(players),
        };
        let seed = new_seed().map_err(|e| ApiError::Unavailable(format!("no randomness: {e}")))?;
        let id = new_token()
            .map_err(|e| ApiError::Unavailable(format!("no randomness: {e}")))?
            .token[..12]
            .to_owned();
        let mut seats = Vec::new();
        let mut created = Vec::new();
        for (i, spec) in request.seats.iter().enumerate() {
            let seat = i as u8;
            let name = spec.name.as_deref().map(clean_name).transpose()?;
            if spec.kind == "bot" {
                seats.push(SeatRow {
                    seat,
                    kind: "bot".into(),
                    bot_level: Some(spec.level.clone().unwrap_or_else(|| "random".into())),
                    name: Some(name.unwrap_or_else(|| format!("Bot {}", i + 1))),
                    ..SeatRow::default()
                });
                created.push(CreatedSeat {
                    seat,
                    kind: "bot".into(),
                    token: None,
                    invite: None,
                });
            } else {
                let token = if spec.open {
                    None
                } else {
                    Some(
                        new_token()
                            .map_err(|e| ApiError::Unavailable(format!("no randomness: {e}")))?,
                    )
                };
                seats.push(SeatRow {
                    seat,
                    kind: "person".into(),
                    token_hash: token.as_ref().map(|t| t.hash.clone()),
                    name,
                    ..SeatRow::default()
                });
                created.push(CreatedSeat {
                    seat,
                    kind: "person".into(),
                    invite: token.as_ref().map(|t| invite(self, &id, &t.token)),
                    token: token.map(|t| t.token),
                });
            }
        }
        let config = SessionConfig {
            game_id: id.clone(),
            seed,
            scripted_chance: false,
            seat_names: vec![],
        };
        let mut session = match request.setup {
            Some(setup) => entry.load(setup, config)?,
            None => entry.create(&new_game, config)?,
        };
        if usize::from(session.seats()) != request.seats.len() {
            return Err(ApiError::malformed(format!(
                "the setup has {} seats but {} were given",
                session.seats(),
                request.seats.len()
            )));
        }
        let preset = new_game
            .preset
            .clone()
            .or_else(|| entry.presets().first().map(|p| p.name.clone()))
            .unwrap_or_default();
        let setup = session.setup().to_string();
        let mut feeds = crate::feed::Feeds::new(session.seats(), session.to_move());
        let opening = session.resolve_chance();
        feeds.note_batch(0, &opening, &session.to_move());
        let initial = log_entries(&opening);
        let all_claimed = seats.iter().all(|s| s.kind == "bot" || s.name.is_some());
        let row = GameRow {
            id: id.clone(),
            game: request.game.clone(),
            preset,
            options: Value::Object(request.options).to_string(),
            setup,
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            status: if all_claimed { "running" } else { "open" }.into(),
            result: None,
            seq: initial.len() as u64,
            created_at: now(),
            public_seq: feeds.version(None),
        };
        self.store
            .create_game_at(&row, &seats, &initial, Some(&progress(session.as_ref())))
            .await?;
        tracing::info!(game = %id, family = %row.game, preset = %row.preset, players, "game created");
        bots::kick(self, &self.slot(&id));
        Ok(Created {
            id,
            seed_commitment: row.seed_commitment,
            seats: created,
        })
    }

    /// Changes one seat of a game under its lock. The seat and the status it leads to
    /// are stored in one transaction, compared and set against the stored seat, and
    /// only then changed in memory and told to the clients: a seat change is durable
    /// before it is acknowledged, like an action. The work runs in a task of its own,
    /// so a client that goes away half-way cannot leave memory and store apart.
    async fn change_seat<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        token: Option<String>,
        seat: Option<u8>,
        f: impl FnOnce(&mut SeatRow, &str) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let hub = Arc::clone(self);
        let id = id.to_owned();
        self.to_completion(async move { hub.change_seat_now(&id, token, seat, f).await })
            .await
    }

    async fn change_seat_now<T>(
        self: &Arc<Self>,
        id: &str,
        token: Option<String>,
        seat: Option<u8>,
        f: impl FnOnce(&mut SeatRow, &str) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let slot = self.slot(id);
        let mut guard = self.lock(&slot).await?;
        let live = guard.as_mut().expect("locked games are loaded");
        let index = match (token.as_deref(), seat) {
            (Some(token), _) => live.seat_of(token).ok_or(RejectReason::BadToken)?.0,
            (None, Some(seat)) => seat,
            (None, None) => return Err(RejectReason::BadToken.into()),
        };
        let before = live
            .seats
            .get(usize::from(index))
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("the game has no seat {index}")))?;
        let mut row = before.clone();
        let out = f(&mut row, id)?;
        let mut seats = live.seats.clone();
        seats[usize::from(index)] = row.clone();
        let (status, result) = status_after(live, &seats);
        let change = (status != live.row.status || result.is_some()).then_some(StatusChange {
            status,
            result: result.as_deref(),
        });
        match self.store.update_seat(id, &before, &row, change).await {
            Ok(()) => {}
            Err(StoreError::SeatChanged) => {
                // Another process changed the seat: take the store's seats and refuse.
                live.seats = self.store.seats(id).await?;
                return Err(StoreError::SeatChanged.into());
            }
            Err(e) => return Err(e.into()),
        }
        live.seats = seats;
        live.row.status = status.into();
        if result.is_some() {
            live.row.result = result;
        }
        Self::broadcast_meta(&slot, live);
        drop(guard);
        bots::kick(self, &slot);
        Ok(out)
    }

    /// Joins a seat with its token, under `name`.
    pub async fn join(self: &Arc<Self>, id: &str, token: &str, name: &str) -> Result<u8, ApiError> {
        let name = clean_name(name)?;
        self.change_seat(id, Some(token.to_owned()), None, |row, _| {
            if row.resigned {
                return Err(ApiError::Conflict {
                    code: "resigned",
                    message: "this seat resigned".into(),
                });
            }
            row.name = Some(name);
            Ok(row.seat)
        })
        .await
    }

    /// Claims an open seat: the first visitor gets a fresh token for it.
    pub async fn claim(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        name: &str,
    ) -> Result<CreatedSeat, ApiError> {
        let name = clean_name(name)?;
        let token =
            new_token().map_err(|e| ApiError::Unavailable(format!("no randomness: {e}")))?;
        let hub = Arc::clone(self);
        self.change_seat(id, None, Some(seat), move |row, id| {
            if row.kind != "person" || row.token_hash.is_some() {
                return Err(ApiError::Conflict {
                    code: "seat_taken",
                    message: format!("seat {seat} is not open"),
                });
            }
            row.token_hash = Some(token.hash.clone());
            row.name = Some(name);
            Ok(CreatedSeat {
                seat,
                kind: "person".into(),
                invite: Some(invite(&hub, id, &token.token)),
                token: Some(token.token.clone()),
            })
        })
        .await
    }

    /// Leaves a seat: its name is cleared and the game waits for someone with the link.
    pub async fn leave(self: &Arc<Self>, id: &str, token: &str) -> Result<(), ApiError> {
        self.change_seat(id, Some(token.to_owned()), None, |row, _| {
            row.name = None;
            Ok(())
        })
        .await
    }

    /// Resigns a seat.
    pub async fn resign(self: &Arc<Self>, id: &str, token: &str) -> Result<(), ApiError> {
        self.change_seat(id, Some(token.to_owned()), None, |row, _| {
            if row.resigned {
                return Err(ApiError::Conflict {
                    code: "resigned",
                    message: "this seat has already resigned".into(),
                });
            }
            row.resigned = true;
            Ok(())
        })
        .await
    }

    /// Sets where a seat is told that it must move.
    pub async fn set_notify(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        email: Option<String>,
        webhook: Option<String>,
    ) -> Result<(), ApiError> {
        if let Some(email) = &email {
            if email.chars().any(forbidden) {
                return Err(ApiError::malformed(
                    "an e-mail address may not hold control or invisible characters",
                ));
            }
            crate::notify::check_email(email)?;
        }
        if let Some(url) = &webhook {
            crate::notify::check_webhook(url)?;
            // Only a seat may make the server look a name up (which can take seconds).
            crate::api::caller_audience(self, id, Some(token)).await?;
            // Only public destinations, looked up now and again at each delivery.
            crate::notify::check_webhook_destination(url, self.config.allow_private_webhooks)
                .await?;
        }
        self.change_seat(id, Some(token.to_owned()), None, |row, _| {
            row.notify_email = email;
            row.notify_webhook = webhook;
            Ok(())
        })
        .await
    }

    /// Posts a message from the seat `token` opens; once stored it is told to the
    /// game's clients even if the poster goes away (`Hub::to_completion`).
    pub async fn post_message(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        body: &str,
    ) -> Result<Value, ApiError> {
        let body = clean_text(body, MAX_MESSAGE, "a message", true)?;
        let hub = Arc::clone(self);
        let (id, token) = (id.to_owned(), token.to_owned());
        self.to_completion(async move { hub.post_message_now(&id, &token, &body).await })
            .await
    }

    async fn post_message_now(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        body: &str,
    ) -> Result<Value, ApiError> {
        let slot = self.slot(id);
        let mut guard = self.lock(&slot).await?;
        // `&mut`: a session is Send but not Sync, and this borrow lives across awaits.
        let live = guard.as_mut().expect("locked games are loaded");
        let seat = live.seat_of(token).ok_or(RejectReason::BadToken)?;
        let at = now();
        let number = self.store.add_message(id, seat.0, body, at).await?;
        let message = json!({"id": number, "seat": seat.0, "body": body, "at": at});
        let text = json!({"type": "message", "message": message}).to_string();
        Self::broadcast_same(&slot, live, &text.into());
        Ok(message)
    }

    /// The public summary of a game.
    pub(crate) fn summary(row: &GameRow, seats: &[crate::store::SeatRow]) -> Value {
        json!({
            "id": row.id,
            "game": row.game,
            "preset": row.preset,
            "options": serde_json::from_str::<Value>(&row.options).unwrap_or(Value::Null),
            "players": seats.len(),
            "status": row.status,
            "version": row.public_seq,
            "created_at": row.created_at,
            "seed_commitment": row.seed_commitment,
            "seats": public_seats(seats),
        })
    }
}
