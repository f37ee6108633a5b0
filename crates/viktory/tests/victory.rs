//! Scenario tests for 5.0 How to Win: standard conquest (5.1), shorter conquest (5.3),
//! race for dominance (5.4), the doomsday clock (5.5), and the turn limit.

mod common;

use common::*;
use engine::{Game, Outcome, Seat, ToMove};
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, UnitKind, Victory, Viktory};

const INF: UnitKind = UnitKind::Infantry;

fn game_over(winners: &[u8], scores: &[i64], reason: &str) -> Event {
    Event::GameOver {
        outcome: Outcome {
            winners: winners.iter().map(|&p| Seat(p)).collect(),
            scores: scores.to_vec(),
            reason: reason.into(),
        },
    }
}

fn defense(value: u8) -> Event {
    Event::DieRolled {
        seat: Seat(1),
        purpose: DiePurpose::Defense,
        value,
    }
}

fn doomsday(seat: u8, value: u8) -> Event {
    Event::DieRolled {
        seat: Seat(seat),
        purpose: DiePurpose::Doomsday,
        value,
    }
}

fn turn_started(seat: u8, turn: u16) -> Event {
    Event::TurnStarted {
        seat: Seat(seat),
        turn,
    }
}

fn build_phase() -> Event {
    Event::PhaseStarted {
        stage: Stage::Build,
    }
}

/// The first events of seat 0 taking seat 1's undefended town or city at (0,0) from
/// (1,0) with unit 1, the defence rolling `misses`.
fn capture_0_0(s: &mut Viktory, city: bool, misses: &[u8]) -> Vec<Event> {
    act(s, mv(1, 0, 0));
    act(s, Action::Fight { hex: h(0, 0) });
    let events = dice(s, misses);
    let mut expected: Vec<Event> = misses.iter().map(|&v| defense(v)).collect();
    expected.extend([
        Event::BattleEnded {
            hex: h(0, 0),
            winner: Seat(0),
        },
        Event::Captured {
            hex: h(0, 0),
            from: Seat(1),
            to: Seat(0),
            city,
        },
    ]);
    assert_eq!(events[..expected.len()], expected[..]);
    events[expected.len()..].to_vec()
}

/// Seat 1, with nothing in reserve, ends his movement phase; his placement phase passes
/// by itself and seat 0's turn 2 starts. Returns the events after the placement phase
/// began.
fn end_seat_1_turn(mut pos: Pos) -> (Viktory, Vec<Event>) {
    pos.setup.turn.stage = Stage::Move;
    let mut s = pos.active(1).build();
    assert_eq!(s.turn().stage, Stage::Move);
    let mut events = act(&mut s, Action::EndPhase);
    assert_eq!(
        events.remove(0),
        Event::PhaseStarted {
            stage: Stage::Place
        }
    );
    (s, events)
}

/// 5.1: when every other player is gone, the last one wins at once.
#[test]
fn rule_5_1_the_last_player_left_wins() {
    let mut s = Pos::new(2, Stage::Move)
        .town(h(-3, 1), 0, false, true)
        .unit(1, 0, INF, h(1, 0))
        .town(h(0, 0), 1, false, true)
        .unit(2, 1, INF, h(0, -2))
        .build();
    let events = capture_0_0(&mut s, false, &[5]);
    let outcome = game_over(&[0], &[2, 0], "conquest");
    assert_eq!(
        events,
        vec![
            Event::UnitGained {
                seat: Seat(0),
                kind: INF
            },
            // His last town: no units to choose, everything leaves the game.
            Event::Eliminated { seat: Seat(1) },
            outcome.clone(),
        ]
    );
    let Event::GameOver { outcome } = outcome else {
        unreachable!()
    };
    assert_eq!(s.to_move(), ToMove::Over(outcome));
    assert!(s.legal_actions().is_empty());
    assert_eq!(refused(&s, Action::EndPhase), ("game_over", "5.0"));
}

/// The shorter-conquest position: seat 1 has his capital at (0,0) and three plains
/// cities (the largest empire); seat 2 has a capital city (2 points); seat 0 has his
/// capital town and is about to take (0,0).
fn shorter_conquest(capital_at_0_0: bool) -> Viktory {
    let pos = Pos::new(3, Stage::Move)
        .rules(|r| r.victory = vec![Victory::ShorterConquest])
        .town(h(-3, 1), 0, false, true)
        .unit(1, 0, INF, h(1, 0))
        .town(h(0, 0), 1, false, capital_at_0_0)
        .town(h(0, 2), 1, true, false)
        .town(h(2, 1), 1, true, false)
        .town(h(-2, 3), 1, true, !capital_at_0_0)
        .reserve(1, INF, 7)
        .town(h(3, -3), 2, true, true);
    pos.build()
}

