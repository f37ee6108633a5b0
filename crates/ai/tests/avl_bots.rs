//! The bots on A Victory Lost: states rebuilt from a view give that view back, choices
//! depend on the view alone (the other side's chits are hidden, 7.1.3, 3.0), every bot
//! names a legal action in every state, and greedy beats random.

use ai::arena::{self, play_game};
use ai::avl::eval::{Weights, terms};
use ai::avl::topology::Topology;
use ai::{AiGame, Bot, Budget, Greedy, Mcts, MctsConfig, RandomBot};
use avl::rules::command::chit_side;
use avl::{Avl, Chit, Location, Options, Scenario, Setup, Side, Supply, View};
use engine::{Game, GameRng, Seat, ToMove};
use std::collections::{HashMap, HashSet, VecDeque};

mod common;

const CAMPAIGN: &str = include_str!("../../../data/avl/campaign.toml");
/// The campaign as it was when the positions in `tests/data/avl-campaign-*.json` were
/// played (before its balance tuning added six Soviet divisions).
const CAMPAIGN_V1: &str = include_str!("../../avl/tests/data/campaign-v1.toml");

fn start(text: &str, options: Options) -> Avl {
    let scenario = Scenario::from_toml(text).expect("the scenario parses");
    <Avl as Game>::from_setup(&Setup {
        scenario,
        options,
        position: None,
    })
    .expect("the scenario starts")
}

/// Every 15.0 option on.
fn all_options() -> Options {
    Options {
        german_mech_5vp: true,
        administrative_movement: true,
        late_first_panzer: true,
        early_manstein: true,
        soviet_selects_ahead: true,
        axis_first_chit: true,
    }
}

fn tiny_mcts() -> Mcts {
    Mcts::new(MctsConfig {
        budget: Budget::Iterations(6),
        trees: 2,
        threads: 1,
        rollout_turns: 1,
        max_rollout_decisions: 40,
        ..MctsConfig::default()
    })
}

fn bots() -> Vec<Box<dyn Bot<Avl>>> {
    vec![
        Box::new(RandomBot),
        Box::new(Greedy::default()),
        Box::new(tiny_mcts()),
    ]
}

/// Plays `s` on with random actions, calling `at` before each seat decision.
fn playout(mut s: Avl, seed: u64, max: usize, mut at: impl FnMut(&Avl, Seat, u64)) -> Avl {
    let mut rng = GameRng::from_u64(seed);
    let mut step = 0u64;
    for _ in 0..max {
        match s.to_move() {
            ToMove::Over(_) => break,
            ToMove::Chance => {
                let a = s.sample_chance(&mut rng);
                s.apply_unchecked(a);
            }
            ToMove::Seat(seat) => {
                at(&s, seat, step);
                let legal = s.legal_actions();
                s.apply(legal[rng.below(legal.len() as u32) as usize])
                    .expect("legal");
                step += 1;
            }
        }
    }
    s
}

/// A state rebuilt from a seat's view shows that seat the same view, for either seat,
/// with or without the options (the Soviet notes of 15.0.2 are hidden from the Axis).
#[test]
fn determinized_states_give_the_same_view() {
    let mut checked = 0;
    let mut rng = GameRng::from_u64(7);
    let mut differs = 0;
    for (seed, options) in [
        (1u64, Options::default()),
        (2, all_options()),
        (3, Options::default()),
        (4, all_options()),
    ] {
        playout(
            start(avl::DEMO_SCENARIO, options),
            seed,
            5_000,
            |s, _, _| {
                for seat in [Seat(0), Seat(1)] {
                    let v = s.view(Some(seat));
                    let d = Avl::determinize(&v, &mut rng).expect("a consistent state");
                    assert_eq!(d.view(Some(seat)), v, "{seat} sees the rebuilt state alike");
                    if Avl::from_setup(&s.to_setup()).is_ok() {
                        Avl::from_setup(&d.to_setup()).expect("the sampled chits are valid");
                    }
                    if s.to_move() == ToMove::Seat(seat) {
                        assert_eq!(d.legal_actions(), s.legal_actions());
                    }
                    differs += usize::from(d != *s);
                    checked += 1;
                }
            },
        );
    }
    assert!(checked > 1_000, "{checked}");
    assert!(
        differs > checked / 4,
        "hidden chits are sampled: {differs} of {checked}"
    );
}

/// The rebuilt states follow the rules of what is hidden: the Soviet chits an Axis seat
/// samples are STAVKA and chits of Soviet HQs still in the game, at most the number the
/// Soviet player chose (3.0); an Axis chit the Soviet seat samples is one the Axis
/// player holds.
#[test]
fn determinized_chits_are_plausible() {
    let mut rng = GameRng::from_u64(8);
    let mut checked = 0;
    playout(
        start(avl::DEMO_SCENARIO, Options::default()),
        5,
        5_000,
        |s, _, _| {
            let d = Avl::determinize(&s.view(Some(Seat(0))), &mut rng).expect("a state");
            let p = d.position();
            let soviet: Vec<Chit> = p.inactive[1]
                .iter()
                .chain(&p.played[1])
                .chain(
                    p.cup
                        .iter()
                        .filter(|&&c| chit_side(&d, c) == Some(Side::Soviet)),
                )
                .copied()
                .collect();
            let chosen = soviet.iter().filter(|&&c| c != Chit::Stavka).count();
            assert!(chosen <= usize::from(d.rules().scenario.soviet_chosen_chits));
            for c in soviet {
                if let Chit::Hq(q) = c {
                    assert!(
                        d.location(q) != Location::Removed || !p.relocations.is_empty(),
                        "a chit of a HQ that left the game"
                    );
                }
            }
            let truth = s.position();
            let axis_truth: Vec<Chit> = truth.inactive[0]
                .iter()
                .chain(
                    truth
                        .cup
                        .iter()
                        .filter(|&&c| chit_side(s, c) == Some(Side::Axis)),
                )
                .copied()
                .collect();
            let e = Avl::determinize(&s.view(Some(Seat(1))), &mut rng).expect("a state");
            let ep = e.position();
            let mut axis: Vec<Chit> = ep.inactive[0]
                .iter()
                .chain(
                    ep.cup
                        .iter()
                        .filter(|&&c| chit_side(&e, c) == Some(Side::Axis)),
                )
                .copied()
                .collect();
            let mut want = axis_truth.clone();
            axis.sort();
            want.sort();
            assert_eq!(
                axis, want,
                "the Axis chits are public, only their places are not"
            );
            checked += 1;
        },
    );
    assert!(checked > 100, "{checked}");
}

/// The same position with a fact hidden from `seat` changed: two of the other side's
/// chits swapped between its pool and the cup, or (seen by the Axis) one Soviet chosen
/// chit exchanged for one the Soviet player did not choose (3.0).
fn hidden_variant(s: &Avl, seat: Seat, rng: &mut GameRng) -> Option<Avl> {
    let other = Side::of_seat(seat)?.enemy();
    let mut setup = s.to_setup();
    let pos = setup.position.as_mut()?;
    let in_cup: Vec<usize> = (0..pos.cup.len())
        .filter(|&i| pos.cup[i] != Chit::Stavka && chit_side(s, pos.cup[i]) == Some(other))
        .collect();
    let in_pool: Vec<usize> = (0..pos.inactive[other.index()].len())
        .filter(|&i| pos.inactive[other.index()][i] != Chit::Stavka)
        .collect();
    let unchosen: Vec<Chit> = s
        .piece_ids()
        .filter(|&p| s.is_hq(p) && s.side(p) == Side::Soviet)
        .map(Chit::Hq)
        .filter(|c| {
            !pos.inactive[1].contains(c)
                && !pos.played[1].contains(c)
                && !pos.cup.contains(c)
                && !pos.noted.contains(c)
        })
        .filter(|&c| matches!(c, Chit::Hq(q) if s.location(q) != Location::Removed))
        .collect();
    if other == Side::Soviet && !unchosen.is_empty() && !in_pool.is_empty() && rng.below(2) == 0 {
        let i = in_pool[rng.below(in_pool.len() as u32) as usize];
        pos.inactive[1][i] = unchosen[rng.below(unchosen.len() as u32) as usize];
    } else if !in_cup.is_empty() && !in_pool.is_empty() {
        let i = in_pool[rng.below(in_pool.len() as u32) as usize];
        let j = in_cup[rng.below(in_cup.len() as u32) as usize];
        std::mem::swap(&mut pos.inactive[other.index()][i], &mut pos.cup[j]);
    } else {
        return None;
    }
    pos.inactive[other.index()].sort();
    pos.cup.sort();
    Avl::from_setup(&setup).ok()
}

