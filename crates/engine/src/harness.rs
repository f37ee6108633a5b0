//! The conformance harness that every game runs.
//!
//! [`Conformance::run`] plays many seeded random playouts and, after every action,
//! checks the game's own invariants and the contract itself:
//!
//! - `to_move` and `legal_actions` agree (over ⇔ no actions), seats are in range,
//!   legal actions are sorted and distinct;
//! - `check` accepts every legal action and refuses every other candidate (the previous
//!   position's legal actions and the game's own candidate generator), and a refused
//!   `apply` leaves the state untouched;
//! - at chance nodes the outcomes are the legal actions, weights are positive, and
//!   `sample_chance` picks one of them;
//! - states, setups, actions, events and views survive a serde round trip, and
//!   `from_setup(to_setup(s)) == s`;
//! - views are stable under hidden changes: a state that differs only in what a seat
//!   cannot see gives that seat the same view and, when it is to move, the same legal
//!   actions;
//! - the record of each playout replays to the same final state.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{
    Actor, Game, GameRecord, GameRng, RecordedAction, RuleViolation, Seat, ToMove, replay,
};

/// A named property of a game state that must hold after every action.
pub struct Invariant<G> {
    /// Short name, printed on failure.
    pub name: &'static str,
    /// Returns `Err(explanation)` when the property is broken.
    pub check: fn(&G) -> Result<(), String>,
}

/// Given a state and a seat, a different state that the seat cannot tell apart from it
/// (only facts hidden from that seat changed), or `None` if there is nothing to change.
pub type HiddenVariant<G> = fn(&G, Seat, &mut GameRng) -> Option<G>;

/// Extra actions (legal or not) to test `check` against in a state.
pub type Candidates<G> = fn(&G) -> Vec<<G as Game>::Action>;

/// The harness configuration for one game.
pub struct Conformance<G: Game> {
    /// Game-specific invariants.
    pub invariants: Vec<Invariant<G>>,
    /// Generator of hidden-information variants, for view-stability checks.
    pub hidden_variant: Option<HiddenVariant<G>>,
    /// Generator of extra candidate actions for the `check` agreement test.
    pub candidates: Option<Candidates<G>>,
    /// Number of playouts.
    pub playouts: usize,
    /// A playout stops after this many actions even if the game is not over.
    pub max_actions: usize,
    /// Seed of the first playout; playout `i` uses `seed + i`.
    pub seed: u64,
    /// Run the expensive checks (serde, views, candidates) on every n-th state only;
    /// invariants and legal/check agreement on the legal list run on every state.
    pub deep_every: usize,
    /// Whether `from_setup(to_setup(s)) == s` must hold in every state.
    pub setup_round_trip: bool,
}

impl<G: Game> Default for Conformance<G> {
    fn default() -> Self {
        Conformance {
            invariants: Vec::new(),
            hidden_variant: None,
            candidates: None,
            playouts: 100,
            max_actions: 10_000,
            seed: 0,
            deep_every: 1,
            setup_round_trip: true,
        }
    }
}

/// What a successful harness run saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Playouts run.
    pub playouts: usize,
    /// Playouts that reached game over (the rest hit `max_actions`).
    pub finished: usize,
    /// Actions applied in all.
    pub actions: usize,
    /// Of which chance actions.
    pub chance_actions: usize,
    /// Decisions taken by a seat other than the one that moved before it.
    pub seat_changes: usize,
    /// Longest playout, in actions.
    pub longest: usize,
    /// Hidden-information variants compared.
    pub hidden_checks: usize,
    /// Candidate actions refused by `check`, as they should be.
    pub refusals_checked: usize,
}

/// A broken contract or invariant, with what is needed to reproduce it.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Playout index (its seed is `Conformance::seed + playout`).
    pub playout: usize,
    /// Number of actions applied before the failure.
    pub step: usize,
    /// What went wrong.
    pub what: String,
    /// The state where it went wrong, as JSON.
    pub state: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "playout {} step {}: {}\nstate: {}",
            self.playout, self.step, self.what, self.state
        )
    }
}

impl std::error::Error for Failure {}

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + fmt::Debug>(
    what: &str,
    value: &T,
) -> Result<(), String> {
    let json =
        serde_json::to_string(value).map_err(|e| format!("{what} does not serialise: {e}"))?;
    let back: T = serde_json::from_str(&json)
        .map_err(|e| format!("{what} does not deserialise: {e}\n{json}"))?;
    if back == *value {
        Ok(())
    } else {
        Err(format!(
            "{what} changes in a serde round trip ({}): {json}",
            first_differences(value, &back)
        ))
    }
}

