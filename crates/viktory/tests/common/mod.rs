//! Building positions for scenario tests: a fully revealed board (so no reveal comes
//! unasked), towns, units, and the active player's turn at a chosen phase, then
//! scripted actions with exact dice.
#![allow(dead_code, unreachable_pub)]

use engine::{Game, Seat, ToMove};
use hexmap::{Board, Hex};
use viktory::board::Terrain;
use viktory::state::{Player, Setup, Stage, TileSetup, Town, TownSetup, Turn};
use viktory::{Action, Event, Rules, TileBank, Unit, UnitId, UnitKind, Viktory};

/// Shorthand for a hex.
pub const fn h(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

/// A position under construction.
pub struct Pos {
    pub setup: Setup,
}

impl Pos {
    /// Classic rules, `players` players, side-5 board, every interior hex revealed as
    /// plains unless changed, seat 0 to act in `stage` of turn 1.
    pub fn new(players: u8, stage: Stage) -> Pos {
        let mut rules = Rules::classic(players);
        rules.board_side = 5;
        Pos::with_rules(rules, stage)
    }

    /// The same with other rules.
    pub fn with_rules(rules: Rules, stage: Stage) -> Pos {
        let board = hexmap::HexagonBoard::new(u32::from(rules.side()));
        let tiles = board
            .hexes()
            .filter(|&h| !board.is_perimeter(h))
            .map(|hex| TileSetup {
                hex,
                terrain: Terrain::Plains,
            })
            .collect();
        let players = vec![Player::default(); usize::from(rules.players)];
        let mut setup = Setup::new(rules);
        // Every tile is already face up here, whatever the rules would reveal first.
        setup.reveals.clear();
        setup.tiles = tiles;
        setup.bank = Some(TileBank::default());
        setup.players = players;
        setup.turn = Turn {
            number: 1,
            stage,
            can_build: true,
            ..Turn::default()
        };
        Pos { setup }
    }

    /// Sets the terrain of a hex (water included).
    pub fn terrain(mut self, hex: Hex, terrain: Terrain) -> Pos {
        let t = self
            .setup
            .tiles
            .iter_mut()
            .find(|t| t.hex == hex)
            .expect("interior hex");
        t.terrain = terrain;
        self
    }

    /// Turns a revealed hex face down again (adds a tile of `terrain` to the bank).
    pub fn face_down(mut self, hex: Hex, terrain: Terrain) -> Pos {
        self.setup.tiles.retain(|t| t.hex != hex);
        let bank = self.setup.bank.get_or_insert_with(TileBank::default);
        *bank.get_mut(terrain) += 1;
        self
    }

    /// Adds a town (or city) for `owner`; `capital` puts `owner`'s capital marker on it.
    pub fn town(mut self, hex: Hex, owner: u8, city: bool, capital: bool) -> Pos {
        let capital_of = capital.then_some(Seat(owner));
        self.setup.towns.push(TownSetup {
            hex,
            town: Town {
                owner: Seat(owner),
                city,
                capital_of,
                metropolis: None,
            },
        });
        self
    }

    /// Adds a town carrying another player's capital marker (a captured capital).
    pub fn captured_capital(mut self, hex: Hex, owner: u8, city: bool, capital_of: u8) -> Pos {
        self.setup.towns.push(TownSetup {
            hex,
            town: Town {
                owner: Seat(owner),
                city,
                capital_of: Some(Seat(capital_of)),
                metropolis: None,
            },
        });
        self
    }

    /// Adds a unit with id `id`.
    pub fn unit(mut self, id: u16, owner: u8, kind: UnitKind, hex: Hex) -> Pos {
        self.setup.units.push(Unit {
            id: UnitId(id),
            owner: Seat(owner),
            kind,
            hex,
            aboard: None,
            mp: 0,
            done: true,
            attacked: false,
            transported: false,
            entered_from: None,
            loads: 0,
            drop: None,
            boarded: false,
            pillages: 0,
            road_run: 0,
        });
        self
    }

    /// Adds a land unit aboard frigate `frigate`.
    pub fn cargo(mut self, id: u16, owner: u8, kind: UnitKind, frigate: u16) -> Pos {
        let hex = self
            .setup
            .units
            .iter()
            .find(|u| u.id == UnitId(frigate))
            .expect("frigate first")
            .hex;
        self = self.unit(id, owner, kind, hex);
        self.setup.units.last_mut().unwrap().aboard = Some(UnitId(frigate));
        self
    }

    /// Puts units in `seat`'s reserve.
    pub fn reserve(mut self, seat: u8, kind: UnitKind, n: u8) -> Pos {
        *self.setup.players[usize::from(seat)].reserve.get_mut(kind) += n;
        self
    }

    /// Changes the rules.
    pub fn rules(mut self, f: impl FnOnce(&mut Rules)) -> Pos {
        f(&mut self.setup.rules);
        self
    }

    /// Makes `seat` the active player.
    pub fn active(mut self, seat: u8) -> Pos {
        self.setup.turn.active = Seat(seat);
        self
    }

    /// The state, with the active player's units fresh for the turn (full movement,
    /// start-of-turn hexes recorded for R-10).
    pub fn build(self) -> Viktory {
        Viktory::from_setup(&self.finish()).unwrap_or_else(|e| panic!("test position invalid: {e}"))
    }

    /// The setup [`Pos::build`] loads, for tests of what loading refuses.
    pub fn finish(mut self) -> Setup {
        let active = self.setup.turn.active;
        let rules = self.setup.rules.clone();
        let mut started = Vec::new();
        let cargo: Vec<(UnitId, u8)> = self
            .setup
            .units
            .iter()
            .filter(|u| u.kind == UnitKind::Frigate)
            .map(|f| {
                (
                    f.id,
                    self.setup
                        .units
                        .iter()
                        .filter(|c| c.aboard == Some(f.id))
                        .count() as u8,
                )
            })
            .collect();
        for u in &mut self.setup.units {
            if u.owner == active {
                u.mp = rules.allowance(u.kind);
                u.done = false;
                u.loads = cargo.iter().find(|(id, _)| *id == u.id).map_or(0, |c| c.1);
                // As `start_turn`: frigates count as pathfinders on the Road/Ferry Network.
                if (u.kind.is_land() || rules.road_ferry_network) && u.aboard.is_none() {
                    started.push(u.hex);
                }
            }
        }
        started.sort();
        started.dedup();
        self.setup.turn.started_here = started;
        // A turn may build only if the active player holds his capital (7.1): positions
        // without one leave `can_build` off, as the game would.
        let holds = self
            .setup
            .towns
            .iter()
            .any(|t| t.town.capital_of == Some(active) && t.town.owner == active);
        self.setup.turn.can_build &= holds;
        // Test positions have no economy behind their units.
        self.setup.units_as_given = true;
        self.setup
    }
}

/// Applies one action, which must be legal (and listed by `legal_actions`).
pub fn act(s: &mut Viktory, a: Action) -> Vec<Event> {
    assert!(
        s.legal_actions().contains(&a),
        "{a:?} is not among the legal actions: {:?}",
        s.legal_actions()
    );
    s.apply(a).unwrap_or_else(|e| panic!("{a:?} refused: {e}"))
}

/// Applies several actions; returns all their events.
pub fn play(s: &mut Viktory, actions: &[Action]) -> Vec<Event> {
    actions.iter().flat_map(|&a| act(s, a)).collect()
}

/// Rolls dice at chance nodes, in order.
pub fn dice(s: &mut Viktory, values: &[u8]) -> Vec<Event> {
    values
        .iter()
        .flat_map(|&value| {
            assert_eq!(
                s.to_move(),
                ToMove::Chance,
                "a die is expected before rolling {value}"
            );
            act(s, Action::Die { value })
        })
        .collect()
}

/// The code and rule of a refusal.
pub fn refused(s: &Viktory, a: Action) -> (&'static str, &'static str) {
    assert!(!s.legal_actions().contains(&a), "{a:?} should not be legal");
    let e = engine::Game::check(s, &a).expect_err("refused");
    (e.code, e.rule)
}

/// Move `unit` to `to`.
pub fn mv(unit: u16, q: i32, r: i32) -> Action {
    Action::Move {
        unit: UnitId(unit),
        to: h(q, r),
    }
}

/// The units in a hex, by id.
pub fn ids_at(s: &Viktory, hex: Hex) -> Vec<u16> {
    s.units()
        .iter()
        .filter(|u| u.hex == hex)
        .map(|u| u.id.0)
        .collect()
}

/// Whose turn and which seat decides.
pub fn seat_to_move(s: &Viktory) -> Option<u8> {
    s.to_move().seat().map(|x| x.0)
}

/// How many dice were rolled for `purpose` in `events`.
pub fn dice_rolled(events: &[Event], purpose: viktory::event::DiePurpose) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::DieRolled { purpose: p, .. } if *p == purpose))
        .count()
}
