//! The game state, and the setup that describes any position (a scenario, the options,
//! and optionally a position in play).

use std::sync::Arc;

use engine::{Problem, SetupErrors};
use hexmap::Hex;
use serde::{Deserialize, Serialize};

use crate::crt::{CrtResult, Odds};
use crate::options::Options;
use crate::scenario::{Compiled, Scenario, Start};
use crate::unit::{HalfMp, Nationality, Side, Strengths, Turn};

/// A combat unit or HQ: units first in file order, then HQs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PieceId(pub u16);

impl std::fmt::Display for PieceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Rule 2.4: a Command Chit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chit {
    /// Rule 7.2.2: the Soviet STAVKA chit (activates every Soviet HQ on the map).
    Stavka,
    /// Rule 7.2.2: an Axis Manstein chit (activates any one Axis HQ), numbered from 0.
    Manstein(u8),
    /// The chit of this HQ.
    Hq(PieceId),
    /// In a view: a chit the viewer may not see (7.1.3).
    Hidden,
}

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// On the map.
    Map(Hex),
    /// Rule 11.2: in a reinforcement box (index into the scenario's boxes).
    Box(u8),
    /// Rule 11.0: not yet in play; arrives in this turn's Reinforcement Segment.
    Arriving(u8),
    /// Eliminated (counts for victory points, 14.0.1).
    Eliminated,
    /// Rule 11.3: a HQ removed from the game; or, while it is listed in
    /// [`Position::relocations`], a HQ being relocated (12.7).
    Removed,
}

/// Rule 10.1.3: a piece's supply marker.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Supply {
    /// No marker.
    #[default]
    InSupply,
    /// Out of Supply marker.
    OutOfSupply,
    /// Isolated marker.
    Isolated,
}

/// The changing state of one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceState {
    /// Where it is.
    pub location: Location,
    /// Flipped to its reduced-strength side (2.2.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reduced: bool,
    /// Its supply marker.
    #[serde(default, skip_serializing_if = "is_default")]
    pub supply: Supply,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_default(s: &Supply) -> bool {
    *s == Supply::InSupply
}

/// Where the turn stands (4.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Rule 3.0: the Soviet player secretly chooses his chits.
    Preparation,
    /// Rule 7.1: this side selects its chits for the cup (Soviet first, then Axis).
    Selection(Side),
    /// Rule 4.1.2: the Turn 1 Soviet Special Combat Segment: choosing the HQ.
    SpecialCombat,
    /// Rule 15.0.2 (option): the Axis player names the first chit "drawn".
    FirstChit,
    /// Rule 7.2.1: a chit is drawn from the cup (chance).
    Draw,
    /// Rule 7.2.2: a Manstein chit was drawn; the Axis player names the HQ or rejects it.
    Manstein,
    /// Rule 8.0: the Movement Segment of the active player.
    Movement,
    /// Rule 9.0: the Combat Segment of the active player.
    Combat,
    /// Rule 11.1: this side places its reinforcements (Axis first).
    Reinforcement(Side),
    /// The game is over (14.0).
    Over,
}

/// A piece moving now (8.1.1: one at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mover {
    /// The piece.
    pub piece: PieceId,
    /// MPs spent so far.
    pub spent: HalfMp,
    /// Rule 8.3: moving by strategic movement (every step along the road, 1/2 MP).
    pub strategic: bool,
    /// Where it started its move (`None`: in a reinforcement box).
    pub start: Option<Hex>,
    /// Rule 8.1.3: it crossed an unbridged major river and must stop.
    pub stopped: bool,
    /// Rule 15.0.1 (option): still eligible for the administrative movement MP.
    pub administrative: bool,
}

/// The active player's command: who is activated (7.2, 7.3), who has moved and fought.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    /// The chit drawn (`None` for the Turn 1 Special Combat Segment).
    pub chit: Option<Chit>,
    /// The activated HQs.
    pub hqs: Vec<PieceId>,
    /// The activated combat units (sorted).
    pub units: Vec<PieceId>,
    /// Pieces whose move is over this segment (8.1.1).
    #[serde(default)]
    pub moved: Vec<PieceId>,
    /// The piece moving now.
    #[serde(default)]
    pub mover: Option<Mover>,
    /// Units that took part in an attack (9.1.1).
    #[serde(default)]
    pub attacked: Vec<PieceId>,
    /// Hexes attacked this Combat Segment (9.1.4).
    #[serde(default)]
    pub attacked_hexes: Vec<Hex>,
}