/// 5.3: the first capture of a capital ends the game; the player who lost it is left
/// out, and the largest remaining empires (1 point a town, 2 a city) share the win.
#[test]
fn rule_5_3_the_first_captured_capital_ends_the_game() {
    let mut s = shorter_conquest(true);
    let events = capture_0_0(&mut s, false, &[5]);
    assert_eq!(
        events,
        vec![
            Event::UnitGained {
                seat: Seat(0),
                kind: INF
            },
            Event::Disbanded {
                seat: Seat(1),
                kind: INF,
                unit: None,
                hex: None
            },
            // Seat 1 still has 6 points, the most, but he lost his capital.
            game_over(&[0, 2], &[2, 6, 2], "a capital fell"),
        ]
    );
    assert!(s.to_move().is_over());
}

/// 5.3: taking an ordinary town does not end the game.
#[test]
fn rule_5_3_an_ordinary_town_does_not_end_the_game() {
    let mut s = shorter_conquest(false);
    capture_0_0(&mut s, false, &[5]);
    assert!(s.outcome().is_none());
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
}

/// 5.4: an empire worth the race points at the start of its owner's turn wins (race
/// points lowered to 3 to keep the position small).
#[test]
fn rule_5_4_race_is_won_at_the_start_of_the_turn() {
    let pos = Pos::new(2, Stage::Place)
        .rules(|r| {
            r.victory = vec![Victory::RaceForDominance];
            r.race_points = 3;
        })
        .town(h(-3, 1), 0, false, true)
        .town(h(0, 0), 0, true, false)
        .town(h(3, -1), 1, false, true);
    let (s, events) = end_seat_1_turn(pos);
    assert_eq!(
        events,
        vec![
            turn_started(0, 2),
            game_over(&[0], &[3, 1], "race for dominance")
        ]
    );
    assert!(s.to_move().is_over());
}

/// 5.4: points reached during a turn do not win until the start of the owner's next
/// turn, before his building phase.
#[test]
fn rule_5_4_points_reached_during_the_turn_count_at_the_next_turn() {
    let mut s = Pos::new(2, Stage::Build)
        .rules(|r| {
            r.victory = vec![Victory::RaceForDominance];
            r.race_points = 3;
        })
        .town(h(-3, 1), 0, false, true)
        .town(h(0, 0), 0, false, false)
        .town(h(3, -1), 1, false, true)
        .build();
    act(&mut s, Action::BuildCity { hex: h(0, 0) });
    assert_eq!(s.score(Seat(0)), 3);
    // Seat 0 keeps his new infantry in reserve; seat 1 plays his turn.
    play(&mut s, &[Action::EndPhase, Action::EndPhase]);
    assert!(s.outcome().is_none());
    assert_eq!(s.turn().active, Seat(1));
    act(&mut s, Action::EndPhase);
    let events = act(&mut s, Action::EndPhase);
    assert_eq!(
        events,
        vec![
            Event::PhaseStarted {
                stage: Stage::Place
            },
            turn_started(0, 2),
            game_over(&[0], &[3, 1], "race for dominance"),
        ]
    );
}

/// Ten hexes two or more apart (no two adjacent) for seat 0's towns and cities.
const SPREAD: [(i32, i32); 10] = [
    (0, 0),
    (1, -2),
    (2, -1),
    (1, 1),
    (-1, 2),
    (-2, 1),
    (-1, -1),
    (3, 0),
    (0, -3),
    (-3, 0),
];

/// Seat 0 with ten cities, or nine and a town; seat 1 with a capital town at (3,-3).
fn empire(last_is_city: bool) -> Pos {
    let mut pos = Pos::new(2, Stage::Place)
        .rules(|r| r.victory = vec![Victory::RaceForDominance])
        .town(h(3, -3), 1, false, true);
    for (i, &(q, r)) in SPREAD.iter().enumerate() {
        let city = i + 1 < SPREAD.len() || last_is_city;
        pos = pos.town(h(q, r), 0, city, i == 0);
    }
    pos
}

