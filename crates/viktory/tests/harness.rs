//! The engine's conformance harness on classic VIKTORY II, 2 to 6 players: seeded random
//! playouts to a victory or the turn cap, with the game's invariants after every action.

use engine::harness::{Conformance, Invariant};
use engine::{Game, NewGame, Seat};
use hexmap::Board;
use viktory::rules::fog;
use viktory::{Terrain, UnitKind, Viktory};

/// Units on the map plus reserve equal exactly what each player's towns and cities
/// support (8.0, one-to-one), allowing for units still owed after a capture (10.2): the
/// check `load` makes ([`Viktory::accounting`]).
fn accounting(s: &Viktory) -> Result<(), String> {
    (0..s.rules().players).try_for_each(|p| s.accounting(Seat(p)))
}

/// No land unit on water except as cargo; no frigate on land except in port transit.
fn terrain(s: &Viktory) -> Result<(), String> {
    for u in s.units() {
        let t = s
            .terrain(u.hex)
            .ok_or_else(|| format!("unit {} on a face-down hex", u.id))?;
        let ferry = s.rules().road_ferry_network && s.turn().moving == Some(u.id);
        if u.kind.is_land() && u.aboard.is_none() && !t.is_land() && !ferry {
            return Err(format!("land unit {} on water at {}", u.id, u.hex));
        }
        if u.kind == UnitKind::Frigate && t.is_land() && s.turn().moving != Some(u.id) {
            return Err(format!(
                "frigate {} on land at {} outside port transit",
                u.id, u.hex
            ));
        }
        if let Some(f) = u.aboard {
            let fr = s
                .unit(f)
                .ok_or_else(|| format!("unit {} aboard missing frigate {f}", u.id))?;
            if fr.hex != u.hex {
                return Err(format!("cargo {} not in its frigate's hex", u.id));
            }
        }
    }
    Ok(())
}

/// No two towns or cities adjacent (7.21); with fog a builder may not see the neighbour
/// (H-23, H-24).
fn towns_apart(s: &Viktory) -> Result<(), String> {
    if s.rules().dark || s.rules().independent_exploration {
        return Ok(());
    }
    let towns: Vec<_> = s.towns().map(|(h, _)| h).collect();
    for &a in &towns {
        if let Some(b) = towns.iter().find(|&&b| a.distance(b) == 1) {
            return Err(format!("towns at {a} and {b} are adjacent"));
        }
    }
    Ok(())
}

/// The face-down tiles are exactly the bank; queued reveals are face-down and distinct;
/// every unit's neighbours are revealed or about to be (9.2).
fn hidden_tiles(s: &Viktory) -> Result<(), String> {
    let board = s.board();
    let hidden = board.hexes().filter(|&h| s.terrain(h).is_none()).count();
    if s.bank().total() as usize + s.drawn().len() != hidden {
        return Err(format!(
            "{hidden} face-down hexes but {} tiles in the bank",
            s.bank().total()
        ));
    }
    let mut q = s.pending_reveals().to_vec();
    q.sort();
    q.dedup();
    if q.len() != s.pending_reveals().len() || q.iter().any(|&h| s.terrain(h).is_some()) {
        return Err("bad reveal queue".into());
    }
    for u in s.units() {
        for n in u.hex.neighbors() {
            if board.contains(n) && s.terrain(n).is_none() && !s.pending_reveals().contains(&n) {
                return Err(format!(
                    "unit {} at {} has an unexplored neighbour {n}",
                    u.id, u.hex
                ));
            }
        }
    }
    // Independent exploration (H-23): each player explored around his own units and
    // towns (once the act's tiles are laid).
    if s.rules().independent_exploration && s.pending_reveals().is_empty() {
        let towns = s.towns().map(|(h, t)| (h, t.owner));
        for (hex, owner) in s.units().iter().map(|u| (u.hex, u.owner)).chain(towns) {
            for n in hex.neighbors() {
                if board.contains(n) && !fog::explored(s, owner, n) {
                    return Err(format!("{owner} has not explored {n}, next to its {hex}"));
                }
            }
        }
    }
    Ok(())
}

