//! A Victory Lost for the bots: determinization from a seat's view (the other side's
//! hidden Command Chits), the evaluation, and the turn marker that cuts rollouts.
//!
//! Nothing on the map is hidden in AVL, so a state rebuilt from a view differs from the
//! true one only in the chits the seat cannot see ([`determinize`]). The view carries
//! the game's rules ([`avl::View::rules`]) to rebuild it with; a view read back from
//! JSON must be given them first ([`avl::View::set_rules`]).

pub mod combat;
pub mod determinize;
pub mod eval;
pub mod pace;
pub mod snapshot;
pub mod topology;

use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::fast::{FixedState, FoldHasher};

use avl::{Action, Avl, Location, PieceId, View};
use engine::{GameRng, Seat};
use hexmap::Hex;

use crate::{AiGame, Budget, Pace};

impl AiGame for Avl {
    fn view_seat(view: &View) -> Option<Seat> {
        view.seat
    }

    fn determinize(view: &View, rng: &mut GameRng) -> Option<Avl> {
        determinize::determinize(view, rng)
    }

    fn evaluate(&self) -> Vec<f64> {
        eval::evaluate(self, &eval::Weights::DEFAULT)
    }

    fn weights() -> Vec<(&'static str, f64)> {
        eval::Weights::NAMES
            .into_iter()
            .zip(eval::Weights::DEFAULT.values())
            .collect()
    }

    /// Weights that [`eval::Weights::from_values`] refuses (a caller's bug: files are
    /// checked when read) fall back on the defaults.
    fn evaluate_with(&self, weights: Option<&[f64]>) -> Vec<f64> {
        let w = weights
            .and_then(eval::Weights::from_values)
            .unwrap_or(eval::Weights::DEFAULT);
        eval::evaluate(self, &w)
    }

    fn hand_weights() -> Vec<f64> {
        eval::Weights::HAND.values().to_vec()
    }

    /// A quarter of each weight (at least 0.005: the weights are in VPs, and some are
    /// hundredths), but for [`eval::Weights::FIXED`], which stay.
    fn tuning_scales(values: &[f64]) -> Vec<f64> {
        crate::tune::quarter_scales(&eval::Weights::NAMES, values, &eval::Weights::FIXED, 0.005)
    }

    fn turn_marker(&self) -> u64 {
        turn_marker(self)
    }

    /// The activation the view is in (issue 29): MCTS keeps its tree from decision to
    /// decision within one, as it does within a VIKTORY player turn.
    fn view_turn(view: &View) -> Option<u64> {
        Some(position_marker(&view.position))
    }

    fn is_pass(action: &Action) -> bool {
        is_pass(action)
    }

    /// H-108: withdrawing a declared attack.
    fn is_retraction(action: &Action) -> bool {
        matches!(action, Action::CancelAttack)
    }

    /// Rule 8.1: a piece moves one hex per action.
    fn moving_piece(action: &Action) -> Option<u32> {
        match *action {
            Action::Move { piece, .. } | Action::RoadMove { piece, .. } => Some(u32::from(piece.0)),
            _ => None,
        }
    }

    /// Rule 8.1.1: the piece moving now, unless it must stop (8.1.3).
    fn moving_now(&self) -> Option<u32> {
        let m = self.position().activation.as_ref()?.mover?;
        (!m.stopped).then_some(u32::from(m.piece.0))
    }

    /// Rules 8.1, 8.3, 11.2.2: the piece's legal next hexes, by ordinary and by
    /// strategic movement.
    fn moves_of(&self, piece: u32) -> Vec<Action> {
        moves_of(self, piece)
    }

    /// Where every piece is, on which side, in which supply state, who controls each
    /// Victory City, and how far the moving piece has gone (8.1.1).
    fn fingerprint(&self) -> u64 {
        fingerprint(self)
    }

    /// Where every piece is, its step and supply marker, and who controls each Victory
    /// City: the fingerprint less the moving piece's progress (8.1.1), which the
    /// evaluation does not read.
    fn value_key(&self) -> Option<u64> {
        Some(value_key(self))
    }

