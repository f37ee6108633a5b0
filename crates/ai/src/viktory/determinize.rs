//! A full VIKTORY state from one seat's view.
//!
//! In the classic rules nothing on the table is hidden: a face-down tile's terrain is
//! drawn from the bank only when the tile is revealed, so the state never holds it,
//! and the view's position rebuilds the true state exactly (its face-down tiles stay
//! face down, to be drawn by chance during search).
//!
//! Under the online rules' fog options the view lacks facts, which are sampled:
//! - **Dark**: the other players' reserves are blanked and their units out of sight
//!   left out. For each other player, the units his towns and cities (as the seat knows
//!   them) support, less those the seat sees, are put back: each land unit, with even
//!   odds, into one of his towns out of the seat's sight, otherwise (and every frigate)
//!   into his reserve.
//! - **Independent exploration**: tiles the seat has not explored are face down in its
//!   view and the bank counts them as unknown: they stay face down and are drawn by
//!   chance, like classic tiles.
//! - **Map customization**: tiles another player drew and has not laid yet are back in
//!   the bank in the view, as the seat believes.
//!
//! If a sampled position is refused by [`Viktory::from_setup`], the view's position as
//! it is (every hidden unit in reserve) is tried next.

use engine::{GameRng, Seat};
use hexmap::Hex;
use viktory::state::Setup;
use viktory::{Terrain, Unit, UnitId, UnitKind, View, Viktory};

/// A state the view's seat cannot tell from the true one, hidden facts sampled.
pub fn determinize(view: &View, rng: &mut GameRng) -> Option<Viktory> {
    let mut setup = view.position.clone();
    if let (true, Some(seat)) = (setup.rules.dark, view.seat) {
        // A sample, not a position the rules reached: the towns the seat remembers need
        // not support the units it sees and samples (8.0 is not checked).
        setup.units_as_given = true;
        restore_fogged_units(&mut setup, seat, view.sight.as_deref().unwrap_or(&[]), rng);
        if let Ok(s) = Viktory::from_setup(&setup) {
            return Some(s);
        }
        setup = view.position.clone();
        setup.units_as_given = true;
    }
    Viktory::from_setup(&setup).ok()
}

/// Dark: the other players' units the seat cannot see, sampled into their towns out of
/// sight or their reserves.
/// Whether [`determinize`] of `view` is the view's position as it stands, the same
/// every time, with nothing drawn: any view without Dark fog.
pub fn is_fixed(view: &View) -> bool {
    !view.position.rules.dark
}

fn restore_fogged_units(setup: &mut Setup, seat: Seat, sight: &[Hex], rng: &mut GameRng) {
    let terrain = |hex: Hex| {
        setup
            .tiles
            .iter()
            .find(|t| t.hex == hex)
            .map_or(Terrain::Plains, |t| t.terrain)
    };
    let mut next_id = setup
        .units
        .iter()
        .map(|u| u.id.0)
        .max()
        .map_or(0, |m| m + 1)
        .max(setup.next_unit.unwrap_or(0));
    let mut added: Vec<Unit> = Vec::new();
    for p in 0..setup.rules.players {
        let owner = Seat(p);
        if owner == seat
            || setup
                .players
                .get(owner.index())
                .is_none_or(|pl| pl.eliminated)
        {
            continue;
        }
        let mut owed = [0u32; 4];
        let mut hidden_towns: Vec<Hex> = Vec::new();
        for t in setup.towns.iter().filter(|t| t.town.owner == owner) {
            for k in t.town.units(&setup.rules, terrain(t.hex), true) {
                owed[k.index()] += 1;
            }
            if !sight.contains(&t.hex) {
                hidden_towns.push(t.hex);
            }
        }
        for u in setup.units.iter().filter(|u| u.owner == owner) {
            owed[u.kind.index()] = owed[u.kind.index()].saturating_sub(1);
        }
        for kind in UnitKind::ALL {
            for _ in 0..owed[kind.index()] {
                if kind.is_land() && !hidden_towns.is_empty() && rng.below(2) == 0 {
                    let hex = hidden_towns[rng.below(hidden_towns.len() as u32) as usize];
                    added.push(new_unit(UnitId(next_id), owner, kind, hex));
                    next_id += 1;
                } else if let Some(pl) = setup.players.get_mut(owner.index()) {
                    let r = pl.reserve.get_mut(kind);
                    *r = r.saturating_add(1);
                }
            }
        }
    }
    if !added.is_empty() {
        setup.units.extend(added);
        setup.units.sort_by_key(|u| u.id);
        setup.next_unit = Some(next_id);
    }
}

fn new_unit(id: UnitId, owner: Seat, kind: UnitKind, hex: Hex) -> Unit {
    Unit {
        id,
        owner,
        kind,
        hex,
        aboard: None,
        mp: 0,
        done: false,
        attacked: false,
        transported: false,
        entered_from: None,
        loads: 0,
        drop: None,
        boarded: false,
        pillages: 0,
        road_run: 0,
    }
}
