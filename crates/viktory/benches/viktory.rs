//! VIKTORY II engine benchmarks: random-playout throughput, legal-action generation in a
//! mid-game position, the size and clone cost of a state, and the exact battle odds.
//!
//! `cargo bench -p viktory` runs everything. A plain timing loop (no benchmark crate):
//! each measurement repeats its work until at least one second has passed, five times,
//! and prints the median run (and the spread of the five). Nothing here asserts on time.
//!
//! Arguments after `--`: a word filters the measurements by name (`playout`, `legal`,
//! `state`, `odds`); `--quick` uses 0.2 s runs, three of them; `--profile` only plays the
//! 4-player seed set once, untimed, for `valgrind --tool=callgrind` or `perf record`.
//! `odds-cost` (only when named) times the exact method and the estimate on growing
//! battles beside their cost estimate, the figures `odds::EXACT_COST_LIMIT` was chosen
//! from (docs/odds.md).

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::{Game, GameRng, NewGame, ToMove};
use hexmap::Board;
use viktory::odds::{self, BattleSpec, SpecUnit};
use viktory::state::Stage;
use viktory::{Action, PerKind, Rules, Terrain, Unit, UnitId, UnitKind, Viktory};

/// The allocator of the `hexwar` binary (crates/cli), so the figures are what it gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The seeds every playout measurement plays, in order (one game per seed).
const SEEDS: std::ops::Range<u64> = 0..16;
/// The game turn the mid-game position is taken at.
const MID_GAME_TURN: u16 = 8;
/// The seed of the playout that leads to the mid-game position.
const MID_GAME_SEED: u64 = 1;
/// A playout stops after this many actions even if the game is not over (a guard only;
/// the turn cap ends every game long before).
const MAX_ACTIONS: u64 = 1_000_000;
/// `legal_actions()` calls (and clone + apply pairs) per timed batch.
const CALLS: u64 = 100;
/// Clones per timed batch.
const CLONES: u64 = 1000;

/// How long and how often each measurement runs.
#[derive(Clone, Copy)]
struct Plan {
    run: Duration,
    runs: usize,
}

/// One timed run: `units` pieces of work (actions, calls) in `elapsed`.
#[derive(Clone, Copy)]
struct Run {
    elapsed: Duration,
    units: u64,
    extra: u64,
}

impl Run {
    fn per_second(&self) -> f64 {
        self.units as f64 / self.elapsed.as_secs_f64()
    }

    fn nanos_per_unit(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e9 / self.units as f64
    }
}

/// Runs `batch` (which does some work and returns how many units and extras it did)
/// repeatedly until `plan.run` has passed, `plan.runs` times; returns the runs sorted by
/// rate, slowest first, so the median is in the middle.
fn measure(plan: Plan, mut batch: impl FnMut() -> (u64, u64)) -> Vec<Run> {
    // Warm-up: one batch, untimed.
    black_box(batch());
    let mut runs: Vec<Run> = (0..plan.runs)
        .map(|_| {
            let start = Instant::now();
            let (mut units, mut extra) = (0, 0);
            loop {
                let (u, e) = batch();
                units += u;
                extra += e;
                let elapsed = start.elapsed();
                if elapsed >= plan.run {
                    return Run {
                        elapsed,
                        units,
                        extra,
                    };
                }
            }
        })
        .collect();
    runs.sort_by(|a, b| a.per_second().total_cmp(&b.per_second()));
    runs
}

fn median(runs: &[Run]) -> Run {
    runs[runs.len() / 2]
}

/// "min–max" of the runs' rates, for a feel of the noise.
fn spread(runs: &[Run]) -> String {
    format!(
        "{}–{}",
        thousands(runs[0].per_second()),
        thousands(runs[runs.len() - 1].per_second())
    )
}