fn invariants() -> Vec<Invariant<Viktory>> {
    vec![
        Invariant {
            name: "one-to-one unit accounting (8.0)",
            check: accounting,
        },
        Invariant {
            name: "units on their terrain (9.1, 9.3)",
            check: terrain,
        },
        Invariant {
            name: "towns apart (7.21)",
            check: towns_apart,
        },
        Invariant {
            name: "hidden tiles consistent (R-4, 9.2)",
            check: hidden_tiles,
        },
        Invariant {
            name: "caches match the units",
            check: Viktory::verify_caches,
        },
        Invariant {
            name: "alliances one level deep (15.61)",
            check: alliances,
        },
    ]
}

/// A Ruler is no one's Vassal; every player holds his own capital once founded, apart
/// from the moment of a hand-over (15.6).
fn alliances(s: &Viktory) -> Result<(), String> {
    if !s.rules().subjugation {
        return Ok(());
    }
    for p in s.live_seats() {
        if let Some(r) = s.player(p).ruler
            && s.player(r).ruler.is_some()
        {
            return Err(format!("{p}'s Ruler {r} is a Vassal himself"));
        }
        let capital = s.towns().find(|(_, t)| t.capital_of == Some(p));
        if let Some((hex, t)) = capital
            && t.owner != p
        {
            return Err(format!("{p}'s capital at {hex} is held by {}", t.owner));
        }
    }
    Ok(())
}

/// A new game of `preset` for `players` players with option overrides.
fn new_game(preset: &str, players: u8, options: &serde_json::Value) -> Viktory {
    let setup = Viktory::new_setup(&NewGame {
        preset: Some(preset.into()),
        options: options.as_object().expect("options are an object").clone(),
        players: Some(players),
    })
    .unwrap();
    Viktory::from_setup(&setup).unwrap()
}

fn game(players: u8, max_turns: u16) -> Viktory {
    new_game(
        "classic",
        players,
        &serde_json::json!({ "max_turns": max_turns }),
    )
}

/// Runs the conformance harness with the VIKTORY invariants; every playout must end.
fn playouts(
    label: &str,
    count: usize,
    seed: u64,
    deep_every: usize,
    hidden_variant: Option<engine::harness::HiddenVariant<Viktory>>,
    start: impl FnMut(usize) -> Viktory,
) -> engine::harness::Report {
    let report = Conformance {
        invariants: invariants(),
        hidden_variant,
        playouts: count,
        max_actions: 200_000,
        seed,
        deep_every,
        ..Conformance::default()
    }
    .run(start)
    .unwrap_or_else(|f| panic!("{label}: {f}"));
    assert_eq!(
        report.finished, count,
        "{label}: every playout reaches a victory or the turn cap"
    );
    eprintln!("{label}: {report:?}");
    report
}

fn run(players: u8, count: usize, max_turns: u16, deep_every: usize) {
    run_preset("classic", players, count, max_turns, deep_every);
}

#[test]
fn classic_2_players() {
    run(2, 300, 30, 7);
}

#[test]
fn classic_3_players() {
    run(3, 200, 20, 11);
}

#[test]
fn classic_4_players() {
    run(4, 200, 15, 13);
}

#[test]
fn classic_5_players() {
    run(5, 150, 12, 17);
}

#[test]
fn classic_6_players() {
    run(6, 150, 12, 19);
}

