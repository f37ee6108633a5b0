//! Short human-readable texts for every action and event, for logs and the referee.

use crate::action::Action;
use crate::event::{DiePurpose, Event};
use crate::state::Stage;
use crate::unit::UnitKind;

/// The action's name in a few words (for error messages).
pub fn action_name(a: &Action) -> &'static str {
    match a {
        Action::FirstPlayer { .. } => "drawing the first player",
        Action::Reveal { .. } => "revealing a tile",
        Action::Die { .. } => "rolling a die",
        Action::Rebalance { .. } => "balancing exploration",
        Action::Draw { .. } => "drawing a tile",
        Action::Arrange { .. } => "laying a drawn tile",
        Action::RedrawWater { .. } => "redrawing a water tile",
        Action::FoundCapital { .. } => "founding a capital",
        Action::BuildTown { .. } => "building a town",
        Action::BuildCity { .. } => "building a city",
        Action::Relocate { .. } => "relocating a town",
        Action::Move { .. } => "moving",
        Action::Embark { .. } => "embarking",
        Action::Disembark { .. } => "disembarking",
        Action::Bombard { .. } => "bombarding",
        Action::Fight { .. } => "starting a battle",
        Action::Casualty { .. } => "choosing a casualty",
        Action::Continue => "fighting another round",
        Action::Average { .. } => "averaging dice",
        Action::Retreat { .. } => "retreating",
        Action::Disband { .. } => "giving up a unit",
        Action::Place { .. } => "placing a reserve unit",
        Action::Redeploy { .. } => "redeploying a unit",
        Action::EndPhase => "ending the phase",
        Action::Evacuate { .. } => "moving out of a returned capital",
        Action::Attack { .. } => "attacking a vassal",
        Action::BuildMetropolis { .. } => "building a Metropolis",
        Action::Pillage { .. } => "pillaging",
        Action::Repair { .. } => "repairing",
        Action::Bypass { .. } => "passing an enemy hex",
        Action::SwitchMetropolis { .. } => "switching a Metropolis's unit",
    }
}

/// A short text for an action.
pub fn describe_action(a: &Action) -> String {
    match a {
        Action::FirstPlayer { seat } => format!("{seat} plays first"),
        Action::Reveal { hex, terrain } => format!("{hex} is {terrain}"),
        Action::Die { value } => format!("die: {value}"),
        Action::Draw { terrain } => format!("draw: {terrain}"),
        Action::Arrange { hex, terrain } => format!("lay the {terrain} tile at {hex}"),
        Action::RedrawWater { redraw: true } => "put a water tile back and draw land".into(),
        Action::RedrawWater { redraw: false } => "keep the water tiles".into(),
        Action::Rebalance { hex: None } => "keep the revealed water".into(),
        Action::Rebalance { hex: Some(h) } => format!("swap the water at {h} for a land tile"),
        Action::FoundCapital { hex } => format!("found the capital at {hex}"),
        Action::BuildTown { hex } => format!("build a town at {hex}"),
        Action::BuildCity { hex } => format!("upgrade {hex} to a city"),
        Action::Relocate { from, to } => format!("move the town at {from} to {to}"),
        Action::Move { unit, to } => format!("move {unit} to {to}"),
        Action::Embark { unit, frigate } => format!("embark {unit} on frigate {frigate}"),
        Action::Disembark { unit, to } => format!("land {unit} at {to}"),
        Action::Bombard { unit, target } => format!("{unit} bombards {target}"),
        Action::Fight { hex } => format!("fight at {hex}"),
        Action::Casualty { unit } => format!("lose {unit}"),
        Action::Continue => "fight another round".into(),
        Action::Average { pairs: 0 } => "roll every die".into(),
        Action::Average { pairs } => format!("trade {pairs} pair(s) of dice for sure hits"),
        Action::Retreat { unit, to } => format!("retreat {unit} to {to}"),
        Action::Disband {
            kind,
            unit: Some(u),
        } => format!("give up {kind} {u}"),
        Action::Disband { kind, unit: None } => {
            format!("give up {} {kind} from the reserve", article(*kind))
        }
        Action::Place { kind, town, to } if town == to => {
            format!("place {} {kind} at {to}", article(*kind))
        }
        Action::Place { kind, town, to } => {
            format!("place {} {kind} at {to} (from {town})", article(*kind))
        }
        Action::Redeploy { unit } => format!("take {unit} back into the reserve"),
        Action::EndPhase => "end the phase".into(),
        Action::Evacuate { unit, to } => format!("move {unit} out of the capital to {to}"),
        Action::Attack { unit, to } => format!("{unit} attacks the vassal at {to}"),
        Action::Pillage { unit, hex } => format!("{unit} pillages {hex}"),
        Action::Repair { unit, hex } => format!("{unit} repairs {hex}"),
        Action::Bypass { unit, to } => format!("{unit} rides through {to}"),
        Action::BuildMetropolis { hex, extra } => {
            format!("upgrade {hex} to a Metropolis supporting a {extra}")
        }
        Action::SwitchMetropolis { hex, extra } => {
            format!("let the Metropolis at {hex} support a {extra}")
        }
    }
}

/// "an infantry", "an artillery", "a cavalry", "a frigate".
fn article(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Infantry | UnitKind::Artillery => "an",
        UnitKind::Cavalry | UnitKind::Frigate => "a",
    }
}

fn purpose(p: DiePurpose) -> &'static str {
    match p {
        DiePurpose::Bombard => "bombardment",
        DiePurpose::PreBattle => "pre-battle fire",
        DiePurpose::Attack => "attack",
        DiePurpose::Defense => "defence",
        DiePurpose::Doomsday => "doomsday",
        DiePurpose::Overwatch => "overwatch",
    }
}

