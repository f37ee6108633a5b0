//! The bots' contract: a legal choice in every reachable state, choices that depend on
//! the seat's view alone, and greedy stronger than random.

use ai::arena::{self, play_game};
use ai::{AiGame, Bot, Budget, Greedy, Mcts, MctsConfig, RandomBot};
use engine::{Game, GameRng, NewGame, Seat, ToMove};
use hexmap::Board;
use viktory::Viktory;
use viktory::rules::fog;

mod common;

fn new_game(preset: &str, players: u8, options: &serde_json::Value) -> Viktory {
    let setup = Viktory::new_setup(&NewGame {
        preset: Some(preset.into()),
        options: options.as_object().expect("an object").clone(),
        players: Some(players),
    })
    .expect("a valid preset");
    Viktory::from_setup(&setup).expect("a valid setup")
}

/// A small search, enough to exercise every part of it.
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

/// The bots asked in every state: random, greedy, and two small searches, with
/// rollouts and as VIKTORY's levels search (without, [`AiGame::search_settings`]).
fn bots() -> Vec<Box<dyn Bot<Viktory>>> {
    let mut level_like = tiny_mcts();
    level_like.config = <Viktory as AiGame>::search_settings(level_like.config);
    assert_eq!(level_like.config.max_rollout_decisions, 0);
    vec![
        Box::new(RandomBot),
        Box::new(Greedy::default()),
        Box::new(tiny_mcts()),
        Box::new(level_like),
    ]
}