/// Random play must reach every part of the rules the harness is meant to check:
/// each event type occurs in the playouts (so the invariants were tested there).
#[test]
fn random_play_reaches_every_rule() {
    let seen = busy_play("classic", &serde_json::json!({ "max_turns": 60 }), 120);
    eprintln!("{seen:#?}");
    for name in [
        "first_player",
        "turn_started",
        "phase_started",
        "revealed",
        "capital_founded",
        "town_built",
        "city_built",
        "unit_gained",
        "unit_placed",
        "moved",
        "movement_ended",
        "embarked",
        "disembarked",
        "bombarded",
        "die_rolled",
        "unit_lost",
        "battle_started",
        "round_started",
        "suppressed",
        "retreated",
        "battle_ended",
        "captured",
        "disbanded",
        "eliminated",
        "game_over",
    ] {
        assert!(
            seen.contains_key(name),
            "random play never produced {name}: {seen:?}"
        );
    }
}

/// Actions of every kind aimed at everything nearby, most of them illegal: `check` must
/// refuse each one the legal list lacks, without panicking, and a refused `apply` must
/// change nothing (the harness checks both).
fn wild_candidates(s: &Viktory) -> Vec<viktory::Action> {
    use viktory::{Action, UnitId};
    let mut v = Vec::new();
    let max_id = s.units().iter().map(|u| u.id.0).max().unwrap_or(0);
    let towns: Vec<_> = s.towns().map(|(h, _)| h).collect();
    for id in (0..=max_id + 1).step_by(1 + (max_id as usize / 12)) {
        let unit = UnitId(id);
        let at = s.unit(unit).map_or(hexmap::Hex::ORIGIN, |u| u.hex);
        for to in at.range(2) {
            v.push(Action::Move { unit, to });
            v.push(Action::Bombard { unit, target: to });
            v.push(Action::Disembark { unit, to });
            v.push(Action::Retreat { unit, to });
        }
        v.push(Action::Casualty { unit });
        v.push(Action::Embark {
            unit,
            frigate: UnitId(id.wrapping_add(1)),
        });
        for kind in UnitKind::ALL {
            v.push(Action::Disband {
                kind,
                unit: Some(unit),
            });
        }
    }
    for &t in &towns {
        v.push(Action::BuildCity { hex: t });
        v.push(Action::Fight { hex: t });
        for h in t.range(3) {
            v.push(Action::BuildTown { hex: h });
        }
        for kind in UnitKind::ALL {
            for to in t.range(1) {
                v.push(Action::Place { kind, town: t, to });
            }
        }
    }
    for value in 0..8 {
        v.push(Action::Die { value });
    }
    for kind in UnitKind::ALL {
        v.push(Action::Disband { kind, unit: None });
    }
    for t in Terrain::ALL {
        v.push(Action::Reveal {
            hex: hexmap::Hex::ORIGIN,
            terrain: t,
        });
        if let Some(&h) = s.pending_reveals().first() {
            v.push(Action::Reveal { hex: h, terrain: t });
        }
    }
    v.extend([
        Action::EndPhase,
        Action::Continue,
        Action::FoundCapital {
            hex: hexmap::Hex::ORIGIN,
        },
    ]);
    v.extend((0..8).map(|p| Action::FirstPlayer { seat: Seat(p) }));
    v
}

/// Deep checks with wild candidates on every state of a few playouts.
#[test]
fn classic_check_refuses_everything_else() {
    let report = Conformance {
        invariants: invariants(),
        candidates: Some(wild_candidates),
        playouts: 12,
        max_actions: 200_000,
        seed: 77,
        deep_every: 1,
        ..Conformance::default()
    }
    .run(|i| game(2 + (i % 3) as u8, 8))
    .unwrap_or_else(|f| panic!("{f}"));
    eprintln!("{report:?}");
    assert!(report.refusals_checked > 100_000);
}

fn run_preset(preset: &str, players: u8, count: usize, max_turns: u16, deep_every: usize) {
    let options = serde_json::json!({ "max_turns": max_turns });
    let label = format!("{preset}, {players} players");
    playouts(
        &label,
        count,
        u64::from(players) * 7_000_000,
        deep_every,
        None,
        |_| new_game(preset, players, &options),
    );
}