/// The first lines that differ between the debug forms of two values: they point at the
/// field that changed.
fn first_differences<T: fmt::Debug>(a: &T, b: &T) -> String {
    let (a, b) = (format!("{a:#?}"), format!("{b:#?}"));
    let diff: Vec<String> = a
        .lines()
        .zip(b.lines())
        .filter(|(x, y)| x != y)
        .take(5)
        .map(|(x, y)| format!("{} => {}", x.trim(), y.trim()))
        .collect();
    diff.join("; ")
}

impl<G: Game> Conformance<G> {
    /// Runs the playouts; `start(i)` gives the initial state of playout `i`.
    pub fn run(&self, mut start: impl FnMut(usize) -> G) -> Result<Report, Failure> {
        let mut report = Report::default();
        for playout in 0..self.playouts {
            let initial = start(playout);
            self.run_one(playout, &initial, &mut report)?;
        }
        Ok(report)
    }

    fn run_one(&self, playout: usize, initial: &G, report: &mut Report) -> Result<(), Failure> {
        let mut rng = GameRng::from_u64(self.seed.wrapping_add(playout as u64));
        let mut state = initial.clone();
        let mut record =
            GameRecord::<G>::new(format!("harness-{playout}"), initial.to_setup(), Vec::new());
        let mut previous_legal: Vec<G::Action> = Vec::new();
        let mut last_seat: Option<Seat> = None;
        let fail = |step: usize, state: &G, what: String| Failure {
            playout,
            step,
            what,
            state: serde_json::to_string(state).unwrap_or_default(),
        };
        report.playouts += 1;
        let mut step = 0;
        loop {
            for inv in &self.invariants {
                (inv.check)(&state)
                    .map_err(|e| fail(step, &state, format!("invariant {}: {e}", inv.name)))?;
            }
            let legal = state.legal_actions();
            Self::check_position(&state, &legal, &mut rng).map_err(|e| fail(step, &state, e))?;
            if step % self.deep_every.max(1) == 0 {
                self.check_deep(&state, &legal, &previous_legal, &mut rng, report)
                    .map_err(|e| fail(step, &state, e))?;
            }
            let to_move = state.to_move();
            if to_move.is_over() {
                report.finished += 1;
                break;
            }
            if step >= self.max_actions {
                break;
            }
            let (action, by) = match to_move {
                ToMove::Chance => {
                    report.chance_actions += 1;
                    (state.sample_chance(&mut rng), Actor::Chance)
                }
                ToMove::Seat(seat) => {
                    if last_seat.is_some_and(|s| s != seat) {
                        report.seat_changes += 1;
                    }
                    last_seat = Some(seat);
                    (
                        legal[rng.below(legal.len() as u32) as usize].clone(),
                        Actor::Seat(seat),
                    )
                }
                ToMove::Over(_) => unreachable!(),
            };
            let events = state.apply(action.clone()).map_err(|e| {
                fail(
                    step,
                    &state,
                    format!("legal action {action:?} refused on apply: {e}"),
                )
            })?;
            if step % self.deep_every.max(1) == 0 {
                Self::check_events(&state, &events).map_err(|e| fail(step, &state, e))?;
            }
            record.actions.push(RecordedAction {
                by,
                action,
                state_hash: None,
            });
            previous_legal = legal;
            step += 1;
            report.actions += 1;
        }
        report.longest = report.longest.max(step);
        let (replayed, _) = replay(&record)
            .map_err(|e| fail(step, &state, format!("record does not replay: {e}")))?;
        if replayed != state {
            return Err(fail(
                step,
                &state,
                "replaying the record gives a different final state".into(),
            ));
        }
        let json = serde_json::to_value(&record)
            .map_err(|e| fail(step, &state, format!("record: {e}")))?;
        let back = GameRecord::<G>::from_json(json)
            .map_err(|e| fail(step, &state, format!("record: {e}")))?;
        if back != record {
            return Err(fail(
                step,
                &state,
                "the record changes in a serde round trip".into(),
            ));
        }
        Ok(())
    }