    /// The fingerprint extends the value key: the map is hashed once for both.
    fn fingerprint_and_key(&self) -> (u64, Option<u64>) {
        let key = value_key(self);
        (fingerprint_from(self, key), Some(key))
    }

    /// Rule 8.1: a step of a piece that has not moved since `earlier`, from and to hexes
    /// more than [`STEADY_DISTANCE`] from every hex where a piece or a Victory City's
    /// control changed ([`steady_steps`]).
    fn steady_steps(&self, earlier: &Avl, legal: &[Action]) -> Vec<bool> {
        steady_steps(self, earlier, legal)
    }

    /// Forced decisions and the further steps of a move played at once, an activation's
    /// decisions sharing one budget ([`pace`]).
    fn pace(view: &View, legal: &[Action], budget: Budget, rng: &mut GameRng) -> Pace {
        pace::pace(view, legal, budget, rng)
    }

    /// Rule 8.1: a move is one hex per action, so the root's priors follow each piece's
    /// whole move ([`crate::MctsConfig::root_whole_moves`]), as the greedy bot's scores
    /// do: a one-ply prior judges a unit by its first hex.
    fn search_settings(config: crate::MctsConfig) -> crate::MctsConfig {
        crate::MctsConfig {
            root_whole_moves: pace::WHOLE_MOVE_LIMIT,
            ..config
        }
    }

    /// Rules 9.2, 9.3.4: declaring an attack that could only be withdrawn.
    fn is_futile(&self, action: &Action) -> bool {
        match *action {
            Action::Attack { target, .. } => {
                eval::futile_attack(self, &eval::Weights::DEFAULT, target)
            }
            _ => false,
        }
    }
}

/// Rule 4.1.2: the actions that end a segment or give up an option: ending the Movement
/// or Combat Segment, advancing no further (9.6.2), forgoing the Turn 1 Special Combat
/// Segment.
pub fn is_pass(action: &Action) -> bool {
    matches!(
        action,
        Action::EndMovement
            | Action::EndCombat
            | Action::EndAdvance
            | Action::SpecialCombat { hq: None }
    )
}

/// How far (in hexes) a step must stay from every change for its worth to be kept
/// ([`steady_steps`]): the threats reach two hexes from a hex (the units next to it and
/// those that can close in), so a change and a step farther apart than four touch no
/// hex's threat in common, nor a zone of control or a stack.
pub const STEADY_DISTANCE: u32 = 4;

/// [`AiGame::steady_steps`]: for each of `legal`, whether it moves a piece (8.1, 8.3)
/// that stands where it stood in `earlier`, from and to hexes more than
/// [`STEADY_DISTANCE`] from every hex where a piece arrived or left (or flipped, or
/// changed supply marker) or a Victory City changed hands since. None holds across
/// phases, activations or a declared combat. What the evaluation reads farther off
/// (supply lines, the cities' risk, Command Ranges) may still change: the kept worth is
/// an estimate.
pub fn steady_steps(s: &Avl, earlier: &Avl, legal: &[Action]) -> Vec<bool> {
    let (now, then) = (s.position(), earlier.position());
    // The turn marker counts turns and activations.
    if now.phase != then.phase
        || now.active != then.active
        || turn_marker(s) != turn_marker(earlier)
        || now.battle.is_some()
        || then.battle.is_some()
    {
        return vec![false; legal.len()];
    }
    let mut changed: Vec<Hex> = Vec::new();
    for (a, b) in now.pieces.iter().zip(&then.pieces) {
        if a != b {
            for at in [a.location, b.location] {
                match at {
                    Location::Map(h) => changed.push(h),
                    // A piece that came onto the map from a box (11.2.2) or left it
                    // (an overrun HQ, 12.7): too much may have changed.
                    _ => return vec![false; legal.len()],
                }
            }
        }
    }
    let cities = s
        .map()
        .cities
        .iter()
        .zip(now.control.iter().zip(&then.control));
    changed.extend(cities.filter(|(_, (a, b))| a != b).map(|((h, _, _), _)| *h));
    let far = |h: Hex| {
        changed
            .iter()
            .all(|&c| topology::distance(c, h) > STEADY_DISTANCE)
    };
    legal
        .iter()
        .map(|a| match *a {
            Action::Move { piece, to } | Action::RoadMove { piece, to } => {
                let i = usize::from(piece.0);
                match (now.pieces.get(i), then.pieces.get(i)) {
                    (Some(a), Some(b)) if a == b => {
                        matches!(a.location, Location::Map(from) if far(from)) && far(to)
                    }
                    _ => false,
                }
            }
            _ => false,
        })
        .collect()
}