/// Two states that differ only in chits hidden from the seat to move give every bot the
/// same view, the same legal actions and, with the same random stream, the same choice.
#[test]
fn bots_choose_from_the_view_alone() {
    let mut compared = 0;
    for seed in 0..3u64 {
        let mut rng = GameRng::from_u64(40 + seed);
        let mut bots = bots();
        playout(
            start(avl::DEMO_SCENARIO, Options::default()),
            20 + seed,
            5_000,
            |s, seat, step| {
                let legal = s.legal_actions();
                if !step.is_multiple_of(3) || legal.len() < 2 {
                    return;
                }
                let Some(other) = hidden_variant(s, seat, &mut rng) else {
                    return;
                };
                assert_ne!(&other, s, "the variant differs in a hidden fact");
                let (v1, v2) = (s.view(Some(seat)), other.view(Some(seat)));
                assert_eq!(v1, v2, "the view hides the change");
                assert_eq!(other.legal_actions(), legal);
                for bot in &mut bots {
                    let a = bot.choose(&v1, &legal, &mut arena::bot_rng(seed, step));
                    let b = bot.choose(&v2, &legal, &mut arena::bot_rng(seed, step));
                    assert_eq!(a, b, "{} chose differently", bot.name());
                }
                compared += 1;
            },
        );
    }
    assert!(compared > 30, "{compared}");
}

/// In every seat decision of a few seeded games every bot names a legal action; the
/// games go on with a mix of greedy and random moves to reach varied states.
fn every_state(game: &Avl, seed: u64, mcts_every: u64, max_decisions: u64) -> u64 {
    let mut s = game.clone();
    let mut rng = GameRng::from_u64(seed);
    let mut bots = bots();
    let mut checked = 0;
    let mut step = 0u64;
    while step < max_decisions {
        let seat = match s.to_move() {
            ToMove::Over(_) => break,
            ToMove::Chance => {
                let a = s.sample_chance(&mut rng);
                s.apply_unchecked(a);
                continue;
            }
            ToMove::Seat(seat) => seat,
        };
        let legal = s.legal_actions();
        let view = s.view(Some(seat));
        for (k, bot) in bots.iter_mut().enumerate() {
            if k == 2 && !step.is_multiple_of(mcts_every) {
                continue;
            }
            let i = bot.choose(&view, &legal, &mut arena::bot_rng(seed, step));
            assert!(
                i < legal.len(),
                "{} chose {i} of {}",
                bot.name(),
                legal.len()
            );
            s.check(&legal[i]).expect("the bot's choice is legal");
            checked += 1;
        }
        let i = if rng.below(2) == 0 {
            bots[1].choose(&view, &legal, &mut arena::bot_rng(seed, step))
        } else {
            rng.below(legal.len() as u32) as usize
        };
        s.apply(legal[i]).expect("legal");
        step += 1;
    }
    checked
}

#[test]
fn every_bot_chooses_a_legal_action() {
    let mut checked = 0;
    for (seed, options) in [(1u64, Options::default()), (2, all_options())] {
        checked += every_state(&start(avl::DEMO_SCENARIO, options), seed, 4, 100_000);
    }
    assert!(checked > 1_000, "{checked}");
}

/// The campaign (71×50 hexes, 141 pieces): the first decisions of a game.
#[test]
fn every_bot_chooses_a_legal_action_in_the_campaign() {
    let checked = every_state(&start(CAMPAIGN, Options::default()), 3, 25, 120);
    assert!(checked > 200, "{checked}");
}

/// A view read back from JSON has no rules: no state can be rebuilt until they are
/// given back; the bots then still name a legal action.
#[test]
fn a_view_from_json_needs_the_rules() {
    let s = start(avl::DEMO_SCENARIO, Options::default());
    let seat = s.to_move().seat().expect("the Soviet player chooses chits");
    let view = s.view(Some(seat));
    let json = serde_json::to_string(&view).expect("serialises");
    assert!(!json.contains("rules"), "the rules stay off the wire");
    let mut back: View = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(back, view);
    let mut rng = GameRng::from_u64(1);
    assert!(back.rules().is_none());
    assert!(Avl::determinize(&back, &mut rng).is_none());
    let legal = s.legal_actions();
    let i = Bot::<Avl>::choose(&mut Greedy::default(), &back, &legal, &mut rng);
    assert!(i < legal.len());
    back.set_rules(std::sync::Arc::clone(s.shared_rules()));
    let d = Avl::determinize(&back, &mut rng).expect("a state");
    assert_eq!(d.view(Some(seat)), view);
}

/// The topology's two-hex rings (the evaluation's reach of an attack next activation,
/// 8.1) hold exactly the hexes of the board at distance 2, on both maps.
#[test]
fn the_two_hex_rings_are_the_hexes_at_distance_two() {
    for text in [avl::DEMO_SCENARIO, CAMPAIGN] {
        let s = start(text, Options::default());
        let topo = Topology::new(s.rules());
        for (i, &hex) in topo.hexes.iter().enumerate() {
            let mut got: Vec<u32> = topo.ring2[i]
                .iter()
                .copied()
                .filter(|&j| j != ai::avl::topology::NONE)
                .collect();
            got.sort_unstable();
            let want: Vec<u32> = (0..topo.len() as u32)
                .filter(|&j| hex.distance(topo.hexes[j as usize]) == 2)
                .collect();
            assert_eq!(got, want, "hex {i}");
        }
    }
}

/// The evaluation's fast supply and railroad traces find exactly the hexes the rules
/// crate's do (10.1.2, 11.1.1), on both maps, for both sides, all game long.
#[test]
fn the_fast_supply_and_railroad_traces_agree_with_the_rules() {
    let mut checked = 0;
    for (text, seed, max) in [(avl::DEMO_SCENARIO, 9u64, 5_000), (CAMPAIGN, 10, 400)] {
        let s0 = start(text, Options::default());
        let topo = Topology::new(s0.rules());
        let final_state = playout(s0, seed, max, |s, _, step| {
            if !step.is_multiple_of(5) {
                return;
            }
            let snap = ai::avl::snapshot::Snapshot::of(s);
            for side in Side::BOTH {
                let want = avl::rules::supply::supplied(s, side);
                let mut got = Vec::new();
                let closed = s.turn().0 <= s.rules().scenario.pocket_until_turn;
                let n = topo.trace(&snap.grid, side, closed, &mut got);
                assert_eq!(got.as_slice(), want.as_slice(), "{side} at step {step}");
                assert_eq!(n, got.iter().filter(|&&b| b).count());
                assert_eq!(snap.traced[side.index()], got);
                let want = avl::rules::reinforcements::rail_net(s, side);
                topo.rail_net(&snap.grid, side, closed, &mut got);
                assert_eq!(
                    got.as_slice(),
                    want.as_slice(),
                    "{side} rail net at step {step}"
                );
                assert_eq!(snap.pocket_closed, closed);
            }
            checked += 1;
        });
        assert!(final_state.turn().0 > 1);
    }
    assert!(checked > 80, "{checked}");
}

/// The evaluation keeps the last position's supply traces and updates them where a move
/// opened or closed hexes to supply lines (`Topology::retrace`): the snapshot of every
/// position after each legal action, scored one after another as greedy scores them, has
/// the traces a fresh trace finds (10.1.2). Random play on both maps, with the positions
/// after the moves of pieces at the front among them.
#[test]
fn kept_supply_traces_are_the_traces_of_the_position() {
    let (mut checked, mut kept) = (0, 0);
    for (text, seed, max) in [(avl::DEMO_SCENARIO, 3u64, 600), (CAMPAIGN, 4, 120)] {
        let s0 = start(text, Options::default());
        let topo = Topology::new(s0.rules());
        let mut previous: Option<ai::avl::snapshot::Snapshot> = None;
        playout(s0, seed, max, |s, _, _| {
            for a in s.legal_actions().into_iter().take(40) {
                let mut after = s.clone();
                after.apply_unchecked(a);
                let snap = ai::avl::snapshot::Snapshot::of(&after);
                for side in Side::BOTH {
                    let mut fresh = Vec::new();
                    let n = topo.trace(&snap.grid, side, snap.pocket_closed, &mut fresh);
                    assert_eq!(snap.traced[side.index()], fresh, "{side} after {a:?}");
                    assert_eq!(snap.traced_count[side.index()], n);
                    if let Some(p) = &previous
                        && p.grid != snap.grid
                        && p.traced[side.index()] == fresh
                    {
                        kept += 1;
                    }
                }
                checked += 1;
                previous = Some(snap);
            }
        });
    }
    assert!(
        checked > 2_000 && kept > 500,
        "{checked} positions, {kept} traces kept"
    );
}

