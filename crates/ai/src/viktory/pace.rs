//! How MCTS spends its budget on a VIKTORY II decision ([`crate::AiGame::pace`]), so that a
//! person waits about one budget per player turn, not one per decision (issue 29:
//! `normal` ≤ 1 s per player turn at the median, `hard` ≤ 5 s).
//!
//! A player turn (6.0) is many decisions: each unit's steps (9.0), the battles'
//! casualties and retreats (11.0–12.0), the builds (7.0) and the placements (8.0). At a
//! whole per-decision budget each, `hard` took 10 s for an early turn and 15 s or more
//! later. So:
//!
//! - **as good as forced costs nothing**: when every legal action is the same choice
//!   (casualties among units alike in all but their number), the first is played at
//!   once (a single legal action never reaches the search at all);
//! - **a turn shares [`TURN_BUDGETS`] per-decision budgets**: each decision with a
//!   choice gets the turn's share, estimated from the seat's units and towns in the
//!   view ([`expected_choices`]).
//!
//! The result is a function of the view, the legal actions and the budget.

use engine::GameRng;
use viktory::{Action, View};

use crate::{Budget, Pace};

/// A player turn spends about this many per-decision budgets in all (`normal`: 250 ms
/// each, `hard`: 1 s), before the decisions a turn asks beyond [`expected_choices`]. It
/// was 4, and `normal`'s median turn was 1.08–1.13 s (issue 29's goal: at most 1 s);
/// then 3.5, while the bots went out and back for nothing and so asked more decisions
/// than [`expected_choices`] counts. Since they stopped (docs/ai.md, "Round trips for
/// nothing") a turn asks fewer: at 3.5 `normal`'s median turn was 0.68 s and it beat
/// `easy` 26 times in 40, at 4.5 0.95 s and 35 in 40 (the same seeds). With the weights
/// learnt again (2026-12-07) 4.5 made a median turn of 1.02 s, 4.3 0.99 s, each 35 in 40.
pub const TURN_BUDGETS: f64 = 4.3;

/// The most a player turn may think in all, in per-decision budgets
/// ([`crate::AiGame::turn_cap`]): `normal` 1.75 s, `hard` 7 s (issue 29: at most 2 s and
/// 10 s). [`TURN_BUDGETS`] is what a turn is meant to take; this caps the turns whose
/// decisions outnumber [`expected_choices`], such as one with several battles.
pub const TURN_CAP_BUDGETS: f64 = 7.0;

/// The iterations a decision from a view that hides something (Dark) still searches
/// once its player turn has spent [`TURN_CAP_BUDGETS`] ([`after_cap_iterations`]).
/// Turns under Dark fog with independent exploration ask more decisions than
/// [`expected_choices`] counts, and with none after the cap `normal` left a seventh of
/// its decisions to a kept tree's few visits or one greedy ply on one sample of what it
/// cannot see (docs/ai.md, "The turn's cap and after": 4 of 8 games against `easy`
/// where it won 8 with this; 59 against 62 of 80 over two seeds). 48 iterations are
/// about 5 ms at the benchmark's 2-player classic position; under Dark the longest turn
/// of 40 games ran 0.21 s over `normal`'s cap.
pub const AFTER_CAP_ITERATIONS: u32 = 48;

/// [`crate::AiGame::after_cap_iterations`] for VIKTORY II: [`AFTER_CAP_ITERATIONS`] where
/// the view hides units or towns to sample, none where it hides nothing. There one
/// greedy ply plans each unit's whole move on the position itself: `hard` among three
/// `easy` won 2 of 16 four-player games searching 48 iterations after its cap, 7 of 16
/// without (too few games to tell alone; docs/ai.md).
pub fn after_cap_iterations(view: &View) -> u32 {
    if crate::viktory::determinize::is_fixed(view) {
        0
    } else {
        AFTER_CAP_ITERATIONS
    }
}

/// The decisions with a choice a player turn of `seat` is expected to ask of the search:
/// about one per unit (where it goes, or what it fights with and loses), one per town or
/// city (what it builds, where a new unit is placed), and the phases' ends.
pub fn expected_choices(view: &View) -> f64 {
    let Some(seat) = view.seat else {
        return 1.0;
    };
    let pos = &view.position;
    let units = pos.units.iter().filter(|u| u.owner == seat).count();
    let towns = pos.towns.iter().filter(|t| t.town.owner == seat).count();
    2.0 + units as f64 + towns as f64
}