/// Where a combat stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleStage {
    /// Rule 9.2 (1): attackers are being named.
    Declaring,
    /// Rule 9.2 (3): the die is rolled (chance).
    Rolling,
    /// Rule 9.4.2: the attacker removes steps.
    AttackerLosses,
    /// Rule 9.4.2: the defender removes steps.
    DefenderLosses,
    /// Rule 9.5: the defender retreats.
    Retreat,
    /// Rule 9.6: the attacker may advance.
    Advance,
}

/// A piece part-way through its retreat (9.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retreating {
    /// The unit.
    pub piece: PieceId,
    /// Hexes entered so far.
    pub path: Vec<Hex>,
    /// Hexes still to go (grows by one for each stacking push-on, 9.5.4).
    pub remaining: u8,
}

/// A piece advancing after combat now (9.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Advancing {
    /// The piece.
    pub piece: PieceId,
    /// Hexes advanced.
    pub hexes: u8,
    /// Rule 9.6.5: must stop.
    pub stopped: bool,
}

/// One combat (9.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    /// The attacked hex.
    pub target: Hex,
    /// The attacking units.
    pub attackers: Vec<PieceId>,
    /// Where it stands.
    pub stage: BattleStage,
    /// The defending units (set when the die is rolled).
    #[serde(default)]
    pub defenders: Vec<PieceId>,
    /// Rule 12.2: HQs stacked with involved units when the die was rolled, with the
    /// units they were stacked with.
    #[serde(default)]
    pub hq_stacks: Vec<(PieceId, Vec<PieceId>)>,
    /// The final odds rung.
    #[serde(default)]
    pub odds: Option<Odds>,
    /// The die.
    #[serde(default)]
    pub die: Option<u8>,
    /// The result.
    #[serde(default)]
    pub result: Option<CrtResult>,
    /// Steps still to remove (of the side in the current loss stage).
    #[serde(default)]
    pub steps_left: u8,
    /// Defending units that still must retreat.
    #[serde(default)]
    pub to_retreat: Vec<PieceId>,
    /// The unit retreating now.
    #[serde(default)]
    pub retreating: Option<Retreating>,
    /// Units that finished retreating, and where.
    #[serde(default)]
    pub retreated: Vec<(PieceId, Hex)>,
    /// The piece advancing now.
    #[serde(default)]
    pub advancing: Option<Advancing>,
    /// Pieces that advanced, with the hexes they entered.
    #[serde(default)]
    pub advanced: Vec<(PieceId, Vec<Hex>)>,
}

/// A HQ waiting to be relocated (12.7) by its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relocation {
    /// The HQ.
    pub hq: PieceId,
    /// The hex it is relocated from.
    pub from: Hex,
}

/// Everything that changes during play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The game turn.
    pub turn: Turn,
    /// The phase.
    pub phase: Phase,
    /// Per piece (units then HQs, file order).
    pub pieces: Vec<PieceState>,
    /// Per Victory City, who controls it (14.0).
    pub control: Vec<Side>,
    /// Per side (Axis, Soviet): the Inactive Command Chit Pool (7.1).
    pub inactive: [Vec<Chit>; 2],
    /// Per side: the Played Command Chit Pool (7.2.1).
    pub played: [Vec<Chit>; 2],
    /// The cup (7.1.2).
    pub cup: Vec<Chit>,
    /// Rule 7.2.2: the chit just drawn, while its owner decides (Manstein).
    #[serde(default)]
    pub drawn: Option<Chit>,
    /// Rule 7.2.2: a Manstein chit was just rejected, so the next one drawn must be played.
    #[serde(default)]
    pub manstein_must_play: bool,
    /// Rule 15.0.2 (option): the Soviet chits noted for the next turn.
    #[serde(default)]
    pub noted: Vec<Chit>,
    /// The active side (7.2.1).
    #[serde(default)]
    pub active: Option<Side>,
    /// The current activation.
    #[serde(default)]
    pub activation: Option<Activation>,
    /// The current combat.
    #[serde(default)]
    pub battle: Option<Battle>,
    /// HQs waiting for relocation, first first.
    #[serde(default)]
    pub relocations: Vec<Relocation>,
    /// The end of the game (14.0.2): the winner (`None`: a draw) and why.
    #[serde(default)]
    pub result: Option<GameResult>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner; `None` for equal VPs.
    pub winner: Option<Side>,
    /// Final Axis and Soviet VPs.
    pub vp: [i32; 2],
    /// "sudden death" or "end of turn N".
    pub reason: String,
}

