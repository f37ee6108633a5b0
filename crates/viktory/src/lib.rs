//! VIKTORY II for hexwar: the classic rules v1.1, every number and option in
//! [`Rules`], behind the [`engine::Game`] contract.
//!
//! The rules live in [`rules`], one module per rulebook section; [`check`] and
//! [`legal`] share them so legality has one truth; [`apply`] applies an action and then
//! lets the turn run on by itself until the next decision or chance event.

#![forbid(unsafe_code)]

pub mod action;
pub mod apply;
pub mod board;
pub mod check;
pub mod error;
pub mod event;
pub mod legal;
mod marks;
pub mod notation;
pub mod odds;
mod planes;
pub mod rules;
pub mod state;
mod undo;
pub mod unit;
pub mod view;

mod options;

pub use action::Action;
pub use board::{Terrain, TileBank};
pub use error::RuleError;
pub use event::Event;
pub use options::{
    Allowances, CityUnits, DicePerKind, LostCapital, OPTION_RANGES, OptionRange, Retreat, Rules,
    Suppression, Victory,
};
pub use state::{Setup, Viktory};
pub use unit::{PerKind, Reserve, Unit, UnitId, UnitKind};
pub use view::View;

use engine::{Game, GameRng, NewGame, Preset, Seat, SetupErrors, ToMove};

impl Game for Viktory {
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RuleError;

    const NAME: &'static str = "viktory";

    fn presets() -> Vec<Preset> {
        Rules::presets()
    }

    fn new_setup(request: &NewGame) -> Result<Setup, SetupErrors> {
        Rules::from_request(request).map(Setup::new)
    }

    fn from_setup(setup: &Setup) -> Result<Self, SetupErrors> {
        Viktory::from_setup(setup)
    }

    fn seats(&self) -> u8 {
        self.rules.players
    }

    fn to_move(&self) -> ToMove {
        rules::sequence::to_move(self)
    }

    fn game_turn(&self) -> Option<u32> {
        Some(u32::from(self.turn.number))
    }

    fn legal_actions(&self) -> Vec<Action> {
        legal::legal_actions(self)
    }

    fn check(&self, action: &Action) -> Result<(), RuleError> {
        check::check(self, action)
    }

    fn apply_unchecked(&mut self, action: Action) -> Vec<Event> {
        apply::apply(self, action)
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        legal::chance_outcomes(self)
    }

    fn sample_chance(&self, rng: &mut GameRng) -> Action {
        let outcomes = legal::chance_outcomes(self);
        let weights: Vec<u32> = outcomes.iter().map(|(_, w)| *w).collect();
        outcomes[rng.weighted(&weights)].0
    }

    fn view(&self, seat: Option<Seat>) -> View {
        view::view(self, seat)
    }

    fn event_for(&self, event: &Event, seat: Option<Seat>) -> Option<Event> {
        match event {
            Event::Drew { seat: drawer, .. } if seat != Some(*drawer) => Some(Event::Drew {
                seat: *drawer,
                terrain: None,
            }),
            e if rules::fog::on(self) => rules::fog::event_for(self, e, seat),
            e => Some(e.clone()),
        }
    }

    fn undoable(&self, before: &Self, _action: &Action, events: &[Event]) -> bool {
        match before.to_move() {
            ToMove::Seat(seat) => undo::undoable(before, self, seat, events),
            _ => false,
        }
    }

    fn advice(&self, seat: Seat) -> serde_json::Value {
        odds::advice(self, seat)
    }

    fn to_setup(&self) -> Setup {
        Viktory::to_setup(self)
    }

    fn describe_action(&self, action: &Action) -> String {
        notation::describe_action(action)
    }

    fn describe_event(&self, event: &Event) -> String {
        notation::describe_event(event)
    }
}
