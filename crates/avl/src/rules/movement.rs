//! Rule 8.0: movement: TEC costs, rivers, ZOC costs (8.2), strategic movement (8.3),
//! overruns (8.1.4), entering the map from a reinforcement box (11.2.2).

use hexmap::Hex;

use crate::derived::Derived;
use crate::error::{Refusal, RuleError, refuse};
use crate::event::Event;
use crate::rules::zoc::ZoneOfControl;
use crate::rules::{hq, pocket, stacking};
use crate::state::{Avl, Location, Mover, Phase, PieceId, Supply};
use crate::unit::{HalfMp, Side};

/// Rule 8.1.2, 10.2.3: a piece's movement allowance this segment, in half MPs (halved,
/// rounded down, when isolated); `bonus` adds 15.0.1's administrative MP.
pub fn allowance(s: &Avl, p: PieceId, bonus: bool) -> HalfMp {
    let ma = s
        .unit_info(p)
        .map(|u| u.movement)
        .or_else(|| s.hq_info(p).map(|h| h.movement))
        .unwrap_or(0);
    let ma = if s.piece(p).supply == Supply::Isolated {
        ma / 2
    } else {
        ma
    };
    HalfMp::whole(u16::from(ma) + u16::from(bonus))
}

/// The move state of `p`: the current mover's if it is moving, else a fresh one.
pub fn mover_of(s: &Avl, p: PieceId, zoc: &ZoneOfControl) -> Mover {
    if let Some(m) = s.pos.activation.as_ref().and_then(|a| a.mover)
        && m.piece == p
    {
        return m;
    }
    let start = s.hex_of(p);
    Mover {
        piece: p,
        spent: HalfMp(0),
        strategic: false,
        start,
        stopped: false,
        administrative: s.options().administrative_movement
            && s.side(p) == Side::Soviet
            && start.is_none_or(|h| !zoc.contains(h)),
    }
}

/// Rules 8.1–8.3: the state of `m` after one step of its piece into `to` (`road`: by
/// strategic movement), or the rule that forbids it. `zoc` is the enemy's ZOC.
pub fn step(
    s: &Avl,
    m: &Mover,
    to: Hex,
    road: bool,
    zoc: &ZoneOfControl,
) -> Result<Mover, RuleError> {
    let e = enter(s, m, to, zoc)?;
    Ok(step_as(s, m, &e, road)?)
}

/// A step into a hex that the rules allow whatever the kind of movement: what the rest
/// of the step's check ([`step_as`]) needs to know of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// Where the piece steps from (`None`: from its reinforcement box).
    from: Option<Hex>,
    /// The dense index of `from`, if it is on the map.
    from_at: Option<usize>,
    /// Where it steps into.
    to: Hex,
    /// The dense index of `to`.
    to_at: usize,
    /// The hexside crossed (default features from a box).
    edge: crate::map::Side,
    /// Rule 6.0: `from` is in the enemy's ZOC.
    zf: bool,
    /// Rule 6.0: `to` is in the enemy's ZOC.
    zt: bool,
}

impl Entry {
    /// The hex entered.
    pub(crate) fn to(&self) -> Hex {
        self.to
    }
}