/// Any position: a scenario, its options, and the position in play (`None`: the start).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The scenario.
    pub scenario: Scenario,
    /// Rule 15.0 options.
    #[serde(default)]
    pub options: Options,
    /// The position; `None` is the scenario's start (3.0).
    #[serde(default)]
    pub position: Option<Position>,
}

/// The scenario, compiled, with the options: fixed for the whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// As written.
    pub scenario: Scenario,
    /// Compiled.
    pub data: Compiled,
    /// Options.
    pub options: Options,
}

/// An A Victory Lost game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Setup", try_from = "Setup")]
pub struct Avl {
    pub(crate) rules: Arc<Rules>,
    pub(crate) pos: Position,
    /// Which pieces stand on which map hex, kept in step with `pos` by
    /// [`Avl::set_location`].
    occupancy: Occupancy,
}

/// The pieces on the map sorted by hex, then id: an index of [`PieceState::location`]
/// that answers "who is on this hex" without scanning every piece. The hexes are kept
/// as integer keys ([`hex_key`]) apart from the pieces, so that finding a hex is a
/// binary search over plain integers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Occupancy {
    /// The hex of each entry, as [`hex_key`], ascending.
    hexes: Vec<u64>,
    /// The piece of each entry, ascending among those of one hex.
    pieces: Vec<PieceId>,
}

/// A key for `h` whose integer order is the order of hexes (row, then column).
fn hex_key(h: Hex) -> u64 {
    // Flipping the sign bit maps i32 order onto u32 order.
    let flip = |x: i32| u64::from(x.cast_unsigned() ^ 0x8000_0000);
    (flip(h.r) << 32) | flip(h.q)
}

impl Occupancy {
    fn of(pos: &Position) -> Occupancy {
        let mut v: Vec<(Hex, PieceId)> = pos
            .pieces
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.location {
                Location::Map(h) => u16::try_from(i).ok().map(|i| (h, PieceId(i))),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        Occupancy {
            hexes: v.iter().map(|&(h, _)| hex_key(h)).collect(),
            pieces: v.into_iter().map(|(_, p)| p).collect(),
        }
    }

    /// The entries of hex key `k`: from the first not below it, while they are `k`
    /// (a hex holds a few pieces at most).
    fn range(&self, k: u64) -> std::ops::Range<usize> {
        let lo = self.hexes.partition_point(|&x| x < k);
        let n = self.hexes[lo..].iter().take_while(|&&x| x == k).count();
        lo..lo + n
    }

    fn at(&self, h: Hex) -> &[PieceId] {
        &self.pieces[self.range(hex_key(h))]
    }

    /// Where `(h, p)` is, or would be inserted.
    fn find(&self, h: Hex, p: PieceId) -> Result<usize, usize> {
        let r = self.range(hex_key(h));
        let i = r.start + self.pieces[r.clone()].partition_point(|&x| x < p);
        if i < r.end && self.pieces[i] == p {
            Ok(i)
        } else {
            Err(i)
        }
    }

    fn remove(&mut self, h: Hex, p: PieceId) {
        if let Ok(i) = self.find(h, p) {
            self.hexes.remove(i);
            self.pieces.remove(i);
        }
    }

    fn insert(&mut self, h: Hex, p: PieceId) {
        if let Err(i) = self.find(h, p) {
            self.hexes.insert(i, hex_key(h));
            self.pieces.insert(i, p);
        }
    }
}

impl From<Avl> for Setup {
    fn from(s: Avl) -> Setup {
        s.to_setup()
    }
}

impl TryFrom<Setup> for Avl {
    type Error = SetupErrors;
    fn try_from(setup: Setup) -> Result<Avl, SetupErrors> {
        Avl::from_setup(&setup)
    }
}

fn bad(message: String) -> Problem {
    Problem::with_rule("bad_position", "3.0", message)
}

impl Avl {
    /// Validates a setup, reporting every problem at once.
    pub fn from_setup(setup: &Setup) -> Result<Avl, SetupErrors> {
        let data = setup.scenario.compile().map_err(|ps| {
            SetupErrors(
                ps.iter()
                    .map(crate::scenario::ScenarioProblem::to_problem)
                    .collect(),
            )
        })?;
        let rules = Arc::new(Rules {
            scenario: setup.scenario.clone(),
            data,
            options: setup.options,
        });
        let pos = match &setup.position {
            Some(p) => p.clone(),
            None => crate::rules::sequence::initial_position(&rules),
        };
        let s = Avl::new(rules, pos);
        let problems = s.validate();
        if problems.is_empty() {
            Ok(s)
        } else {
            Err(SetupErrors(problems))
        }
    }