#[test]
fn viktory1_2_players() {
    run_preset("viktory1", 2, 400, 25, 7);
}

#[test]
fn viktory1_3_players() {
    run_preset("viktory1", 3, 300, 18, 11);
}

#[test]
fn viktory1_4_players() {
    run_preset("viktory1", 4, 300, 15, 13);
}

/// Classic with the implemented §15 variants and every victory condition on.
#[test]
fn classic_with_variants() {
    let options = serde_json::json!({
        "max_turns": 15,
        "terrain_leveling": true,
        "luck_averaging": true,
        "relocation": true,
        "exploration_balancing": true,
        "auto_casualties": true,
        "victory": ["standard_conquest", "race_for_dominance", "doomsday_clock"],
        "race_points": 12
    });
    playouts("classic with variants", 200, 99, 9, None, |i| {
        new_game("classic", 2 + (i % 3) as u8, &options)
    });
}

/// Classic with every Expansion option implemented so far switched on.
#[test]
fn classic_with_expansion_options() {
    let options = serde_json::json!({
        "max_turns": 15,
        "start_group": 5,
        "build_actions": 2,
        "build_after_moving": true,
        "combat_supply": true,
        "redeployment": true,
        "bombard_range": 1,
        "plains_city_bonus": true,
        "road_ferries": true,
        "build_adjacent_enemy_restriction": true,
        "suppression": "clarified",
        "cavalry_ignores_slow_terrain": true,
        "hexside_bonus": true,
        "defender_pre_battle_fire": true,
        "hexside_bonus_naval": true,
        "combat_supply_needs_capital": true,
        "capital_frigates_nearest_water": true,
        "colorblind": true,
        "opening_second_town": true,
        "victory": ["standard_conquest", "quicker_victory"],
        "quick_victory_points": 9,
        "attack_dice": {"infantry": 1, "cavalry": 1, "artillery": 1, "frigate": 1}
    });
    playouts("classic with expansion options", 200, 4242, 9, None, |i| {
        new_game("classic", 2 + (i % 3) as u8, &options)
    });
}

/// For a seat that is not drawing: the same position with one drawn tile swapped for a
/// tile of another terrain from the pile (a fact hidden from that seat).
fn swap_drawn_tile(s: &Viktory, seat: Seat, rng: &mut engine::GameRng) -> Option<Viktory> {
    if seat == s.turn().active || s.drawn().is_empty() {
        return None;
    }
    let mut setup = s.to_setup();
    let mut distinct = setup.drawn.clone();
    distinct.dedup();
    if distinct.len() < 2 {
        return None;
    }
    let bank = setup.bank?;
    let others: Vec<Terrain> = Terrain::ALL
        .into_iter()
        .filter(|t| !setup.drawn.contains(t) && bank.get(*t) > 0)
        .collect();
    if others.is_empty() {
        return None;
    }
    let i = rng.below(setup.drawn.len() as u32) as usize;
    let new = others[rng.below(others.len() as u32) as usize];
    let old = std::mem::replace(&mut setup.drawn[i], new);
    setup.drawn.sort();
    let b = setup.bank.as_mut()?;
    *b.get_mut(new) -= 1;
    *b.get_mut(old) += 1;
    Viktory::from_setup(&setup).ok()
}

/// Map customization (with the five-hex start of the Building Phase Accelerator): the
/// harness also checks that the seats not drawing see the same view whatever was drawn.
#[test]
fn classic_with_map_customization() {
    let options = serde_json::json!({"max_turns": 12, "map_customization": true, "start_group": 5});
    let report = playouts(
        "map customization",
        150,
        515,
        3,
        Some(swap_drawn_tile),
        |i| new_game("classic", 2 + (i % 3) as u8, &options),
    );
    assert!(report.hidden_checks > 100, "{report:?}");
}

#[test]
fn expansion_2_players() {
    run_preset("expansion", 2, 300, 20, 9);
}