/// The evaluation looks up the threat to a hex (9.3–9.4) that it worked out before for
/// the same units around it (`eval::forget_threats` forgets them): every position of
/// random play, and the positions after its first legal actions, scored one after
/// another with the threats of all the positions before kept, has the terms it has
/// with nothing kept; so has each position with an occupied Victory City's control
/// flipped. The demo over many turns (the worth of a strength point falls
/// turn by turn), with every option on and off, and the campaign's first turns.
#[test]
fn threats_looked_up_are_the_threats_worked_out() {
    let mut positions = Vec::new();
    for (text, seed, max, options) in [
        (avl::DEMO_SCENARIO, 31u64, 6_000, Options::default()),
        (avl::DEMO_SCENARIO, 32, 6_000, all_options()),
        (avl::DEMO_SCENARIO, 33, 6_000, Options::default()),
        (avl::DEMO_SCENARIO, 34, 6_000, all_options()),
        (CAMPAIGN, 35, 600, Options::default()),
    ] {
        playout(start(text, options), seed, max, |s, _, step| {
            if !step.is_multiple_of(2) {
                return;
            }
            positions.push(s.clone());
            // The same units with an occupied Victory City's control given to the other
            // side: only the VPs at stake in the hex differ.
            if let Some(c) =
                (s.map().cities.iter()).position(|&(hex, _, _)| s.units_at(hex).next().is_some())
            {
                let mut pos = s.position().clone();
                pos.control[c] = pos.control[c].enemy();
                let rules = std::sync::Arc::clone(s.shared_rules());
                positions.extend(Avl::from_rules_unchecked(rules, pos));
            }
            for a in s.legal_actions().into_iter().take(3) {
                let mut after = s.clone();
                after.apply_unchecked(a);
                positions.push(after);
            }
        });
    }
    let w = Weights::DEFAULT;
    ai::avl::eval::forget_threats();
    let kept: Vec<_> = positions.iter().map(|s| terms(s, &w)).collect();
    let (mut threatened, mut turns) = (0, HashSet::new());
    for (s, kept) in positions.iter().zip(&kept) {
        ai::avl::eval::forget_threats();
        let fresh = terms(s, &w);
        assert_eq!(*kept, fresh, "turn {}, {:?}", s.turn().0, s.phase());
        threatened += usize::from(fresh.threats.iter().any(|&t| t < 0.0));
        turns.insert(s.turn().0);
    }
    assert!(
        positions.len() > 4_000 && threatened > 3_000 && turns.len() >= 6,
        "{} positions, {threatened} with threats, {} turns",
        positions.len(),
        turns.len()
    );
}

/// Rule 10.1.2: a supply trace updated from the trace of another grid
/// (`Topology::retrace`) reaches exactly the hexes a fresh trace of its own grid
/// reaches, and counts them: the grids of random play on the campaign, each updated from
/// the grid before it and from the grid ten positions back, then with the bits of forty
/// random hexes scrambled (pieces and ZOCs appearing and vanishing), and back.
#[test]
fn a_supply_trace_updated_is_the_trace_of_its_grid() {
    let s0 = start(CAMPAIGN, Options::default());
    let topo = Topology::new(s0.rules());
    let mut grids: Vec<(Vec<u8>, bool)> = Vec::new();
    playout(s0, 21, 400, |s, _, _| {
        let snap = ai::avl::snapshot::Snapshot::of(s);
        grids.push((snap.grid, snap.pocket_closed));
    });
    let mut rng = GameRng::from_u64(22);
    let (mut checked, mut changed) = (0, 0);
    let mut check = |from: &[u8], to: &[u8], closed: bool| {
        for side in Side::BOTH {
            let mut t = ai::avl::topology::Trace::default();
            topo.trace_into(from, side, closed, &mut t);
            let before = t.reached().to_vec();
            topo.retrace(from, to, side, closed, &mut t);
            let mut fresh = Vec::new();
            let n = topo.trace(to, side, closed, &mut fresh);
            assert_eq!(t.reached(), fresh.as_slice(), "{side}: the hexes reached");
            assert_eq!(t.count(), n, "{side}: the count");
            changed += usize::from(before != fresh);
            checked += 1;
        }
    };
    for i in 1..grids.len() {
        let (to, closed) = &grids[i];
        for back in [1, 10] {
            if let Some((from, was_closed)) = i.checked_sub(back).map(|j| &grids[j])
                && was_closed == closed
            {
                check(from, to, *closed);
            }
        }
        let mut scrambled = to.clone();
        for _ in 0..40 {
            let at = rng.below(scrambled.len() as u32) as usize;
            scrambled[at] = rng.below(16) as u8;
        }
        check(to, &scrambled, *closed);
        check(&scrambled, to, *closed);
    }
    assert!(
        checked > 1_000 && changed > 300,
        "{checked} updates checked, {changed} changed the trace"
    );
}

/// Rule 11.1.1 and 13.0's note: the evaluation counts a Victory City as lost to the
/// enemy's reinforcements exactly when it is empty, on the enemy's railroad net as the
/// rules trace it, and the enemy still has pieces to place this turn; random play on the
/// campaign, where the Pocket opens on turn 5, meets such cities.
#[test]
fn cities_open_to_enemy_reinforcements_by_railroad_are_at_risk() {
    use avl::{Location, Phase};
    let mut threatened = 0;
    let mut checked = 0;
    for seed in [21u64, 22] {
        playout(
            start(CAMPAIGN, Options::default()),
            seed,
            4_000,
            |s, _, step| {
                if !step.is_multiple_of(7) {
                    return;
                }
                let snap = ai::avl::snapshot::Snapshot::of(s);
                let got = ai::avl::eval::rail_threatened(s, &snap);
                let want: Vec<usize> = s
                    .map()
                    .cities
                    .iter()
                    .enumerate()
                    .filter(|&(c, &(hex, _, _))| {
                        let holder = s.position().control[c];
                        let enemy = holder.enemy();
                        let due = !matches!(
                            (s.phase(), enemy),
                            (Phase::Over, _) | (Phase::Reinforcement(Side::Soviet), Side::Axis)
                        ) && s.piece_ids().any(|p| {
                            s.side(p) == enemy
                                && matches!(s.location(p), Location::Arriving(t) if t <= s.turn().0)
                        });
                        s.map().rail_hex(hex)
                            && s.pieces_at(hex).next().is_none()
                            && due
                            && avl::rules::reinforcements::rail_net(s, enemy)
                                [s.map().board_index(hex)]
                    })
                    .map(|(c, _)| c)
                    .collect();
                assert_eq!(got, want, "step {step}");
                threatened += got.len();
                checked += 1;
            },
        );
    }
    assert!(checked > 300, "{checked} states");
    // Turn 5, the Pocket open, every Axis combat unit gone and a Soviet division due:
    // each Axis Victory City on a railroad the Soviet net reaches is at risk.
    let s0 = start(CAMPAIGN, Options::default());
    let due = s0
        .piece_ids()
        .find(|&p| s0.side(p) == Side::Soviet && !s0.is_hq(p) && s0.hex_of(p).is_none())
        .expect("a Soviet reinforcement");
    let s5 = with(&s0, |pos| {
        pos.turn = avl::unit::Turn(5);
        for (i, piece) in pos.pieces.iter_mut().enumerate() {
            let p = avl::PieceId(i as u16);
            if s0.side(p) == Side::Axis && !s0.is_hq(p) {
                piece.location = Location::Eliminated;
            }
        }
        pos.pieces[usize::from(due.0)].location = Location::Arriving(5);
    });
    let snap = ai::avl::snapshot::Snapshot::of(&s5);
    let at_risk = ai::avl::eval::rail_threatened(&s5, &snap);
    threatened += at_risk.len();
    assert!(threatened > 0, "no Victory City at risk");
    let net = avl::rules::reinforcements::rail_net(&s5, Side::Soviet);
    for (c, &(hex, _, _)) in s5.map().cities.iter().enumerate() {
        let open = s5.map().rail_hex(hex)
            && s5.pieces_at(hex).next().is_none()
            && net[s5.map().board_index(hex)];
        assert_eq!(at_risk.contains(&c), open, "city {c}");
    }
    let weights = ai::avl::eval::Weights::DEFAULT;
    // Nothing Soviet due before turn 6: no city is at risk by railroad.
    let safe = with(&s5, |pos| {
        for piece in &mut pos.pieces {
            if matches!(piece.location, Location::Arriving(t) if t <= 5) {
                piece.location = Location::Arriving(6);
            }
        }
    });
    assert!(
        ai::avl::eval::rail_threatened(&safe, &ai::avl::snapshot::Snapshot::of(&safe)).is_empty()
    );
    let cities = |s: &Avl| ai::avl::eval::terms(s, &weights).cities[0];
    assert!(
        cities(&s5) < cities(&safe) - 4.0,
        "{} vs {}",
        cities(&s5),
        cities(&safe)
    );
    // A turn earlier, the Pocket still closed (13.0) and everything Soviet due on turn
    // 5: nothing is at risk this turn, but next turn the same cities are, through the
    // Pocket then open, and they count for less.
    let s4 = with(&s5, |pos| {
        pos.turn = avl::unit::Turn(4);
        for piece in &mut pos.pieces {
            if matches!(piece.location, Location::Arriving(t) if t <= 5) {
                piece.location = Location::Arriving(5);
            }
        }
    });
    let snap4 = ai::avl::snapshot::Snapshot::of(&s4);
    assert!(ai::avl::eval::rail_threatened(&s4, &snap4).is_empty());
    assert_eq!(ai::avl::eval::rail_threatened_next(&s4, &snap4), at_risk);
    let safe4 = with(&s4, |pos| {
        for piece in &mut pos.pieces {
            if piece.location == Location::Arriving(5) {
                piece.location = Location::Arriving(6);
            }
        }
    });
    let safe4_snap = ai::avl::snapshot::Snapshot::of(&safe4);
    assert!(ai::avl::eval::rail_threatened_next(&safe4, &safe4_snap).is_empty());
    assert!(
        cities(&s4) < cities(&safe4) - 2.0 && cities(&s4) > cities(&s5),
        "{} vs {} (turn 5: {})",
        cities(&s4),
        cities(&safe4),
        cities(&s5)
    );
}