fn stage(s: Stage) -> &'static str {
    match s {
        Stage::FirstPlayer => "first player",
        Stage::Opening => "capital",
        Stage::Start => "start of turn",
        Stage::Build => "building",
        Stage::Move => "movement and combat",
        Stage::Place => "reserve placement",
        Stage::BuildAndPlace => "building and reserve placement",
        Stage::PlacementBattles => "placement battles",
        Stage::SetupBuild => "setup building",
        Stage::SetupPlace => "setup placement",
    }
}

/// A short text for an event.
pub fn describe_event(e: &Event) -> String {
    match e {
        Event::FirstPlayer { seat } => format!("{seat} plays first"),
        Event::TurnStarted { seat, turn: 0 } => format!("{seat} builds a capital"),
        Event::TurnStarted { seat, turn } => format!("turn {turn}: {seat}"),
        Event::PhaseStarted { stage: s } => format!("{} phase", stage(*s)),
        Event::Revealed { hex, terrain } => format!("{hex} revealed: {terrain}"),
        Event::Explored { seat, hex, terrain } => format!("{seat} explores {hex}: {terrain}"),
        Event::Appeared { unit, hex } => format!("unit {unit} comes into sight at {hex}"),
        Event::Vanished { unit, hex } => format!("unit {unit} moves out of sight from {hex}"),
        Event::Drew {
            seat,
            terrain: Some(t),
        } => format!("{seat} draws a {t} tile"),
        Event::Drew {
            seat,
            terrain: None,
        } => format!("{seat} draws a tile"),
        Event::WaterReturned { seat } => format!("{seat} puts a water tile back"),
        Event::Rebalanced { seat, hex } => {
            format!("{seat} swaps the water at {hex} for a land tile")
        }
        Event::CapitalFounded { seat, hex } => format!("{seat} founds a capital at {hex}"),
        Event::TownBuilt { seat, hex } => format!("{seat} builds a town at {hex}"),
        Event::TownRelocated { seat, from, to } => {
            format!("{seat} moves a town from {from} to {to}")
        }
        Event::CityBuilt { seat, hex } => format!("{seat} builds a city at {hex}"),
        Event::UnitGained { seat, kind } => format!("{seat} gains {} {kind}", article(*kind)),
        Event::UnitPlaced {
            seat,
            unit,
            kind,
            hex,
        } => format!("{seat} places {kind} {unit} at {hex}"),
        Event::Moved {
            unit,
            from,
            to,
            road: true,
        } => format!("{unit} takes the road {from} to {to}"),
        Event::Moved {
            unit,
            from,
            to,
            road: false,
        } => format!("{unit} moves {from} to {to}"),
        Event::MovementEnded { unit } => format!("{unit} stops"),
        Event::Embarked { unit, frigate, .. } => format!("{unit} boards frigate {frigate}"),
        Event::Disembarked { unit, to, .. } => format!("{unit} lands at {to}"),
        Event::Bombarded { unit, target } => format!("{unit} bombards {target}"),
        Event::DieRolled {
            seat,
            purpose: p,
            value,
        } => format!("{seat} rolls {value} ({})", purpose(*p)),
        Event::UnitLost {
            unit,
            owner,
            kind,
            chosen_by,
        } if owner == chosen_by => {
            format!("{owner} loses {kind} {unit}")
        }
        Event::UnitLost {
            unit,
            owner,
            kind,
            chosen_by,
        } => format!("{owner} loses {kind} {unit} ({chosen_by}'s choice)"),
        Event::BattleStarted {
            hex,
            attacker,
            defender,
        } => format!("battle at {hex}: {attacker} attacks {defender}"),
        Event::RoundStarted { round } => format!("round {round}"),
        Event::Suppressed { dice } => format!("the defence loses {dice} dice to suppression"),
        Event::LuckAveraged { seat, pairs } => {
            format!("{seat} trades {pairs} pair(s) of dice for sure hits")
        }
        Event::Retreated { unit, to } => format!("{unit} retreats to {to}"),
        Event::BattleEnded { hex, winner } => format!("{winner} wins the battle at {hex}"),
        Event::Captured {
            hex,
            from,
            to,
            city,
        } => {
            format!(
                "{to} captures {from}'s {} at {hex}",
                if *city { "city" } else { "town" }
            )
        }
        Event::Disbanded {
            seat,
            kind,
            unit: Some(u),
            ..
        } => format!("{seat} gives up {kind} {u}"),
        Event::Disbanded {
            seat,
            kind,
            unit: None,
            ..
        } => format!("{seat} gives up a reserve {kind}"),
        Event::Redeployed { unit, kind, .. } => format!("{kind} {unit} returns to the reserve"),
        Event::DoomsdayStarted => "the doomsday clock starts".into(),
        Event::DoomsdayMarked { seat } => format!("a coin lies by {seat}'s capital"),
        Event::Eliminated { seat } => format!("{seat} is eliminated"),
        Event::Subjugated { hex, vassal, ruler } => {
            format!("{ruler} takes the capital at {hex}: {vassal} becomes his vassal")
        }
        Event::Freed { seat } => format!("{seat} is free of his alliance"),
        Event::Pillaged { unit, hex } => format!("{unit} pillages {hex}"),
        Event::Repaired { unit, hex } => format!("{unit} repairs {hex}"),
        Event::MetropolisBuilt { seat, hex, extra } => {
            format!("{seat} upgrades {hex} to a Metropolis supporting a {extra}")
        }
        Event::MetropolisSwitched { hex, extra } => {
            format!("the Metropolis at {hex} now supports a {extra}")
        }
        Event::GameOver { outcome } => {
            let w: Vec<String> = outcome.winners.iter().map(ToString::to_string).collect();
            format!("game over ({}): {} won", outcome.reason, w.join(", "))
        }
    }
}