/// Player activations begun (4.1.2): 32 per game turn, plus the chits drawn and played
/// this turn (7.2.1), plus one for each side's Reinforcement Segment (4.3). It grows by
/// one with each activation, so MCTS rollouts stop after a couple of them.
pub fn turn_marker(s: &Avl) -> u64 {
    position_marker(s.position())
}

/// [`turn_marker`] of a position, which a seat's view shows whole (a hidden chit
/// counts as played as any other).
fn position_marker(pos: &avl::state::Position) -> u64 {
    let played = (pos.played[0].len() + pos.played[1].len()).min(29) as u64;
    let extra = match pos.phase {
        avl::Phase::Reinforcement(avl::Side::Axis) => 1,
        avl::Phase::Reinforcement(avl::Side::Soviet) | avl::Phase::Over => 2,
        _ => 0,
    };
    u64::from(pos.turn.0) * 32 + played + extra
}

/// Rules 8.1, 8.3, 11.2.2: the legal actions moving `piece` one hex further now.
pub fn moves_of(s: &Avl, piece: u32) -> Vec<Action> {
    u16::try_from(piece).map_or_else(|_| Vec::new(), |id| avl::legal::moves_of(s, PieceId(id)))
}

/// A hash of what a move can change: every piece's location, step and supply marker,
/// Victory City control, the moving piece and its spent MPs, the pieces done moving.
pub fn fingerprint(s: &Avl) -> u64 {
    fingerprint_from(s, value_key(s))
}

/// [`fingerprint`] from the state's [`value_key`], `key`.
fn fingerprint_from(s: &Avl, key: u64) -> u64 {
    let pos = s.position();
    let mut h = hasher();
    key.hash(&mut h);
    if let Some(a) = &pos.activation {
        a.moved.hash(&mut h);
        if let Some(m) = &a.mover {
            (
                m.piece,
                m.spent,
                m.strategic,
                m.start,
                m.stopped,
                m.administrative,
            )
                .hash(&mut h);
        }
    }
    h.finish()
}

/// The part of [`fingerprint`] the evaluation reads ([`AiGame::value_key`]): every
/// piece's location, step and supply marker, and Victory City control. Of what a move
/// changes (where the piece stands, its progress, 8.1.1, an enemy HQ it overruns, 12.7,
/// a Victory City it takes), only the moving piece's progress and the pieces done
/// moving are left out; `eval::evaluate` reads neither.
pub fn value_key(s: &Avl) -> u64 {
    let mut h = hasher();
    hash_map_state(s, &mut h);
    h.finish()
}

/// The hasher of fingerprints and value keys: fast (`SipHash` was 14 % of a greedy game on
/// the campaign) and the same in every run.
fn hasher() -> FoldHasher {
    FixedState::with_seed(0x5eed).build_hasher()
}

fn hash_map_state(s: &Avl, h: &mut FoldHasher) {
    let pos = s.position();
    // One word a piece, each telling its state apart from every other.
    for p in &pos.pieces {
        let (tag, at) = match p.location {
            Location::Map(hex) => (0, (u64::from(hex.q as u32) << 32) | u64::from(hex.r as u32)),
            Location::Box(b) => (1, u64::from(b)),
            Location::Arriving(t) => (2, u64::from(t)),
            Location::Eliminated => (3, 0),
            Location::Removed => (4, 0),
        };
        let state = tag | (u64::from(p.reduced) << 8) | ((p.supply as u64) << 16);
        h.write_u128((u128::from(state) << 64) | u128::from(at));
    }
    pos.control.iter().for_each(|c| c.index().hash(h));
}