fn axis_share(s: &Avl) -> f64 {
    s.evaluate()[0]
}

fn with(s: &Avl, change: impl FnOnce(&mut avl::state::Position)) -> Avl {
    let mut setup = s.to_setup();
    change(setup.position.as_mut().expect("a position"));
    Avl::from_setup(&setup).expect("a valid position")
}

/// The evaluation moves the right way: a Victory City lost (14.0.1), a German panzer
/// division eliminated, a unit isolated (10.2.3) or flipped (2.2.3) all lower the Axis
/// share; the shares sum to one; a finished game scores its outcome.
#[test]
fn the_evaluation_reads_the_position() {
    let s = start(CAMPAIGN, Options::default());
    let base = axis_share(&s);
    assert!((s.evaluate().iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let weights = ai::avl::eval::Weights::DEFAULT;
    let vp = ai::avl::eval::terms(&s, &weights).vp;
    assert!(
        (vp[0] - 25.0).abs() < 1e-9 && vp[1].abs() < 1e-9,
        "the Axis starts 25 VPs ahead: {vp:?}"
    );
    let city = with(&s, |p| p.control[0] = Side::Soviet);
    assert!(axis_share(&city) < base - 0.02);
    let panzer = s
        .piece_ids()
        .find(|&p| {
            s.nationality(p) == avl::Nationality::German
                && s.mechanized(p)
                && matches!(s.location(p), Location::Map(_))
        })
        .expect("a panzer division on the map");
    let gone = with(&s, |p| {
        p.pieces[usize::from(panzer.0)].location = Location::Eliminated;
    });
    assert!(axis_share(&gone) < base - 0.02);
    let flipped = with(&s, |p| p.pieces[usize::from(panzer.0)].reduced = true);
    assert!(axis_share(&flipped) < base);
    assert!(axis_share(&flipped) > axis_share(&gone));
    let isolated = with(&s, |p| {
        p.pieces[usize::from(panzer.0)].supply = Supply::Isolated;
    });
    assert!(axis_share(&isolated) < base);
    let t = terms(&isolated, &Weights::DEFAULT);
    assert!(t.material[0] < terms(&s, &Weights::DEFAULT).material[0]);
    let over = with(&s, |p| {
        p.phase = avl::Phase::Over;
        p.result = Some(avl::state::GameResult {
            winner: Some(Side::Soviet),
            vp: [0, 40],
            reason: "sudden death".into(),
        });
    });
    assert_eq!(over.evaluate(), vec![0.0, 1.0]);
}

/// Rule 10.1.2: a unit cut off from its supply sources is worth less, and on the last
/// turn it gives the enemy its elimination VPs (14.0.1).
#[test]
fn a_unit_cut_off_from_supply_is_worth_less() {
    let s = start(avl::DEMO_SCENARIO, Options::default());
    let w = Weights::DEFAULT;
    // Soviet units on every Axis supply source cut every Axis unit off (10.1.2).
    let sources = s.map().sources(Side::Axis).to_vec();
    let soviet: Vec<_> = s
        .piece_ids()
        .filter(|&p| !s.is_hq(p) && s.side(p) == Side::Soviet)
        .collect();
    assert!(soviet.len() >= sources.len());
    let cut = with(&s, |p| {
        for (u, &h) in soviet.iter().zip(&sources) {
            p.pieces[usize::from(u.0)].location = Location::Map(h);
        }
    });
    let before = terms(&s, &w);
    let after = terms(&cut, &w);
    assert!(after.area[0] < before.area[0] / 4.0, "{after:?}");
    assert!(after.material[0] < before.material[0] * 0.9, "{after:?}");
    let last = with(&cut, |p| p.turn = avl::unit::Turn(6));
    let t = terms(&last, &w);
    assert!(
        t.end[1] > 3.0,
        "the Soviet player counts the cut-off Germans: {t:?}"
    );
}

/// Rules 8.1, 9.3: enemy units two hexes away can close in and attack at their next
/// activation, so a unit with enemy units massed two hexes off is under threat even
/// with none next to it; weighing that threat at nothing leaves the unit unthreatened.
#[test]
fn enemy_units_two_hexes_away_threaten_a_unit() {
    let s = start(avl::DEMO_SCENARIO, Options::default());
    let target = s
        .piece_ids()
        .find(|&p| !s.is_hq(p) && s.side(p) == Side::Axis && s.hex_of(p).is_some())
        .expect("an Axis unit on the map");
    let at = s.hex_of(target).expect("on the map");
    let soviet: Vec<_> = s
        .piece_ids()
        .filter(|&p| !s.is_hq(p) && s.side(p) == Side::Soviet)
        .collect();
    let ring: Vec<_> = at
        .ring(2)
        .into_iter()
        .filter(|&h| s.map().contains(h) && s.map().is_land(h) && s.pieces_at(h).next().is_none())
        .collect();
    assert!(ring.len() >= 3 && soviet.len() >= 3);
    let massed = with(&s, |p| {
        for (i, piece) in p.pieces.iter_mut().enumerate() {
            let id = avl::PieceId(i as u16);
            if id != target && s.side(id) == Side::Axis && !s.is_hq(id) {
                piece.location = Location::Eliminated;
            }
        }
        for (u, &h) in soviet.iter().zip(&ring) {
            p.pieces[usize::from(u.0)].location = Location::Map(h);
        }
        for &u in soviet.iter().skip(ring.len()) {
            p.pieces[usize::from(u.0)].location = Location::Eliminated;
        }
    });
    let none_adjacent = massed.piece_ids().all(|p| {
        massed.side(p) != Side::Soviet || massed.hex_of(p).is_none_or(|h| h.distance(at) != 1)
    });
    assert!(none_adjacent);
    let blind = Weights {
        threat_near: 0.0,
        ..Weights::DEFAULT
    };
    assert!(terms(&massed, &blind).threats[0].abs() < 1e-12);
    let seen = terms(&massed, &Weights::DEFAULT).threats[0];
    assert!(
        seen < -0.1,
        "the massed Soviet units threaten the unit: {seen}"
    );
}

/// The turn marker never goes back and grows by at most a few steps per decision.
#[test]
fn the_turn_marker_counts_activations() {
    let mut last = 0;
    let mut seen = std::collections::BTreeSet::new();
    playout(
        start(avl::DEMO_SCENARIO, Options::default()),
        11,
        5_000,
        |s, _, _| {
            let m = ai::avl::turn_marker(s);
            assert!(m >= last, "{m} after {last}");
            last = m;
            seen.insert(m);
        },
    );
    assert!(seen.len() > 30, "{} markers", seen.len());
}

/// Issue 29: a view tells the activation it is in, as the state's turn marker does, for
/// either seat and a spectator, hidden chits and all.
#[test]
fn views_tell_the_activation() {
    let mut seen = std::collections::BTreeSet::new();
    playout(
        start(avl::DEMO_SCENARIO, all_options()),
        12,
        5_000,
        |s, _, _| {
            let marker = ai::avl::turn_marker(s);
            seen.insert(marker);
            for seat in [Some(Seat(0)), Some(Seat(1)), None] {
                assert_eq!(<Avl as AiGame>::view_turn(&s.view(seat)), Some(marker));
            }
        },
    );
    assert!(seen.len() > 30, "{} markers", seen.len());
}

/// Issue 29: within an activation MCTS searches on from the tree of its previous
/// decision. MCTS (24 iterations a decision) plays the Axis against greedy on the test
/// scenario: some of its searches start from a kept tree, never the first of an
/// activation, and none with reuse off.
#[test]
fn mcts_keeps_its_tree_within_an_activation() {
    let play = |reuse: bool| {
        // The keeping alone, with one-ply root priors: whole-move priors
        // (`root_whole_moves`) lead the game elsewhere, and more of its steps are then
        // carried on without a search (17 of 55 searches kept a tree, seed 7).
        let mut mcts = Mcts::new(MctsConfig {
            root_whole_moves: 0,
            ..<Avl as AiGame>::search_settings(MctsConfig {
                budget: Budget::Iterations(24),
                trees: 1,
                threads: 1,
                reuse,
                ..MctsConfig::default()
            })
        });
        let s = start(avl::DEMO_SCENARIO, Options::default());
        common::mcts_against_greedy(s, &mut mcts, 7, 400, ai::avl::turn_marker).0
    };
    common::assert_kept_within(&play(true), 10, "activation");
    let without = play(false);
    assert!(without.iter().all(|d| d.1 == 0), "{without:?}");
}

/// Greedy beats random from both sides on the test scenario (a few seeded games;
/// `hexwar simulate --game avl` measures it properly).
#[test]
fn greedy_beats_random() {
    let games = 6;
    let mut greedy_wins = 0;
    for g in 0..games {
        let greedy_seat = (g % 2) as usize;
        let mut bots: Vec<Box<dyn Bot<Avl>>> = vec![Box::new(RandomBot), Box::new(RandomBot)];
        bots[greedy_seat] = Box::new(Greedy::default());
        let played = play_game(
            start(avl::DEMO_SCENARIO, Options::default()),
            &mut bots,
            500 + g,
            100_000,
            ai::avl::turn_marker,
        );
        let w = arena::winners(&played);
        if w.len() == 1 && w[0].index() == greedy_seat {
            greedy_wins += 1;
        }
    }
    assert!(greedy_wins >= 5, "greedy won {greedy_wins} of {games}");
}

/// Games between bots end by the rules (14.0.2), never by going round in circles: the
/// bots never withdraw an attack (H-108) while anything else is legal, and never
/// declare one they expect to lose on.
#[test]
fn games_between_bots_end() {
    for g in 0..2u64 {
        let mut bots: Vec<Box<dyn Bot<Avl>>> =
            vec![Box::new(Greedy::default()), Box::new(Greedy::default())];
        if g == 1 {
            bots[1] = Box::new(Mcts::new(MctsConfig {
                budget: Budget::Iterations(8),
                trees: 1,
                threads: 1,
                ..MctsConfig::default()
            }));
        }
        let played = play_game(
            start(avl::DEMO_SCENARIO, Options::default()),
            &mut bots,
            900 + g,
            5_000,
            ai::avl::turn_marker,
        );
        let outcome = played.outcome.expect("the game ends");
        assert!(
            outcome.reason == "sudden death" || outcome.reason.starts_with("end of turn"),
            "{}",
            outcome.reason
        );
    }
}

/// A campaign position the rules crate reaches but cannot go on from: three Soviet
/// units advanced into one hex after combat (5.0.4), the last a mechanized unit that
/// crossed an unbridged major river and must stop there (9.6.5), so neither advancing
/// further nor ending the advance is legal. (`hexwar simulate --game avl --scenario
/// data/avl/campaign.toml --bots greedy,random --seed 1`, game 6, turn 4.) The arena
/// stops such a game instead of failing, and says so.
#[test]
fn a_stuck_position_stops_the_game() {
    let s0 = start(CAMPAIGN_V1, Options::default());
    let position: avl::state::Position =
        serde_json::from_str(include_str!("data/avl-campaign-stuck-advance.json"))
            .expect("the position reads");
    let s = Avl::from_rules(std::sync::Arc::clone(s0.shared_rules()), position)
        .expect("the rules crate accepts the position");
    assert!(s.to_move().seat().is_some());
    assert!(
        s.legal_actions().is_empty(),
        "no legal action: the rules crate's bug"
    );
    let mut bots: Vec<Box<dyn Bot<Avl>>> =
        vec![Box::new(Greedy::default()), Box::new(Greedy::default())];
    let played = play_game(s, &mut bots, 1, 100, ai::avl::turn_marker);
    assert!(played.stuck && played.outcome.is_none() && played.decisions == 0);
}

/// A campaign position the rules crate reaches but its own validation refuses: three
/// Soviet units left in one hex after an advance (5.0.1: the last, mechanized, crossed
/// an unbridged major river and had to stop, 9.6.5; `hexwar simulate --game avl
/// --scenario data/avl/campaign.toml --bots greedy,random --seed 1`, game 2, turn 1).
/// The bots still rebuild it from a view and play on: a greedy bot that could not would
/// fall back on the first legal action, an attack it could only withdraw, forever.
#[test]
fn an_overstacked_position_is_still_played() {
    let s0 = start(CAMPAIGN_V1, Options::default());
    let position: avl::state::Position =
        serde_json::from_str(include_str!("data/avl-campaign-overstacked.json"))
            .expect("the position reads");
    let rules = std::sync::Arc::clone(s0.shared_rules());
    assert!(Avl::from_rules(std::sync::Arc::clone(&rules), position.clone()).is_err());
    let s = Avl::from_rules_unchecked(rules, position).expect("the shape is right");
    let seat = s.to_move().seat().expect("a seat decides");
    let view = s.view(Some(seat));
    let mut rng = GameRng::from_u64(3);
    let d = Avl::determinize(&view, &mut rng).expect("a state");
    assert_eq!(d.view(Some(seat)), view);
    let legal = s.legal_actions();
    let i = Bot::<Avl>::choose(&mut Greedy::default(), &view, &legal, &mut rng);
    assert!(!s.is_futile(&legal[i]), "{:?}", legal[i]);
    // The game on is about the rules going on from here, not the bot's plans: greedy
    // scores single steps (whole moves cost ten times more on the campaign).
    let one_step = Greedy {
        whole_move_limit: 0,
        ..Greedy::default()
    };
    let mut bots: Vec<Box<dyn Bot<Avl>>> = vec![Box::new(RandomBot), Box::new(one_step)];
    let played = play_game(s, &mut bots, 2, 3_000, ai::avl::turn_marker);
    assert!(played.outcome.is_some() || played.stuck || played.state.turn().0 > 2);
}

/// The first `n` Movement Segment states of a random test-scenario game (seed `seed`).
fn movement_states(seed: u64, n: usize) -> Vec<Avl> {
    let mut states = Vec::new();
    playout(
        start(avl::DEMO_SCENARIO, Options::default()),
        seed,
        3_000,
        |s, _, _| {
            if s.phase() == avl::Phase::Movement && states.len() < n {
                states.push(s.clone());
            }
        },
    );
    states
}

/// Rule 8.1 (one hex per action): greedy scores a step by the best position the piece's
/// whole move reaches. Checked against a separate search that follows every first
/// step on its own: no step scores below the position right after it or above the best
/// its own continuations reach, and the best step of each piece scores exactly the best
/// position the piece can reach.
#[test]
fn a_step_is_scored_by_the_best_place_the_whole_move_reaches() {
    let mut checked = 0;
    for seed in 0..8u64 {
        for s in movement_states(seed, 3) {
            let ToMove::Seat(seat) = s.to_move() else {
                continue;
            };
            let value = |x: &Avl| x.reward()[seat.index()];
            let legal = s.legal_actions();
            let mut rng = GameRng::from_u64(seed);
            let one = ai::greedy::scores(&s, &legal, seat, 0, &mut rng);
            let pieces = ai::greedy::moving_pieces::<Avl>(&legal);
            let mut whole = one.clone();
            ai::greedy::whole_moves(&s, &legal, seat, usize::MAX, None, &pieces, &mut whole);
            for &p in &pieces {
                let mut best_whole = f64::NEG_INFINITY;
                let mut best_alone = f64::NEG_INFINITY;
                for (i, a) in legal.iter().enumerate() {
                    if Avl::moving_piece(a) != Some(p) {
                        continue;
                    }
                    // Every position reachable through this first step alone.
                    let mut after = s.clone();
                    after.apply(*a).expect("legal");
                    let mut alone = value(&after);
                    let mut seen = std::collections::HashSet::new();
                    let mut stack = vec![after];
                    while let Some(x) = stack.pop() {
                        if x.to_move() != ToMove::Seat(seat) {
                            continue;
                        }
                        for m in x.legal_actions() {
                            if Avl::moving_piece(&m) != Some(p) {
                                continue;
                            }
                            let mut y = x.clone();
                            y.apply(m).expect("legal");
                            if seen.insert(format!("{:?}", y.position())) {
                                alone = alone.max(value(&y));
                                stack.push(y);
                            }
                        }
                    }
                    assert!(
                        whole[i] >= one[i] - 1e-12,
                        "{a:?} scores below its own step"
                    );
                    assert!(
                        whole[i] <= alone + 1e-12,
                        "{a:?} scores above what it reaches"
                    );
                    best_whole = best_whole.max(whole[i]);
                    best_alone = best_alone.max(alone);
                    checked += 1;
                }
                assert!(
                    (best_whole - best_alone).abs() < 1e-12,
                    "piece {p}: best step {best_whole}, best reachable {best_alone}"
                );
            }
        }
    }
    assert!(checked > 100, "only {checked} steps checked");
}

/// `AiGame::value_key`: positions one piece's moves reach from one state that share a
/// value key have the same evaluation, bit for bit, so `greedy::whole_moves` may score
/// each key once. Every position followed from Movement Segment states of random play
/// (the test scenario, and a STAVKA activation on the campaign), each piece's moves up to
/// greedy's 400 positions.
#[test]
fn positions_with_one_value_key_evaluate_alike() {
    let (mut followed, mut shared, mut taken) = (0usize, 0usize, 0usize);
    let mut check = |s: &Avl, seat: Seat, limit: usize, pieces: usize| {
        let legal = s.legal_actions();
        let w = Weights::DEFAULT;
        let mut by_key: HashMap<u64, (f64, u64)> = HashMap::new();
        for piece in ai::greedy::moving_pieces::<Avl>(&legal)
            .into_iter()
            .take(pieces)
        {
            let mut seen = HashSet::new();
            let mut queue: VecDeque<Avl> = legal
                .iter()
                .filter(|a| Avl::moving_piece(a) == Some(piece))
                .map(|&a| {
                    let mut after = s.clone();
                    after.apply(a).expect("legal");
                    after
                })
                .collect();
            while let Some(x) = queue.pop_front() {
                if !seen.insert(x.fingerprint()) || seen.len() > limit {
                    continue;
                }
                followed += 1;
                let v = ai::avl::eval::evaluate(&x, &w)[seat.index()];
                let key = x.value_key().expect("A Victory Lost keys its positions");
                assert_eq!(x.fingerprint_and_key(), (x.fingerprint(), Some(key)));
                if x.position().control != s.position().control {
                    taken += 1;
                }
                match by_key.get(&key) {
                    Some(&(same, fp)) => {
                        assert_eq!(
                            v.to_bits(),
                            same.to_bits(),
                            "{key:x} evaluates {v} and {same}"
                        );
                        shared += usize::from(fp != x.fingerprint());
                    }
                    None => {
                        by_key.insert(key, (v, x.fingerprint()));
                    }
                }
                if x.to_move() == ToMove::Seat(seat) {
                    for m in x.moves_of(piece) {
                        let mut y = x.clone();
                        y.apply(m).expect("legal");
                        queue.push_back(y);
                    }
                }
            }
        }
    };
    for seed in 0..6u64 {
        let mut states = Vec::new();
        playout(
            start(avl::DEMO_SCENARIO, Options::default()),
            seed,
            3_000,
            |s, seat, _| {
                if s.phase() == avl::Phase::Movement && states.len() < 40 {
                    states.push((s.clone(), seat));
                }
            },
        );
        for (s, seat) in states {
            check(&s, seat, 400, usize::MAX);
        }
    }
    let mut stavka = None;
    playout(
        start(CAMPAIGN, Options::default()),
        5,
        2_000,
        |s, seat, _| {
            let units = s
                .position()
                .activation
                .as_ref()
                .map_or(0, |a| a.units.len());
            if stavka.is_none() && s.phase() == avl::Phase::Movement && units > 20 {
                stavka = Some((s.clone(), seat));
            }
        },
    );
    let (s, seat) = stavka.expect("random play reaches a large activation");
    check(&s, seat, 400, 4);
    assert!(
        followed > 2_000 && shared > 500 && taken > 0,
        "{followed} positions followed, {shared} sharing a key with another, {taken} taking a city"
    );
}

/// Greedy's shortcuts in following whole moves (`greedy::plan_moves`, and
/// `plan_moves_kept` with the plan kept from decision to decision within an activation,
/// as the bot keeps it) never end the Movement Segment (4.1.2) while some activated
/// piece could still move somewhere worth more: before a pass is chosen every piece's
/// whole move is followed. Checked at every Movement Segment decision of games greedy
/// plays against itself, planning afresh and with the kept plan.
#[test]
fn greedy_ends_a_movement_segment_only_when_no_move_is_worth_more() {
    for kept in [false, true] {
        let mut passes = 0;
        let mut s = start(avl::DEMO_SCENARIO, Options::default());
        let mut rng = GameRng::from_u64(0);
        let mut plan = (0, ai::greedy::Plan::default());
        for _ in 0..1_000 {
            if !ai::settle(&mut s, &mut rng, 1_000) {
                break;
            }
            let Some(seat) = s.to_move().seat() else {
                break;
            };
            let legal = s.legal_actions();
            let one = ai::greedy::scores(&s, &legal, seat, 0, &mut rng);
            let mut planned = one.clone();
            let turn = ai::avl::turn_marker(&s);
            if !kept || plan.0 != turn {
                plan = (turn, ai::greedy::Plan::default());
            }
            ai::greedy::plan_moves_kept(&s, &legal, seat, 400, None, &mut planned, &mut plan.1);
            let b = ai::greedy::best::<Avl>(&legal, &planned);
            if s.phase() == avl::Phase::Movement && Avl::is_pass(&legal[b]) {
                let pieces = ai::greedy::moving_pieces::<Avl>(&legal);
                let mut full = one.clone();
                ai::greedy::whole_moves(&s, &legal, seat, 400, None, &pieces, &mut full);
                for (a, v) in legal.iter().zip(&full) {
                    assert!(
                        *v <= planned[b] + 1e-12,
                        "kept {kept}: ended the segment ({}) while {a:?} reaches {v}",
                        planned[b]
                    );
                }
                passes += 1;
            }
            s.apply(legal[b]).expect("legal");
        }
        assert!(passes > 10, "kept {kept}: only {passes} passes checked");
    }
}

/// Issue 29: greedy keeps its plan of whole moves (`greedy::Plan`) in the seat's
/// `TurnMemory`, so that a caller that builds a bot for each decision (the server) plans
/// from the activation's earlier decisions as one bot kept over the game does: both play
/// the same game on the test scenario, and the memory holds a plan after a Movement
/// Segment decision. Without a memory nothing is kept.
#[test]
fn greedy_keeps_its_plan_in_the_seat_s_memory() {
    let play = |per_decision: bool, kept: bool| {
        let memories = [ai::TurnMemory::new(), ai::TurnMemory::new()];
        let greedy = |seat: usize| Greedy {
            memory: kept.then(|| memories[seat].clone()),
            ..Greedy::default()
        };
        let mut kept_bots = [greedy(0), greedy(1)];
        let mut s = start(avl::DEMO_SCENARIO, Options::default());
        let mut rng = GameRng::from_u64(5);
        let mut actions = Vec::new();
        let mut plans = 0;
        while actions.len() < 300 && ai::settle(&mut s, &mut rng, 1_000) {
            let Some(seat) = s.to_move().seat() else {
                break;
            };
            let legal = s.legal_actions();
            let view = s.view(Some(seat));
            let mut fresh_bot = greedy(seat.index());
            let bot = if per_decision {
                &mut fresh_bot
            } else {
                &mut kept_bots[seat.index()]
            };
            let i = Bot::<Avl>::choose(bot, &view, &legal, &mut rng);
            let turn = <Avl as AiGame>::view_turn(&view).expect("a view tells its activation");
            if s.phase() == avl::Phase::Movement
                && ai::greedy::moving_pieces::<Avl>(&legal).len() > 1
                && memories[seat.index()].holds_tree(turn)
            {
                plans += 1;
            }
            actions.push(legal[i]);
            s.apply(legal[i]).expect("legal");
        }
        (actions, plans)
    };
    let (one_bot, plans) = play(false, true);
    assert!(plans > 10, "{plans} decisions kept a plan");
    let (bot_per_decision, _) = play(true, true);
    assert_eq!(one_bot, bot_per_decision);
    let (fresh, plans) = play(true, false);
    assert_eq!(plans, 0, "nothing kept without a memory");
    // The kept plan is read: in this game it leads to other moves than planning afresh
    // (so a bot that lost its plan between decisions would not play `one_bot`'s game).
    assert_ne!(one_bot, fresh);
}

/// The search's root priors follow whole moves (`MctsConfig::root_whole_moves`, rule
/// 8.1: a move is one hex per action): a search of one iteration tries, and so plays,
/// the action greedy's whole-move planning (`greedy::plan_moves`) scores best. With
/// one-ply priors it plays a worse first step at some of the same decisions (a unit's
/// first hex is not where its move ends), so the check can fail.
#[test]
fn the_search_root_weighs_whole_moves() {
    let one_iteration = |root_whole_moves| {
        Mcts::new(MctsConfig {
            budget: Budget::Iterations(1),
            trees: 1,
            threads: 1,
            reuse: false,
            root_whole_moves,
            ..MctsConfig::default()
        })
    };
    assert_eq!(
        <Avl as AiGame>::search_settings(MctsConfig::default()).root_whole_moves,
        ai::avl::pace::WHOLE_MOVE_LIMIT
    );
    let (mut checked, mut one_ply_worse) = (0, 0);
    for seed in 0..4u64 {
        for s in movement_states(seed, 6) {
            let ToMove::Seat(seat) = s.to_move() else {
                continue;
            };
            let legal = s.legal_actions();
            let mut rng = GameRng::from_u64(seed);
            let mut planned = ai::greedy::scores(&s, &legal, seat, 0, &mut rng);
            ai::greedy::plan_moves(&s, &legal, seat, 400, None, &mut planned);
            let top = planned.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let view = s.view(Some(seat));
            let i = one_iteration(400).choose_unpaced::<Avl>(&view, &legal, &mut rng);
            assert!(
                planned[i] >= top - 1e-12,
                "seed {seed}: the search tried {:?} ({}) first, whole moves reach {top}",
                legal[i],
                planned[i]
            );
            let j = one_iteration(0).choose_unpaced::<Avl>(&view, &legal, &mut rng);
            if planned[j] < top - 1e-12 {
                one_ply_worse += 1;
            }
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} decisions checked");
    assert!(
        one_ply_worse > 0,
        "one-ply priors were as good at all {checked}"
    );
}

/// The `PACE_*` setting `name` read as a number list, or `default`.
fn pace_setting(name: &str, default: &[u64]) -> Vec<u64> {
    std::env::var(name).ok().map_or_else(
        || default.to_vec(),
        |v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect(),
    )
}

/// Median, 90th percentile and maximum of `v` (ms), with the count.
fn pace_summary(v: &mut [f64]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    format!(
        "{} decisions: median {:.0} ms, p90 {:.0} ms, max {:.0} ms, mean {:.0} ms",
        v.len(),
        at(0.5),
        at(0.9),
        v[v.len() - 1],
        v.iter().sum::<f64>() / v.len() as f64
    )
}

/// The STAVKA activation (7.2.2) under way, if any: its turn marker.
fn stavka_activation(s: &Avl) -> Option<u64> {
    let pos = s.position();
    let act = pos.activation.as_ref()?;
    (act.chit == Some(Chit::Stavka)
        && matches!(pos.phase, avl::Phase::Movement | avl::Phase::Combat))
    .then(|| ai::avl::turn_marker(s))
}

/// Pace of the levels on the campaign (issue 27: a `normal` decision ≤ 0.3 s, a whole
/// STAVKA activation ≤ 20 s on one core). Greedy plays campaign games (seeds
/// `PACE_SEEDS`, to the end of turn `PACE_TURNS`); every `PACE_EVERY`-th seat decision
/// with a choice, each level of `PACE_LEVELS` (1 normal, 2 hard) is asked for its choice
/// on one thread and timed (the game goes on with greedy's choice, so every build and
/// level sees the same positions); at the first `PACE_STAVKA` STAVKA activations of
/// each game, each level plays the whole activation for the Soviet side on a copy
/// (greedy answers the Axis decisions inside it), and its thinking time is summed.
/// Prints the figures; asserts nothing about time. Run in release:
///
/// `cargo test --release -p ai --test avl_bots -- --ignored campaign_pace --nocapture`
#[test]
#[ignore = "a timing tool: run in release, prints figures"]
fn campaign_pace() {
    use std::time::Instant;
    let seeds = pace_setting("PACE_SEEDS", &[1, 2]);
    let turns = pace_setting("PACE_TURNS", &[4])[0];
    let every = pace_setting("PACE_EVERY", &[12])[0].max(1);
    let stavkas = pace_setting("PACE_STAVKA", &[1])[0];
    let levels: Vec<ai::Level> = pace_setting("PACE_LEVELS", &[1])
        .into_iter()
        .map(|l| {
            if l >= 2 {
                ai::Level::Hard
            } else {
                ai::Level::Normal
            }
        })
        .collect();
    let mut single: Vec<Vec<f64>> = vec![Vec::new(); levels.len()];
    let mut in_stavka: Vec<Vec<f64>> = vec![Vec::new(); levels.len()];
    let mut whole: Vec<Vec<(f64, u64, u64)>> = vec![Vec::new(); levels.len()];
    // Time on this thread's core (Linux: /proc/thread-self/schedstat, in ns), so that
    // the figures do not count time the machine gave to other processes.
    let cpu_ms = || {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(f64::NAN, |ns| ns / 1e6)
    };
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); levels.len()];
    let mut whole_cpu: Vec<Vec<f64>> = vec![Vec::new(); levels.len()];
    // Index, wall-clock ms, on-core ms.
    let think =
        |level: ai::Level, s: &Avl, seat: Seat, legal: &[avl::Action], rng: &mut GameRng| {
            // As the server asks: a forced decision is answered at once.
            if legal.len() <= 1 {
                return (0, 0.0, 0.0);
            }
            let mut bot = level.bot::<Avl>(level.time(), 1);
            let (t, c) = (Instant::now(), cpu_ms());
            let i = bot.choose(&s.view(Some(seat)), legal, rng);
            (i, t.elapsed().as_secs_f64() * 1e3, cpu_ms() - c)
        };
    for &seed in &seeds {
        let mut s = start(CAMPAIGN, Options::default());
        let mut greedy = Greedy::default();
        let mut step = 0u64;
        let mut last_stavka = None;
        let mut stavka_done = 0;
        let started = Instant::now();
        loop {
            if s.turn().0 > u8::try_from(turns).unwrap_or(u8::MAX) {
                break;
            }
            let seat = match s.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => {
                    let a = s.sample_chance(&mut arena::chance_rng(seed, step));
                    s.apply_unchecked(a);
                    step += 1;
                    continue;
                }
                ToMove::Seat(seat) => seat,
            };
            let legal = s.legal_actions();
            let stavka = stavka_activation(&s);
            if stavka.is_some() && stavka != last_stavka && stavka_done < stavkas {
                stavka_done += 1;
                let units = s
                    .position()
                    .activation
                    .as_ref()
                    .map_or(0, |a| a.units.len());
                for (k, &level) in levels.iter().enumerate() {
                    let mut c = s.clone();
                    let (mut ms, mut on_core, mut decisions, mut choices) = (0.0, 0.0, 0u64, 0u64);
                    let mut cstep = step;
                    while stavka_activation(&c) == stavka {
                        match c.to_move() {
                            ToMove::Over(_) => break,
                            ToMove::Chance => {
                                let a = c.sample_chance(&mut arena::chance_rng(seed, cstep));
                                c.apply_unchecked(a);
                            }
                            ToMove::Seat(who) => {
                                let legal = c.legal_actions();
                                let mut rng = arena::bot_rng(seed, cstep);
                                let i = if who.index() == 1 {
                                    let (i, t, tc) = think(level, &c, who, &legal, &mut rng);
                                    decisions += 1;
                                    if legal.len() > 1 {
                                        choices += 1;
                                        in_stavka[k].push(t);
                                        cpu[k].push(tc);
                                        on_core += tc;
                                    }
                                    ms += t;
                                    i
                                } else {
                                    Bot::<Avl>::choose(
                                        &mut greedy,
                                        &c.view(Some(who)),
                                        &legal,
                                        &mut rng,
                                    )
                                };
                                c.apply_unchecked(legal[i]);
                            }
                        }
                        cstep += 1;
                    }
                    println!(
                        "seed {seed} turn {}: STAVKA activation of {units} units, {level}: {:.1} s ({:.1} s on core) for {decisions} Soviet decisions ({choices} with a choice)",
                        s.turn().0,
                        ms / 1e3,
                        on_core / 1e3
                    );
                    whole_cpu[k].push(on_core);
                    whole[k].push((ms, decisions, choices));
                }
            }
            last_stavka = stavka;
            if legal.len() > 1 && step.is_multiple_of(every) {
                for (k, &level) in levels.iter().enumerate() {
                    let (_, t, tc) =
                        think(level, &s, seat, &legal, &mut arena::bot_rng(seed, step));
                    single[k].push(t);
                    cpu[k].push(tc);
                }
            }
            let i = Bot::<Avl>::choose(
                &mut greedy,
                &s.view(Some(seat)),
                &legal,
                &mut arena::bot_rng(seed, step),
            );
            s.apply_unchecked(legal[i]);
            step += 1;
        }
        println!(
            "seed {seed}: to turn {} in {:.0} s",
            s.turn().0,
            started.elapsed().as_secs_f64()
        );
    }
    for (k, level) in levels.iter().enumerate() {
        println!(
            "{level}, decisions along the games: {}",
            pace_summary(&mut single[k])
        );
        println!(
            "{level}, Soviet decisions in STAVKA activations: {}",
            pace_summary(&mut in_stavka[k])
        );
        println!(
            "{level}, all of them, on-core time: {}",
            pace_summary(&mut cpu[k])
        );
        for ((ms, d, c), on_core) in whole[k].iter().zip(&whole_cpu[k]) {
            println!(
                "{level}, a STAVKA activation: {:.1} s, {:.1} s on core ({d} decisions, {c} with a choice)",
                ms / 1e3,
                on_core / 1e3
            );
        }
    }
}

