//! Replays of part of a game's log: the steps a client missed (`/steps`, the live
//! stream's catch-up, a running game's record), the game as it stood at a version
//! (`/at/{version}`), and the public scores by turn (`/history`).
//!
//! A long game must not make these cost more than the range asked for, nor let them
//! stall the games in play (issue 24, hole 5). So each starts from the loaded game's
//! latest checkpoint before the range (`crate::hub::CHECKPOINT_EVERY` log versions
//! apart), reads only that part of the log, and replays it on a blocking thread,
//! outside the game's lock, at most as many at once as the machine has cores
//! (`Hub::heavy`). The history is kept with the game and only extended.
//!
//! Versions that come in and go out are in the asking audience's own numbering
//! ([`crate::feed`]).

use std::sync::Arc;

use protocol::{Session, Step};
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::feed::{feed_version, log_version, shown_index};
use crate::hub::{Audience, Checkpoint, Hub, apply_logged, step_json};

/// What a replay starts from, taken under the game's lock: a checkpoint, the asking
/// audience's feed, and the log version to stop at.
struct Start {
    checkpoint: Checkpoint,
    /// The log versions of the steps the audience was told, up to `until`.
    points: Vec<u64>,
    /// The log version the replay stops at.
    until: u64,
}

/// The steps of one replay, as an audience may see them.
pub(crate) struct Missed {
    /// The audience's version after them.
    pub version: u64,
    /// The log version after them.
    pub log_version: u64,
    /// The steps, oldest first.
    pub steps: Vec<Value>,
}

impl Hub {
    /// Reads the log of game `id` after the checkpoint and up to `until`, then
    /// replays it on a blocking thread, handing `state` each step with the log version
    /// before it, what it took back, and the audience's feed; `finish` turns the state
    /// and the session at `until` into the answer.
    async fn replay<S: Send + 'static, T: Send + 'static>(
        &self,
        id: &str,
        start: Start,
        mut state: S,
        each: impl Fn(&mut S, &dyn Session, &Step, u64, Option<u64>, &[u64]) + Send + 'static,
        finish: impl FnOnce(S, &dyn Session) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let Start {
            checkpoint,
            points,
            until,
        } = start;
        let Checkpoint {
            version: from,
            mut session,
            mut standing,
        } = checkpoint;
        let mut log = self.store.actions(id, from).await?;
        log.retain(|(seq, _)| *seq <= until);
        self.replayed
            .fetch_add(log.len() as u64, std::sync::atomic::Ordering::Relaxed);
        self.heavy(move || {
            for (_, body) in &log {
                let before = session.version();
                let step = apply_logged(session.as_mut(), body)?;
                let undone = standing.note(&step, before);
                each(&mut state, session.as_ref(), &step, before, undone, &points);
            }
            Ok(finish(state, session.as_ref()))
        })
        .await?
    }

    /// Where a replay for `audience` from its version `since` starts, and the log
    /// version of `since`; `Err` carries the audience's version when `since` is ahead
    /// of it.
    async fn start(
        &self,
        id: &str,
        audience: Audience,
        since: u64,
    ) -> Result<Result<(Start, u64), u64>, ApiError> {
        let slot = self.slot(id);
        let guard = self.lock(&slot).await?;
        let live = guard.as_ref().expect("locked games are loaded");
        let points = live.feeds.points(audience);
        let Some(at) = log_version(points, since) else {
            return Ok(Err(points.len() as u64));
        };
        Ok(Ok((
            Start {
                checkpoint: live.checkpoint_at(at),
                points: points.to_vec(),
                until: live.session.version(),
            },
            at,
        )))
    }

    /// The steps after `audience`'s version `since`, as it may see them.
    pub(crate) async fn steps_since(
        self: &Arc<Self>,
        id: &str,
        audience: Audience,
        since: u64,
    ) -> Result<Missed, ApiError> {
        let (start, after) = self
            .start(id, audience, since)
            .await?
            .map_err(|version| ahead(since, version))?;
        let version = start.points.len() as u64;
        let until = start.until;
        if after == until {
            return Ok(Missed {
                version,
                log_version: until,
                steps: Vec::new(),
            });
        }
        let steps = self
            .replay(
                id,
                start,
                Vec::new(),
                move |steps, session, step, before, undone, points| {
                    if before < after {
                        return;
                    }
                    if let Some(told) = shown_index(points, step, before, undone) {
                        steps.push(step_json(session, step, audience, told.index));
                    }
                },
                |steps, _| steps,
            )
            .await?;
        Ok(Missed {
            version,
            log_version: until,
            steps,
        })
    }