    /// A state from the rules of a game already running and a position, validated like
    /// [`Avl::from_setup`] but without compiling the scenario again: for search, which
    /// rebuilds many states of one game (a bot's view carries the rules,
    /// [`crate::View::rules`]).
    pub fn from_rules(rules: Arc<Rules>, position: Position) -> Result<Avl, SetupErrors> {
        let s = Avl::new(rules, position);
        let problems = s.validate();
        s.unless(problems)
    }

    /// A state from the rules of a game already running and a position, without the
    /// rules' checks: for search, rebuilding a position the game itself reached (a
    /// view's, its hidden facts filled in) when [`Avl::from_rules`] refuses it because
    /// the game got somewhere its own validation does not allow. The rules act on it as
    /// they would on the original. Only the position's shape is checked (one entry per
    /// piece of the scenario and per Victory City, pieces on the map's hexes and in its
    /// boxes), without which the rules could not read it; a position of another
    /// scenario is refused.
    pub fn from_rules_unchecked(rules: Arc<Rules>, position: Position) -> Result<Avl, SetupErrors> {
        let s = Avl::new(rules, position);
        let problems = s.shape();
        s.unless(problems)
    }

    /// The state, unless there are `problems`.
    fn unless(self, problems: Vec<Problem>) -> Result<Avl, SetupErrors> {
        if problems.is_empty() {
            Ok(self)
        } else {
            Err(SetupErrors(problems))
        }
    }

    fn new(rules: Arc<Rules>, pos: Position) -> Avl {
        let occupancy = Occupancy::of(&pos);
        Avl {
            rules,
            pos,
            occupancy,
        }
    }

    /// Moves a piece: the one way the rules change a [`PieceState::location`], so that
    /// the hex index stays true.
    pub(crate) fn set_location(&mut self, p: PieceId, to: Location) {
        let old = std::mem::replace(&mut self.piece_mut(p).location, to);
        if let Location::Map(h) = old {
            self.occupancy.remove(h, p);
        }
        if let Location::Map(h) = to {
            self.occupancy.insert(h, p);
        }
    }

    /// Whether the hex index agrees with the pieces' locations (checked after every
    /// action in debug builds).
    pub(crate) fn occupancy_is_true(&self) -> bool {
        self.occupancy == Occupancy::of(&self.pos)
    }

    /// The setup that reproduces this state.
    pub fn to_setup(&self) -> Setup {
        Setup {
            scenario: self.rules.scenario.clone(),
            options: self.rules.options,
            position: Some(self.pos.clone()),
        }
    }