/// An activation shares one budget (`ai::avl::pace`): small ones search at the full
/// per-decision budget, a STAVKA-sized one less, and with time at most the activation's
/// time in all over its expected decisions.
#[test]
fn an_activation_shares_one_budget() {
    use ai::avl::pace::{ACTIVATION_TIME, activation_budget, expected_choices};
    use std::time::Duration;
    assert_eq!(
        activation_budget(Budget::Iterations(200), 6),
        Budget::Iterations(200)
    );
    let Budget::Iterations(n) = activation_budget(Budget::Iterations(200), 46) else {
        panic!("an iteration budget stays one");
    };
    assert!(n < 200 && n > 0, "{n}");
    let Budget::Time(d) = activation_budget(Budget::Time(Duration::from_secs(1)), 46) else {
        panic!("a time budget stays one");
    };
    assert!(d.mul_f64(expected_choices(46)) <= ACTIVATION_TIME + Duration::from_millis(1));
    assert_eq!(
        activation_budget(Budget::Time(Duration::from_millis(250)), 3),
        Budget::Time(Duration::from_millis(250))
    );
}

/// `AiGame::pace` on seeded demo playouts (with and without the 15.0 options): a decision
/// played at once names a legal action that withdraws nothing, and, unless it is the only
/// sensible one, carries on the piece moving now (8.1.1); the same view and random
/// stream give the same answer. Decisions with a choice are still searched.
#[test]
fn pace_plays_only_forced_decisions_and_carried_on_moves() {
    let (mut played, mut searched) = (0, 0);
    for (seed, options) in [(5u64, Options::default()), (6, all_options())] {
        let mut greedy = Greedy::default();
        let mut s = start(avl::DEMO_SCENARIO, options);
        let mut step = 0u64;
        while step < 1_500 {
            let seat = match s.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => {
                    let a = s.sample_chance(&mut arena::chance_rng(seed, step));
                    s.apply_unchecked(a);
                    step += 1;
                    continue;
                }
                ToMove::Seat(seat) => seat,
            };
            let legal = s.legal_actions();
            let view = s.view(Some(seat));
            if legal.len() > 1 {
                let budget = Budget::Iterations(50);
                let pace = Avl::pace(&view, &legal, budget, &mut arena::bot_rng(seed, step));
                assert_eq!(
                    pace,
                    Avl::pace(&view, &legal, budget, &mut arena::bot_rng(seed, step))
                );
                match pace {
                    ai::Pace::Play(i) => {
                        assert!(i < legal.len());
                        assert!(!Avl::is_retraction(&legal[i]));
                        let sensible = legal
                            .iter()
                            .filter(|a| !Avl::is_retraction(a) && !s.is_futile(a))
                            .count();
                        assert!(
                            sensible == 1 || Avl::moving_piece(&legal[i]) == s.moving_now(),
                            "{:?} played at once among {legal:?}",
                            legal[i]
                        );
                        played += 1;
                    }
                    ai::Pace::Search(_) => searched += 1,
                }
            }
            let i = Bot::<Avl>::choose(&mut greedy, &view, &legal, &mut arena::bot_rng(seed, step));
            s.apply_unchecked(legal[i]);
            step += 1;
        }
    }
    assert!(
        played > 20 && searched > 20,
        "{played} played, {searched} searched"
    );
}

