//! The HTTP API (documented in `docs/server.md`). Every refusal is a 4xx with a JSON
//! `{code, rule, message}`; a seat's token comes as `Authorization: Bearer TOKEN` (or
//! `?token=` where a browser cannot set headers: `WebSocket`s).

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, RawQuery, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::ToMove;
use protocol::RejectReason;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::hub::{Audience, Hub, Live, Slot, Submitter};
use crate::lobby::{BOT_LEVELS, CreateGame};

/// A JSON body whose problems are answered in JSON.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(json_problem(&rejection)),
        }
    }
}

fn json_problem(rejection: &JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::TooLarge
    } else {
        ApiError::malformed(rejection.body_text())
    }
}

/// The query parameters the API understands.
#[derive(Debug, Default)]
pub(crate) struct Params {
    pub token: Option<String>,
    pub since: Option<u64>,
    pub status: Option<String>,
}

impl Params {
    pub(crate) fn parse(raw: Option<&str>) -> Result<Params, ApiError> {
        let mut params = Params::default();
        for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "token" => params.token = Some(value.to_owned()),
                "since" | "after" => {
                    params.since = Some(value.parse().map_err(|_| {
                        ApiError::malformed(format!("{key} must be a version number"))
                    })?);
                }
                "status" => params.status = Some(value.to_owned()),
                _ => {}
            }
        }
        Ok(params)
    }
}

/// The token of a request: the bearer header, else `?token=`.
pub(crate) fn token(headers: &HeaderMap, params: &Params) -> Result<Option<String>, ApiError> {
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let value = value
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| ApiError::malformed("Authorization must be \"Bearer TOKEN\""))?;
        return Ok(Some(value.trim().to_owned()));
    }
    Ok(params.token.clone())
}

/// The caller's seat token, from `Authorization: Bearer TOKEN` or `?token=`; `None`
/// for a spectator.
pub(crate) struct Caller(pub Option<String>);

impl Caller {
    /// The token, which this request needs.
    pub(crate) fn required(self) -> Result<String, ApiError> {
        self.0.ok_or(ApiError::Reject(RejectReason::BadToken))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let params = Params::parse(parts.uri.query())?;
        Ok(Caller(token(&parts.headers, &params)?))
    }
}

/// The `{id}` of a game route, checked by [`check_id`] before any handler runs.
pub(crate) struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(params) = Path::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::malformed(e.body_text()))?;
        let id = params
            .into_iter()
            .find_map(|(k, v)| (k == "id").then_some(v))
            .unwrap_or_default();
        check_id(&id)?;
        Ok(GameId(id))
    }
}

/// Game ids are 12 lowercase hex digits; anything else is not a game (and never
/// reaches the store or the game table).
fn check_id(id: &str) -> Result<(), ApiError> {
    if id.len() == 12
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(())
    } else {
        Err(ApiError::not_found(format!("there is no game {id:?}")))
    }
}

/// Whom a token makes the caller in `live`: a seat, or a spectator without token.
pub(crate) fn audience(live: &Live, token: Option<&str>) -> Result<Audience, ApiError> {
    match token {
        None => Ok(None),
        Some(t) => live
            .seat_of(t)
            .map(Some)
            .ok_or(ApiError::Reject(RejectReason::BadToken)),
    }
}

/// Whom `token` makes the caller in game `id`.
pub(crate) async fn caller_audience(
    hub: &Hub,
    id: &str,
    token: Option<&str>,
) -> Result<Audience, ApiError> {
    let slot = hub.slot(id);
    let guard = hub.lock(&slot).await?;
    audience(guard.as_ref().expect("locked games are loaded"), token)
}

/// The routes of the API.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/catalog", get(catalog))
        .route("/api/games", get(list).post(create))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/seats/{seat}/claim", post(claim))
        .route("/api/games/{id}/leave", post(leave))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/notify", post(notify))
        .route("/api/games/{id}/messages", get(messages).post(message))
        .route("/api/games/{id}/steps", get(steps))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/at/{version}", get(view_at))
        .route("/api/games/{id}/history", get(history))
        .route("/api/games/{id}/board", get(board))
        .route("/api/games/{id}/live", get(crate::live::upgrade))
}

/// `GET /api/catalog`: the games, their presets and options, the bot levels, and
/// whether this server can send "your move" e-mails (`email`: SMTP is configured).
async fn catalog(State(hub): State<Arc<Hub>>) -> Json<Value> {
    let games: Vec<Value> = hub
        .catalog
        .entries()
        .map(|e| json!({"game": e.name(), "presets": e.presets()}))
        .collect();
    Json(json!({
        "games": games,
        "bot_levels": BOT_LEVELS,
        "email": hub.config.smtp.is_some(),
    }))
}