    /// The checks without which the rules cannot read the position: one entry per
    /// piece of the scenario and per Victory City, every piece on the map on one of
    /// its hexes, every piece in a box in one of the scenario's boxes.
    fn shape(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let n = self.piece_count();
        if self.pos.pieces.len() != n {
            out.push(bad(format!(
                "the position has {} pieces, the scenario {n}",
                self.pos.pieces.len()
            )));
            return out;
        }
        if self.pos.control.len() != self.rules.data.map.cities.len() {
            out.push(bad("one control entry per Victory City".into()));
        }
        for id in self.piece_ids() {
            match self.location(id) {
                Location::Map(h) if self.map().at(h).is_none() => {
                    out.push(bad(format!("{} is off the map", self.name(id))));
                }
                Location::Box(b) if usize::from(b) >= self.rules.data.boxes.len() => {
                    out.push(bad(format!(
                        "{} is in box {b}, which is none",
                        self.name(id)
                    )));
                }
                _ => {}
            }
        }
        out
    }

    fn validate(&self) -> Vec<Problem> {
        let mut out = self.shape();
        let n = self.piece_count();
        if self.pos.pieces.len() != n {
            return out;
        }
        if self.pos.turn.0 == 0 || self.pos.turn.0 > self.rules.scenario.turns {
            out.push(bad(format!(
                "turn {} is not a turn of the game",
                self.pos.turn.0
            )));
        }
        for id in self.piece_ids() {
            match self.location(id) {
                Location::Map(h) if self.map().at(h).is_some() && !self.map().is_land(h) => {
                    out.push(bad(format!(
                        "{} is not on a land hex of the map",
                        self.name(id)
                    )));
                }
                Location::Box(b)
                    if self
                        .rules
                        .data
                        .boxes
                        .get(usize::from(b))
                        .is_some_and(|x| x.side != self.side(id)) =>
                {
                    out.push(bad(format!(
                        "{} is in a box that is not its side's",
                        self.name(id)
                    )));
                }
                Location::Eliminated if self.is_hq(id) => {
                    out.push(bad(format!(
                        "HQ {} cannot be eliminated (12.2)",
                        self.name(id)
                    )));
                }
                Location::Removed if !self.is_hq(id) => {
                    out.push(bad(format!(
                        "only HQs are removed (11.3), not {}",
                        self.name(id)
                    )));
                }
                _ => {}
            }
            if self.pos.pieces[usize::from(id.0)].reduced
                && (self.is_hq(id) || self.unit_info(id).is_some_and(|u| u.reduced.is_none()))
            {
                out.push(bad(format!("{} has no reduced side", self.name(id))));
            }
        }
        // Stacking (5.0) and no mixing of sides (5.0.2), outside moves in progress.
        let moving: Vec<PieceId> = self
            .pos
            .activation
            .as_ref()
            .and_then(|a| a.mover)
            .map(|m| m.piece)
            .into_iter()
            .chain(self.pos.battle.iter().flat_map(|b| {
                b.retreating
                    .iter()
                    .map(|r| r.piece)
                    .chain(b.advancing.map(|a| a.piece))
            }))
            .collect();
        let mut hexes: Vec<Hex> = self.piece_ids().filter_map(|p| self.hex_of(p)).collect();
        hexes.sort();
        hexes.dedup();
        for h in hexes {
            let here: Vec<PieceId> = self.pieces_at(h).collect();
            if here.iter().any(|p| moving.contains(p)) {
                continue;
            }
            let sides = here.iter().map(|&p| self.side(p));
            if sides.clone().any(|s| s == Side::Axis) && sides.clone().any(|s| s == Side::Soviet) {
                out.push(bad(format!(
                    "Axis and Soviet units share hex {} (5.0.2)",
                    self.map().label(h)
                )));
            }
            if let Err(e) = crate::rules::stacking::stack_ok(
                here.iter().map(|&p| (self.is_hq(p), self.nationality(p))),
            ) {
                out.push(bad(format!("hex {}: {e}", self.map().label(h))));
            }
        }
        // Chits: each at most once.
        let mut all: Vec<Chit> = self
            .pos
            .inactive
            .iter()
            .chain(self.pos.played.iter())
            .flatten()
            .chain(self.pos.cup.iter())
            .chain(self.pos.drawn.iter())
            .copied()
            .collect();
        all.sort();
        if all.windows(2).any(|w| w[0] == w[1]) {
            out.push(bad("a Command Chit is in two places".into()));
        }
        for c in &all {
            match *c {
                Chit::Hq(p) if usize::from(p.0) >= n || !self.is_hq(p) => {
                    out.push(bad(format!("chit of {p}, which is not a HQ")));
                }
                Chit::Manstein(i) if usize::from(i) >= self.rules.scenario.manstein_turns.len() => {
                    out.push(bad(format!("there is no Manstein chit {i}")));
                }
                Chit::Hidden => out.push(bad("a hidden chit in a position".into())),
                _ => {}
            }
        }
        for side in Side::BOTH {
            for c in self.pos.inactive[side.index()]
                .iter()
                .chain(&self.pos.played[side.index()])
            {
                if crate::rules::command::chit_side(self, *c) != Some(side) {
                    out.push(bad(format!("{side} pool holds a chit of the other side")));
                }
            }
        }
        let in_play = |p: PieceId| usize::from(p.0) < n;
        let mut named: Vec<PieceId> = self.pos.relocations.iter().map(|r| r.hq).collect();
        if let Some(a) = &self.pos.activation {
            named.extend(
                a.units
                    .iter()
                    .chain(&a.hqs)
                    .chain(&a.moved)
                    .chain(&a.attacked),
            );
            named.extend(a.mover.map(|m| m.piece));
        }
        if let Some(b) = &self.pos.battle {
            named.extend(b.attackers.iter().chain(&b.defenders).chain(&b.to_retreat));
            named.extend(b.retreating.as_ref().map(|r| r.piece));
            named.extend(b.advancing.map(|a| a.piece));
            named.extend(
                b.hq_stacks
                    .iter()
                    .flat_map(|(q, u)| std::iter::once(q).chain(u)),
            );
            named.extend(b.retreated.iter().map(|(p, _)| *p));
            named.extend(b.advanced.iter().map(|(p, _)| *p));
        }
        if named.iter().any(|&p| !in_play(p)) {
            out.push(bad(
                "the activation or combat names a piece that does not exist".into(),
            ));
        }
        let stuck = match self.pos.phase {
            Phase::Draw => self.pos.cup.is_empty() && self.pos.result.is_none(),
            Phase::Movement | Phase::Combat => {
                self.pos.activation.is_none() || self.pos.active.is_none()
            }
            Phase::Manstein => self.pos.drawn.is_none(),
            _ => false,
        };
        if stuck || (self.pos.battle.is_some() && self.pos.phase != Phase::Combat) {
            out.push(bad(format!(
                "the position cannot go on from phase {:?}",
                self.pos.phase
            )));
        }
        out
    }

