//! Battle odds for the evaluation: the one place the bots ask how a battle will go.
//!
//! The odds are the engine's exact ones (`viktory::odds`: dynamic programming over the
//! battle's states with the rules' own dice, the attacker fighting to the end, each
//! side losing infantry, then artillery, cavalry and frigates first). Prospective
//! attacks are remembered per thread in a [`viktory::odds::OddsCache`], since an
//! evaluation asks about every town and a search evaluates the same battles again and
//! again. Battles too large for the cache's limit are asked about with fewer attacking
//! units (the last ones of the list dropped first) until they fit.

use std::cell::RefCell;

use hexmap::Hex;
use viktory::odds::{Asking, OddsCache};
use viktory::{UnitId, Viktory};

/// Battles of more states than this are trimmed (see the module text): a battle of
/// this size takes about half a millisecond to compute.
const MAX_STATES: usize = 20_000;

/// The figures of a battle's odds the evaluation uses.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Odds {
    /// Probability that the attacker takes the hex.
    pub attacker_wins: f64,
    /// Expected attacking units lost (sent to the reserve).
    pub expected_attacker_losses: f64,
    /// Expected defending units lost.
    pub expected_defender_losses: f64,
}

impl From<&viktory::odds::BattleOdds> for Odds {
    fn from(o: &viktory::odds::BattleOdds) -> Odds {
        Odds {
            attacker_wins: o.attacker_wins,
            expected_attacker_losses: o.expected_attacker_losses,
            expected_defender_losses: o.expected_defender_losses,
        }
    }
}

thread_local! {
    static CACHE: RefCell<OddsCache> = RefCell::new(OddsCache::new(MAX_STATES));
}

/// The exact odds of `attackers` (units of one player, ordered from the most to the
/// least wanted in the attack) moving into `hex` and fighting whoever defends it now,
/// units of theirs already waiting there to fight included. `None` when there is
/// nobody to fight (see `viktory::odds::attack_odds`).
pub fn attack_odds(s: &Viktory, hex: Hex, attackers: &[UnitId]) -> Option<Odds> {
    with_odds(s, |odds| odds.attack_odds(hex, attackers))
}

/// Runs `f` with the thread's memo asked about `s` alone (its rules checked once for
/// all the questions `f` asks). `f` must not ask through [`attack_odds`] meanwhile.
pub fn with_odds<R>(s: &Viktory, f: impl FnOnce(&mut Asker<'_, '_>) -> R) -> R {
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        f(&mut Asker(cache.asking(s)))
    })
}

/// The thread's memo asking about one state ([`with_odds`]).
#[derive(Debug)]
pub struct Asker<'c, 's>(Asking<'c, 's>);

impl Asker<'_, '_> {
    /// [`attack_odds`] of the state asked about.
    pub fn attack_odds(&mut self, hex: Hex, attackers: &[UnitId]) -> Option<Odds> {
        let mut ids = attackers;
        loop {
            if let Some(o) = self.0.attack_odds(hex, ids) {
                return Some(Odds::from(o));
            }
            // Nobody to fight, or too large a battle: try with one attacker fewer.
            ids = ids
                .split_last()
                .map(|(_, rest)| rest)
                .filter(|r| !r.is_empty())?;
        }
    }
}

/// The exact odds of the battle being fought at `hex`, from its current step on.
pub fn battle_odds(s: &Viktory, hex: Hex) -> Option<Odds> {
    viktory::odds::battle_odds(s, hex).as_ref().map(Odds::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Seat;
    use viktory::odds::{BattleSpec, SpecUnit};
    use viktory::{Rules, Terrain, UnitKind};

    /// The cached answer is the engine's exact answer, from a fresh cache and a warm one.
    #[test]
    fn the_odds_are_the_engines() {
        let mut spec = BattleSpec::new(Rules::classic(2));
        spec.attackers = [
            UnitKind::Infantry,
            UnitKind::Infantry,
            UnitKind::Cavalry,
            UnitKind::Artillery,
        ]
        .map(|kind| SpecUnit { kind, side: 0 })
        .to_vec();
        spec.defenders.infantry = 4;
        spec.terrain = Terrain::Forest;
        spec.town = Some(false);
        let s = spec.position().unwrap();
        let exact = spec.odds().unwrap();
        let ids: Vec<UnitId> = s
            .units()
            .iter()
            .filter(|u| u.owner == Seat(0))
            .map(|u| u.id)
            .collect();
        for _ in 0..2 {
            let o = attack_odds(&s, BattleSpec::HEX, &ids).unwrap();
            assert_eq!(o, Odds::from(&exact));
        }
        assert!(
            exact.attacker_wins > 0.0 && exact.attacker_wins < 1.0,
            "{exact:?}"
        );
    }
}