/// `GET /api/games?status=open,running,over`: the newest 100 games of those statuses,
/// each with its seats, turn, who decides now and, once over, the result.
async fn list(
    State(hub): State<Arc<Hub>>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let params = Params::parse(raw.as_deref())?;
    let mut wanted: Vec<&str> = params
        .status
        .as_deref()
        .map_or_else(|| vec!["open", "running"], |s| s.split(',').collect());
    // Each status once: a long `status=open,open,…` must not grow the query.
    wanted.sort_unstable();
    wanted.dedup();
    for status in &wanted {
        if !["open", "running", "over"].contains(status) {
            return Err(ApiError::malformed(format!(
                "status {status:?} is not open, running or over"
            )));
        }
    }
    // Two queries for up to 100 games; where each stands was stored with its last
    // action, so no game is loaded or replayed.
    let listed = hub.store.listing(&wanted, 100).await?;
    let games: Vec<Value> = listed
        .iter()
        .map(|game| {
            let mut out = Hub::summary(&game.row, &game.seats);
            let progress = game.progress.as_ref();
            let to_move = progress
                .and_then(|p| serde_json::from_str::<Value>(&p.to_move).ok())
                .unwrap_or(Value::Null);
            // How it ended: the server's result (resignation), else the rules'.
            out["result"] = game
                .row
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok())
                .or_else(|| to_move.get("over").cloned())
                .unwrap_or(Value::Null);
            out["turn"] = json!(progress.and_then(|p| p.turn));
            out["to_move"] = to_move;
            out
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

async fn create(
    State(hub): State<Arc<Hub>>,
    JsonBody(request): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let created = hub.create_game(request).await?;
    Ok((StatusCode::CREATED, Json(json!(created))))
}

/// A state answer (`GET /api/games/{id}`): the game's summary and the audience's place
/// in it (`head`), then the session's part as written once for the version
/// ([`crate::hub::Shown`]), and the advice. Sent as it is written: no [`Value`] is built of the
/// view or the legal actions.
#[derive(Serialize)]
struct StateAnswer<'a> {
    #[serde(flatten)]
    head: Value,
    view: &'a RawValue,
    legal: &'a RawValue,
    legal_text: &'a RawValue,
    can_undo: bool,
    advice: Option<&'a RawValue>,
}

/// How the game ended: the server's result (a resignation), else the rules' ending
/// (`{"winners", "reason", ...}`, as `to_move.over`); `null` while it runs.
fn ending(live: &Live) -> Value {
    live.row
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
        .or_else(|| json!(live.session.to_move()).get("over").cloned())
        .unwrap_or(Value::Null)
}

/// The head of a state answer for `audience` ([`StateAnswer`]): the summary, the
/// audience's own `version` ([`crate::feed`]), who is to move, the result and, once
/// the game is over, the seed. Also whether the audience is to act now.
fn state_head(live: &Live, audience: Audience) -> (Value, bool) {
    let to_move = live.session.to_move();
    let over = live.is_over();
    let acting = !over
        && audience
            .is_some_and(|s| to_move == ToMove::Seat(s) && !live.seats[usize::from(s.0)].resigned);
    let mut out = Hub::summary(&live.row, &live.seats);
    out["status"] = json!(live.derived_status());
    out["version"] = json!(live.feeds.version(audience));
    out["you"] = json!(audience.map(|s| s.0));
    out["to_move"] = json!(to_move);
    out["result"] = ending(live);
    // Fair dice: the seed is revealed once the game is over.
    out["seed"] = if over {
        json!(live.row.seed)
    } else {
        Value::Null
    };
    (out, acting)
}

/// `GET /api/games/{id}`: the caller's [`state_answer`], the game first caught up with
/// the log (so it is at least as new as anything stored before the request came).
async fn game_state(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    Caller(token): Caller,
) -> Result<Response, ApiError> {
    let answer = state_answer(&hub, &id, token.as_deref(), Catch::Up).await?;
    let body = String::from(Box::<str>::from(answer));
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Whether a state answer first catches the game up with the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Catch {
    /// As a request from outside: whatever any process stored before it came.
    Up,
    /// Right after this process's own append: the game is at least as new as that
    /// append, which is all the answer to it promises.
    AsLoaded,
}

impl Catch {
    /// Locks the game of `slot`, caught up or not.
    async fn lock<'a>(
        self,
        hub: &Hub,
        slot: &'a Slot,
    ) -> Result<tokio::sync::MutexGuard<'a, Option<Live>>, ApiError> {
        match self {
            Catch::Up => hub.lock(slot).await,
            Catch::AsLoaded => hub.lock_as_loaded(slot).await,
        }
    }
}