/// Rules 8.1–8.2, 5.0.2, 12.1, 13.0: the part of [`step`] that does not depend on the
/// kind of movement (ordinary or strategic): the rule that forbids any step of `m`
/// into `to`, or what the rest of the check needs.
pub(crate) fn enter(s: &Avl, m: &Mover, to: Hex, zoc: &ZoneOfControl) -> Result<Entry, Refusal> {
    let p = m.piece;
    let map = s.map();
    if m.stopped {
        return refuse(
            "must_stop",
            "8.1.3",
            "a unit that crossed an unbridged major river must stop",
        );
    }
    // Where from, with the direction of the step (`None` from a box).
    let from = match s.location(p) {
        Location::Map(h) => {
            let Some(dir) = h.direction_to(to) else {
                return refuse("not_adjacent", "8.1.2", "a unit moves into an adjacent hex");
            };
            Some((h, dir))
        }
        Location::Box(b) => {
            let adj = s
                .rules()
                .data
                .boxes
                .get(usize::from(b))
                .is_some_and(|x| x.adjacent.contains(&to));
            if !adj {
                return refuse(
                    "not_adjacent",
                    "11.2.2",
                    "units leave a box into a hex adjacent to it",
                );
            }
            None
        }
        _ => return refuse("not_on_map", "8.0", "that piece is not in play"),
    };
    let Some(ti) = map.index(to) else {
        return refuse("off_map", "8.1.5", "a unit may not move off the map");
    };
    let info = &map.info[ti];
    if info.water {
        return refuse("water", "8.1.5", "a unit may not enter a water hex");
    }
    // The hexside crossed (`Map::side`) and whether `from` is in the enemy's ZOC,
    // from the index of `from`.
    let at = from.and_then(|(h, dir)| map.index(h).map(|i| (i, dir)));
    let edge = at.map_or_else(Default::default, |(i, dir)| map.sides[i][dir.index()]);
    if edge.impassable {
        return refuse(
            "impassable",
            "8.1.5",
            "a unit may not cross an impassable hexside",
        );
    }
    if info.pocket && pocket::exists(s) {
        return refuse(
            "pocket",
            "13.0",
            "no unit may enter the Stalingrad Pocket yet",
        );
    }
    let side = s.side(p);
    if s.units_at(to).any(|u| s.side(u) != side) {
        return refuse(
            "enemy_hex",
            "5.0.2",
            "a unit may not enter a hex holding enemy combat units",
        );
    }
    if s.is_hq(p) && s.hq_at(to).is_some_and(|h| s.side(h) != side) {
        return refuse("hq_overrun", "12.1", "only combat units overrun enemy HQs");
    }
    let zf = at.is_some_and(|(i, _)| zoc.contains_index(i));
    let zt = zoc.contains_index(ti);
    if edge.major_river && zf && zt {
        return refuse(
            "major_river_zoc",
            "8.2.2",
            "a major river may not be crossed from an enemy ZOC into an enemy ZOC",
        );
    }
    Ok(Entry {
        from: from.map(|(h, _)| h),
        from_at: at.map(|(i, _)| i),
        to,
        to_at: ti,
        edge,
        zf,
        zt,
    })
}

/// Rules 8.1–8.3: the rest of [`step`] for an [`Entry`]: by ordinary movement or
/// (`road`) by strategic movement.
pub(crate) fn step_as(s: &Avl, m: &Mover, entry: &Entry, road: bool) -> Result<Mover, Refusal> {
    let p = m.piece;
    let map = s.map();
    let Entry {
        from,
        from_at,
        to_at,
        edge,
        zf,
        zt,
        ..
    } = *entry;
    let mut next = *m;
    let cost;
    if road {
        if !m.strategic {
            if m.spent.0 > 0 {
                return refuse(
                    "not_strategic",
                    "H-101",
                    "strategic movement must be used from the start of the move",
                );
            }
            let start_road = match (from, from_at) {
                (Some(_), at) => at.is_some_and(|i| map.road_hex_at(i)),
                (None, _) => map.road_hex_at(to_at),
            };
            if !start_road {
                return refuse(
                    "no_road_start",
                    "8.3.1",
                    "strategic movement starts in a road hex",
                );
            }
            if zf {
                return refuse(
                    "strategic_zoc",
                    "8.3.1",
                    "a unit starting in an enemy ZOC cannot use strategic movement",
                );
            }
        }
        if from.is_some() && !edge.road {
            return refuse("no_road", "8.3.1", "strategic movement follows the road");
        }
        if zt {
            return refuse(
                "strategic_zoc",
                "8.3.1",
                "strategic movement may not enter an enemy ZOC",
            );
        }
        cost = 1;
        next.strategic = true;
    } else {
        if m.strategic {
            return refuse(
                "strategic_committed",
                "H-101",
                "a unit using strategic movement keeps to the road for its whole move",
            );
        }
        let mut c = 2 * map.move_cost_at(to_at);
        if edge.unbridged_minor() {
            c += 2;
        }
        if zf {
            c += 4;
        }
        if zt {
            c += 4;
        }
        if edge.unbridged_major() {
            if m.spent.0 > 0 || from != m.start {
                return refuse(
                    "major_river",
                    "8.1.3",
                    "an unbridged major river is crossed only by a unit that starts its move beside it",
                );
            }
            next.stopped = true;
        }
        cost = c;
    }
    next.administrative = m.administrative && !zt;
    let limit = allowance(s, p, next.administrative);
    if m.spent.0 + cost > limit.0 {
        return refuse("no_mp", "8.1.2", "not enough movement points left");
    }
    next.spent = HalfMp(m.spent.0 + cost);
    Ok(next)
}