/// 5.4 with the printed threshold: 20 points win, 19 do not.
#[test]
fn rule_5_4_the_default_race_is_to_20_points() {
    assert_eq!(viktory::Rules::classic(2).race_points, 20);
    let (s, events) = end_seat_1_turn(empire(true));
    assert_eq!(s.score(Seat(0)), 20);
    assert_eq!(
        events,
        vec![
            turn_started(0, 2),
            game_over(&[0], &[20, 1], "race for dominance")
        ]
    );
    let (s, events) = end_seat_1_turn(empire(false));
    assert_eq!(s.score(Seat(0)), 19);
    assert_eq!(events, vec![turn_started(0, 2), build_phase()]);
    assert!(s.outcome().is_none());
}

/// The doomsday position: seat 0 to take seat 1's town or city at (0,0).
fn doomsday_capture(city: bool) -> Viktory {
    Pos::new(2, Stage::Move)
        .rules(|r| r.victory = vec![Victory::StandardConquest, Victory::DoomsdayClock])
        .town(h(-3, 1), 0, false, true)
        .unit(1, 0, INF, h(1, 0))
        .town(h(0, 0), 1, city, false)
        .town(h(3, -2), 1, false, true)
        .reserve(1, INF, 3)
        .build()
}

/// 5.5: the clock starts when the first city is captured.
#[test]
fn rule_5_5_the_clock_starts_when_the_first_city_is_captured() {
    let mut s = doomsday_capture(true);
    assert!(!s.doomsday());
    // A plains city whose owner holds his capital defends with two terrain dice.
    let events = capture_0_0(&mut s, true, &[5, 6]);
    assert_eq!(
        events,
        vec![
            Event::UnitGained {
                seat: Seat(0),
                kind: INF
            },
            Event::UnitGained {
                seat: Seat(0),
                kind: INF
            },
            Event::DoomsdayStarted,
            Event::Disbanded {
                seat: Seat(1),
                kind: INF,
                unit: None,
                hex: None
            },
            Event::Disbanded {
                seat: Seat(1),
                kind: INF,
                unit: None,
                hex: None
            },
        ]
    );
    assert!(s.doomsday());
}

/// 5.5: taking a town does not start it.
#[test]
fn rule_5_5_a_captured_town_does_not_start_the_clock() {
    let mut s = doomsday_capture(false);
    let events = capture_0_0(&mut s, false, &[5]);
    assert!(!events.contains(&Event::DoomsdayStarted));
    assert!(!s.doomsday());
}

/// Seat 1 ends his turn with the clock running; seat 0's capital at (-3,1) (captured by
/// seat 1 unless `holds_capital`), seat 0's town at (0,0), seat 1's capital at (3,-1).
fn clock_running(holds_capital: bool, marked: [bool; 2]) -> Pos {
    let mut pos = Pos::new(2, Stage::Place)
        .rules(|r| r.victory = vec![Victory::StandardConquest, Victory::DoomsdayClock])
        .town(h(0, 0), 0, false, false)
        .town(h(3, -1), 1, false, true);
    pos = if holds_capital {
        pos.town(h(-3, 1), 0, false, true)
    } else {
        pos.captured_capital(h(-3, 1), 1, false, 0)
    };
    pos.setup.doomsday = true;
    for (p, m) in marked.into_iter().enumerate() {
        pos.setup.players[p].doomsday_marked = m;
    }
    pos
}

/// 5.5: once the clock runs, each player rolls a die at the start of his turn, before
/// building; anything but a 1 does nothing.
#[test]
fn rule_5_5_each_player_rolls_at_the_start_of_his_turn() {
    let (mut s, events) = end_seat_1_turn(clock_running(true, [false, false]));
    assert_eq!(events, vec![turn_started(0, 2)]);
    assert_eq!(s.to_move(), ToMove::Chance);
    assert_eq!(
        s.legal_actions(),
        (1..=6)
            .map(|value| Action::Die { value })
            .collect::<Vec<_>>()
    );
    assert_eq!(dice(&mut s, &[4]), vec![doomsday(0, 4), build_phase()]);
    assert!(!s.player(Seat(0)).doomsday_marked);
}