/// The budget of one decision of a player turn, from the level's per-decision `budget`.
pub fn turn_budget(budget: Budget, view: &View) -> Budget {
    let share = (TURN_BUDGETS / expected_choices(view)).min(1.0);
    match budget {
        Budget::Iterations(it) => {
            Budget::Iterations(((f64::from(it) * share).ceil() as u32).clamp(1, it.max(1)))
        }
        Budget::Time(d) => Budget::Time(d.mul_f64(share)),
    }
}

/// Whether every legal action is the same choice: casualties (11.3) among units that
/// differ only in their number.
fn all_alike(view: &View, legal: &[Action]) -> bool {
    let unit = |a: &Action| match *a {
        Action::Casualty { unit } => view.position.units.iter().find(|u| u.id == unit),
        _ => None,
    };
    let Some(first) = legal.first().and_then(unit) else {
        return false;
    };
    legal.iter().all(|a| {
        unit(a).is_some_and(|u| {
            viktory::Unit {
                id: first.id,
                ..u.clone()
            } == *first
        })
    })
}

/// [`crate::AiGame::pace`] for VIKTORY II (module documentation).
pub fn pace(view: &View, legal: &[Action], budget: Budget, _rng: &mut GameRng) -> Pace {
    if all_alike(view, legal) {
        return Pace::Play(0);
    }
    Pace::Search(turn_budget(budget, view))
}

#[cfg(test)]
mod tests {
    use engine::{Game, NewGame, Seat, ToMove};
    use viktory::{Action, UnitId, UnitKind, Viktory};

    use super::*;

    /// A classic 2-player view of seat 0 holding at least one of its units.
    fn view_with_a_unit() -> View {
        let setup = Viktory::new_setup(&NewGame {
            preset: Some("classic".into()),
            options: serde_json::Map::new(),
            players: Some(2),
        })
        .unwrap();
        let mut s = Viktory::from_setup(&setup).unwrap();
        let mut rng = GameRng::from_u64(5);
        for _ in 0..2_000 {
            let view = s.view(Some(Seat(0)));
            if view.position.units.iter().any(|u| u.owner == Seat(0)) {
                return view;
            }
            let a = match s.to_move() {
                ToMove::Chance => s.sample_chance(&mut rng),
                ToMove::Seat(_) => {
                    let legal = s.legal_actions();
                    legal[rng.below(legal.len() as u32) as usize]
                }
                ToMove::Over(_) => break,
            };
            s.apply_unchecked(a);
        }
        panic!("no unit of seat 0 in 2,000 actions");
    }

    /// 11.3: losses among units alike in all but their number are one choice, played at
    /// once; a choice between kinds is searched, with the turn's share of the budget.
    #[test]
    fn alike_casualties_are_played_at_once() {
        let mut view = view_with_a_unit();
        let unit = view
            .position
            .units
            .iter()
            .find(|u| u.owner == Seat(0))
            .unwrap()
            .clone();
        let ids = [UnitId(900), UnitId(901), UnitId(902)];
        for id in ids {
            view.position
                .units
                .push(viktory::Unit { id, ..unit.clone() });
        }
        let legal: Vec<Action> = ids.iter().map(|&unit| Action::Casualty { unit }).collect();
        let budget = Budget::Iterations(100);
        let mut rng = GameRng::from_u64(1);
        assert_eq!(pace(&view, &legal, budget, &mut rng), Pace::Play(0));

        let other = if unit.kind == UnitKind::Cavalry {
            UnitKind::Infantry
        } else {
            UnitKind::Cavalry
        };
        let last = view
            .position
            .units
            .iter_mut()
            .find(|u| u.id == ids[2])
            .unwrap();
        last.kind = other;
        let Pace::Search(Budget::Iterations(shared)) = pace(&view, &legal, budget, &mut rng) else {
            panic!("a choice between kinds is searched");
        };
        // Seat 0 now holds at least 4 units: its turn's share is under the whole budget.
        assert!(expected_choices(&view) >= 6.0);
        assert!(shared < 100, "{shared} iterations");
        assert_eq!(
            shared,
            (100.0 * TURN_BUDGETS / expected_choices(&view)).ceil() as u32
        );
    }

    /// A spectator's view, or a seat with nothing yet, searches with the whole budget.
    #[test]
    fn an_empty_empire_keeps_the_whole_budget() {
        let mut view = view_with_a_unit();
        view.position.units.clear();
        view.position.towns.clear();
        let legal = vec![Action::EndPhase, Action::EndPhase];
        let mut rng = GameRng::from_u64(1);
        let budget = Budget::Iterations(100);
        assert_eq!(pace(&view, &legal, budget, &mut rng), Pace::Search(budget));
    }
}
