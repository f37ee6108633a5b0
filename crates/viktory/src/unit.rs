//! Military units (3.5, 8.0) and reserves.

use std::fmt;

use engine::Seat;
use hexmap::Hex;
use serde::{Deserialize, Serialize};

/// The four military unit types (8.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// Infantry: land, 2 MP.
    Infantry,
    /// Cavalry: land, 3 MP, two attack dice.
    Cavalry,
    /// Artillery: land, 2 MP, bombards, fires before battle.
    Artillery,
    /// Frigate: naval, 5 MP, bombards, carries land units.
    Frigate,
}

impl UnitKind {
    /// All kinds, in reserve order.
    pub const ALL: [UnitKind; 4] = [
        UnitKind::Infantry,
        UnitKind::Cavalry,
        UnitKind::Artillery,
        UnitKind::Frigate,
    ];

    /// Land units (infantry, cavalry, artillery).
    pub const fn is_land(self) -> bool {
        !matches!(self, UnitKind::Frigate)
    }

    /// Index into [`UnitKind::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind's name.
    pub const fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Cavalry => "cavalry",
            UnitKind::Artillery => "artillery",
            UnitKind::Frigate => "frigate",
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A unit's identifier, stable while the unit is on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub u16);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A unit on the map (in a hex, or aboard a frigate as cargo).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Identifier.
    pub id: UnitId,
    /// Owner.
    pub owner: Seat,
    /// Type.
    pub kind: UnitKind,
    /// The hex it is in (cargo: its frigate's hex).
    pub hex: Hex,
    /// The frigate carrying it, if it is cargo (9.45).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<UnitId>,
    /// Movement points left this turn (the active player's units only).
    #[serde(default)]
    pub mp: u8,
    /// Its movement has ended for this turn (9.0, R-9, 10.7).
    #[serde(default)]
    pub done: bool,
    /// It has bombarded or battled this turn (10.6).
    #[serde(default)]
    pub attacked: bool,
    /// It was transported by a frigate this turn (9.43, 9.44).
    #[serde(default)]
    pub transported: bool,
    /// The hex it entered a battle hex from, for retreats (12.3 step 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered_from: Option<Hex>,
    /// Frigates: land units taken aboard this turn, cargo kept from last turn included (9.41).
    #[serde(default)]
    pub loads: u8,
    /// Frigates: the one hex it may drop units into this turn, once chosen (9.46).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop: Option<Hex>,
    /// Expansion, Frigate Characteristics: a land unit that boarded a frigate this turn
    /// (it stops when it goes ashore).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub boarded: bool,
    /// Expansion, Cavalry Characteristics: free pillages made this turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pillages: u8,
    /// Expansion, Road/Ferry Network: network steps left in the movement point being
    /// spent on the network.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub road_run: u8,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Unit {
    /// Whether the unit is cargo on a frigate.
    pub const fn is_cargo(&self) -> bool {
        self.aboard.is_some()
    }
}

/// A small number for each unit type: units in a Reserve box, movement allowances,
/// battle dice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PerKind {
    /// Infantry.
    pub infantry: u8,
    /// Cavalry.
    pub cavalry: u8,
    /// Artillery.
    pub artillery: u8,
    /// Frigates.
    pub frigate: u8,
}

impl PerKind {
    /// The count of one kind.
    pub const fn get(&self, kind: UnitKind) -> u8 {
        match kind {
            UnitKind::Infantry => self.infantry,
            UnitKind::Cavalry => self.cavalry,
            UnitKind::Artillery => self.artillery,
            UnitKind::Frigate => self.frigate,
        }
    }

    /// Mutable count of one kind.
    pub fn get_mut(&mut self, kind: UnitKind) -> &mut u8 {
        match kind {
            UnitKind::Infantry => &mut self.infantry,
            UnitKind::Cavalry => &mut self.cavalry,
            UnitKind::Artillery => &mut self.artillery,
            UnitKind::Frigate => &mut self.frigate,
        }
    }

    /// One more of `kind`. A count stays at 255 rather than wrapping: no ruleset comes
    /// near it (a Reserve box holds what a player's towns and cities support), but a
    /// hand-made position may.
    pub fn gain(&mut self, kind: UnitKind) {
        let n = self.get_mut(kind);
        *n = n.saturating_add(1);
    }

    /// The sum over all kinds.
    pub fn total(&self) -> u32 {
        UnitKind::ALL.iter().map(|&k| u32::from(self.get(k))).sum()
    }
}

/// Units waiting in a player's Reserve box (3.4, 13.0), by type.
pub type Reserve = PerKind;