/// The state answer for `token`'s audience, as JSON text. The view and the legal
/// actions are written once per version and audience ([`Live::shown`]). The advice
/// (exact odds, say) can take a while, so it is worked out on a blocking thread from a
/// copy of the game, outside its lock, and kept for the version ([`Hub::heavy`]).
async fn state_answer(
    hub: &Arc<Hub>,
    id: &str,
    token: Option<&str>,
    catch: Catch,
) -> Result<Box<RawValue>, ApiError> {
    let slot = hub.slot(id);
    let (head, shown, mut advice, pending) = {
        let mut guard = catch.lock(hub, &slot).await?;
        let live = guard.as_mut().expect("locked games are loaded");
        let who = audience(live, token)?;
        let (head, acting) = state_head(live, who);
        let shown = live.shown(who, acting);
        let (advice, pending) = match who {
            Some(seat) if !live.is_over() => match live.cached_advice(seat) {
                Some(advice) => (Some(advice), None),
                None => (
                    None,
                    Some((
                        seat,
                        live.session.version(),
                        live.session.advice_later(seat),
                    )),
                ),
            },
            _ => (None, None),
        };
        (head, shown, advice, pending)
    };
    if let Some((seat, version, later)) = pending {
        let worked_out = hub.heavy(later).await?;
        let text: Arc<RawValue> = serde_json::value::to_raw_value(&worked_out)
            .expect("a JSON value is JSON text")
            .into();
        let mut guard = catch.lock(hub, &slot).await?;
        if let Some(live) = guard.as_mut() {
            live.keep_advice(version, seat, Arc::clone(&text));
        }
        advice = Some(text);
    }
    let answer = StateAnswer {
        head,
        view: &shown.view,
        legal: &shown.legal,
        legal_text: &shown.legal_text,
        can_undo: shown.can_undo,
        advice: advice.as_deref(),
    };
    Ok(serde_json::value::to_raw_value(&answer).expect("a state answer is JSON"))
}

/// The answer to an acknowledged action or take-back: the [`crate::hub::Ack`]'s fields
/// and, under `state`, the seat's [`state_answer`] as of (at least) that version, so
/// that its page needs no `GET` after its own move. Should the state not be had (the
/// store failing as the game is read again), the acknowledgement goes without it: the
/// entry is stored, and the client fetches the state as before.
async fn acknowledged(hub: &Arc<Hub>, id: &str, token: &str, ack: crate::hub::Ack) -> Response {
    #[derive(Serialize)]
    struct Reply<'a> {
        #[serde(flatten)]
        ack: crate::hub::Ack,
        #[serde(skip_serializing_if = "Option::is_none")]
        state: Option<&'a RawValue>,
    }
    let state = state_answer(hub, id, Some(token), Catch::AsLoaded)
        .await
        .ok();
    let body = serde_json::to_vec(&Reply {
        ack,
        state: state.as_deref(),
    })
    .expect("an acknowledgement is JSON");
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// `POST /api/games/{id}/actions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    /// The version the action was chosen at.
    version: u64,
    /// The action, as `legal` listed it.
    action: Value,
}

async fn act(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    caller: Caller,
    JsonBody(request): JsonBody<ActRequest>,
) -> Result<Response, ApiError> {
    let token = caller.required()?;
    let ack = hub
        .submit(
            &id,
            Submitter::Token(token.clone()),
            request.version,
            request.action,
        )
        .await?;
    Ok(acknowledged(&hub, &id, &token, ack).await)
}

/// `POST /api/games/{id}/undo`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    /// The version the take-back was asked at.
    version: u64,
}

async fn undo(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    caller: Caller,
    JsonBody(request): JsonBody<UndoRequest>,
) -> Result<Response, ApiError> {
    let token = caller.required()?;
    let ack = hub.take_back(&id, &token, request.version).await?;
    Ok(acknowledged(&hub, &id, &token, ack).await)
}

/// A body with a name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NameRequest {
    name: String,
}

async fn join(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    caller: Caller,
    JsonBody(request): JsonBody<NameRequest>,
) -> Result<Json<Value>, ApiError> {
    let token = caller.required()?;
    let seat = hub.join(&id, &token, &request.name).await?;
    Ok(Json(json!({ "seat": seat })))
}

