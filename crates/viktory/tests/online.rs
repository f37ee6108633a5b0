//! Options of the online ruleset built so far (its preset is refused until all its rules
//! are built): the hex-side bonus in naval battles, combat supply needing the capital,
//! the capital's frigates in the nearest water, and the colorblind display flag.

mod common;

use common::*;
use engine::{Game, Seat};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, UnitKind};

/// Naval battles: one more attack die for each further water hex the attacking frigates
/// came from, with `hexside_bonus_naval`.
#[test]
fn online_naval_hexside_bonus() {
    let attack_dice = |naval_bonus: bool| {
        let mut s = Pos::new(2, Stage::Move)
            .rules(|r| {
                r.hexside_bonus = true;
                r.hexside_bonus_naval = naval_bonus;
            })
            .terrain(h(0, 0), Terrain::Water)
            .terrain(h(1, -1), Terrain::Water)
            .terrain(h(0, 1), Terrain::Water)
            .unit(1, 0, UnitKind::Frigate, h(1, -1))
            .unit(2, 0, UnitKind::Frigate, h(0, 1))
            .unit(9, 1, UnitKind::Frigate, h(0, 0))
            .build();
        play(
            &mut s,
            &[mv(1, 0, 0), mv(2, 0, 0), Action::Fight { hex: h(0, 0) }],
        );
        let mut n = 0;
        while let Some(Event::DieRolled {
            purpose: DiePurpose::Attack,
            ..
        }) = dice(&mut s, &[6]).first()
        {
            n += 1;
        }
        n
    };
    assert_eq!(attack_dice(true), 2);
    assert_eq!(attack_dice(false), 1);
}

/// Online combat supply: a city on every land terrain is not enough without the capital.
#[test]
fn online_combat_supply_needs_the_capital() {
    let pos = |capital_held: bool| {
        let p = Pos::new(2, Stage::Move)
            .rules(|r| {
                r.combat_supply = true;
                r.combat_supply_needs_capital = true;
            })
            .terrain(h(-3, 0), Terrain::Plains)
            .terrain(h(-3, 2), Terrain::Grassland)
            .terrain(h(-1, 2), Terrain::Forest)
            .terrain(h(-1, -2), Terrain::Mountain)
            .town(h(-3, 2), 0, true, false)
            .town(h(-1, 2), 0, true, false)
            .town(h(-1, -2), 0, true, false)
            .town(h(3, -3), 1, false, true);
        if capital_held {
            p.town(h(-3, 0), 0, true, true)
        } else {
            p.captured_capital(h(-3, 0), 1, true, 0)
        }
    };
    assert_eq!(pos(true).build().hit_max_for(Seat(0)), 4);
    let mut without = pos(false);
    without = without
        .town(h(1, 0), 0, true, false)
        .terrain(h(1, 0), Terrain::Plains);
    assert_eq!(without.build().hit_max_for(Seat(0)), 3);
}

/// Online placement: frigates go to the closest water of the capital too.
#[test]
fn online_capital_frigates_in_the_nearest_water() {
    let pos = |on: bool| {
        Pos::new(2, Stage::Place)
            .rules(|r| r.capital_frigates_nearest_water = on)
            .terrain(h(2, 0), Terrain::Water)
            .town(h(0, 0), 0, false, true)
            .reserve(0, UnitKind::Frigate, 1)
            .build()
    };
    let place = Action::Place {
        kind: UnitKind::Frigate,
        town: h(0, 0),
        to: h(2, 0),
    };
    assert!(pos(true).legal_actions().contains(&place));
    assert!(!pos(false).legal_actions().contains(&place));
}

/// Colorblind is a display option: views say so.
#[test]
fn online_colorblind_flag() {
    let s = Pos::new(2, Stage::Move)
        .rules(|r| r.colorblind = true)
        .build();
    assert!(s.view(Some(Seat(0))).colorblind);
    assert!(
        !Pos::new(2, Stage::Move)
            .build()
            .view(Some(Seat(0)))
            .colorblind
    );
}
