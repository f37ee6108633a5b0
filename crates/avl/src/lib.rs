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
pub mod advice;
pub mod apply;
pub mod check;
pub mod crt;
pub mod derived;
pub mod display;
pub mod error;
pub mod event;
#[cfg(test)]
mod exactness;
pub mod legal;
pub mod map;
pub mod options;
pub mod reach;
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

/// The bundled campaign (preset `campaign`, the default): hexwar's own reconstruction
/// of Ukraine, December 1942 – March 1943 (R-20, docs/avl-campaign.md).
pub const CAMPAIGN_SCENARIO: &str = include_str!("../../../data/avl/campaign.toml");

/// A small made-up scenario to learn the rules on (preset `demo`): the test map of
/// `tests/data/test.toml`, not the campaign.
pub const DEMO_SCENARIO: &str = include_str!("../tests/data/test.toml");

/// The presets: their names, descriptions and scenario files, the default first.
const PRESETS: [(&str, &str, &str); 2] = [
    (
        "campaign",
        "A Victory Lost: the campaign, Ukraine, December 1942 to March 1943, on hexwar's own reconstruction of the map and the armies; the 15.0 play balance options off",
        CAMPAIGN_SCENARIO,
    ),
    (
        "demo",
        "A small made-up map with a few units, to learn the rules in a short game",
        DEMO_SCENARIO,
    ),
];

impl Game for Avl {
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RuleError;

    const NAME: &'static str = "avl";

    fn presets() -> Vec<Preset> {
        PRESETS
            .iter()
            .map(|&(name, description, _)| Preset {
                name: name.into(),
                description: description.into(),
                min_players: 2,
                max_players: 2,
                options: Options::describe()
                    .into_iter()
                    .map(|(name, description)| {
                        OptionInfo::new(name, description, serde_json::Value::Bool(false))
                    })
                    .collect(),
            })
            .collect()
    }

