//! Dice Race: a tiny two-player game that exercises the whole contract.
//!
//! Two pawns race along a strip of hexes from cell 0 to the last cell. Before the race,
//! each player secretly hides a trap on one inner cell (hidden information). On a turn,
//! the die is rolled (a chance node), then the mover advances 1 to the rolled number of
//! cells. A pawn that stops on the opponent's hidden trap reveals it, and the trap's
//! owner (not the mover: a non-active player's decision) chooses to spring it, sending
//! the pawn back to the start, or to spare it. Each trap works once. The first pawn on
//! the last cell wins.
//!
//! The referee protocol offers this game as `dice-race`, so that programs driving the
//! protocol can be tested against something small.

use std::fmt;

use hexmap::Hex;
use serde::{Deserialize, Serialize};

use crate::{
    Game, NewGame, OptionInfo, Outcome, Preset, Problem, RuleViolation, Seat, SetupErrors, ToMove,
};

/// Shortest strip allowed.
pub const MIN_LENGTH: u8 = 4;
/// Longest strip allowed.
pub const MAX_LENGTH: u8 = 40;
/// Default strip length.
pub const DEFAULT_LENGTH: u8 = 10;

/// A player's trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trap {
    /// Not placed yet.
    Unset,
    /// Placed on this cell, known only to its owner.
    Hidden(u8),
    /// Revealed on this cell, waiting for its owner's decision.
    Revealed(u8),
    /// Used up.
    Spent,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// This seat must hide its trap.
    PlaceTrap(Seat),
    /// The die must be rolled for the player whose turn it is.
    Roll,
    /// The player whose turn it is advances up to `roll` cells.
    Move {
        /// The die result.
        roll: u8,
    },
    /// The mover stopped on the other seat's trap; its owner decides.
    Trap,
    /// Someone won.
    Won(Seat),
}

/// Any Dice Race position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Number of cells (the finish is cell `length - 1`).
    pub length: u8,
    /// Each pawn's cell.
    pub positions: [u8; 2],
    /// Each seat's trap.
    pub traps: [Trap; 2],
    /// Whose turn it is.
    pub turn: Seat,
    /// The current phase.
    pub phase: Phase,
}

/// A Dice Race game state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRace {
    length: u8,
    positions: [u8; 2],
    traps: [Trap; 2],
    turn: Seat,
    phase: Phase,
}

/// One decision.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Hide my trap on this cell.
    SetTrap {
        /// The cell (1 ..= length - 2).
        cell: u8,
    },
    /// The die shows this value (chance).
    Roll {
        /// 1 ..= 6.
        value: u8,
    },
    /// Advance my pawn this many cells.
    Advance {
        /// 1 ..= the roll.
        steps: u8,
    },
    /// Spring my revealed trap: the pawn on it goes back to the start.
    Spring,
    /// Spare the pawn; the trap is used up anyway.
    Spare,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A seat hid its trap; the cell is told only to that seat.
    TrapHidden {
        /// The trap's owner.
        seat: Seat,
        /// The cell, or `None` in the copy sent to everyone else.
        cell: Option<u8>,
    },
    /// The die was rolled.
    Rolled {
        /// For whom.
        seat: Seat,
        /// The result.
        value: u8,
    },
    /// A pawn moved.
    Moved {
        /// The pawn's owner.
        seat: Seat,
        /// From this hex.
        from: Hex,
        /// To this hex.
        to: Hex,
    },
    /// A pawn stopped on a trap, which is now revealed.
    TrapRevealed {
        /// The trap's owner.
        owner: Seat,
        /// Its cell.
        cell: u8,
    },
    /// The trap was sprung; the pawn went back to the start.
    TrapSprung {
        /// The trap's owner.
        owner: Seat,
    },
    /// The trap was spared.
    TrapSpared {
        /// The trap's owner.
        owner: Seat,
    },
    /// A pawn reached the finish.
    Won {
        /// The winner.
        seat: Seat,
    },
}

/// What one seat sees: everything except the other seat's hidden trap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The seat this view is for (`None`: a spectator).
    pub seat: Option<Seat>,
    /// Number of cells.
    pub length: u8,
    /// The cells as hexes, start to finish.
    pub cells: Vec<Hex>,
    /// Each pawn's cell.
    pub positions: [u8; 2],
    /// Each trap as this seat may see it; another seat's hidden trap is `None`.
    pub traps: [Option<Trap>; 2],
    /// Whose turn it is.
    pub turn: Seat,
    /// The phase.
    pub phase: Phase,
}

