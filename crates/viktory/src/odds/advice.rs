//! The odds a seat is shown while it decides ([`engine::Game::advice`]): the battles it
//! can start this turn, and the battle it is fighting. Computed only where the seat's
//! own units stand (a battle hex holds units of both sides), so even with the Dark
//! option it learns nothing its view does not show.

use engine::Seat;
use hexmap::Hex;
use serde_json::{Value, json};

use super::{BattleOdds, battle_odds};
use crate::state::Viktory;

/// One battle's odds, without the survivor distributions (kept for programs that ask
/// `viktory::odds` directly); an estimate says so with `"exact": false` and the
/// number of `"samples"`.
fn summary(
    hex: Hex,
    attacker: Seat,
    defender: Option<Seat>,
    started: bool,
    o: &BattleOdds,
) -> Value {
    let mut v = json!({
        "hex": hex,
        "attacker": attacker,
        "defender": defender,
        "started": started,
        "attacker_wins": o.attacker_wins,
        "defender_holds": o.defender_holds,
        "both_destroyed": o.both_destroyed,
        "attacker_retreats": o.attacker_retreats,
        "expected_attacker_losses": o.expected_attacker_losses,
        "expected_defender_losses": o.expected_defender_losses,
    });
    // A battle too costly to compute exactly is estimated: say so, as the odds do.
    if !o.exact {
        v["exact"] = false.into();
        v["samples"] = o.samples.into();
    }
    v
}

/// `{"battles": [...]}` for `seat`, or `null` when it has no battle to weigh: the
/// battle in progress if it fights in it, else, on its own turn, every battle it may
/// start (12.0), with the default policy of [`super::Policy`].
pub(crate) fn advice(s: &Viktory, seat: Seat) -> Value {
    let mut battles = Vec::new();
    if let Some(b) = s.battle.as_ref() {
        if (b.attacker == seat || b.defender == seat)
            && let Some(o) = battle_odds(s, b.hex)
        {
            battles.push(summary(b.hex, b.attacker, Some(b.defender), true, &o));
        }
    } else if s.turn.active == seat {
        for &hex in &s.turn.pending_battles {
            if let Some(o) = battle_odds(s, hex) {
                let defender = s
                    .units
                    .iter()
                    .find(|u| u.hex == hex && u.owner != seat && u.aboard.is_none())
                    .map(|u| u.owner)
                    .or_else(|| s.town(hex).map(|t| t.owner).filter(|&o| o != seat));
                battles.push(summary(hex, seat, defender, false, &o));
            }
        }
    }
    if battles.is_empty() {
        Value::Null
    } else {
        json!({ "battles": battles })
    }
}