    fn new_setup(request: &NewGame) -> Result<Setup, SetupErrors> {
        let mut problems = Vec::new();
        let preset = request.preset.as_deref().unwrap_or(PRESETS[0].0);
        let Some(&(_, _, file)) = PRESETS.iter().find(|(name, _, _)| *name == preset) else {
            return Err(SetupErrors(vec![Problem::new(
                "unknown_preset",
                format!("there is no preset {preset:?}; the presets are \"campaign\" and \"demo\""),
            )]));
        };
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
        let scenario = Scenario::from_toml(file)
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

    fn game_turn(&self) -> Option<u32> {
        Some(u32::from(self.turn().0))
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

    fn board(&self) -> serde_json::Value {
        serde_json::to_value(display::board(&self.rules)).unwrap_or(serde_json::Value::Null)
    }

    fn to_setup(&self) -> Setup {
        Avl::to_setup(self)
    }

    fn describe_action(&self, action: &Action) -> String {
        describe(self, action)
    }

    fn describe_event(&self, event: &Event) -> String {
        describe_event(self, event)
    }

    fn advice(&self, seat: Seat) -> serde_json::Value {
        advice::advice(self, Side::of_seat(seat))
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

/// An event for people, with unit IDs, `XXYY` hex numbers and city names.
fn describe_event(s: &Avl, event: &Event) -> String {
    let name = |p: PieceId| {
        if usize::from(p.0) < s.piece_count() {
            s.name(p)
        } else {
            p.to_string()
        }
    };
    let names = |ps: &[PieceId]| ps.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", ");
    let hex = |h: hexmap::Hex| s.map().label(h);
    let side = |x: Side| match x {
        Side::Axis => "Axis",
        Side::Soviet => "Soviet",
    };
    match event {
        Event::ChitChosen { chit } => format!("Soviet chooses the {} chit", chit_name(s, *chit)),
        Event::ChitSelected { side: x, chit } => {
            format!(
                "{} puts the {} chit in the cup",
                side(*x),
                chit_name(s, *chit)
            )
        }
        Event::ChitNoted { chit } => format!("Soviet notes the {} chit", chit_name(s, *chit)),
        Event::ChitDrawn { chit } => format!("{} is drawn", chit_name(s, *chit)),
        Event::MansteinRejected => "the Manstein chit goes back into the cup".into(),
        Event::Activated {
            side: x,
            hqs,
            units,
        } => format!(
            "{} activates {} ({} combat units)",
            side(*x),
            names(hqs),
            units.len()
        ),
        Event::Moved { piece, to, spent } => format!(
            "{} moves to {} ({} MP spent)",
            name(*piece),
            hex(*to),
            unit::HalfMp(*spent)
        ),
        Event::Overrun { hq, by } => format!("{} overruns {}", name(*by), name(*hq)),
        Event::Odds {
            target,
            attack,
            defense,
            column,
        } => format!(
            "combat at {}: {attack} against {defense}, {column}",
            hex(*target)
        ),
        Event::CombatResult { die, result } => format!("die {die}: {}", result_text(*result)),
        Event::StepLost {
            unit,
            eliminated: true,
        } => format!("{} is eliminated", name(*unit)),
        Event::StepLost { unit, .. } => format!("{} loses a step", name(*unit)),
        Event::Retreated { piece, to } => format!("{} retreats to {}", name(*piece), hex(*to)),
        Event::EliminatedInRetreat { unit } => {
            format!("{} cannot retreat and is eliminated", name(*unit))
        }
        Event::Advanced { piece, to } => format!("{} advances to {}", name(*piece), hex(*to)),
        Event::Relocated { hq, to } => format!("{} is relocated to {}", name(*hq), hex(*to)),
        Event::RelocationFailed { hq } => {
            format!("{} cannot be relocated and arrives next turn", name(*hq))
        }
        Event::SupplyChanged { piece, supply } => format!(
            "{} is {}",
            name(*piece),
            match supply {
                Supply::InSupply => "in supply",
                Supply::OutOfSupply => "out of supply",
                Supply::Isolated => "isolated",
            }
        ),
        Event::Placed { piece, to } => format!("{} arrives at {}", name(*piece), hex(*to)),
        Event::EnteredBox { piece } => format!("{} arrives in its box", name(*piece)),
        Event::ReinforcementLost { piece } => {
            format!("{} cannot enter and is eliminated", name(*piece))
        }
        Event::ChitArrived { chit } => format!("the {} chit arrives", chit_name(s, *chit)),
        Event::HqRemoved { hq } => format!("{} and its chit leave the game", name(*hq)),
        Event::CityTaken { city, by } => format!(
            "{} takes {}",
            side(*by),
            s.map()
                .cities
                .get(usize::from(*city))
                .map_or_else(|| format!("city {city}"), |c| c.1.clone())
        ),
        Event::TurnBegan { turn } => format!("turn {turn} begins"),
        Event::GameOver { winner, vp } => format!(
            "game over: {} (Axis {} VP, Soviet {} VP)",
            winner.map_or("a draw", |w| if w == Side::Axis {
                "the Axis wins"
            } else {
                "the Soviet player wins"
            }),
            vp[0],
            vp[1]
        ),
    }
}

/// A CRT result as printed: "A1/2DR", "-" for no effect (9.4).
pub(crate) fn result_text(r: crt::CrtResult) -> String {
    let mut parts = Vec::new();
    if r.attacker_steps > 0 {
        parts.push(format!("A{}", r.attacker_steps));
    }
    if r.defender_steps > 0 || r.retreat > 0 {
        let steps = if r.defender_steps > 0 {
            r.defender_steps.to_string()
        } else {
            String::new()
        };
        let retreat = match r.retreat {
            0 => String::new(),
            1 => "DR".into(),
            n => format!("DR{n}"),
        };
        parts.push(format!("{steps}{retreat}"));
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join("/")
    }
}