    // ---- accessors ----

    /// The fixed rules (scenario, compiled data, options).
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The fixed rules, shared by every state of the game (cloning the `Arc` is cheap).
    pub fn shared_rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The changing position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The map.
    #[inline]
    pub fn map(&self) -> &crate::map::Map {
        &self.rules.data.map
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.rules.options
    }

    /// Number of pieces (units and HQs).
    #[inline]
    pub fn piece_count(&self) -> usize {
        self.rules.data.units.len() + self.rules.data.hqs.len()
    }

    /// Every piece id.
    pub fn piece_ids(&self) -> impl Iterator<Item = PieceId> + Clone + use<> {
        (0..self.piece_count() as u16).map(PieceId)
    }

    /// Whether the piece is a HQ.
    #[inline]
    pub fn is_hq(&self, p: PieceId) -> bool {
        usize::from(p.0) >= self.rules.data.units.len()
    }

    /// The printed data of a combat unit.
    #[inline]
    pub fn unit_info(&self, p: PieceId) -> Option<&crate::unit::UnitInfo> {
        self.rules.data.units.get(usize::from(p.0))
    }

    /// The printed data of a HQ.
    #[inline]
    pub fn hq_info(&self, p: PieceId) -> Option<&crate::unit::HqInfo> {
        usize::from(p.0)
            .checked_sub(self.rules.data.units.len())
            .and_then(|i| self.rules.data.hqs.get(i))
    }

