//! What each audience of a game is told, and when: a seat learns nothing from the
//! server's stream that its view does not show (issue 24, hole 6).
//!
//! A game's log counts every action, hidden ones too (a unit moving in the dark).
//! Were the log's versions and record indexes sent as they are, a seat could count the
//! moves it cannot see from the gaps between them. So each audience (the spectators,
//! and each seat) has a *feed* of its own: the steps it was told, numbered 1, 2, … in
//! its own numbering. A step is told to an audience when
//!
//! - the audience took it, or
//! - it shows the audience an event (after the game's own filtering), or
//! - it hands the decision to another seat than the one the audience last knew to
//!   decide, or ends the game, or
//! - it leaves the audience (a seat) to act: a seat always knows the current version
//!   when it must act, or
//! - it takes back a step the audience was told.
//!
//! Everything that leaves the server for an audience (`version`, `since`, step
//! `index`, the live stream's `from` and `version`, `/at/{version}`, `/history`) is in
//! that audience's numbering; requests that name a version are translated back here.
//! When a seat must act, its feed's last step is the game's current version, so an
//! action chosen at the seat's version is checked at the right one.

use engine::{Actor, Seat, ToMove};
use protocol::Step;

use crate::hub::Audience;

/// The audience's place in per-audience tables: 0 spectators, `k + 1` seat `k`.
pub(crate) fn audience_index(audience: Audience) -> usize {
    audience.map_or(0, |s| usize::from(s.0) + 1)
}

/// The audiences of a game with `seats` seats, in table order.
pub(crate) fn audiences(seats: u8) -> impl Iterator<Item = Audience> {
    std::iter::once(None).chain((0..seats).map(|s| Some(Seat(s))))
}

/// The log version before each standing action of the record (by record index), to
/// name a taken-back step in an audience's numbering. Take-backs truncate it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Standing(Vec<u64>);

impl Standing {
    /// Notes `step`, which moved the log from version `before`; for a take-back,
    /// returns the log version before the step it took back.
    pub(crate) fn note(&mut self, step: &Step, before: u64) -> Option<u64> {
        let index = usize::try_from(step.index).unwrap_or(usize::MAX);
        if step.undo {
            let undone = self.0.get(index).copied();
            self.0.truncate(index);
            undone
        } else {
            self.0.truncate(index);
            self.0.push(before);
            None
        }
    }
}

/// The feeds of every audience of one game.
#[derive(Clone, Debug)]
pub(crate) struct Feeds {
    /// Per audience: the log version after each step it was told, ascending. The
    /// audience's own version is the length.
    points: Vec<Vec<u64>>,
    /// Per audience: the decider (a seat, or the end) it last knew.
    told: Vec<Option<ToMove>>,
    /// The standing actions' log versions.
    standing: Standing,
}

impl Feeds {
    /// The feeds of a game with `seats` seats that starts (log version 0) with
    /// `to_move` to decide.
    pub(crate) fn new(seats: u8, to_move: ToMove) -> Feeds {
        let n = usize::from(seats) + 1;
        let told = (to_move != ToMove::Chance).then_some(to_move);
        Feeds {
            points: vec![Vec::new(); n],
            told: vec![told; n],
            standing: Standing::default(),
        }
    }

    /// The standing actions' log versions, for a checkpoint.
    pub(crate) fn standing(&self) -> &Standing {
        &self.standing
    }

    /// Notes `step`, which moved the log from version `before` to `before + 1` and
    /// after which `to_move` decides. Returns, for a take-back, the log version before
    /// the step it took back.
    pub(crate) fn note(&mut self, step: &Step, before: u64, to_move: &ToMove) -> Option<u64> {
        let undone = self.standing.note(step, before);
        for (k, audience) in audiences(self.seats()).enumerate() {
            let own = matches!((step.by, audience), (Actor::Seat(a), Some(b)) if a == b);
            let hand_over = *to_move != ToMove::Chance && self.told[k].as_ref() != Some(to_move);
            // A take-back is news to whoever was told the step it takes back.
            let retold = undone.is_some_and(|u| self.points[k].binary_search(&(u + 1)).is_ok());
            // The seat that must act now always knows the game's current version.
            let deciding = matches!((to_move, audience), (ToMove::Seat(s), Some(a)) if *s == a);
            if own || hand_over || deciding || retold || !step.events_for(audience).is_empty() {
                self.points[k].push(before + 1);
                if *to_move != ToMove::Chance {
                    self.told[k] = Some(to_move.clone());
                }
            }
        }
        undone
    }