#[test]
fn expansion_4_players() {
    run_preset("expansion", 4, 250, 12, 13);
}

#[test]
fn expansion_6_players() {
    run_preset("expansion", 6, 150, 10, 19);
}

#[test]
fn expansion_7_players() {
    run_preset("expansion", 7, 150, 8, 23);
}

#[test]
fn expansion_8_players() {
    run_preset("expansion", 8, 150, 8, 29);
}

/// Dark and Independent exploration: the same position with a fact hidden from `seat`
/// changed: another player's unit moved between hexes `seat` cannot see, or a laid tile
/// `seat` has not explored turned into another terrain from the pile. Facts the player
/// to move knows are left alone: what he may do next (and so who moves next, which
/// everyone sees) may depend on them.
fn fog_variant(s: &Viktory, seat: Seat, rng: &mut engine::GameRng) -> Option<Viktory> {
    let mover = match s.to_move() {
        engine::ToMove::Seat(m) => m,
        _ => s.turn().active,
    };
    fog_variant_for(s, seat, mover, rng)
}

fn fog_variant_for(
    s: &Viktory,
    seat: Seat,
    mover: Seat,
    rng: &mut engine::GameRng,
) -> Option<Viktory> {
    let active = s.turn().active;
    let mut setup = s.to_setup();
    let board = s.board();
    let busy = |h: hexmap::Hex| {
        s.battle().is_some_and(|b| b.hex == h)
            || s.bombardment().is_some_and(|b| b.target == h)
            || s.turn().pending_battles.contains(&h)
            || s.turn().battle_hexes.contains(&h)
            || s.capture().is_some_and(|c| c.hex == h)
    };
    if s.rules().independent_exploration && rng.below(2) == 0 {
        let bank = setup.bank?;
        let tiles: Vec<usize> = (0..setup.tiles.len())
            .filter(|&i| {
                let h = setup.tiles[i].hex;
                !fog::explored(s, seat, h)
                    && !fog::explored(s, mover, h)
                    && !fog::explored(s, active, h)
                    && s.town(h).is_none()
                    && s.units_at(h).next().is_none()
                    && !busy(h)
            })
            .collect();
        if tiles.is_empty() {
            return None;
        }
        let i = tiles[rng.below(tiles.len() as u32) as usize];
        let old = setup.tiles[i].terrain;
        let others: Vec<Terrain> = Terrain::ALL
            .into_iter()
            .filter(|&t| t != old && bank.get(t) > 0)
            .collect();
        if others.is_empty() {
            return None;
        }
        let new = others[rng.below(others.len() as u32) as usize];
        setup.tiles[i].terrain = new;
        let b = setup.bank.as_mut()?;
        *b.get_mut(new) -= 1;
        *b.get_mut(old) += 1;
        return Viktory::from_setup(&setup).ok();
    }
    let carriers: Vec<viktory::UnitId> = s.units().iter().filter_map(|u| u.aboard).collect();
    let movable: Vec<&viktory::Unit> = s
        .units()
        .iter()
        .filter(|u| {
            u.owner != seat
                && u.owner != mover
                && u.owner != active
                && u.aboard.is_none()
                && !carriers.contains(&u.id)
                && s.turn().moving != Some(u.id)
                && !fog::sees(s, seat, u.hex)
                && !fog::sees(s, mover, u.hex)
                && !fog::sees(s, active, u.hex)
                && !busy(u.hex)
        })
        .collect();
    if movable.is_empty() {
        return None;
    }
    let u = movable[rng.below(movable.len() as u32) as usize];
    let to: Vec<hexmap::Hex> = board
        .hexes()
        .filter(|&h| {
            h != u.hex
                && !fog::sees(s, seat, h)
                && !fog::sees(s, mover, h)
                && !fog::sees(s, active, h)
                && s.terrain(h)
                    .is_some_and(|t| t.is_land() == u.kind.is_land())
                && s.town(h).is_none()
                && !s.enemy_units_at(h, u.owner)
                && !busy(h)
        })
        .collect();
    if to.is_empty() {
        return None;
    }
    let dest = to[rng.below(to.len() as u32) as usize];
    let unit = setup.units.iter_mut().find(|x| x.id == u.id)?;
    unit.hex = dest;
    Viktory::from_setup(&setup).ok()
}