    /// The game as `audience` could see it at its version `version`: for replays.
    pub(crate) async fn view_at(
        self: &Arc<Self>,
        id: &str,
        audience: Audience,
        version: u64,
    ) -> Result<Value, ApiError> {
        let (mut start, at) = self
            .start(id, audience, version)
            .await?
            .map_err(|known| ahead(version, known))?;
        start.until = at;
        self.replay(
            id,
            start,
            (),
            |(), _, _, _, _, _| {},
            move |(), session| {
                json!({
                    "version": version,
                    "to_move": session.to_move(),
                    "view": session.view(audience),
                })
            },
        )
        .await
    }

    /// How the game went: the public scores at the start of each game turn and at the
    /// end, as a spectator sees them, with versions in `audience`'s numbering
    /// ([`History`]). Worked out once and extended as the game goes on.
    pub(crate) async fn history(
        self: &Arc<Self>,
        id: &str,
        audience: Audience,
    ) -> Result<Value, ApiError> {
        let slot = self.slot(id);
        let (start, history) = {
            let guard = self.lock(&slot).await?;
            let live = guard.as_ref().expect("locked games are loaded");
            let now = live.session.version();
            if live.history.upto == now {
                return Ok(live.history.json(live.feeds.points(audience)));
            }
            let start = Start {
                checkpoint: live.checkpoint_at(live.history.upto),
                points: Vec::new(),
                until: now,
            };
            (start, live.history.clone())
        };
        let upto = history.upto;
        let history = self
            .replay(
                id,
                start,
                history,
                move |history, session, _, before, _, _| {
                    if before >= upto {
                        history.sample(session);
                    }
                },
                |history, _| history,
            )
            .await?;
        let mut guard = self.lock(&slot).await?;
        let live = guard.as_mut().expect("locked games are loaded");
        if history.upto > live.history.upto && history.upto <= live.session.version() {
            live.history = history;
        }
        Ok(live.history.json(live.feeds.points(audience)))
    }
}

/// The public scores by turn, as far as the log has been sampled.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// The log version sampled up to.
    pub upto: u64,
    /// The score at the start of each turn (log versions).
    points: Vec<Value>,
    /// The turn of the last point.
    last_turn: Value,
    /// The latest score, when it is not the start of a turn.
    last: Option<Value>,
}

impl History {
    /// Samples the game after one more step.
    pub(crate) fn sample(&mut self, session: &dyn Session) {
        let view = session.view(None);
        let turn = match &view["position"]["turn"] {
            Value::Number(n) => Value::Number(n.clone()),
            t => t["number"].clone(),
        };
        let scores = match &view["scores"] {
            Value::Null => view["vp"].clone(),
            s => s.clone(),
        };
        let version = session.version();
        let point = json!({"version": version, "turn": turn, "scores": scores});
        if turn == self.last_turn {
            self.last = Some(point);
        } else {
            self.last_turn = turn;
            self.points.push(point);
            self.last = None;
        }
        self.upto = version;
    }

    /// The history as JSON, versions in the numbering of the audience told the steps
    /// at `points`.
    fn json(&self, points: &[u64]) -> Value {
        let mapped: Vec<Value> = self
            .points
            .iter()
            .chain(&self.last)
            .map(|p| {
                let mut p = p.clone();
                let log = p["version"].as_u64().unwrap_or(0);
                p["version"] = json!(feed_version(points, log));
                p
            })
            .collect();
        json!({ "points": mapped })
    }
}

/// The refusal of a version ahead of what the audience knows.
fn ahead(sent: u64, known: u64) -> ApiError {
    ApiError::malformed(format!(
        "version {sent} is ahead of the game's version {known}"
    ))
}