/// Random playouts; in every seat decision every bot is asked and must name a legal
/// action. Returns the decisions checked.
fn every_state(game: &Viktory, seed: u64, mcts_every: u64) -> u64 {
    let mut s = game.clone();
    let mut rng = GameRng::from_u64(seed);
    let mut bots = bots();
    let mut checked = 0;
    let mut step = 0u64;
    loop {
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
            if k >= 2 && !step.is_multiple_of(mcts_every) {
                continue;
            }
            let i = bot.choose(&view, &legal, &mut arena::bot_rng(seed, step));
            assert!(
                i < legal.len(),
                "{} chose {i} of {} legal actions",
                bot.name(),
                legal.len()
            );
            s.check(&legal[i]).expect("the bot's choice is legal");
            checked += 1;
        }
        // Play on with a mix of greedy and random moves, to reach varied states.
        let i = if rng.below(3) == 0 {
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
fn every_bot_chooses_a_legal_action_classic() {
    let mut checked = 0;
    for (players, turns, seed) in [(2u8, 8u16, 1u64), (3, 5, 2), (4, 4, 3)] {
        let g = new_game(
            "classic",
            players,
            &serde_json::json!({ "max_turns": turns }),
        );
        checked += every_state(&g, seed, 5);
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn every_bot_chooses_a_legal_action_online_dark() {
    let mut checked = 0;
    for (players, turns, seed) in [(2u8, 6u16, 11u64), (3, 4, 12)] {
        let g = new_game(
            "online",
            players,
            &serde_json::json!({ "max_turns": turns, "dark": true, "independent_exploration": true }),
        );
        checked += every_state(&g, seed, 7);
    }
    assert!(checked > 200, "{checked}");
}

/// The same position with an enemy unit moved between two hexes that neither `seat`
/// nor the player moving can see: a fact hidden from `seat`.
fn hidden_variant(s: &Viktory, seat: Seat, rng: &mut GameRng) -> Option<Viktory> {
    let active = s.turn().active;
    let board = s.board();
    let unseen = |h| !fog::sees(s, seat, h) && !fog::sees(s, active, h);
    let carriers: Vec<_> = s.units().iter().filter_map(|u| u.aboard).collect();
    let movable: Vec<&viktory::Unit> = s
        .units()
        .iter()
        .filter(|u| {
            u.owner != seat
                && u.owner != active
                && u.aboard.is_none()
                && !carriers.contains(&u.id)
                && unseen(u.hex)
                && s.town(u.hex).is_none()
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
                && unseen(h)
                && s.terrain(h)
                    .is_some_and(|t| t.is_land() == u.kind.is_land())
                && s.town(h).is_none()
                && s.units_at(h).next().is_none()
        })
        .collect();
    if to.is_empty() {
        return None;
    }
    let mut setup = s.to_setup();
    let dest = to[rng.below(to.len() as u32) as usize];
    setup.units.iter_mut().find(|x| x.id == u.id)?.hex = dest;
    Viktory::from_setup(&setup).ok()
}

/// Two states that differ only in facts hidden from the seat to move give every bot
/// the same view, the same legal actions and so, with the same random stream, the
/// same choice. (Each is asked by a new bot: MCTS keeps its tree from its last
/// decision, so a bot asked twice has two histories.)
#[test]
fn bots_choose_from_the_view_alone() {
    let mut compared = 0;
    for seed in 0..4u64 {
        let mut s = new_game(
            "online",
            3,
            &serde_json::json!({ "max_turns": 5, "dark": true }),
        );
        let mut rng = GameRng::from_u64(100 + seed);
        let mut step = 0u64;
        while !s.to_move().is_over() {
            let Some(seat) = s.to_move().seat() else {
                let a = s.sample_chance(&mut rng);
                s.apply_unchecked(a);
                continue;
            };
            let legal = s.legal_actions();
            if step.is_multiple_of(3)
                && legal.len() > 1
                && let Some(other) = hidden_variant(&s, seat, &mut rng)
            {
                assert_ne!(other, s, "the variant differs in a hidden fact");
                let (v1, v2) = (s.view(Some(seat)), other.view(Some(seat)));
                assert_eq!(v1, v2, "the view hides the change");
                assert_eq!(other.legal_actions(), legal);
                for (mut first, mut second) in bots().into_iter().zip(bots()) {
                    let a = first.choose(&v1, &legal, &mut arena::bot_rng(seed, step));
                    let b = second.choose(&v2, &legal, &mut arena::bot_rng(seed, step));
                    assert_eq!(a, b, "{} chose differently", first.name());
                }
                compared += 1;
            }
            let i = rng.below(legal.len() as u32) as usize;
            s.apply(legal[i]).expect("legal");
            step += 1;
        }
    }
    assert!(compared > 20, "{compared}");
}

/// A determinization of a classic view is the true state: nothing is hidden there.
#[test]
fn classic_determinization_is_exact() {
    let mut s = new_game("classic", 2, &serde_json::json!({ "max_turns": 6 }));
    let mut rng = GameRng::from_u64(5);
    for _ in 0..300 {
        match s.to_move() {
            ToMove::Over(_) => break,
            ToMove::Chance => {
                let a = s.sample_chance(&mut rng);
                s.apply_unchecked(a);
            }
            ToMove::Seat(seat) => {
                let d = Viktory::determinize(&s.view(Some(seat)), &mut rng).expect("a state");
                assert_eq!(d, s);
                let legal = s.legal_actions();
                s.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
            }
        }
    }
}

/// A search copies the first determinization when the game says it is fixed
/// ([`AiGame::determinization_is_fixed`]): such views give the same state from any
/// generator and draw nothing from it. Views under Dark are not fixed (a seat's fogged
/// units are sampled).
#[test]
fn fixed_determinizations_draw_nothing() {
    let dark = serde_json::json!({ "max_turns": 6, "dark": true });
    let games = [
        new_game("classic", 2, &serde_json::json!({ "max_turns": 6 })),
        new_game("online", 3, &dark),
    ];
    // Fixed views checked, per game.
    let mut checked = [0usize; 2];
    for (g, game) in games.into_iter().enumerate() {
        let mut s = game;
        let mut rng = GameRng::from_u64(11);
        for _ in 0..300 {
            match s.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => {
                    let a = s.sample_chance(&mut rng);
                    s.apply_unchecked(a);
                }
                ToMove::Seat(seat) => {
                    for view in [s.view(Some(seat)), s.view(None)] {
                        let fixed = Viktory::determinization_is_fixed(&view);
                        assert_eq!(fixed, g == 0);
                        if fixed {
                            let (mut a, mut b) = (GameRng::from_u64(1), GameRng::from_u64(2));
                            let first = Viktory::determinize(&view, &mut a);
                            assert!(first.is_some(), "game {g}, seat {:?}", view.seat);
                            assert_eq!(first, Viktory::determinize(&view, &mut b));
                            assert_eq!(a.next_u64(), GameRng::from_u64(1).next_u64());
                            checked[g] += 1;
                        }
                    }
                    let legal = s.legal_actions();
                    s.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
                }
            }
        }
    }
    assert!(checked[0] > 100 && checked[1] == 0, "{checked:?}");
}

/// Greedy beats random (a few games; `hexwar simulate` measures it properly).
#[test]
fn greedy_beats_random() {
    let mut greedy_wins = 0;
    let games = 4;
    for g in 0..games {
        let state = new_game("classic", 2, &serde_json::json!({ "max_turns": 12 }));
        let greedy_seat = (g % 2) as usize;
        let mut bots: Vec<Box<dyn Bot<Viktory>>> = vec![Box::new(RandomBot), Box::new(RandomBot)];
        bots[greedy_seat] = Box::new(Greedy::default());
        let played = play_game(state, &mut bots, 1000 + g, 20_000, ai::viktory::turn_marker);
        let w = arena::winners(&played);
        if w.len() == 1 && w[0].index() == greedy_seat {
            greedy_wins += 1;
        }
    }
    assert!(greedy_wins >= 3, "greedy won {greedy_wins} of {games}");
}

/// Bot games end in every preset, Dark included: no rule lets a bot go round in
/// circles (as Redeployment once let a bot place and take back the same unit without
/// end, H-20). Greedy (the `easy` level) and a small search as the levels run it play
/// each other; a game that does not end by its last turn fails.
#[test]
fn bot_games_end_in_every_preset() {
    let mut level_like = tiny_mcts();
    level_like.config = <Viktory as AiGame>::search_settings(level_like.config);
    let mut games = 0;
    for (k, preset) in Viktory::presets().into_iter().enumerate() {
        let mut options = vec![serde_json::json!({ "max_turns": 6 })];
        if preset.name == "online" {
            options.push(serde_json::json!({ "max_turns": 6, "dark": true, "independent_exploration": true }));
        }
        for (j, options) in options.iter().enumerate() {
            let state = new_game(&preset.name, 3, options);
            let mut bots: Vec<Box<dyn Bot<Viktory>>> = vec![
                Box::new(Greedy::default()),
                Box::new(level_like.clone()),
                Box::new(Greedy::default()),
            ];
            let seed = 50 + 10 * k as u64 + j as u64;
            let played = play_game(state, &mut bots, seed, 50_000, ai::viktory::turn_marker);
            assert!(
                played.outcome.is_some(),
                "{} {options}: no end after {} decisions",
                preset.name,
                played.decisions
            );
            games += 1;
        }
    }
    assert!(games >= 5, "{games} games");
}

/// The random bot as a bot that must be shown the view (no `choose_blind`).
struct Sighted;

impl Bot<Viktory> for Sighted {
    fn name(&self) -> String {
        "sighted random".into()
    }

    fn choose(
        &mut self,
        view: &viktory::View,
        legal: &[viktory::Action],
        rng: &mut GameRng,
    ) -> usize {
        <RandomBot as Bot<Viktory>>::choose(&mut RandomBot, view, legal, rng)
    }
}

/// Issue 28: the arena builds no view for the random bot (`choose_blind`), and the
/// games are the same as when it is shown one: same actions, same end.
#[test]
fn the_random_bot_plays_the_same_without_a_view() {
    for g in 0..4 {
        let state = new_game(
            "online",
            3,
            &serde_json::json!({ "max_turns": 8, "dark": true }),
        );
        let mut blind: Vec<Box<dyn Bot<Viktory>>> =
            (0..3).map(|_| Box::new(RandomBot) as _).collect();
        let mut sighted: Vec<Box<dyn Bot<Viktory>>> =
            (0..3).map(|_| Box::new(Sighted) as _).collect();
        let a = play_game(
            state.clone(),
            &mut blind,
            50 + g,
            20_000,
            ai::viktory::turn_marker,
        );
        let b = play_game(
            state,
            &mut sighted,
            50 + g,
            20_000,
            ai::viktory::turn_marker,
        );
        assert!(a.decisions > 100, "{} decisions", a.decisions);
        assert_eq!(a.decisions, b.decisions);
        assert!(a.state == b.state, "game {g}: the games differ");
    }
}

/// With an iteration budget the search is repeatable, and the number of threads the
/// trees run on does not change the choice.
#[test]
fn mcts_with_iterations_ignores_the_thread_count() {
    let mut s = new_game("classic", 2, &serde_json::json!({ "max_turns": 10 }));
    let mut rng = GameRng::from_u64(21);
    let mut greedy = Greedy::default();
    let mut compared = 0;
    for step in 0..400u64 {
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
        if legal.len() > 3 && step.is_multiple_of(25) {
            let choices: Vec<usize> = [1u32, 2, 1]
                .iter()
                .map(|&threads| {
                    let mut bot = Mcts::new(MctsConfig {
                        budget: Budget::Iterations(24),
                        trees: 2,
                        threads,
                        rollout_turns: 1,
                        max_rollout_decisions: 60,
                        ..MctsConfig::default()
                    });
                    Bot::<Viktory>::choose(&mut bot, &view, &legal, &mut arena::bot_rng(9, step))
                })
                .collect();
            assert!(choices.windows(2).all(|w| w[0] == w[1]), "{choices:?}");
            compared += 1;
        }
        let i = Bot::<Viktory>::choose(&mut greedy, &view, &legal, &mut arena::bot_rng(9, step));
        s.apply_unchecked(legal[i]);
    }
    assert!(compared >= 3, "{compared}");
}

/// Issue 29: a VIKTORY player turn shares about [`ai::viktory::pace::TURN_BUDGETS`]
/// per-decision budgets, so a turn of many decisions costs a person about the same wait
/// as one of few. MCTS (48 iterations per decision) plays greedy for 8 game turns, in
/// three seeded games; its iterations are summed per player turn. Without the sharing
/// each decision with a choice spends all 48, and a turn of ten such decisions 480.
#[test]
fn mcts_shares_a_budget_over_a_player_turn() {
    use ai::viktory::pace::TURN_BUDGETS;
    let per_decision = 48u32;
    // Per player turn of seat 0: (iterations, decisions searched).
    let mut turns: Vec<(u64, u64, u32)> = Vec::new();
    for seed in 1..=3 {
        let mut mcts = Mcts::new(MctsConfig {
            budget: Budget::Iterations(per_decision),
            trees: 1,
            threads: 1,
            rollout_turns: 1,
            max_rollout_decisions: 60,
            ..MctsConfig::default()
        });
        let mut greedy = Greedy::default();
        let mut state = new_game("classic", 2, &serde_json::json!({"max_turns": 8}));
        let first_turn = turns.len();
        for step in 0..5_000u64 {
            match state.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => {
                    let a = state.sample_chance(&mut arena::chance_rng(seed, step));
                    state.apply_unchecked(a);
                }
                ToMove::Seat(seat) => {
                    let legal = state.legal_actions();
                    let view = state.view(Some(seat));
                    let mut rng = arena::bot_rng(seed, step);
                    let i = if seat == Seat(0) {
                        let i = Bot::<Viktory>::choose(&mut mcts, &view, &legal, &mut rng);
                        let marker = ai::viktory::turn_marker(&state);
                        if turns.len() == first_turn || turns.last().is_none_or(|t| t.0 != marker) {
                            turns.push((marker, 0, 0));
                        }
                        if let (Some(turn), Some(stats)) = (turns.last_mut(), mcts.last) {
                            turn.1 += stats.iterations;
                            turn.2 += 1;
                        }
                        i
                    } else {
                        Bot::<Viktory>::choose(&mut greedy, &view, &legal, &mut rng)
                    };
                    state.apply_unchecked(legal[i]);
                }
            }
        }
    }
    let budget = TURN_BUDGETS * f64::from(per_decision);
    let busiest = turns.iter().map(|t| t.2).max().unwrap_or(0);
    assert!(
        f64::from(busiest) > 2.0 * TURN_BUDGETS,
        "some turn asks many searches: {turns:?}"
    );
    let mut spent: Vec<u64> = turns.iter().map(|t| t.1).collect();
    spent.sort_unstable();
    let median = spent[spent.len() / 2] as f64;
    assert!(
        median <= 1.5 * budget,
        "median turn {median} iterations, budget {budget}: {turns:?}"
    );
    assert!(
        turns.iter().all(|t| (t.1 as f64) <= 3.0 * budget),
        "a turn spent over three turn budgets: {turns:?}"
    );
}

/// Issue 29: within a player turn MCTS searches on from the tree of its previous
/// decision ([`MctsConfig::reuse`]). MCTS (48 iterations a decision, two trees) plays
/// greedy for 6 game turns: many of its searches start from a kept tree, never the
/// first of a player turn, and none with reuse off; with an iteration budget the games
/// repeat exactly, on one thread or two.
#[test]
fn mcts_keeps_its_tree_within_a_player_turn() {
    let play = |reuse: bool, threads: u32| {
        let mut mcts = Mcts::new(<Viktory as AiGame>::search_settings(MctsConfig {
            budget: Budget::Iterations(48),
            trees: 2,
            threads,
            reuse,
            ..MctsConfig::default()
        }));
        let state = new_game("classic", 2, &serde_json::json!({"max_turns": 6}));
        common::mcts_against_greedy(state, &mut mcts, 5, 5_000, ai::viktory::turn_marker)
    };
    let (with, game) = play(true, 1);
    common::assert_kept_within(&with, 1, "player turn");
    assert!(
        with.iter().all(|d| (1..=48).contains(&d.2)),
        "the budget counts new iterations only: {with:?}"
    );
    assert_eq!(play(true, 2).1, game, "the same game on two threads");
    let (without, other) = play(false, 1);
    assert!(without.iter().all(|d| d.1 == 0), "{without:?}");
    assert_ne!(other, game, "keeping the tree changes what is played");

    // Asked the same decision again (its choice not played), the bot does not take it
    // for the next one.
    let state = some_positions(4)
        .into_iter()
        .find(|s| s.to_move().seat().is_some() && s.legal_actions().len() > 3)
        .expect("a decision with a choice");
    let seat = state.to_move().seat().expect("found above");
    let (view, legal) = (state.view(Some(seat)), state.legal_actions());
    let mut mcts = Mcts::new(<Viktory as AiGame>::search_settings(MctsConfig {
        budget: Budget::Iterations(48),
        trees: 1,
        threads: 1,
        ..MctsConfig::default()
    }));
    for k in 0..2 {
        Bot::<Viktory>::choose(&mut mcts, &view, &legal, &mut GameRng::from_u64(k));
        assert_eq!(mcts.last.map(|l| l.reused), Some(0), "ask {k}");
    }
}

/// Issue 29: a view tells which player turn it is in, as the state's turn marker does,
/// for every seat, so that a bot can count what it thinks in each turn.
#[test]
fn views_tell_the_player_turn() {
    for players in [2u8, 3, 4] {
        let mut s = new_game("classic", players, &serde_json::json!({"max_turns": 6}));
        let mut rng = GameRng::from_u64(u64::from(players));
        let mut turns = std::collections::BTreeSet::new();
        for _ in 0..3_000 {
            let marker = ai::viktory::turn_marker(&s);
            turns.insert(marker);
            for seat in (0..players).map(Seat) {
                assert_eq!(
                    <Viktory as AiGame>::view_turn(&s.view(Some(seat))),
                    Some(marker)
                );
            }
            let a = match s.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => s.sample_chance(&mut rng),
                ToMove::Seat(_) => {
                    let legal = s.legal_actions();
                    legal[rng.below(legal.len() as u32) as usize]
                }
            };
            s.apply_unchecked(a);
        }
        assert!(turns.len() > usize::from(players) * 3, "{turns:?}");
    }
}

/// Issue 29: a player turn that has thought for its whole cap (`AiGame::turn_cap`)
/// searches each decision after it for a fixed few iterations where the view hides
/// something to sample (`AiGame::after_cap_iterations`: Dark), and none where it hides
/// nothing (the action a kept tree favours, or one greedy ply). With none under Dark,
/// `normal` left a seventh of its decisions to a kept tree's few visits or one greedy
/// ply on one sample, and lost to `easy`. The clock is the seat's, shared with the bot;
/// a turn not yet counted gets its share of the time.
#[test]
fn a_turn_that_spent_its_cap_searches_a_fixed_few_iterations_under_dark() {
    use std::time::Duration;
    let per_decision = Duration::from_millis(250);
    let cap = <Viktory as AiGame>::turn_cap(per_decision).expect("VIKTORY caps a turn");
    assert_eq!(
        cap,
        per_decision.mul_f64(ai::viktory::pace::TURN_CAP_BUDGETS)
    );
    assert!(cap <= Duration::from_secs(2), "normal: at most 2 s a turn");
    let dark = new_game(
        "online",
        2,
        &serde_json::json!({ "dark": true, "independent_exploration": true, "max_turns": 5 }),
    );
    let dark = positions_of(dark, &mut Greedy::default(), 4, 3_000, |_, step, legal| {
        step % 8 == 0 && legal > 2
    });
    let after_cap = u64::from(ai::viktory::pace::AFTER_CAP_ITERATIONS);
    assert!(after_cap > 0);
    for (state, iterations) in [(&some_positions(4)[..], 0), (&dark[..], after_cap)]
        .map(|(states, it)| (states.iter().find(|s| s.to_move().seat().is_some()), it))
    {
        let state = state.expect("a decision");
        let seat = state.to_move().seat().expect("found above");
        let view = state.view(Some(seat));
        let legal = state.legal_actions();
        let turn = ai::viktory::turn_marker(state);
        let clock = ai::TurnMemory::new();
        clock.add(turn, cap);
        let mut mcts = Mcts::new(MctsConfig {
            budget: Budget::Time(per_decision),
            trees: 1,
            threads: 1,
            ..MctsConfig::default()
        });
        mcts.memory = clock.clone();
        let i = Bot::<Viktory>::choose(&mut mcts, &view, &legal, &mut GameRng::from_u64(1));
        assert!(i < legal.len());
        let stats = mcts
            .last
            .expect("a decision with a choice is searched or capped");
        assert_eq!(stats.iterations, iterations, "the turn's cap is spent");
        assert!(clock.spent_in(turn) >= cap, "the decision is counted too");
        // The same decision in a turn not yet counted gets its share of the budget.
        let fresh = ai::TurnMemory::new();
        let Budget::Time(left) = fresh.cut(Budget::Time(per_decision), turn, cap) else {
            unreachable!("a time budget stays one")
        };
        assert_eq!(left, per_decision);
    }
}

/// Positions of a short greedy game, every eighth step.
fn some_positions(seed: u64) -> Vec<Viktory> {
    let game = new_game("classic", 2, &serde_json::json!({ "max_turns": 5 }));
    positions_of(
        game,
        &mut Greedy::default(),
        seed,
        3_000,
        |_, step, legal| step % 8 == 0 && legal > 2,
    )
}

/// The positions `keep` picks (by the position, its step and its number of legal
/// actions) from a game `bot` plays in every seat, at most `steps` steps.
fn positions_of(
    mut s: Viktory,
    bot: &mut dyn Bot<Viktory>,
    seed: u64,
    steps: u64,
    keep: impl Fn(&Viktory, u64, usize) -> bool,
) -> Vec<Viktory> {
    let mut out = Vec::new();
    for step in 0..steps {
        let seat = match s.to_move() {
            ToMove::Over(_) => break,
            ToMove::Chance => {
                let a = s.sample_chance(&mut arena::chance_rng(seed, step));
                s.apply_unchecked(a);
                continue;
            }
            ToMove::Seat(seat) => seat,
        };
        let legal = s.legal_actions();
        if keep(&s, step, legal.len()) {
            out.push(s.clone());
        }
        let view = s.view(Some(seat));
        let i = bot.choose(&view, &legal, &mut arena::bot_rng(seed, step));
        s.apply_unchecked(legal[i]);
    }
    out
}

/// Issue 29: the evaluation's weights are numbers `hexwar tune` can move and the bots
/// can carry. They read back as they were written; anything but 18 finite numbers of at
/// least 0 is refused.
#[test]
fn evaluation_weights_read_back() {
    use ai::viktory::eval::Weights;
    for w in [Weights::HAND, Weights::DEFAULT] {
        assert_eq!(Weights::from_values(&w.values()), Some(w));
    }
    let names: Vec<&str> = <Viktory as AiGame>::weights()
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(names, Weights::NAMES);
    let mut v = Weights::HAND.values().to_vec();
    assert_eq!(Weights::from_values(&v[..17]), None, "too few");
    v[3] = -1.0;
    assert_eq!(Weights::from_values(&v), None, "negative");
    v[3] = f64::NAN;
    assert_eq!(Weights::from_values(&v), None, "not a number");
}

/// Weights reach the evaluation through every bot: the defaults given explicitly score
/// and choose as no weights do, and other weights score differently.
#[test]
fn bots_evaluate_with_the_weights_they_carry() {
    use ai::viktory::eval::Weights;
    use std::sync::Arc;
    let defaults: Arc<[f64]> = Weights::DEFAULT.values().to_vec().into();
    let mut cities = Weights::DEFAULT;
    cities.city *= 3.0;
    cities.sharpness = 1.0;
    let other: Arc<[f64]> = cities.values().to_vec().into();
    let positions = some_positions(5);
    assert!(positions.len() >= 5, "{}", positions.len());
    let mut differ = 0;
    for (k, s) in positions.iter().enumerate() {
        assert_eq!(s.evaluate_with(Some(&defaults)), s.evaluate());
        differ += usize::from(s.evaluate_with(Some(&other)) != s.evaluate());
        let seat = s.to_move().seat().expect("a seat decides");
        let view = s.view(Some(seat));
        let legal = s.legal_actions();
        let rng = || arena::bot_rng(77, k as u64);
        let plain = Bot::<Viktory>::choose(&mut Greedy::default(), &view, &legal, &mut rng());
        let mut weighted = Greedy {
            weights: Some(Arc::clone(&defaults)),
            ..Greedy::default()
        };
        assert_eq!(
            plain,
            Bot::<Viktory>::choose(&mut weighted, &view, &legal, &mut rng())
        );
        let search = |weights: Option<Arc<[f64]>>| {
            let mut bot = tiny_mcts();
            bot.weights = weights;
            bot.choose_unpaced::<Viktory>(&view, &legal, &mut rng())
        };
        assert_eq!(search(None), search(Some(Arc::clone(&defaults))));
    }
    assert!(differ > 0, "other weights changed no evaluation");
}

/// `hexwar tune`'s pieces on a few short games: self-play positions labelled with
/// results that share out 1, a fifth of the games held out, and a descent that never
/// ends worse than it started.
#[test]
fn tuning_learns_from_self_play() {
    use ai::tune::{SelfPlay, fit, self_play};
    use ai::viktory::eval::Weights;
    let start = new_game("classic", 2, &serde_json::json!({ "max_turns": 3 }));
    let samples = self_play(
        &start,
        &SelfPlay {
            games: 5,
            seed: 3,
            random_percent: 5,
            max_decisions: 5_000,
            threads: 2,
            weights: None,
        },
    );
    assert!(samples.len() >= 20, "{} positions", samples.len());
    for s in &samples {
        assert!(
            (s.result.iter().sum::<f64>() - 1.0).abs() < 1e-9,
            "{:?}",
            s.result
        );
    }
    assert!(samples.iter().any(ai::tune::Sample::held_out));
    assert!(samples.iter().any(|s| !s.held_out()));
    assert!(samples.iter().all(|s| s.held_out() == (s.game == 4)));
    let hand = Weights::HAND.values();
    let mut steps = vec![0.0; hand.len()];
    steps[1] = 5.0; // the city
    steps[17] = 0.5; // the sharpness
    let f = fit(&samples, &hand, &steps, 2, 2);
    assert!(f.after.train <= f.before.train, "{f:?}");
    assert!(f.before.train > 0.0 && f.before.test > 0.0, "{f:?}");
    let moved: Vec<usize> = (0..hand.len())
        .filter(|&i| f.weights[i].to_bits() != hand[i].to_bits())
        .collect();
    assert!(moved.iter().all(|i| [1, 17].contains(i)), "{moved:?}");
    // The same seed gives the same positions and the same fit.
    let again = fit(&samples, &hand, &steps, 2, 1);
    assert_eq!(again.weights, f.weights);
}

/// The matches `hexwar tune` plays by: each seed is played with the first weights in
/// every seat, so weights against themselves score exactly an even share; the number
/// of threads changes nothing; SPSA's steps keep weights without a scale fixed.
#[test]
fn tuning_matches_are_fair_and_repeatable() {
    use ai::tune::{Spsa, match_score, spsa};
    use ai::viktory::eval::Weights;
    use std::sync::Arc;
    let start = new_game("classic", 2, &serde_json::json!({ "max_turns": 3 }));
    let hand: Arc<[f64]> = Weights::HAND.values().to_vec().into();
    let mut cities = Weights::HAND;
    cities.city = 2.0;
    let cities: Arc<[f64]> = cities.values().to_vec().into();
    let even = match_score(&start, &hand, &hand, 4, 6, 2, 5_000);
    assert!((even - 0.5).abs() < 1e-12, "{even}");
    let one = match_score(&start, &cities, &hand, 6, 6, 1, 5_000);
    let two = match_score(&start, &cities, &hand, 6, 6, 2, 5_000);
    assert_eq!(one.to_bits(), two.to_bits());
    let mut scale = vec![0.0; hand.len()];
    scale[1] = 5.0;
    let mut steps = Vec::new();
    let plan = Spsa {
        steps: 3,
        games: 2,
        seed: 8,
        threads: 2,
        max_decisions: 5_000,
        ..Spsa::default()
    };
    let tuned = spsa(&start, &hand, &scale, &plan, &mut |k, step| {
        steps.push((k, step.up_share));
    });
    assert_eq!(steps.len(), 3);
    for (i, (t, h)) in tuned.iter().zip(hand.iter()).enumerate() {
        if i != 1 {
            assert_eq!(t.to_bits(), h.to_bits(), "weight {i} moved");
        }
    }
    let again = spsa(
        &start,
        &hand,
        &scale,
        &Spsa { threads: 1, ..plan },
        &mut |_, _| {},
    );
    assert_eq!(again, tuned);
}

/// The weights the bots play with are the ones `hexwar tune` wrote to
/// `data/ai/viktory-weights.json`, number for number; that run started from the weights
/// learnt before (`data/ai/viktory-weights-2026-11-27.json`), and that one from the hand
/// weights.
#[test]
fn the_default_weights_are_the_tuned_file() {
    use ai::viktory::eval::Weights;
    let read = |name: &str| -> serde_json::Value {
        let path = format!("{}/../../data/ai/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the weights file");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["game"], "viktory", "{name}");
        doc
    };
    let numbers = |doc: &serde_json::Value, part: &str| -> Vec<f64> {
        Weights::NAMES
            .iter()
            .map(|n| doc[part][n].as_f64().expect(n))
            .collect()
    };
    // serde_json reads a decimal to within an ulp or so of the nearest double.
    let same = |a: &[f64], b: &[f64]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= 1e-12 * y.abs().max(1.0))
    };
    let (now, before) = (
        read("viktory-weights.json"),
        read("viktory-weights-2026-11-27.json"),
    );
    let default = Weights::DEFAULT.values();
    let file = numbers(&now, "weights");
    assert!(same(&file, &default), "{file:?}\n{default:?}");
    let start = numbers(&now, "start");
    assert!(same(&start, &numbers(&before, "weights")), "{start:?}");
    let hand = numbers(&before, "start");
    assert!(same(&hand, &Weights::HAND.values()), "{hand:?}");
}