async fn claim(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    Path((_, seat)): Path<(String, String)>,
    JsonBody(request): JsonBody<NameRequest>,
) -> Result<Json<Value>, ApiError> {
    let seat: u8 = seat
        .parse()
        .map_err(|_| ApiError::not_found(format!("there is no seat {seat:?}")))?;
    let created = hub.claim(&id, seat, &request.name).await?;
    Ok(Json(json!(created)))
}

async fn leave(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    let token = caller.required()?;
    hub.leave(&id, &token).await?;
    Ok(Json(json!({ "ok": true })))
}

async fn resign(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    let token = caller.required()?;
    hub.resign(&id, &token).await?;
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/games/{id}/notify`: where to tell the seat it must move (`null` turns a
/// channel off).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NotifyRequest {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    webhook: Option<String>,
}

async fn notify(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    caller: Caller,
    JsonBody(request): JsonBody<NotifyRequest>,
) -> Result<Json<Value>, ApiError> {
    let token = caller.required()?;
    hub.set_notify(&id, &token, request.email, request.webhook)
        .await?;
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/games/{id}/messages`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MessageRequest {
    text: String,
}

async fn message(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    caller: Caller,
    JsonBody(request): JsonBody<MessageRequest>,
) -> Result<Json<Value>, ApiError> {
    let token = caller.required()?;
    let message = hub.post_message(&id, &token, &request.text).await?;
    Ok(Json(message))
}

async fn messages(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let params = Params::parse(raw.as_deref())?;
    let messages = hub.store.messages(&id, params.since.unwrap_or(0)).await?;
    Ok(Json(json!({ "messages": messages })))
}

async fn steps(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    RawQuery(raw): RawQuery,
    Caller(token): Caller,
) -> Result<Json<Value>, ApiError> {
    let params = Params::parse(raw.as_deref())?;
    let who = caller_audience(&hub, &id, token.as_deref()).await?;
    let since = params.since.unwrap_or(0);
    let missed = hub.steps_since(&id, who, since).await?;
    Ok(Json(
        json!({"from": since, "version": missed.version, "steps": missed.steps}),
    ))
}

async fn record(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    Caller(token): Caller,
) -> Result<Response, ApiError> {
    let (who, finished) = {
        let slot = hub.slot(&id);
        let guard = hub.lock(&slot).await?;
        let live = guard.as_ref().expect("locked games are loaded");
        let who = audience(live, token.as_deref())?;
        let finished = live.is_over().then(|| {
            let mut record = live.session.record(true);
            record["result"] = ending(live);
            record
        });
        (who, finished)
    };
    let body = if let Some(record) = finished {
        record
    } else {
        // A running game: only what the asking seat may see.
        let missed = hub.steps_since(&id, who, 0).await?;
        let slot = hub.slot(&id);
        let guard = hub.lock(&slot).await?;
        let live = guard.as_ref().expect("locked games are loaded");
        json!({
            "format": 1,
            "kind": "seat_log",
            "game": live.session.game(),
            "game_id": id,
            "seat": who.map(|s| s.0),
            "seed_commitment": live.row.seed_commitment,
            "version": missed.version,
            "steps": missed.steps,
        })
    };
    let name = format!("attachment; filename=\"hexwar-{id}.json\"");
    Ok(([(header::CONTENT_DISPOSITION, name)], Json(body)).into_response())
}

async fn view_at(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    Path((_, version)): Path<(String, String)>,
    Caller(token): Caller,
) -> Result<Json<Value>, ApiError> {
    let version: u64 = version
        .parse()
        .map_err(|_| ApiError::malformed("the version is a number"))?;
    let who = caller_audience(&hub, &id, token.as_deref()).await?;
    Ok(Json(hub.view_at(&id, who, version).await?))
}

/// `GET /api/games/{id}/board`: the game's fixed public facts (a printed map and its
/// counters; `null` for games whose views carry everything), the same for everyone, so
/// no token is needed and a client fetches it once.
async fn board(State(hub): State<Arc<Hub>>, GameId(id): GameId) -> Result<Json<Value>, ApiError> {
    let slot = hub.slot(&id);
    let guard = hub.lock(&slot).await?;
    let live = guard.as_ref().expect("locked games are loaded");
    Ok(Json(json!({ "board": live.session.board() })))
}

/// `GET /api/games/{id}/history` (token optional: versions in the caller's numbering).
async fn history(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    Caller(token): Caller,
) -> Result<Json<Value>, ApiError> {
    let who = caller_audience(&hub, &id, token.as_deref()).await?;
    Ok(Json(hub.history(&id, who).await?))
}