fn thousands(x: f64) -> String {
    let n = x.round() as u64;
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A classic game for `players` with the 30-turn cap, before the first player is drawn.
fn classic(players: u8) -> Viktory {
    game("classic", players, &[])
}

/// A game of `preset` for `players` with the 30-turn cap and boolean options switched
/// on, before the first player is drawn.
fn game(preset: &str, players: u8, on: &[&str]) -> Viktory {
    let mut options = serde_json::Map::new();
    options.insert("max_turns".into(), 30.into());
    for &name in on {
        options.insert(name.into(), true.into());
    }
    let request = NewGame {
        preset: Some(preset.into()),
        players: Some(players),
        options,
    };
    let setup = Viktory::new_setup(&request).expect("preset");
    Viktory::from_setup(&setup).expect("setup is valid")
}

/// What one playout did.
#[derive(Clone, Copy, Default)]
struct Played {
    /// Every action applied.
    actions: u64,
    /// Of those, chance outcomes (dice, tile reveals, the first-player draw).
    chance: u64,
    /// Legal actions summed over the seat decisions (for the mean branching factor).
    branching: u64,
}

/// One uniform random step, exactly as `engine::playout` takes it: chance by its own
/// weights, a seat's decision uniformly among the legal actions. `None` when over.
fn step(state: &mut Viktory, rng: &mut GameRng, played: &mut Played) -> Option<()> {
    let action: Action = match state.to_move() {
        ToMove::Over(_) => return None,
        ToMove::Chance => {
            played.chance += 1;
            state.sample_chance(rng)
        }
        ToMove::Seat(_) => {
            let mut legal = state.legal_actions();
            if legal.is_empty() {
                return None;
            }
            played.branching += legal.len() as u64;
            let i = rng.below(legal.len() as u32) as usize;
            legal.swap_remove(i)
        }
    };
    state.apply_unchecked(action);
    played.actions += 1;
    Some(())
}

/// Plays one seeded game from `start` to its end.
fn playout(start: &Viktory, seed: u64) -> (Played, Viktory) {
    let mut state = start.clone();
    let mut rng = GameRng::from_u64(seed);
    let mut played = Played::default();
    while played.actions < MAX_ACTIONS && step(&mut state, &mut rng, &mut played).is_some() {}
    (played, state)
}

fn bench_playouts(plan: Plan, players: u8) {
    bench_playouts_of(
        plan,
        &format!("playout/{players}p"),
        "classic",
        &classic(players),
    );
}

fn bench_playouts_of(plan: Plan, name: &str, what: &str, start: &Viktory) {
    let start = start.clone();
    // The games themselves, once, for their shape.
    let mut total = Played::default();
    let mut turns = 0u64;
    for seed in SEEDS {
        let (p, end) = playout(&start, seed);
        total.actions += p.actions;
        total.chance += p.chance;
        total.branching += p.branching;
        turns += u64::from(end.turn().number);
        assert!(
            end.outcome().is_some(),
            "seed {seed}: the game did not end within {MAX_ACTIONS} actions"
        );
    }
    let games = SEEDS.end - SEEDS.start;
    let decisions = total.actions - total.chance;
    println!(
        "{name}: {what}, max_turns 30, seeds {}..{}: {} actions per game \
         ({:.0}% chance), {:.1} game turns per game, {:.1} legal actions per decision",
        SEEDS.start,
        SEEDS.end,
        total.actions / games,
        100.0 * total.chance as f64 / total.actions as f64,
        turns as f64 / games as f64,
        total.branching as f64 / decisions as f64,
    );
    let runs = measure(plan, || {
        let mut actions = 0;
        for seed in SEEDS {
            let (p, end) = playout(&start, seed);
            black_box(end);
            actions += p.actions;
        }
        (actions, games)
    });
    let m = median(&runs);
    println!(
        "{name}: {} actions/s, {:.1} games/s, {:.0} ns/action \
         (median of {} runs of ≥{:?}; actions/s min–max {})",
        thousands(m.per_second()),
        m.extra as f64 / m.elapsed.as_secs_f64(),
        m.nanos_per_unit(),
        runs.len(),
        plan.run,
        spread(&runs),
    );
}

/// The mid-game position: the 4-player game of `MID_GAME_SEED`, played at random until
/// the first decision in the movement phase of game turn `MID_GAME_TURN`.
fn mid_game() -> (Viktory, u64) {
    let mut state = classic(4);
    let mut rng = GameRng::from_u64(MID_GAME_SEED);
    let mut played = Played::default();
    loop {
        let t = state.turn();
        if t.number >= MID_GAME_TURN
            && t.stage == Stage::Move
            && state.battle().is_none()
            && matches!(state.to_move(), ToMove::Seat(_))
        {
            return (state, played.actions);
        }
        assert!(
            step(&mut state, &mut rng, &mut played).is_some(),
            "the mid-game playout ended before turn {MID_GAME_TURN}"
        );
    }
}

fn describe(state: &Viktory, after: u64) -> String {
    let t = state.turn();
    format!(
        "4p seed {MID_GAME_SEED} after {after} actions: board of {} hexes, turn {}, \
         {} to move in {:?}, {} units on the map, {} towns/cities",
        state.board().len(),
        t.number,
        t.active,
        t.stage,
        state.units().len(),
        state.towns().count(),
    )
}

fn bench_legal(plan: Plan) {
    let (state, after) = mid_game();
    let legal = state.legal_actions();
    println!("legal/mid-game: {}", describe(&state, after));
    let runs = measure(plan, || {
        for _ in 0..CALLS {
            black_box(black_box(&state).legal_actions());
        }
        (CALLS, 0)
    });
    let m = median(&runs);
    println!(
        "legal/mid-game: {} legal actions, {:.2} µs per legal_actions() call \
         ({} calls/s; median of {} runs, calls/s min–max {})",
        legal.len(),
        m.nanos_per_unit() / 1e3,
        thousands(m.per_second()),
        runs.len(),
        spread(&runs),
    );
    // And the decision a playout takes there: generation plus one apply on a copy.
    let first = legal[legal.len() / 2];
    let runs = measure(plan, || {
        for _ in 0..CALLS {
            let mut s = black_box(&state).clone();
            black_box(s.apply_unchecked(black_box(first)));
            black_box(s);
        }
        (CALLS, 0)
    });
    let m = median(&runs);
    println!(
        "legal/mid-game: clone + apply_unchecked({}) {:.2} µs",
        state.describe_action(&first),
        m.nanos_per_unit() / 1e3,
    );
}

/// Heap bytes the state owns, counted from its public accessors: lengths, not
/// capacities, so a lower bound; and the number of heap blocks a clone allocates.
fn heap_estimate(s: &Viktory) -> (usize, usize) {
    use std::mem::size_of;
    use viktory::state::{Cell, Placed, Player};
    use viktory::{UnitId, UnitKind, Victory};
    let mut bytes = 0;
    let mut blocks = 0;
    let mut add = |n: usize| {
        if n > 0 {
            bytes += n;
            blocks += 1;
        }
    };
    let r = s.rules();
    let hex = size_of::<hexmap::Hex>();
    add(r.preset.len());
    add(r.victory.len() * size_of::<Victory>());
    add(s.board().len() * size_of::<Cell>());
    add(std::mem::size_of_val(s.units()));
    add(usize::from(r.players) * size_of::<Player>());
    let t = s.turn();
    add(t.capital_candidates.len() * hex);
    add(t.started_here.len() * hex);
    add(t.battle_hexes.len() * hex);
    add(t.pending_battles.len() * hex);
    add(t.placed.len() * size_of::<Placed>());
    add(t.placement_battles.len() * hex);
    add(std::mem::size_of_val(s.pending_reveals()));
    if let Some(b) = s.battle() {
        add(b.rolls.len());
        add(b.marked.len() * size_of::<UnitId>());
        add(b.entries.len() * hex);
    }
    if let Some(c) = s.capture() {
        add(c.owed.len() * size_of::<UnitKind>());
    }
    (bytes, blocks)
}

fn bench_state(plan: Plan) {
    let (state, after) = mid_game();
    println!("state/mid-game: {}", describe(&state, after));
    let json = serde_json::to_vec(&state).expect("a state serialises");
    let (heap, blocks) = heap_estimate(&state);
    println!(
        "state/mid-game: size_of::<Viktory>() = {} B, heap ≈ {heap} B in {blocks} blocks \
         (lengths from accessors, a lower bound), serialised JSON = {} B \
         (size_of::<Unit>() = {} B)",
        std::mem::size_of::<Viktory>(),
        json.len(),
        std::mem::size_of::<Unit>(),
    );
    let runs = measure(plan, || {
        for _ in 0..CLONES {
            black_box(black_box(&state).clone());
        }
        (CLONES, 0)
    });
    let m = median(&runs);
    println!(
        "state/mid-game: clone (and drop) {:.0} ns (median of {} runs, clones/s min–max {})",
        m.nanos_per_unit(),
        runs.len(),
        spread(&runs),
    );
}

/// A described battle: `attackers` as (kind, count, hex side) groups.
fn spec_battle(
    rules: Rules,
    attackers: &[(UnitKind, u8, u8)],
    defenders: PerKind,
    terrain: Terrain,
    town: Option<bool>,
    naval_support: u8,
) -> BattleSpec {
    BattleSpec {
        attackers: attackers
            .iter()
            .flat_map(|&(kind, n, side)| (0..n).map(move |_| SpecUnit { kind, side }))
            .collect(),
        defenders,
        terrain,
        town,
        naval_support,
        ..BattleSpec::new(rules)
    }
}

/// Every attack the active player of `state` could make next: each hex holding enemy
/// units or an enemy town next to some of his units, with all his land units next to
/// it (frigates for a water hex).
fn attacks(state: &Viktory) -> Vec<(hexmap::Hex, Vec<UnitId>)> {
    let me = state.turn().active;
    let mut targets: Vec<hexmap::Hex> = state
        .units()
        .iter()
        .filter(|u| u.owner != me && u.aboard.is_none())
        .map(|u| u.hex)
        .chain(state.towns().filter(|(_, t)| t.owner != me).map(|(h, _)| h))
        .collect();
    targets.sort();
    targets.dedup();
    targets
        .into_iter()
        .filter_map(|hex| {
            let water = !state.terrain(hex)?.is_land();
            let ids: Vec<UnitId> = state
                .units()
                .iter()
                .filter(|u| {
                    u.owner == me
                        && u.aboard.is_none()
                        && u.hex.distance(hex) == 1
                        && (u.kind == UnitKind::Frigate) == water
                })
                .map(|u| u.id)
                .collect();
            (!ids.is_empty()).then_some((hex, ids))
        })
        .collect()
}

fn bench_odds(plan: Plan) {
    let cases = [
        (
            "1i vs 1i, plains, classic",
            spec_battle(
                Rules::classic(2),
                &[(UnitKind::Infantry, 1, 0)],
                PerKind {
                    infantry: 1,
                    ..PerKind::default()
                },
                Terrain::Plains,
                None,
                0,
            ),
        ),
        (
            "12.3 example: 3i 1c 2a vs 2i 1a, mountain city, naval support, classic",
            spec_battle(
                Rules::classic(2),
                &[
                    (UnitKind::Infantry, 3, 0),
                    (UnitKind::Cavalry, 1, 0),
                    (UnitKind::Artillery, 2, 1),
                ],
                PerKind {
                    infantry: 2,
                    artillery: 1,
                    ..PerKind::default()
                },
                Terrain::Mountain,
                Some(true),
                1,
            ),
        ),
        (
            "8i 3c 4a from 3 sides vs 6i 2c 3a, mountain city, expansion",
            spec_battle(
                Rules::expansion(2),
                &[
                    (UnitKind::Infantry, 4, 0),
                    (UnitKind::Infantry, 4, 1),
                    (UnitKind::Cavalry, 3, 2),
                    (UnitKind::Artillery, 4, 0),
                ],
                PerKind {
                    infantry: 6,
                    cavalry: 2,
                    artillery: 3,
                    frigate: 0,
                },
                Terrain::Mountain,
                Some(true),
                2,
            ),
        ),
    ];
    for (name, spec) in cases {
        let state = spec.position().expect("a valid battle");
        let hex = BattleSpec::HEX;
        let o = odds::battle_odds(&state, hex).expect("odds");
        let runs = measure(plan, || {
            for _ in 0..10 {
                black_box(odds::battle_odds(black_box(&state), hex));
            }
            (10, 0)
        });
        let m = median(&runs);
        println!(
            "odds/battle: {name}: win {:.4}, {:.1} µs per battle_odds() call (median of {} runs)",
            o.attacker_wins,
            m.nanos_per_unit() / 1e3,
            runs.len(),
        );
    }
    // What a greedy bot asks in real positions: every attack the player to move could
    // make next, at every movement-phase decision of the 4-player game of seed 1.
    let mut state = classic(4);
    let mut rng = GameRng::from_u64(MID_GAME_SEED);
    let mut played = Played::default();
    let mut queries: Vec<(Viktory, hexmap::Hex, Vec<UnitId>)> = Vec::new();
    while queries.len() < 400 && step(&mut state, &mut rng, &mut played).is_some() {
        if state.turn().stage == Stage::Move
            && state.battle().is_none()
            && matches!(state.to_move(), ToMove::Seat(_))
        {
            for (hex, ids) in attacks(&state) {
                queries.push((state.clone(), hex, ids));
            }
        }
    }
    let answered = queries
        .iter()
        .filter(|(s, hex, ids)| odds::attack_odds(s, *hex, ids).is_some())
        .count();
    let units: usize = queries.iter().map(|(_, _, ids)| ids.len()).sum();
    let runs = measure(plan, || {
        for (s, hex, ids) in &queries {
            black_box(odds::attack_odds(black_box(s), *hex, ids));
        }
        (queries.len().max(1) as u64, 0)
    });
    let m = median(&runs);
    println!(
        "odds/attack: 4p seed {MID_GAME_SEED}, every possible attack at the movement-phase decisions of its first {} actions: {} attacks ({answered} answered, {:.1} attacking units on average), {:.2} µs per attack_odds() call (median of {} runs)",
        played.actions,
        queries.len(),
        units as f64 / queries.len().max(1) as f64,
        m.nanos_per_unit() / 1e3,
        runs.len(),
    );
}

/// Plays the 4-player seed set once, untimed: the workload to profile. `which` is
/// `classic`, `fog` (the `online` preset with Dark and Independent exploration, as
/// `playout/4p-online-fog`) or `online` (the same preset without them, as
/// `playout/4p-online`: what the fog options cost is the difference).
fn profile(which: &str) {
    let start = match which {
        "fog" => game("online", 4, &["dark", "independent_exploration"]),
        "online" => game("online", 4, &[]),
        _ => classic(4),
    };
    let mut total = Played::default();
    for seed in SEEDS {
        let (p, end) = playout(&start, seed);
        black_box(end);
        total.actions += p.actions;
        total.chance += p.chance;
    }
    println!(
        "profile {which}: 4p seeds {}..{}: {} actions ({} chance)",
        SEEDS.start, SEEDS.end, total.actions, total.chance
    );
}

/// Rules with every dice option at `dice` (per type, pre-battle, terrain, support) and
/// the Expansion's extra dice on.
fn dice_rules(dice: u8, hit_max: u8) -> Rules {
    let mut r = Rules::expansion(2);
    for kind in UnitKind::ALL {
        *r.attack_dice.get_mut(kind) = dice;
        *r.defense_dice.get_mut(kind) = dice;
    }
    r.pre_battle_fire = dice;
    r.naval_support_dice = dice;
    r.strong_terrain_dice = dice;
    r.weak_terrain_dice = dice;
    r.hit_max = hit_max;
    r.defender_pre_battle_fire = true;
    r
}

/// `n` units of each land type on each side, the attackers across `sides` hex sides.
fn even_battle(rules: Rules, n: u8, sides: u8, terrain: Terrain, town: Option<bool>) -> BattleSpec {
    let mut attackers = Vec::new();
    for (i, kind) in [UnitKind::Infantry, UnitKind::Cavalry, UnitKind::Artillery]
        .into_iter()
        .enumerate()
    {
        for j in 0..n {
            attackers.push((kind, 1, (i as u8 + j) % sides.max(1)));
        }
    }
    spec_battle(
        rules,
        &attackers,
        PerKind {
            infantry: n,
            cavalry: n,
            artillery: n,
            frigate: 0,
        },
        terrain,
        town,
        1,
    )
}

/// The time of one call of `f`: the median of five runs of at least 0.2 s (or one
/// call, when a call takes longer).
fn time_call(mut f: impl FnMut()) -> f64 {
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let mut calls = 0u32;
        while calls == 0 || start.elapsed() < Duration::from_millis(200) {
            f();
            calls += 1;
        }
        times.push(start.elapsed().as_secs_f64() / f64::from(calls));
        if calls == 1 && times.len() >= 2 {
            break;
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn bench_odds_cost() {
    let mut cases: Vec<(String, BattleSpec)> = Vec::new();
    for n in [1, 3, 5, 7, 9, 11] {
        cases.push((
            format!("{n}i {n}c {n}a each side, classic, forest town"),
            even_battle(Rules::classic(2), n, 1, Terrain::Forest, Some(false)),
        ));
    }
    for n in [2, 4, 6, 8] {
        let mut spec = even_battle(Rules::classic(2), n, 1, Terrain::Forest, Some(false));
        spec.policy.tactical = odds::TacticalPolicy::Strongest;
        cases.push((
            format!("{n}i {n}c {n}a each side, classic, forest town, strongest first"),
            spec,
        ));
    }
    for n in [2, 4, 6] {
        let mut rules = dice_rules(2, 3);
        rules.artillery_characteristics = true;
        let mut spec = even_battle(rules, n, 3, Terrain::Plains, Some(false));
        spec.policy.tactical = odds::TacticalPolicy::Strongest;
        cases.push((
            format!("{n}i {n}c {n}a each side from 3 sides, dice 2, Overwatch, strongest first"),
            spec,
        ));
    }
    for (dice, hit_max) in [(2, 3), (4, 3), (6, 3), (6, 4)] {
        for n in [1, 2, 3, 4, 5] {
            cases.push((
                format!("{n}i {n}c {n}a each side from 5 sides, dice {dice}, hits on {hit_max}, mountain city"),
                even_battle(dice_rules(dice, hit_max), n, 5, Terrain::Mountain, Some(true)),
            ));
        }
    }
    for n in [5, 10, 20, 30, 40] {
        cases.push((
            format!("{n}a vs {n}a, pre-battle fire 6 both sides, hits on 3"),
            spec_battle(
                dice_rules(6, 3),
                &[(UnitKind::Artillery, n, 0)],
                PerKind {
                    artillery: n,
                    ..PerKind::default()
                },
                Terrain::Plains,
                None,
                0,
            ),
        ));
    }
    cases.push((
        "8i 3c 4a from 3 sides vs 6i 2c 3a, mountain city, expansion (odds/battle)".into(),
        spec_battle(
            Rules::expansion(2),
            &[
                (UnitKind::Infantry, 4, 0),
                (UnitKind::Infantry, 4, 1),
                (UnitKind::Cavalry, 3, 2),
                (UnitKind::Artillery, 4, 0),
            ],
            PerKind {
                infantry: 6,
                cavalry: 2,
                artillery: 3,
                frigate: 0,
            },
            Terrain::Mountain,
            Some(true),
            2,
        ),
    ));
    for n in [20, 33] {
        cases.push((
            format!("{n}i {n}c {n}a each side from 5 sides, dice 6, hits on 1, mountain city"),
            even_battle(dice_rules(6, 1), n, 5, Terrain::Mountain, Some(true)),
        ));
    }
    let mut states: Vec<(String, Viktory, odds::Policy)> = cases
        .into_iter()
        .map(|(name, spec)| (name, spec.position().expect("a valid battle"), spec.policy))
        .collect();
    // Beyond what a BattleSpec holds: n of each land type on each side, hand-made.
    for (n, hit_max) in [(100u16, 3u8), (255, 3), (255, 1)] {
        let spec = even_battle(dice_rules(6, hit_max), 1, 5, Terrain::Mountain, Some(true));
        let mut setup = spec.position().expect("a valid battle").to_setup();
        let model: Vec<Unit> = setup
            .units
            .iter()
            .filter(|u| u.hex == BattleSpec::HEX)
            .cloned()
            .collect();
        let mut next = setup.units.iter().map(|u| u.id.0).max().unwrap_or(0) + 1;
        for u in &model {
            for _ in 1..n {
                let mut c = u.clone();
                c.id = UnitId(next);
                next += 1;
                setup.units.push(c);
            }
        }
        setup.next_unit = Some(next);
        states.push((
            format!(
                "{n}i {n}c {n}a each side, dice 6, hits on {hit_max}, mountain city (hand-made)"
            ),
            Viktory::from_setup(&setup).expect("a valid position"),
            odds::Policy::default(),
        ));
    }
    println!(
        "odds-cost: battle | cost | exact ms | ns per cost unit | estimate ms (samples) | estimated win vs exact"
    );
    for (name, state, policy) in states {
        let hex = BattleSpec::HEX;
        let cost = odds::battle_cost(&state, hex, policy).expect("a battle");
        let exact = if cost <= 2_000_000_000 {
            odds::battle_odds_by(&state, hex, policy, odds::Method::Exact)
        } else {
            None
        };
        let exact_s = exact.as_ref().map(|_| {
            time_call(|| {
                black_box(odds::battle_odds_by(
                    black_box(&state),
                    hex,
                    policy,
                    odds::Method::Exact,
                ));
            })
        });
        let estimate = odds::battle_odds_by(&state, hex, policy, odds::Method::Estimate);
        let estimate_s = time_call(|| {
            black_box(odds::battle_odds_by(
                black_box(&state),
                hex,
                policy,
                odds::Method::Estimate,
            ));
        });
        println!(
            "odds-cost: {name} | {cost} | {} | {} | {:.2} ({}) | {}",
            exact_s.map_or("-".into(), |t| format!("{:.3}", t * 1e3)),
            exact_s.map_or("-".into(), |t| format!("{:.2}", t * 1e9 / cost as f64)),
            estimate_s * 1e3,
            estimate.as_ref().and_then(|o| o.samples).unwrap_or(0),
            match (&exact, &estimate) {
                (Some(e), Some(m)) => format!("{:.4} vs {:.4}", m.attacker_wins, e.attacker_wins),
                (None, Some(m)) => format!("{:.4}", m.attacker_wins),
                _ => "-".into(),
            },
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--profile") {
        let which = ["fog", "online"]
            .into_iter()
            .find(|w| args.iter().any(|a| a == w))
            .unwrap_or("classic");
        profile(which);
        return;
    }
    let plan = if args.iter().any(|a| a == "--quick") {
        Plan {
            run: Duration::from_millis(200),
            runs: 3,
        }
    } else {
        Plan {
            run: Duration::from_secs(1),
            runs: 5,
        }
    };
    let filters: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(String::as_str)
        .collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    if wanted("playout/2p") {
        bench_playouts(plan, 2);
    }
    if wanted("playout/4p") {
        bench_playouts(plan, 4);
    }
    if wanted("playout/4p-online") {
        let start = game("online", 4, &[]);
        bench_playouts_of(
            plan,
            "playout/4p-online",
            "online, without Dark and Independent exploration",
            &start,
        );
    }
    if wanted("playout/4p-online-fog") {
        let start = game("online", 4, &["dark", "independent_exploration"]);
        bench_playouts_of(
            plan,
            "playout/4p-online-fog",
            "online, dark, independent exploration",
            &start,
        );
    }
    if wanted("playout/4p-extremely-optional") {
        let every = [
            "accelerator_enhancement",
            "metropolis",
            "battle_dice_factors",
            "frigate_characteristics",
            "artillery_characteristics",
            "pillage",
            "cavalry_characteristics",
            "road_ferry_network",
        ];
        let start = game("expansion", 4, &every);
        bench_playouts_of(
            plan,
            "playout/4p-extremely-optional",
            "expansion, every extremely optional rule",
            &start,
        );
    }
    if wanted("legal/mid-game") {
        bench_legal(plan);
    }
    if wanted("state/mid-game") {
        bench_state(plan);
    }
    if wanted("odds") && !filters.contains(&"odds-cost") {
        bench_odds(plan);
    }
    if filters.contains(&"odds-cost") {
        bench_odds_cost();
    }
}