/// Greedy keeps a step's worth one ply deep from one decision to the next where the
/// game says it still holds (`AiGame::steady_steps`: a step of a piece that has not
/// moved since, from and to hexes more than `ai::avl::STEADY_DISTANCE` from every
/// change). In the campaign's Movement Segments of random play, after one piece's
/// step, the steps called steady gain over the position's value what they gained
/// before, up to a thousandth of the win, nearly always; many of the steps near the
/// change do not, and none hold across a phase.
#[test]
fn steady_steps_keep_their_worth() {
    let (mut steady, mut moved, mut near, mut near_moved) = (0usize, 0usize, 0usize, 0usize);
    let mut worst: f64 = 0.0;
    for seed in [41u64, 42] {
        playout(
            start(CAMPAIGN, Options::default()),
            seed,
            1_500,
            |s, seat, step| {
                if s.phase() != avl::Phase::Movement || !step.is_multiple_of(8) {
                    return;
                }
                let value = |x: &Avl| x.reward()[seat.index()];
                let gain = |x: &Avl, a: &avl::Action| {
                    let mut y = x.clone();
                    y.apply_unchecked(*a);
                    value(&y) - value(x)
                };
                let legal = s.legal_actions();
                let steps: Vec<_> = legal
                    .iter()
                    .filter(|a| Avl::moving_piece(a).is_some())
                    .collect();
                if steps.len() < 2 {
                    return;
                }
                // Nothing holds across a phase: the segment ended.
                if let Some(end) = legal.iter().find(|a| Avl::is_pass(a)) {
                    let mut ended = s.clone();
                    ended.apply_unchecked(*end);
                    let later = ended.legal_actions();
                    assert!(!ended.steady_steps(s, &later).contains(&true));
                }
                let first = *steps[step as usize % steps.len()];
                let mut after = s.clone();
                after.apply_unchecked(first);
                let later = after.legal_actions();
                let keep = after.steady_steps(s, &later);
                for (a, k) in later.iter().zip(keep) {
                    if Avl::moving_piece(a).is_none() || !legal.contains(a) {
                        continue;
                    }
                    let d = (gain(&after, a) - gain(s, a)).abs();
                    if k {
                        steady += 1;
                        moved += usize::from(d > 1e-3);
                        worst = worst.max(d);
                    } else {
                        near += 1;
                        near_moved += usize::from(d > 1e-3);
                    }
                }
            },
        );
    }
    assert!(
        steady > 5_000 && moved * 100 <= steady && near_moved > 100,
        "{steady} steady steps, {moved} of them changed (at most {worst}); \
         {near} others, {near_moved} of them changed"
    );
}

