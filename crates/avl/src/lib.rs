//! A Victory Lost for hexwar: a data-driven rules engine behind the
//! [`engine::Game`] contract.
//!
//! The map, the TEC, the CRT, the units and the turn track come from a [`Scenario`]
//! file; [`Scenario::check`] reports every problem in one at once. The rules live in
//! [`rules`], one module per rulebook section; [`check`] is the one truth for legality
//! and [`legal`] filters candidates through it; [`apply`] applies an action and runs on
//! by itself to the next decision or chance event (chit draws and die rolls are chance
//! actions, one chit or one die each).

#![forbid(unsafe_code)]

pub mod action;
pub mod apply;
pub mod check;
pub mod crt;
pub mod error;
pub mod event;
pub mod legal;
pub mod map;
pub mod options;
pub mod rules;
pub mod scenario;
pub mod state;
pub mod unit;
pub mod view;

pub use action::Action;
pub use error::RuleError;
pub use event::Event;
pub use options::Options;
pub use scenario::{Scenario, ScenarioProblem};
pub use state::{Avl, Chit, Location, Phase, PieceId, Setup, Supply};
pub use unit::{Nationality, Side};
pub use view::View;

use engine::{Game, GameRng, NewGame, OptionInfo, Preset, Problem, Seat, SetupErrors, ToMove};

/// The small scenario bundled until the campaign reconstruction lands: the test map of
/// `tests/data/test.toml` (made up, not the campaign).
pub const DEMO_SCENARIO: &str = include_str!("../tests/data/test.toml");

impl Game for Avl {
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RuleError;

    const NAME: &'static str = "avl";

    fn presets() -> Vec<Preset> {
        vec![Preset {
            name: "standard".into(),
            description:
                "A Victory Lost with the bundled scenario; the 15.0 play balance options off".into(),
            min_players: 2,
            max_players: 2,
            options: Options::describe()
                .into_iter()
                .map(|(name, description)| {
                    OptionInfo::new(name, description, serde_json::Value::Bool(false))
                })
                .collect(),
        }]
    }

    fn new_setup(request: &NewGame) -> Result<Setup, SetupErrors> {
        let mut problems = Vec::new();
        if request.preset.as_deref().is_some_and(|p| p != "standard") {
            problems.push(Problem::new(
                "unknown_preset",
                "the only preset is \"standard\"",
            ));
        }
        if request.players.is_some_and(|n| n != 2) {
            problems.push(Problem::new("players", "A Victory Lost is for two players"));
        }
        let mut options = serde_json::Map::new();
        for (k, v) in &request.options {
            if Options::describe().iter().any(|(n, _)| n == k) {
                if v.is_boolean() {
                    options.insert(k.clone(), v.clone());
                } else {
                    problems.push(Problem::new(
                        "bad_option",
                        format!("option {k} is true or false"),
                    ));
                }
            } else {
                problems.push(Problem::new(
                    "unknown_option",
                    format!("there is no option {k}"),
                ));
            }
        }
        let options: Options =
            serde_json::from_value(serde_json::Value::Object(options)).unwrap_or_default();
        let scenario = Scenario::from_toml(DEMO_SCENARIO)
            .map_err(|ps| SetupErrors(ps.iter().map(ScenarioProblem::to_problem).collect()))?;
        if problems.is_empty() {
            Ok(Setup {
                scenario,
                options,
                position: None,
            })
        } else {
            Err(SetupErrors(problems))
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, SetupErrors> {
        let fresh = setup.position.is_none();
        let mut s = Avl::from_setup(setup)?;
        if fresh {
            rules::sequence::start(&mut s);
        }
        Ok(s)
    }

    fn seats(&self) -> u8 {
        2
    }

    fn to_move(&self) -> ToMove {
        rules::sequence::to_move(self)
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
        let viewer = seat.and_then(Side::of_seat);
        Some(match *event {
            Event::ChitChosen { .. } if viewer != Some(Side::Soviet) => {
                Event::ChitChosen { chit: Chit::Hidden }
            }
            Event::ChitNoted { .. } if viewer != Some(Side::Soviet) => {
                Event::ChitNoted { chit: Chit::Hidden }
            }
            Event::ChitSelected { side, .. } if viewer != Some(side) => Event::ChitSelected {
                side,
                chit: Chit::Hidden,
            },
            _ => event.clone(),
        })
    }

    fn to_setup(&self) -> Setup {
        Avl::to_setup(self)
    }

    fn describe_action(&self, action: &Action) -> String {
        describe(self, action)
    }
}

/// A chit for people: `STAVKA`, `Manstein 1`, the HQ's ID, `?` when hidden.
pub fn chit_name(s: &Avl, chit: Chit) -> String {
    match chit {
        Chit::Stavka => "STAVKA".into(),
        Chit::Manstein(i) => format!("Manstein {}", u16::from(i) + 1),
        Chit::Hq(p) if usize::from(p.0) < s.piece_count() => s.name(p),
        Chit::Hq(p) => p.to_string(),
        Chit::Hidden => "?".into(),
    }
}

/// An action for people, with unit IDs and `XXYY` hex numbers.
fn describe(s: &Avl, action: &Action) -> String {
    let name = |p: PieceId| {
        if usize::from(p.0) < s.piece_count() {
            s.name(p)
        } else {
            p.to_string()
        }
    };
    let hex = |h: hexmap::Hex| s.map().label(h);
    match *action {
        Action::ChooseChit { chit } => format!("choose the {} chit", chit_name(s, chit)),
        Action::SelectChit { chit } => format!("select the {} chit", chit_name(s, chit)),
        Action::SpecialCombat { hq: Some(q) } => format!("special combat with {}", name(q)),
        Action::SpecialCombat { hq: None } => "no special combat".into(),
        Action::FirstChit { chit } => format!("{} is drawn first", chit_name(s, chit)),
        Action::DrawChit { chit } => format!("draw {}", chit_name(s, chit)),
        Action::RejectManstein => "reject the Manstein chit".into(),
        Action::ActivateHq { hq } => format!("Manstein activates {}", name(hq)),
        Action::Move { piece, to } => format!("{} moves to {}", name(piece), hex(to)),
        Action::RoadMove { piece, to } => format!("{} moves by road to {}", name(piece), hex(to)),
        Action::EndMovement => "end movement".into(),
        Action::Attack { unit, target } => format!("{} attacks {}", name(unit), hex(target)),
        Action::CancelAttack => "withdraw the attack".into(),
        Action::Resolve => "resolve the combat".into(),
        Action::Die { value } => format!("die {value}"),
        Action::LoseStep { unit } => format!("{} loses a step", name(unit)),
        Action::Retreat { piece, to } => format!("{} retreats to {}", name(piece), hex(to)),
        Action::Advance { piece, to } => format!("{} advances to {}", name(piece), hex(to)),
        Action::EndAdvance => "advance no further".into(),
        Action::EndCombat => "end combat".into(),
        Action::Relocate { hq, to } => format!("relocate {} to {}", name(hq), hex(to)),
        Action::Place { piece, to } => format!("place {} at {}", name(piece), hex(to)),
    }
}
