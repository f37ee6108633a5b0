//! Maps that several rules derive from one position (the zones of control, the
//! railroad nets), each computed at most once while that position is examined: one
//! [`crate::check::check`], or one [`crate::legal::legal_actions`] that checks hundreds
//! of candidates against the same position.

use std::cell::OnceCell;

use hexmap::Grid;

use crate::rules::reinforcements;
use crate::rules::zoc::ZoneOfControl;
use crate::state::Avl;
use crate::unit::Side;

/// One position and the maps derived from it so far.
pub struct Derived<'a> {
    s: &'a Avl,
    zoc: [OnceCell<ZoneOfControl>; 2],
    rail: [OnceCell<Grid<bool>>; 2],
}

impl<'a> Derived<'a> {
    /// Nothing derived yet.
    pub fn new(s: &'a Avl) -> Derived<'a> {
        Derived {
            s,
            zoc: Default::default(),
            rail: Default::default(),
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
        self.zoc[side.index()].get_or_init(|| ZoneOfControl::of(self.s, side))
    }

    /// Rule 11.1.1: `side`'s railroad net ([`reinforcements::rail_net`]).
    pub fn rail_net(&self, side: Side) -> &Grid<bool> {
        self.rail[side.index()].get_or_init(|| reinforcements::rail_net(self.s, side))
    }
}