/// The online preset with Dark and Independent exploration on: 1,000 playouts over 2 to
/// 8 players, with view stability under hidden changes.
fn run_online(players: u8, count: usize, max_turns: u16, deep_every: usize) {
    let options = serde_json::json!({
        "max_turns": max_turns,
        "dark": true,
        "independent_exploration": true,
    });
    let report = playouts(
        &format!("online, {players} players, dark and independent exploration"),
        count,
        7000 + u64::from(players),
        deep_every,
        Some(fog_variant),
        |_| new_game("online", players, &options),
    );
    assert!(report.hidden_checks > count, "{report:?}");
}

#[test]
fn online_2_players() {
    run_online(2, 300, 20, 7);
}

#[test]
fn online_4_players() {
    run_online(4, 250, 12, 11);
}

#[test]
fn online_6_players() {
    run_online(6, 150, 10, 17);
}

#[test]
fn online_7_players() {
    run_online(7, 150, 8, 19);
}

#[test]
fn online_8_players() {
    run_online(8, 150, 8, 23);
}

/// 15.6 Subjugation with every victory condition that goes with it, on classic and
/// Expansion rules.
#[test]
fn classic_with_subjugation() {
    for (preset, players, seed) in [
        ("classic", 2u8, 1500u64),
        ("classic", 4, 1600),
        ("expansion", 5, 1700),
    ] {
        let options = serde_json::json!({
            "max_turns": 25,
            "subjugation": true,
            "victory": ["subjugation_conquest", "two_vassals"],
        });
        playouts(
            &format!("{preset} with subjugation, {players} players"),
            100,
            seed,
            7,
            None,
            |_| new_game(preset, players, &options),
        );
    }
}

/// Every extremely optional Expansion rule on, on the Expansion preset: 1,000 playouts
/// over 2 to 8 players.
fn run_extremely_optional(players: u8, count: usize, max_turns: u16, deep_every: usize) {
    let options = serde_json::json!({
        "max_turns": max_turns,
        "accelerator_enhancement": true,
        "metropolis": true,
        "metropolis_capital": true,
        "battle_dice_factors": true,
        "frigate_characteristics": true,
        "artillery_characteristics": true,
        "pillage": true,
        "cavalry_characteristics": true,
        "road_ferry_network": true,
        "victory": ["standard_conquest", "quicker_victory"],
    });
    playouts(
        &format!("expansion, every extremely optional rule, {players} players"),
        count,
        3100 + u64::from(players),
        deep_every,
        None,
        |_| new_game("expansion", players, &options),
    );
}

#[test]
fn extremely_optional_2_players() {
    run_extremely_optional(2, 300, 15, 9);
}

#[test]
fn extremely_optional_4_players() {
    run_extremely_optional(4, 300, 10, 13);
}

#[test]
fn extremely_optional_6_players() {
    run_extremely_optional(6, 200, 8, 17);
}

#[test]
fn extremely_optional_8_players() {
    run_extremely_optional(8, 200, 6, 19);
}

/// Expansion, Optional Quicker Game Setup, on classic and Expansion-style rules.
#[test]
fn classic_with_quicker_game_setup() {
    let options = serde_json::json!({"max_turns": 12, "quicker_game_setup": true});
    playouts("quicker game setup", 150, 2800, 7, None, |i| {
        new_game("classic", 2 + (i % 5) as u8, &options)
    });
}

