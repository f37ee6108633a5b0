//! Rule 14.0: victory points, sudden death, the end of the game.

use crate::event::Event;
use crate::state::{Avl, GameResult, Location, Phase, Supply};
use crate::unit::{Nationality, Side};

/// Rule 14.0.1: each side's VPs: 5 per Victory City controlled, and eliminated enemy
/// units (German mechanized 3, or 5 with 15.0.1; German other 1; Soviet mechanized 1).
/// `end`: out of supply and isolated units count as eliminated (end of the game).
pub fn vp(s: &Avl, end: bool) -> [i32; 2] {
    let v = &s.rules().scenario.victory;
    let mut out = [0i32; 2];
    for &c in &s.pos.control {
        out[c.index()] += i32::from(v.city);
    }
    for p in s.piece_ids() {
        if s.is_hq(p) {
            continue;
        }
        let st = s.piece(p);
        let gone = st.location == Location::Eliminated
            || (end && matches!(st.location, Location::Map(_)) && st.supply != Supply::InSupply);
        if !gone {
            continue;
        }
        let mech = s.mechanized(p);
        match s.nationality(p) {
            Nationality::German if mech && s.options().german_mech_5vp => {
                out[1] += i32::from(v.german_mechanized_soviet_help);
            }
            Nationality::German if mech => out[1] += i32::from(v.german_mechanized),
            Nationality::German => out[1] += i32::from(v.german_other),
            Nationality::Soviet if mech => out[0] += i32::from(v.soviet_mechanized),
            _ => {}
        }
    }
    out
}

/// Rule 14.0.2, H-107: the Sudden Death Victory Segment, and the end of the last turn.
/// Returns whether the game ended.
pub fn check_end(s: &mut Avl, ev: &mut Vec<Event>) -> bool {
    let now = vp(s, false);
    let margin = i32::from(s.rules().scenario.sudden_death_margin);
    let result = if (now[0] - now[1]).abs() >= margin {
        let winner = if now[0] > now[1] {
            Side::Axis
        } else {
            Side::Soviet
        };
        Some(GameResult {
            winner: Some(winner),
            vp: vp(s, true),
            reason: "sudden death".into(),
        })
    } else if s.turn().0 >= s.rules().scenario.turns {
        let fin = vp(s, true);
        let winner = match fin[0].cmp(&fin[1]) {
            std::cmp::Ordering::Greater => Some(Side::Axis),
            std::cmp::Ordering::Less => Some(Side::Soviet),
            std::cmp::Ordering::Equal => None,
        };
        Some(GameResult {
            winner,
            vp: fin,
            reason: format!("end of turn {}", s.turn().0),
        })
    } else {
        None
    };
    match result {
        Some(r) => {
            ev.push(Event::GameOver {
                winner: r.winner,
                vp: r.vp,
            });
            s.pos.result = Some(r);
            s.pos.phase = Phase::Over;
            true
        }
        None => false,
    }
}