/// Why a Dice Race action is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceError {
    /// The game is over.
    GameOver,
    /// This action does not belong to the current phase.
    WrongPhase,
    /// A trap cell outside 1 ..= length - 2.
    TrapCell(u8),
    /// A die value outside 1 ..= 6.
    DieValue(u8),
    /// An advance of 0 or more than the roll.
    Steps {
        /// Steps asked.
        steps: u8,
        /// The roll.
        roll: u8,
    },
}

impl fmt::Display for RaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceError::GameOver => f.write_str("the race is over"),
            RaceError::WrongPhase => f.write_str("that action does not fit the current phase"),
            RaceError::TrapCell(c) => write!(f, "a trap must be on an inner cell, not cell {c}"),
            RaceError::DieValue(v) => write!(f, "a die shows 1 to 6, not {v}"),
            RaceError::Steps { steps, roll } => write!(f, "advance 1 to {roll} cells, not {steps}"),
        }
    }
}

impl RuleViolation for RaceError {
    fn code(&self) -> &'static str {
        match self {
            RaceError::GameOver => "game_over",
            RaceError::WrongPhase => "wrong_phase",
            RaceError::TrapCell(_) => "trap_cell",
            RaceError::DieValue(_) => "die_value",
            RaceError::Steps { .. } => "steps",
        }
    }

    fn rule(&self) -> Option<&'static str> {
        Some(match self {
            RaceError::GameOver | RaceError::WrongPhase => "sequence",
            RaceError::TrapCell(_) => "traps",
            RaceError::DieValue(_) | RaceError::Steps { .. } => "movement",
        })
    }
}

impl DiceRace {
    /// The hex of a cell: the strip runs east from the origin.
    pub fn cell_hex(cell: u8) -> Hex {
        Hex::new(i32::from(cell), 0)
    }

    /// The last cell.
    pub fn finish(&self) -> u8 {
        self.length - 1
    }

    /// Each pawn's cell.
    pub fn positions(&self) -> [u8; 2] {
        self.positions
    }

    /// Each seat's trap (hidden information: not for views).
    pub fn traps(&self) -> [Trap; 2] {
        self.traps
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Moves `seat`'s hidden trap to `cell` (test helper for hidden-information checks).
    pub fn with_hidden_trap(&self, seat: Seat, cell: u8) -> Option<DiceRace> {
        if !matches!(self.traps[seat.index()], Trap::Hidden(_))
            || !(1..self.finish()).contains(&cell)
        {
            return None;
        }
        let mut s = self.clone();
        s.traps[seat.index()] = Trap::Hidden(cell);
        Some(s)
    }

    fn other(seat: Seat) -> Seat {
        Seat(1 - seat.0)
    }

    fn end_turn(&mut self) {
        self.turn = Self::other(self.turn);
        self.phase = Phase::Roll;
    }
}

impl Game for DiceRace {
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RaceError;

    const NAME: &'static str = "dice-race";

    fn presets() -> Vec<Preset> {
        vec![Preset {
            name: "standard".into(),
            description: "Two pawns, one hidden trap each, a strip of 10 hexes.".into(),
            min_players: 2,
            max_players: 2,
            options: vec![OptionInfo::new(
                "length",
                format!("Number of cells on the strip ({MIN_LENGTH} to {MAX_LENGTH})."),
                DEFAULT_LENGTH.into(),
            )],
        }]
    }