    /// The cheap checks, on every state.
    fn check_position(state: &G, legal: &[G::Action], rng: &mut GameRng) -> Result<(), String> {
        let to_move = state.to_move();
        if to_move.is_over() != legal.is_empty() {
            return Err(format!(
                "to_move is {to_move:?} but there are {} legal actions",
                legal.len()
            ));
        }
        if let ToMove::Seat(seat) = to_move
            && seat.0 >= state.seats()
        {
            return Err(format!(
                "{seat} is to move at a table of {} seats",
                state.seats()
            ));
        }
        if let Some(i) = (1..legal.len()).find(|&i| legal[i - 1] >= legal[i]) {
            return Err(format!(
                "legal actions not sorted and distinct at {:?} / {:?}",
                legal[i - 1],
                legal[i]
            ));
        }
        for action in legal {
            state
                .check(action)
                .map_err(|e| format!("legal action {action:?} refused by check: {e}"))?;
        }
        if to_move == ToMove::Chance {
            let outcomes = state.chance_outcomes();
            let mut actions: Vec<G::Action> = outcomes.iter().map(|(a, _)| a.clone()).collect();
            actions.sort();
            if actions != legal {
                return Err("chance outcomes differ from the legal actions".into());
            }
            if let Some((a, _)) = outcomes.iter().find(|(_, w)| *w == 0) {
                return Err(format!("chance outcome {a:?} has weight 0"));
            }
            let sampled = state.sample_chance(rng);
            if legal.binary_search(&sampled).is_err() {
                return Err(format!(
                    "sample_chance gave {sampled:?}, not a possible outcome"
                ));
            }
        } else if !state.chance_outcomes().is_empty() {
            return Err("chance outcomes offered outside a chance node".into());
        }
        Ok(())
    }

    /// The expensive checks, on every `deep_every`-th state.
    fn check_deep(
        &self,
        state: &G,
        legal: &[G::Action],
        previous_legal: &[G::Action],
        rng: &mut GameRng,
        report: &mut Report,
    ) -> Result<(), String> {
        round_trip("state", state)?;
        let setup = state.to_setup();
        let json =
            serde_json::to_string(&setup).map_err(|e| format!("setup does not serialise: {e}"))?;
        let setup_back: G::Setup =
            serde_json::from_str(&json).map_err(|e| format!("setup does not deserialise: {e}"))?;
        if self.setup_round_trip {
            match G::from_setup(&setup_back) {
                Ok(rebuilt) if rebuilt == *state => {}
                Ok(_) => {
                    return Err(format!(
                        "from_setup(to_setup(state)) differs from the state; setup: {json}"
                    ));
                }
                Err(e) => {
                    return Err(format!(
                        "to_setup gives an invalid setup: {e}; setup: {json}"
                    ));
                }
            }
        }
        for action in legal {
            round_trip("action", action)?;
        }
        // Anything legal elsewhere that is not legal here must be refused, and refusing
        // it must not touch the state.
        let mut candidates: Vec<G::Action> = previous_legal.to_vec();
        if let Some(gen_candidates) = self.candidates {
            candidates.extend(gen_candidates(state));
        }
        for action in candidates {
            let is_legal = legal.binary_search(&action).is_ok();
            match (state.check(&action), is_legal) {
                (Ok(()), false) => {
                    return Err(format!(
                        "check accepts {action:?}, which is not in legal_actions"
                    ));
                }
                (Err(e), true) => return Err(format!("check refuses legal {action:?}: {e}")),
                (Err(e), false) => {
                    let mut copy = state.clone();
                    if copy.apply(action.clone()).is_ok() {
                        return Err(format!(
                            "apply accepts {action:?}, which check refused ({e})"
                        ));
                    }
                    if copy != *state {
                        return Err(format!("a refused apply of {action:?} changed the state"));
                    }
                    let _ = e.to_problem();
                    report.refusals_checked += 1;
                }
                (Ok(()), true) => {}
            }
        }
        let seats: Vec<Option<Seat>> = std::iter::once(None)
            .chain((0..state.seats()).map(|s| Some(Seat(s))))
            .collect();
        for &seat in &seats {
            round_trip("view", &state.view(seat))?;
        }
        if let Some(variant_of) = self.hidden_variant {
            for seat in (0..state.seats()).map(Seat) {
                let Some(variant) = variant_of(state, seat, rng) else {
                    continue;
                };
                report.hidden_checks += 1;
                let (seen, other) = (state.view(Some(seat)), variant.view(Some(seat)));
                if seen != other {
                    return Err(format!(
                        "{seat}'s view changes when only facts hidden from it change ({})",
                        first_differences(&seen, &other)
                    ));
                }
                if variant.to_move() != state.to_move() {
                    return Err(format!("to_move changes with facts hidden from {seat}"));
                }
                if state.to_move() == ToMove::Seat(seat) && variant.legal_actions() != legal {
                    return Err(format!(
                        "{seat}'s legal actions change with facts hidden from it"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Events survive serde, filtered and not, for every seat (`state`: after the action).
    fn check_events(state: &G, events: &[G::Event]) -> Result<(), String> {
        for event in events {
            round_trip("event", event)?;
            for seat in std::iter::once(None).chain((0..state.seats()).map(|s| Some(Seat(s)))) {
                if let Some(filtered) = state.event_for(event, seat) {
                    round_trip("filtered event", &filtered)?;
                }
            }
        }
        Ok(())
    }
}