    /// Notes a batch of `steps` that moved the log on from `before`, one action and
    /// the chance it caused (so chance decides between them), after which `to_move`
    /// decides. Returns what [`Feeds::note`] returns for each.
    pub(crate) fn note_batch(
        &mut self,
        before: u64,
        steps: &[Step],
        to_move: &ToMove,
    ) -> Vec<Option<u64>> {
        let last = steps.len().saturating_sub(1);
        steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let decides = if i == last { to_move } else { &ToMove::Chance };
                self.note(step, before + i as u64, decides)
            })
            .collect()
    }

    fn seats(&self) -> u8 {
        (self.points.len() - 1) as u8
    }

    /// The log versions of the steps `audience` was told.
    pub(crate) fn points(&self, audience: Audience) -> &[u64] {
        self.points
            .get(audience_index(audience))
            .map_or(&[], Vec::as_slice)
    }

    /// `audience`'s version: how many steps it was told.
    pub(crate) fn version(&self, audience: Audience) -> u64 {
        self.points(audience).len() as u64
    }

    /// Every audience's version, in table order.
    pub(crate) fn versions(&self) -> Vec<u64> {
        self.points.iter().map(|p| p.len() as u64).collect()
    }
}

/// The log version at `audience` version `version`, given its points; `None` when the
/// audience has not reached it.
pub(crate) fn log_version(points: &[u64], version: u64) -> Option<u64> {
    match usize::try_from(version).ok()? {
        0 => Some(0),
        v => points.get(v - 1).copied(),
    }
}

/// The audience's version when the log stood at `log`: how many of its steps were at
/// or before it.
pub(crate) fn feed_version(points: &[u64], log: u64) -> u64 {
    points.partition_point(|&p| p <= log) as u64
}

/// A step as an audience is told it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Told {
    /// The `index` it carries: the audience's version before the step; for a
    /// take-back, that of the step taken back (`None` if the audience was never told
    /// that step).
    pub index: Option<u64>,
}

/// How a step that moved the log from `before` shows in an audience's feed: `None` if
/// the audience was not told it.
pub(crate) fn shown_index(
    points: &[u64],
    step: &Step,
    before: u64,
    undone: Option<u64>,
) -> Option<Told> {
    points.binary_search(&(before + 1)).ok()?;
    let index = if step.undo {
        undone
            .filter(|u| points.binary_search(&(u + 1)).is_ok())
            .map(|u| feed_version(points, u))
    } else {
        Some(feed_version(points, before))
    };
    Some(Told { index })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(index: u64, by: Actor, undo: bool, seen: [bool; 3]) -> Step {
        Step {
            index,
            by,
            action: json!(null),
            undo,
            events: vec![json!("e")],
            seen: seen
                .iter()
                .map(|&s| if s { vec![json!("e")] } else { vec![] })
                .collect(),
        }
    }

    const ANN: Seat = Seat(0);
    const BEN: Seat = Seat(1);

    /// Ann moves three times in the dark, then a die (hidden) and a move Ben sees, then
    /// hands the turn to Ben: Ben is told the move he saw and the hand-over, nothing
    /// else, and his numbering has no gaps.
    #[test]
    fn hidden_steps_are_not_counted() {
        let mut feeds = Feeds::new(2, ToMove::Seat(ANN));
        let ann = Actor::Seat(ANN);
        let hidden = [true, true, false];
        for i in 0..3 {
            feeds.note(&step(i, ann, false, hidden), i, &ToMove::Seat(ANN));
        }
        feeds.note(&step(3, ann, false, hidden), 3, &ToMove::Chance);
        feeds.note(
            &step(4, Actor::Chance, false, hidden),
            4,
            &ToMove::Seat(ANN),
        );
        feeds.note(&step(5, ann, false, [true; 3]), 5, &ToMove::Seat(ANN));
        feeds.note(&step(6, ann, false, hidden), 6, &ToMove::Seat(BEN));
        assert_eq!(feeds.points(Some(ANN)), &[1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(feeds.points(Some(BEN)), &[6, 7]);
        assert_eq!(feeds.version(Some(BEN)), 2);
        let ben = feeds.points(Some(BEN));
        assert_eq!(log_version(ben, 2), Some(7));
        assert_eq!(log_version(ben, 3), None);
        assert_eq!(feed_version(ben, 5), 0);
        assert_eq!(feed_version(ben, 6), 1);
        let seen = step(5, ann, false, [true; 3]);
        assert_eq!(
            shown_index(ben, &seen, 5, None),
            Some(Told { index: Some(0) })
        );
        assert_eq!(
            shown_index(ben, &step(2, ann, false, hidden), 2, None),
            None
        );
    }

    /// A take-back names the step it takes back in each audience's numbering, or
    /// nothing where the audience never saw that step.
    #[test]
    fn take_backs_name_the_step_in_each_numbering() {
        let mut feeds = Feeds::new(2, ToMove::Seat(ANN));
        let ann = Actor::Seat(ANN);
        feeds.note(&step(0, ann, false, [true; 3]), 0, &ToMove::Seat(ANN));
        feeds.note(
            &step(1, ann, false, [true, true, false]),
            1,
            &ToMove::Seat(ANN),
        );
        let undo = step(1, ann, true, [true; 3]);
        let undone = feeds.note(&undo, 2, &ToMove::Seat(ANN));
        assert_eq!(undone, Some(1));
        assert_eq!(
            shown_index(feeds.points(Some(ANN)), &undo, 2, undone),
            Some(Told { index: Some(1) })
        );
        assert_eq!(
            shown_index(feeds.points(Some(BEN)), &undo, 2, undone),
            Some(Told { index: None })
        );
    }
}