/// 5.5: a 1 puts a coin by the roller's capital.
#[test]
fn rule_5_5_a_1_marks_the_capital() {
    let (mut s, _) = end_seat_1_turn(clock_running(true, [false, false]));
    assert_eq!(
        dice(&mut s, &[1]),
        vec![
            doomsday(0, 1),
            Event::DoomsdayMarked { seat: Seat(0) },
            build_phase()
        ]
    );
    assert!(s.player(Seat(0)).doomsday_marked);
    assert!(s.outcome().is_none(), "seat 1's capital has no coin yet");
}

/// 5.5: the coin goes by the roller's capital whoever holds it, so a player who lost his
/// capital still rolls (and, 14.0, cannot build).
#[test]
fn rule_5_5_a_player_without_his_capital_still_rolls() {
    let (mut s, events) = end_seat_1_turn(clock_running(false, [false, false]));
    assert_eq!(events, vec![turn_started(0, 2)]);
    assert_eq!(
        dice(&mut s, &[1]),
        vec![
            doomsday(0, 1),
            Event::DoomsdayMarked { seat: Seat(0) },
            build_phase(),
            Event::PhaseStarted { stage: Stage::Move },
        ]
    );
}

/// 5.5: a player whose capital has its coin rolls no more.
#[test]
fn rule_5_5_a_marked_player_rolls_no_more() {
    let (s, events) = end_seat_1_turn(clock_running(true, [true, false]));
    assert_eq!(events, vec![turn_started(0, 2), build_phase()]);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
}

/// 5.5: when the last capital gets its coin the game ends at once and the empires are
/// scored as in 5.3; equal empires share the win.
#[test]
fn rule_5_5_the_last_coin_ends_the_game_and_ties_share() {
    // Two towns each.
    let (mut s, _) =
        end_seat_1_turn(clock_running(true, [false, true]).town(h(0, 3), 1, false, false));
    assert_eq!(
        dice(&mut s, &[1]),
        vec![
            doomsday(0, 1),
            Event::DoomsdayMarked { seat: Seat(0) },
            game_over(&[0, 1], &[2, 2], "doomsday"),
        ]
    );
    // With a city instead, seat 1 has the larger empire and wins alone.
    let (mut s, _) =
        end_seat_1_turn(clock_running(true, [false, true]).town(h(0, 3), 1, true, false));
    assert_eq!(dice(&mut s, &[1])[2], game_over(&[1], &[2, 3], "doomsday"));
}

/// 5.5, H-1: an eliminated player has no more turns to roll, so his capital counts as
/// marked; the clock still runs out.
#[test]
fn rule_5_5_h1_an_eliminated_players_capital_counts_as_marked() {
    let mut pos = Pos::new(3, Stage::Move)
        .rules(|r| r.victory = vec![Victory::StandardConquest, Victory::DoomsdayClock])
        .town(h(-3, 1), 0, false, true)
        .town(h(3, -1), 1, false, true)
        .captured_capital(h(0, 0), 1, false, 2);
    pos.setup.doomsday = true;
    pos.setup.players[1].doomsday_marked = true;
    pos.setup.players[2].eliminated = true;
    let (mut s, events) = end_seat_1_turn(pos);
    assert_eq!(events, vec![turn_started(0, 2)]);
    assert_eq!(
        dice(&mut s, &[1]),
        vec![
            doomsday(0, 1),
            Event::DoomsdayMarked { seat: Seat(0) },
            game_over(&[1], &[1, 2, 0], "doomsday"),
        ]
    );
}

/// after `max_turns` game turns the empires are scored as in 5.3; ties share.
#[test]
fn rule_r19_max_turns_scores_the_empires() {
    let base = || {
        Pos::new(2, Stage::Place)
            .rules(|r| r.max_turns = Some(1))
            .town(h(-3, 1), 0, false, true)
            .town(h(3, -1), 1, false, true)
    };
    // Seat 1 is the last player of game turn 1 (seat 0 played first).
    let (_, events) = end_seat_1_turn(base());
    assert_eq!(events, vec![game_over(&[0, 1], &[1, 1], "turn limit")]);
    let (_, events) = end_seat_1_turn(base().town(h(0, 0), 1, true, false));
    assert_eq!(events, vec![game_over(&[1], &[1, 3], "turn limit")]);
    // Not before the limit.
    let (s, events) = end_seat_1_turn(base().rules(|r| r.max_turns = Some(2)));
    assert_eq!(events, vec![turn_started(0, 2), build_phase()]);
    assert!(s.outcome().is_none());
}