/// Issue 29: A Victory Lost's evaluation weights are numbers `hexwar tune --game avl`
/// can move and the bots can carry. They read back as they were written; anything but
/// 25 finite numbers of at least 0 is refused; tuning keeps the count and the two σ.
#[test]
fn avl_evaluation_weights_read_back() {
    for w in [Weights::HAND, Weights::DEFAULT] {
        assert_eq!(Weights::from_values(&w.values()), Some(w));
    }
    let names: Vec<&str> = <Avl as AiGame>::weights().iter().map(|(n, _)| *n).collect();
    assert_eq!(names, Weights::NAMES);
    assert_eq!(<Avl as AiGame>::hand_weights(), Weights::HAND.values());
    let mut v = Weights::HAND.values().to_vec();
    assert_eq!(Weights::from_values(&v[..24]), None, "too few");
    v[3] = -1.0;
    assert_eq!(Weights::from_values(&v), None, "negative");
    v[3] = f64::INFINITY;
    assert_eq!(Weights::from_values(&v), None, "not finite");
    let scales = <Avl as AiGame>::tuning_scales(&Weights::HAND.values());
    for (name, scale) in Weights::NAMES.iter().zip(&scales) {
        assert_eq!(
            *scale == 0.0,
            Weights::FIXED.contains(name),
            "{name}: {scale}"
        );
    }
    // Every weight but the fixed ones moves a quarter of itself at first.
    let i = Weights::NAMES.iter().position(|n| *n == "area").unwrap();
    assert!(
        (scales[i] - Weights::HAND.area / 4.0).abs() < 1e-12,
        "{}",
        scales[i]
    );
}