fn activated(s: &Avl, p: PieceId) -> bool {
    s.pos
        .activation
        .as_ref()
        .is_some_and(|a| a.units.contains(&p) || a.hqs.contains(&p))
}

/// Rule 8.1: check moving `p` one hex.
pub fn check_move(s: &Avl, p: PieceId, to: Hex, road: bool) -> Result<(), RuleError> {
    check_move_in(&Derived::for_one(s), p, to, road)
}

/// [`check_move`], with the zones of control of `d`.
pub fn check_move_in(
    derived: &Derived<'_>,
    p: PieceId,
    to: Hex,
    road: bool,
) -> Result<(), RuleError> {
    let (m, zoc) = may_move(derived, p)?;
    Ok(check_step(derived.state(), &m, to, road, zoc)?)
}

/// Rules 4.1.2, 7.3.2, 8.0, 8.1.1, 5.0.4: whether `p` may take a step now at all (the
/// part of [`check_move_in`] that does not depend on where to), and if so its move
/// state and the enemy's ZOC: checked once for all of a piece's steps.
pub(crate) fn may_move<'d>(
    derived: &'d Derived<'_>,
    p: PieceId,
) -> Result<(Mover, &'d ZoneOfControl), Refusal> {
    let s = derived.state();
    if s.pos.phase != Phase::Movement || s.pos.battle.is_some() {
        return refuse("wrong_phase", "4.1.2", "units move in the Movement Segment");
    }
    if usize::from(p.0) >= s.piece_count() || Some(s.side(p)) != s.pos.active {
        return refuse("not_yours", "8.0", "the active player moves his own pieces");
    }
    if !activated(s, p) {
        return refuse("not_activated", "7.3.2", "only activated pieces move");
    }
    let Some(a) = s.pos.activation.as_ref() else {
        return refuse("wrong_phase", "4.1.2", "no activation");
    };
    if a.moved.contains(&p) {
        return refuse("already_moved", "8.1.1", "that piece has finished its move");
    }
    if let Some(m) = a.mover
        && m.piece != p
        && !stacking::ok_where_it_is(s, m.piece)
    {
        return refuse(
            "overstacked",
            "5.0.4",
            "the moving unit must end its move within the stacking limit",
        );
    }
    let zoc = derived.zoc(s.side(p).enemy());
    Ok((mover_of(s, p, zoc), zoc))
}

/// Rules 8.1–8.3, 5.0.4: check the step of `m` (which [`may_move`] allowed) into `to`.
pub(crate) fn check_step(
    s: &Avl,
    m: &Mover,
    to: Hex,
    road: bool,
    zoc: &ZoneOfControl,
) -> Result<(), Refusal> {
    let e = enter(s, m, to, zoc)?;
    check_entry(s, m, &e, road, zoc, || stacking::can_stop(s, m.piece, to))
}

