//! Maps that several rules derive from one position (the zones of control, the
//! railroad nets, the hexes a HQ may be relocated to), each computed at most once while that position is examined: one
//! [`crate::check::check`], or one [`crate::legal::legal_actions`] that checks hundreds
//! of candidates against the same position.

use std::cell::OnceCell;

use hexmap::{Grid, Hex};

use crate::rules::zoc::ZoneOfControl;
use crate::rules::{hq, reinforcements};
use crate::state::Avl;
use crate::unit::Side;

/// One position and the maps derived from it so far.
pub struct Derived<'a> {
    s: &'a Avl,
    /// For one question or a few: the zones of control are found around the hexes
    /// asked about ([`ZoneOfControl::around`]), not marked on the whole map.
    few: bool,
    zoc: [OnceCell<ZoneOfControl>; 2],
    rail: [OnceCell<Grid<bool>>; 2],
    rail_hexes: [OnceCell<Vec<Hex>>; 2],
    relocation: OnceCell<Vec<Hex>>,
}

impl<'a> Derived<'a> {
    /// Nothing derived yet.
    pub fn new(s: &'a Avl) -> Derived<'a> {
        Derived {
            s,
            few: false,
            zoc: Default::default(),
            rail: Default::default(),
            rail_hexes: Default::default(),
            relocation: OnceCell::new(),
        }
    }

    /// Nothing derived yet, for checking one action (or a few): what is derived is
    /// the same, found in the way that is cheaper for few questions.
    pub fn for_one(s: &'a Avl) -> Derived<'a> {
        Derived {
            few: true,
            ..Derived::new(s)
        }
    }

    /// The position, with `side`'s ZOC known already: for a search over moves of the
    /// other side's pieces, which leave that ZOC as it is (6.0.1).
    pub fn with_zoc(s: &'a Avl, side: Side, zoc: ZoneOfControl) -> Derived<'a> {
        let d = Derived::new(s);
        let _ = d.zoc[side.index()].set(zoc);
        d
    }

    /// The position.
    pub fn state(&self) -> &'a Avl {
        self.s
    }

    /// Rule 6.0.1: the ZOC that `side`'s combat units exert.
    pub fn zoc(&self, side: Side) -> &ZoneOfControl {
        self.zoc[side.index()].get_or_init(|| {
            if self.few {
                ZoneOfControl::around(self.s, side)
            } else {
                ZoneOfControl::of(self.s, side)
            }
        })
    }

    /// Rule 11.1.1: `side`'s railroad net ([`reinforcements::rail_net`]).
    pub fn rail_net(&self, side: Side) -> &Grid<bool> {
        self.rail[side.index()].get_or_init(|| reinforcements::rail_net(self.s, side))
    }

    /// Rule 12.7: where the HQ waiting for relocation first may be placed
    /// ([`hq::relocation_hexes`]); empty when none waits.
    pub fn relocation_hexes(&self) -> &[Hex] {
        self.relocation.get_or_init(|| {
            self.s
                .pos
                .relocations
                .first()
                .map_or_else(Vec::new, |r| hq::relocation_hexes(self.s, r.hq, r.from))
        })
    }

    /// Rule 11.1.1: the hexes of `side`'s railroad net, sorted.
    pub fn rail_hexes(&self, side: Side) -> &[Hex] {
        self.rail_hexes[side.index()]
            .get_or_init(|| reinforcements::net_hexes(self.s, self.rail_net(side)))
    }
}