/// Weights reach A Victory Lost's evaluation through the bots: the defaults given
/// explicitly score and choose as no weights do, and other weights score differently.
#[test]
fn avl_bots_evaluate_with_the_weights_they_carry() {
    use std::sync::Arc;
    let defaults: Arc<[f64]> = Weights::DEFAULT.values().to_vec().into();
    let blind = Weights {
        threat: 0.0,
        threat_now: 0.0,
        threat_near: 0.0,
        area: 2.0 * Weights::DEFAULT.area,
        ..Weights::DEFAULT
    };
    let other: Arc<[f64]> = blind.values().to_vec().into();
    let positions = movement_states(12, 12);
    assert!(positions.len() >= 10, "{}", positions.len());
    let mut differ = 0;
    for (k, s) in positions.iter().enumerate() {
        assert_eq!(s.evaluate_with(Some(&defaults)), s.evaluate());
        differ += usize::from(s.evaluate_with(Some(&other)) != s.evaluate());
        let seat = s.to_move().seat().expect("a seat decides");
        let view = s.view(Some(seat));
        let legal = s.legal_actions();
        let rng = || arena::bot_rng(78, k as u64);
        let plain = Bot::<Avl>::choose(&mut Greedy::default(), &view, &legal, &mut rng());
        let mut weighted = Greedy {
            weights: Some(Arc::clone(&defaults)),
            ..Greedy::default()
        };
        assert_eq!(
            plain,
            Bot::<Avl>::choose(&mut weighted, &view, &legal, &mut rng())
        );
    }
    assert!(differ >= positions.len() / 2, "{differ}");
}