/// Plays `games` random games that prefer doing something to ending a phase, and
/// counts each action type, event type (and actions taken during a capital hand-over),
/// and how the games ended.
fn busy_play(
    preset: &str,
    options: &serde_json::Value,
    games: u64,
) -> std::collections::BTreeMap<String, usize> {
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..games {
        let mut s = new_game(preset, 2 + (seed % 3) as u8, options);
        let mut rng = engine::GameRng::from_u64(seed);
        let mut steps = 0;
        while !s.to_move().is_over() && steps < 100_000 {
            let action = if s.to_move() == engine::ToMove::Chance {
                s.sample_chance(&mut rng)
            } else {
                let legal = s.legal_actions();
                let busy: Vec<_> = legal
                    .iter()
                    .filter(|a| !matches!(a, viktory::Action::EndPhase))
                    .collect();
                let pool = if busy.is_empty() || rng.below(10) == 0 {
                    legal.iter().collect()
                } else {
                    busy
                };
                *pool[rng.below(pool.len() as u32) as usize]
            };
            let name = serde_json::to_value(action).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned();
            if s.handover().is_some() {
                *seen.entry(format!("handover {name}")).or_default() += 1;
            }
            *seen.entry(name).or_default() += 1;
            for e in s.apply(action).unwrap() {
                let json = serde_json::to_value(&e).unwrap();
                let name = json["type"].as_str().unwrap().to_owned();
                if let Some(p) = json["purpose"].as_str() {
                    *seen.entry(format!("die {p}")).or_default() += 1;
                }
                *seen.entry(name).or_default() += 1;
            }
            steps += 1;
        }
        if let Some(o) = s.outcome() {
            *seen.entry(format!("won by {}", o.reason)).or_default() += 1;
        }
    }
    seen
}

/// Random play with subjugation reaches every part of 15.6: subjugation, the Ruler's
/// evacuation, the Vassal's reinforcement, attacks on a Vassal, freed Vassals.
#[test]
fn random_subjugation_play_reaches_every_rule() {
    let options = serde_json::json!({
        "max_turns": 60,
        "subjugation": true,
        "victory": ["subjugation_conquest"],
    });
    let seen = busy_play("classic", &options, 200);
    for name in [
        "subjugated",
        "freed",
        "evacuate",
        "attack",
        "handover place",
        "handover fight",
        "won by subjugation conquest",
    ] {
        assert!(
            seen.contains_key(name),
            "random play never reached {name}: {seen:?}"
        );
    }
}

/// Random play with the extremely optional rules reaches each of them.
#[test]
fn random_extremely_optional_play_reaches_every_rule() {
    let options = serde_json::json!({
        "max_turns": 40,
        "accelerator_enhancement": true,
        "metropolis": true,
        "metropolis_capital": true,
        "battle_dice_factors": true,
        "frigate_characteristics": true,
        "artillery_characteristics": true,
        "pillage": true,
        "cavalry_characteristics": true,
        "road_ferry_network": true,
        "victory": ["quicker_victory"],
    });
    let seen = busy_play("expansion", &options, 100);
    for name in [
        "build_metropolis",
        "metropolis_built",
        "switch_metropolis",
        "won by quicker victory",
        "die overwatch",
        "embark",
        "disembark",
        "pillaged",
        "repaired",
        "bypass",
    ] {
        assert!(
            seen.contains_key(name),
            "random play never reached {name}: {seen:?}"
        );
    }
}

/// The online preset with only Dark, and with only Independent exploration.
#[test]
fn online_single_fog_options() {
    for (name, options) in [
        ("dark", serde_json::json!({"max_turns": 12, "dark": true})),
        (
            "independent",
            serde_json::json!({"max_turns": 12, "independent_exploration": true}),
        ),
    ] {
        playouts(
            &format!("online {name}"),
            100,
            77,
            5,
            Some(fog_variant),
            |i| new_game("online", 2 + (i % 3) as u8, &options),
        );
    }
}