/// Rules 8.1–8.3, 5.0.4: the rest of [`check_step`] for an [`Entry`] of `m`, by
/// ordinary or (`road`) strategic movement; `can_stop` tells whether the piece may end
/// its move in the hex entered ([`stacking::can_stop`]), asked only if the step is
/// otherwise allowed.
pub(crate) fn check_entry(
    s: &Avl,
    m: &Mover,
    e: &Entry,
    road: bool,
    zoc: &ZoneOfControl,
    can_stop: impl FnOnce() -> bool,
) -> Result<(), Refusal> {
    let to = e.to();
    let next = step_as(s, m, e, road)?;
    if !can_stop() && !can_go_on(s, &next, to, zoc) {
        return refuse(
            "overstacked",
            "5.0.4",
            "the unit could not end its move within the stacking limit there",
        );
    }
    Ok(())
}

/// Rule 5.0.4, H-100: a piece may pass through a full hex only if it can go on from
/// there to a hex where it may stop.
fn can_go_on(s: &Avl, next: &Mover, at: Hex, zoc: &ZoneOfControl) -> bool {
    let mut t = s.clone();
    t.set_location(next.piece, Location::Map(at));
    t.map().neighbors(at).any(|(_, n)| {
        [false, true].into_iter().any(|road| {
            step(&t, next, n, road, zoc).is_ok() && stacking::can_stop(&t, next.piece, n)
        })
    })
}

/// Rule 8.1: move `p` one hex.
pub fn apply_move(s: &mut Avl, p: PieceId, to: Hex, road: bool, ev: &mut Vec<Event>) {
    // Two hexes to judge (where from, where to): no need to mark the whole map.
    let zoc = ZoneOfControl::around(s, s.side(p).enemy());
    apply_move_with(s, p, to, road, &zoc, ev);
}

/// [`apply_move`], with the enemy's ZOC `zoc` known already.
pub fn apply_move_with(
    s: &mut Avl,
    p: PieceId,
    to: Hex,
    road: bool,
    zoc: &ZoneOfControl,
    ev: &mut Vec<Event>,
) {
    let m = mover_of(s, p, zoc);
    let Ok(next) = step(s, &m, to, road, zoc) else {
        return;
    };
    if let Some(a) = s.pos.activation.as_mut() {
        if let Some(old) = a.mover
            && old.piece != p
        {
            a.moved.push(old.piece);
            a.moved.sort();
        }
        a.mover = Some(next);
    }
    s.set_location(p, Location::Map(to));
    ev.push(Event::Moved {
        piece: p,
        to,
        spent: next.spent.0,
    });
    hq::entered(s, p, to, ev);
}

/// Rule 4.1.2: check ending the Movement Segment.
pub fn check_end(s: &Avl) -> Result<(), RuleError> {
    if s.pos.phase != Phase::Movement || s.pos.battle.is_some() {
        return refuse("wrong_phase", "4.1.2", "not in a Movement Segment");
    }
    let Some(a) = s.pos.activation.as_ref() else {
        return refuse("wrong_phase", "4.1.2", "no activation");
    };
    if let Some(m) = a.mover
        && !stacking::ok_where_it_is(s, m.piece)
    {
        return refuse(
            "overstacked",
            "5.0.4",
            "the moving unit must end its move within the stacking limit",
        );
    }
    // Rule 11.2.2, H-112: units activated in a box must enter the map (when they can).
    let d = Derived::for_one(s);
    for &p in a.units.iter().chain(&a.hqs) {
        if let Location::Box(b) = s.location(p) {
            let zoc = d.zoc(s.side(p).enemy());
            let m = mover_of(s, p, zoc);
            let adjacent = &s.rules().data.boxes[usize::from(b)].adjacent;
            if adjacent.iter().any(|&h| {
                [false, true].into_iter().any(|road| {
                    check_move_in(&d, p, h, road).is_ok() && step(s, &m, h, road, zoc).is_ok()
                })
            }) {
                return refuse(
                    "must_enter",
                    "11.2.2",
                    "the units in the reinforcement box must enter the map",
                );
            }
        }
    }
    Ok(())
}

/// Rule 4.1.2: the Movement Segment ends; the Combat Segment begins.
pub fn apply_end(s: &mut Avl) {
    if let Some(a) = s.pos.activation.as_mut() {
        a.mover = None;
        a.moved.clear();
    }
    s.pos.phase = Phase::Combat;
}