    fn new_setup(request: &NewGame) -> Result<Setup, SetupErrors> {
        let mut problems = Vec::new();
        if let Some(p) = request.preset.as_deref().filter(|p| *p != "standard") {
            problems.push(Problem::new(
                "unknown_preset",
                format!("dice-race has no preset {p:?}; it has \"standard\""),
            ));
        }
        if let Some(n) = request.players.filter(|n| *n != 2) {
            problems.push(Problem::new(
                "players",
                format!("dice-race is for 2 players, not {n}"),
            ));
        }
        let mut length = DEFAULT_LENGTH;
        for (name, value) in &request.options {
            match (name.as_str(), value.as_u64()) {
                ("length", Some(n)) => length = u8::try_from(n).unwrap_or(u8::MAX),
                ("length", None) => {
                    problems.push(Problem::new("bad_option", "length must be a whole number"));
                }
                (other, _) => problems.push(Problem::new(
                    "unknown_option",
                    format!("dice-race has no option {other:?}"),
                )),
            }
        }
        let setup = Setup {
            length,
            positions: [0, 0],
            traps: [Trap::Unset, Trap::Unset],
            turn: Seat(0),
            phase: Phase::PlaceTrap(Seat(0)),
        };
        if let Err(SetupErrors(more)) = DiceRace::from_setup(&setup) {
            problems.extend(more);
        }
        if problems.is_empty() {
            Ok(setup)
        } else {
            Err(SetupErrors(problems))
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, SetupErrors> {
        let mut problems = Vec::new();
        let length = setup.length;
        if !(MIN_LENGTH..=MAX_LENGTH).contains(&length) {
            problems.push(Problem::with_rule(
                "length",
                "board",
                format!("the strip has {MIN_LENGTH} to {MAX_LENGTH} cells, not {length}"),
            ));
        }
        let last = length.saturating_sub(1);
        for (i, &p) in setup.positions.iter().enumerate() {
            if p > last {
                problems.push(Problem::new(
                    "position",
                    format!("pawn {} is off the strip at cell {p}", i + 1),
                ));
            }
        }
        for (i, trap) in setup.traps.iter().enumerate() {
            if let Trap::Hidden(c) | Trap::Revealed(c) = *trap
                && !(1..last).contains(&c)
            {
                problems.push(Problem::with_rule(
                    "trap_cell",
                    "traps",
                    format!("trap {} is not on an inner cell: {c}", i + 1),
                ));
            }
        }
        if setup.turn.0 > 1 {
            problems.push(Problem::new("seat", format!("there is no {}", setup.turn)));
            return Err(SetupErrors(problems));
        }
        let revealed: Vec<usize> = (0..2)
            .filter(|&i| matches!(setup.traps[i], Trap::Revealed(_)))
            .collect();
        match setup.phase {
            Phase::PlaceTrap(s) if s.0 > 1 || setup.traps[s.index()] != Trap::Unset => {
                problems.push(Problem::new(
                    "phase",
                    "the seat placing a trap must have none yet",
                ));
            }
            Phase::Move { roll } if !(1..=6).contains(&roll) => {
                problems.push(Problem::new(
                    "phase",
                    format!("a roll of {roll} is impossible"),
                ));
            }
            Phase::Trap => {
                let owner = Self::other(setup.turn);
                if revealed != [owner.index()] {
                    problems.push(Problem::new(
                        "phase",
                        "a trap decision needs exactly the other seat's trap revealed",
                    ));
                } else if setup.traps[owner.index()]
                    != Trap::Revealed(setup.positions[setup.turn.index()])
                {
                    problems.push(Problem::new(
                        "phase",
                        "the revealed trap must be under the mover's pawn",
                    ));
                }
            }
            Phase::Won(s) if s.0 > 1 || setup.positions[s.index()] != last => {
                problems.push(Problem::new(
                    "phase",
                    "the winner's pawn must be on the finish",
                ));
            }
            _ => {}
        }
        if !matches!(setup.phase, Phase::Trap) && !revealed.is_empty() {
            problems.push(Problem::new(
                "trap",
                "a trap is revealed only while its owner decides",
            ));
        }
        if !matches!(setup.phase, Phase::PlaceTrap(_)) && setup.traps.contains(&Trap::Unset) {
            problems.push(Problem::new(
                "trap",
                "both traps are placed before the race starts",
            ));
        }
        if !matches!(setup.phase, Phase::Won(_)) && setup.positions.contains(&last) {
            problems.push(Problem::new("position", "a pawn on the finish has won"));
        }
        if !problems.is_empty() {
            return Err(SetupErrors(problems));
        }
        Ok(DiceRace {
            length,
            positions: setup.positions,
            traps: setup.traps,
            turn: setup.turn,
            phase: setup.phase,
        })
    }

    fn seats(&self) -> u8 {
        2
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::PlaceTrap(s) => ToMove::Seat(s),
            Phase::Roll => ToMove::Chance,
            Phase::Move { .. } => ToMove::Seat(self.turn),
            Phase::Trap => ToMove::Seat(Self::other(self.turn)),
            Phase::Won(s) => ToMove::Over(Outcome {
                winners: vec![s],
                scores: vec![],
                reason: "reached the finish".into(),
            }),
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::PlaceTrap(_) => (1..self.finish())
                .map(|cell| Action::SetTrap { cell })
                .collect(),
            Phase::Roll => (1..=6).map(|value| Action::Roll { value }).collect(),
            Phase::Move { roll } => (1..=roll).map(|steps| Action::Advance { steps }).collect(),
            Phase::Trap => vec![Action::Spring, Action::Spare],
            Phase::Won(_) => vec![],
        }
    }

    fn check(&self, action: &Action) -> Result<(), RaceError> {
        match (self.phase, action) {
            (Phase::Won(_), _) => Err(RaceError::GameOver),
            (Phase::PlaceTrap(_), Action::SetTrap { cell }) => {
                if (1..self.finish()).contains(cell) {
                    Ok(())
                } else {
                    Err(RaceError::TrapCell(*cell))
                }
            }
            (Phase::Roll, Action::Roll { value }) => {
                if (1..=6).contains(value) {
                    Ok(())
                } else {
                    Err(RaceError::DieValue(*value))
                }
            }
            (Phase::Move { roll }, Action::Advance { steps }) => {
                if (1..=roll).contains(steps) {
                    Ok(())
                } else {
                    Err(RaceError::Steps {
                        steps: *steps,
                        roll,
                    })
                }
            }
            (Phase::Trap, Action::Spring | Action::Spare) => Ok(()),
            _ => Err(RaceError::WrongPhase),
        }
    }

    fn apply_unchecked(&mut self, action: Action) -> Vec<Event> {
        let mover = self.turn;
        match action {
            Action::SetTrap { cell } => {
                let Phase::PlaceTrap(seat) = self.phase else {
                    unreachable!("checked")
                };
                self.traps[seat.index()] = Trap::Hidden(cell);
                self.phase = if seat.0 == 0 {
                    Phase::PlaceTrap(Seat(1))
                } else {
                    Phase::Roll
                };
                vec![Event::TrapHidden {
                    seat,
                    cell: Some(cell),
                }]
            }
            Action::Roll { value } => {
                self.phase = Phase::Move { roll: value };
                vec![Event::Rolled { seat: mover, value }]
            }
            Action::Advance { steps } => {
                let from = self.positions[mover.index()];
                let to = from.saturating_add(steps).min(self.finish());
                self.positions[mover.index()] = to;
                let mut events = vec![Event::Moved {
                    seat: mover,
                    from: Self::cell_hex(from),
                    to: Self::cell_hex(to),
                }];
                let owner = Self::other(mover);
                if to == self.finish() {
                    self.phase = Phase::Won(mover);
                    events.push(Event::Won { seat: mover });
                } else if self.traps[owner.index()] == Trap::Hidden(to) {
                    self.traps[owner.index()] = Trap::Revealed(to);
                    self.phase = Phase::Trap;
                    events.push(Event::TrapRevealed { owner, cell: to });
                } else {
                    self.end_turn();
                }
                events
            }
            Action::Spring | Action::Spare => {
                let owner = Self::other(mover);
                self.traps[owner.index()] = Trap::Spent;
                let event = if action == Action::Spring {
                    let from = self.positions[mover.index()];
                    self.positions[mover.index()] = 0;
                    vec![
                        Event::TrapSprung { owner },
                        Event::Moved {
                            seat: mover,
                            from: Self::cell_hex(from),
                            to: Self::cell_hex(0),
                        },
                    ]
                } else {
                    vec![Event::TrapSpared { owner }]
                };
                self.end_turn();
                event
            }
        }
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        match self.phase {
            Phase::Roll => (1..=6).map(|value| (Action::Roll { value }, 1)).collect(),
            _ => vec![],
        }
    }

    fn view(&self, seat: Option<Seat>) -> View {
        let traps = [0, 1].map(|i| match self.traps[i] {
            Trap::Hidden(_) if seat != Some(Seat(i as u8)) => None,
            t => Some(t),
        });
        View {
            seat,
            length: self.length,
            cells: (0..self.length).map(Self::cell_hex).collect(),
            positions: self.positions,
            traps,
            turn: self.turn,
            phase: self.phase,
        }
    }

    fn event_for(&self, event: &Event, seat: Option<Seat>) -> Option<Event> {
        match event {
            Event::TrapHidden { seat: owner, .. } if seat != Some(*owner) => {
                Some(Event::TrapHidden {
                    seat: *owner,
                    cell: None,
                })
            }
            e => Some(e.clone()),
        }
    }

    fn to_setup(&self) -> Setup {
        Setup {
            length: self.length,
            positions: self.positions,
            traps: self.traps,
            turn: self.turn,
            phase: self.phase,
        }
    }

    fn describe_action(&self, action: &Action) -> String {
        match action {
            Action::SetTrap { cell } => format!("hide the trap on cell {cell}"),
            Action::Roll { value } => format!("the die shows {value}"),
            Action::Advance { steps } => format!("advance {steps}"),
            Action::Spring => "spring the trap".into(),
            Action::Spare => "spare the pawn".into(),
        }
    }

    fn describe_event(&self, event: &Event) -> String {
        match event {
            Event::TrapHidden {
                seat,
                cell: Some(c),
            } => format!("{seat} hid a trap on cell {c}"),
            Event::TrapHidden { seat, cell: None } => format!("{seat} hid a trap"),
            Event::Rolled { seat, value } => format!("{seat} rolled {value}"),
            Event::Moved { seat, from, to } => format!("{seat} moved from {from} to {to}"),
            Event::TrapRevealed { owner, cell } => {
                format!("{owner}'s trap on cell {cell} is revealed")
            }
            Event::TrapSprung { owner } => format!("{owner} sprang the trap"),
            Event::TrapSpared { owner } => format!("{owner} spared the pawn"),
            Event::Won { seat } => format!("{seat} wins the race"),
        }
    }
}