/// Greedy, counting the decisions it is asked to take in another seat's turn.
struct CountingOutOfTurn {
    greedy: Greedy,
    out_of_turn: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Bot<Viktory> for CountingOutOfTurn {
    fn name(&self) -> String {
        "counting".into()
    }

    fn choose(
        &mut self,
        view: &viktory::View,
        legal: &[viktory::Action],
        rng: &mut GameRng,
    ) -> usize {
        if view.seat != Some(view.position.turn.active) {
            self.out_of_turn
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Bot::<Viktory>::choose(&mut self.greedy, view, legal, rng)
    }
}

/// `arena::play_game` counts a seat's time per player turn of its own (what a person
/// waits for) and keeps its decisions in other seats' turns (a defender's losses and
/// retreats) apart, not added to its last own turn.
#[test]
fn the_arena_keeps_decisions_out_of_turn_apart() {
    let mut seen = 0;
    for seed in 0..4u64 {
        let game = new_game("classic", 2, &serde_json::json!({ "max_turns": 12 }));
        let counted = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut bots: Vec<Box<dyn Bot<Viktory>>> = vec![
            Box::new(Greedy::default()),
            Box::new(CountingOutOfTurn {
                greedy: Greedy::default(),
                out_of_turn: std::sync::Arc::clone(&counted),
            }),
        ];
        let played = play_game(game, &mut bots, seed, 100_000, ai::viktory::turn_marker);
        let counted = counted.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(played.out_of_turn[1].0, counted, "seed {seed}");
        assert_eq!(played.turn_thinking[1].len() as u64, played.turns[1]);
        let own: u64 = played.thinking[1].0 - counted;
        assert!(own > played.turns[1], "seed {seed}: own decisions {own}");
        seen += counted;
    }
    assert!(
        seen > 0,
        "some decisions were taken in the other seat's turn"
    );
}

/// Positions of a random game of `preset` for `players`, every `every`th decision, and
/// every position with a battle about to be fought or being fought.
fn random_positions(preset: &str, players: u8, seed: u64, every: u64) -> Vec<Viktory> {
    let game = new_game(preset, players, &serde_json::json!({ "max_turns": 12 }));
    positions_of(game, &mut RandomBot, seed, 20_000, |s, step, _| {
        step % every == 0 || s.battle().is_some() || !s.turn().pending_battles.is_empty()
    })
}

/// Issue 28: the evaluation's figures, bit for bit, over random games of four rulesets
/// (threats, battles begun and due, sites, every seat's material), as they were when
/// the evaluation was last changed on purpose. Work that only makes it faster (the odds
/// memo's keys, the sites' marks) must leave this digest as it is; a change to what the
/// evaluation says must come with a new digest, and a word in docs/ai.md.
#[test]
fn the_evaluation_is_as_pinned() {
    use ai::viktory::eval::{Weights, material};
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let (mut positions, mut threatened, mut battles) = (0, 0, 0);
    for (k, (preset, players)) in [
        ("classic", 2),
        ("classic", 4),
        ("online", 3),
        ("expansion", 6),
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..3u64 {
            for s in random_positions(preset, players, seed * 10 + k as u64, 5) {
                let m = material(&s, &Weights::HAND);
                positions += 1;
                // A town with an enemy land unit two hexes away or nearer: its threat
                // asks for battle odds.
                threatened += usize::from(s.towns().any(|(hex, t)| {
                    s.units()
                        .iter()
                        .any(|u| u.owner != t.owner && u.kind.is_land() && u.hex.distance(hex) <= 2)
                }));
                battles +=
                    usize::from(s.battle().is_some() || !s.turn().pending_battles.is_empty());
                for v in m {
                    digest = (digest ^ v.to_bits()).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
    }
    // The digest covers enough positions to mean something.
    assert!(
        positions > 1_000 && threatened > 500 && battles > 100,
        "{positions} positions, {threatened} with a town threatened, {battles} with battles"
    );
    assert_eq!(
        digest, 726_649_117_570_523_677,
        "the evaluation's figures changed over {positions} positions: if on purpose, pin the new digest"
    );
}

/// Positions of the movement phase, the player moving to decide, no battle begun or
/// due, ending the phase legal, and `moving` (the unit now moving, `Viktory::turn().moving`)
/// as `keep` asks, from seeded games of greedy against itself (`preset`, 2 players, 20
/// turns, with `options`).
fn movement_positions(
    preset: &str,
    options: &serde_json::Value,
    seeds: std::ops::Range<u64>,
    keep: impl Fn(&Viktory, Option<&viktory::Unit>) -> bool,
) -> Vec<Viktory> {
    use viktory::Action;
    use viktory::state::Stage;
    let mut out = Vec::new();
    for seed in seeds {
        let game = new_game(preset, 2, options);
        out.extend(positions_of(
            game,
            &mut Greedy::default(),
            seed,
            20_000,
            |s, _, _| {
                let t = s.turn();
                t.stage == Stage::Move
                    && t.pending_battles.is_empty()
                    && s.battle().is_none()
                    && keep(s, t.moving.and_then(|id| s.unit(id)))
                    && s.legal_actions().contains(&Action::EndPhase)
            },
        ));
    }
    out
}

/// The strike-now share of the evaluation ([`Weights::threat_now`] over
/// [`Weights::threat_gain`], R-9) in `s` for `seat`: the evaluation with it less the
/// evaluation with both shares alike.
fn strike_now_share(s: &Viktory, w: &ai::viktory::eval::Weights, seat: usize) -> f64 {
    use ai::viktory::eval::{Weights, material};
    let flat = Weights {
        threat_now: w.threat_gain,
        ..*w
    };
    material(s, w)[seat] - material(s, &flat)[seat]
}

/// 9.0, R-9: on classic, before any unit moves and once the unit moving can go no
/// further, ending the movement phase costs the player moving nothing, threats or not:
/// an idle move would keep nothing. Were the
/// phase itself worth something (as when every threat of the player moving counted as a
/// strike he could still make, however many units had moved), the bots would spend
/// their movement points going out and back rather than end it.
#[test]
fn ending_the_movement_phase_costs_nothing_idle_moves_keep() {
    use ai::viktory::eval::{Weights, material};
    use viktory::Action;
    let options = serde_json::json!({ "max_turns": 20 });
    let positions = movement_positions("classic", &options, 0..8, |_, moving| {
        moving.is_none_or(|u| u.mp == 0)
    });
    let mut threatening = 0;
    for s in &positions {
        let seat = s.turn().active.index();
        // Some land unit of the player moving within two hexes of an enemy town.
        threatening += usize::from(s.towns().any(|(hex, t)| {
            t.owner.index() != seat
                && s.units().iter().any(|u| {
                    u.owner.index() == seat && u.kind.is_land() && u.hex.distance(hex) <= 2
                })
        }));
        for w in [Weights::DEFAULT, Weights::HAND] {
            let mut ended = s.clone();
            ended.apply_unchecked(Action::EndPhase);
            let (before, after) = (material(s, &w)[seat], material(&ended, &w)[seat]);
            assert!(
                (before - after).abs() < 1e-9,
                "turn {}: ending the phase took {before} to {after}",
                s.turn().number
            );
        }
    }
    assert!(
        positions.len() > 200 && threatening > 50,
        "{} positions, {threatening} with a threat of the player moving",
        positions.len()
    );
}

/// 9.0, R-9: before any unit moves, every unit of the player moving that can get into
/// an enemy town may strike now, and the evaluation counts it so. Under the Expansion's
/// reordered turn (movement first) this is what a player's threats are worth at the
/// start of his turn, where the search's tree ends; counting none there made `normal`
/// lose to `easy` on the Expansion and online rules (docs/ai.md, "Strike now at the
/// turn's start"). Ending the phase ends the share, and so does the first move, for
/// every unit but the one moving.
#[test]
fn strike_now_counts_every_unit_free_to_strike_until_one_moves() {
    use ai::viktory::eval::Weights;
    use viktory::Action;
    let options = serde_json::json!({ "max_turns": 20, "build_after_moving": true });
    let positions = movement_positions("classic", &options, 0..4, |_, moving| moving.is_none());
    let w = Weights::DEFAULT;
    let (mut counted, mut first_moves) = (0, 0);
    for s in &positions {
        let seat = s.turn().active.index();
        let share = strike_now_share(s, &w, seat);
        assert!(share >= 0.0, "turn {}: a share of {share}", s.turn().number);
        if share <= 0.0 {
            continue;
        }
        counted += 1;
        let mut ended = s.clone();
        ended.apply_unchecked(Action::EndPhase);
        let ended_share = strike_now_share(&ended, &w, seat);
        assert!(
            ended_share.abs() < 1e-9,
            "turn {}: {ended_share} after the phase",
            s.turn().number
        );
        // The first move ends every other unit's share: a unit that moves where it can
        // go on into no enemy town leaves none, however many others still could.
        for a in s.legal_actions() {
            let Action::Move { unit, .. } = a else {
                continue;
            };
            let mut moved = s.clone();
            moved.apply_unchecked(a);
            let Some(u) = moved.unit(unit) else { continue };
            let can_go_on = moved
                .towns()
                .any(|(hex, t)| t.owner.index() != seat && hex.distance(u.hex) <= u32::from(u.mp));
            if moved.turn().moving != Some(unit) || can_go_on || moved.to_move().seat().is_none() {
                continue;
            }
            let after = strike_now_share(&moved, &w, seat);
            assert!(
                after.abs() < 1e-9,
                "turn {}: {a:?} left a share of {after}",
                s.turn().number
            );
            first_moves += 1;
        }
    }
    assert!(
        counted > 30 && first_moves > 100,
        "{} positions at the phase's start, {counted} with a strike-now share, {first_moves} first moves",
        positions.len()
    );
}

/// Round trips revealing nothing, and movement phases, in seeded 2-player games of
/// `preset`, `bot` against itself to `max_turns`: a unit's move (9.0, R-9) going back to
/// a hex it left with no tile revealed since.
fn round_trips(
    bot: &mut dyn Bot<Viktory>,
    preset: &str,
    seeds: std::ops::Range<u64>,
    max_turns: u16,
) -> (u32, u32) {
    use viktory::Action;
    use viktory::state::Stage;
    let (mut phases, mut returns) = (0u32, 0u32);
    for seed in seeds {
        let mut s = new_game(preset, 2, &serde_json::json!({ "max_turns": max_turns }));
        // The hexes the unit now moving has been in during its move, and the reveals
        // since it left each.
        let mut trail: Vec<(hexmap::Hex, u32)> = Vec::new();
        let mut moving = None;
        let mut in_phase = false;
        for step in 0..50_000u64 {
            let seat = match s.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => {
                    let a = s.sample_chance(&mut arena::chance_rng(seed, step));
                    if matches!(a, Action::Reveal { .. }) {
                        for t in &mut trail {
                            t.1 += 1;
                        }
                    }
                    s.apply_unchecked(a);
                    continue;
                }
                ToMove::Seat(seat) => seat,
            };
            let moving_phase = s.turn().stage == Stage::Move && s.turn().active == seat;
            phases += u32::from(moving_phase && !in_phase);
            in_phase = moving_phase;
            let legal = s.legal_actions();
            let view = s.view(Some(seat));
            let i = bot.choose(&view, &legal, &mut arena::bot_rng(seed, step));
            if let Action::Move { unit, to } = legal[i] {
                let from = s.unit(unit).expect("the unit moving").hex;
                if moving != Some(unit) {
                    moving = Some(unit);
                    trail.clear();
                }
                trail.push((from, 0));
                returns += u32::from(trail.iter().any(|&(h, revealed)| h == to && revealed == 0));
            } else {
                moving = None;
                trail.clear();
            }
            s.apply_unchecked(legal[i]);
        }
    }
    (returns, phases)
}

/// The player's complaint: a unit taking a road and the same road straight back in one
/// turn, revealing nothing. Greedy ranks every move by the evaluation, and made 3 to 5
/// such round trips per movement phase while the phase was worth something of itself
/// (ending it lost every threat's strike-now share); then 0.72 a phase on classic and
/// 1.30 under the Expansion's reordered turn (`online`), mostly while a battle it had
/// entered waited to begin: moving another unit out and back kept the units that could
/// still join it counted, which beginning the battle ends. Now it plays no null move
/// ([`AiGame::null_move_key`]), as MCTS does not.
#[test]
fn greedy_seldom_goes_out_and_back_for_nothing() {
    for preset in ["classic", "expansion", "online"] {
        let (returns, phases) = round_trips(&mut Greedy::default(), preset, 0..6, 30);
        eprintln!(
            "{preset}: greedy: {returns} round trips revealing nothing in {phases} movement phases"
        );
        assert!(phases > 200, "{preset}: {phases} movement phases");
        assert!(
            f64::from(returns) / f64::from(phases) < 0.1,
            "{preset}: {returns} round trips revealing nothing in {phases} movement phases"
        );
    }
}

/// MCTS never tries a null move (back to a position of the player turn, nothing
/// learnt: [`AiGame::null_move_key`]), so the levels' searches make round trips only
/// where something else changed between (a battle, another unit's loss).
#[test]
fn mcts_seldom_goes_out_and_back_for_nothing() {
    let mut bot = Mcts::new(<Viktory as AiGame>::search_settings(MctsConfig {
        budget: Budget::Iterations(300),
        trees: 2,
        threads: 1,
        ..MctsConfig::default()
    }));
    let (returns, phases) = round_trips(&mut bot, "classic", 0..2, 12);
    eprintln!("mcts: {returns} round trips revealing nothing in {phases} movement phases");
    assert!(phases > 30, "{phases} movement phases");
    assert!(
        f64::from(returns) / f64::from(phases) < 0.2,
        "{returns} round trips revealing nothing in {phases} movement phases"
    );
}