    /// The piece's ID as printed.
    pub fn name(&self, p: PieceId) -> String {
        self.unit_info(p)
            .map(|u| u.id.clone())
            .or_else(|| self.hq_info(p).map(|h| h.id.clone()))
            .unwrap_or_else(|| p.to_string())
    }

    /// The piece with this printed ID.
    pub fn piece_named(&self, id: &str) -> Option<PieceId> {
        self.piece_ids().find(|&p| self.name(p) == id)
    }

    /// Nationality.
    #[inline]
    pub fn nationality(&self, p: PieceId) -> Nationality {
        self.unit_info(p)
            .map(|u| u.nationality)
            .or_else(|| self.hq_info(p).map(|h| h.nationality))
            .unwrap_or(Nationality::German)
    }

    /// Side.
    #[inline]
    pub fn side(&self, p: PieceId) -> Side {
        self.nationality(p).side()
    }

    /// Mechanized (HQs are not).
    #[inline]
    pub fn mechanized(&self, p: PieceId) -> bool {
        self.unit_info(p).is_some_and(|u| u.mechanized)
    }

    /// The piece's state.
    #[inline]
    pub fn piece(&self, p: PieceId) -> PieceState {
        self.pos.pieces[usize::from(p.0)]
    }

    pub(crate) fn piece_mut(&mut self, p: PieceId) -> &mut PieceState {
        &mut self.pos.pieces[usize::from(p.0)]
    }

    /// Where the piece is.
    #[inline]
    pub fn location(&self, p: PieceId) -> Location {
        self.piece(p).location
    }

    /// The map hex of the piece, if on the map.
    #[inline]
    pub fn hex_of(&self, p: PieceId) -> Option<Hex> {
        match self.location(p) {
            Location::Map(h) => Some(h),
            _ => None,
        }
    }

    /// The pieces on a hex, in id order.
    pub fn pieces_at(&self, h: Hex) -> impl Iterator<Item = PieceId> + '_ {
        self.occupancy.at(h).iter().copied()
    }

    /// The pieces on the map, by hex (in [`Hex`] order), then by id.
    pub(crate) fn pieces_on_map(&self) -> impl Iterator<Item = PieceId> + '_ {
        self.occupancy.pieces.iter().copied()
    }

    /// The combat units on a hex.
    pub fn units_at(&self, h: Hex) -> impl Iterator<Item = PieceId> + '_ {
        self.pieces_at(h).filter(|&p| !self.is_hq(p))
    }

    /// The HQ on a hex.
    pub fn hq_at(&self, h: Hex) -> Option<PieceId> {
        self.pieces_at(h).find(|&p| self.is_hq(p))
    }

    /// The side holding a hex, if any piece is there.
    pub fn occupant(&self, h: Hex) -> Option<Side> {
        self.pieces_at(h).next().map(|p| self.side(p))
    }

    /// Current strengths of a combat unit (2.2.3).
    pub fn strengths(&self, p: PieceId) -> Strengths {
        let Some(u) = self.unit_info(p) else {
            return Strengths::default();
        };
        if self.piece(p).reduced {
            u.reduced.unwrap_or_default()
        } else {
            u.full
        }
    }

    /// Steps the unit has left (2 full with a reduced side, else 1).
    pub fn steps(&self, p: PieceId) -> u8 {
        match self.unit_info(p) {
            Some(u) if u.reduced.is_some() && !self.piece(p).reduced => 2,
            Some(_) => 1,
            None => 0,
        }
    }

    /// The turn.
    #[inline]
    pub fn turn(&self) -> Turn {
        self.pos.turn
    }

    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.pos.phase
    }

    /// Where a piece starts in the scenario.
    pub fn start_of(&self, p: PieceId) -> Start {
        self.unit_info(p)
            .map(|u| u.start)
            .or_else(|| self.hq_info(p).map(|h| h.start))
            .unwrap_or(Start::Arrives {
                turn: 1,
                in_box: None,
            })
    }
}
