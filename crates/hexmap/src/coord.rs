//! Axial hex coordinates and the geometry on them: distance, neighbours, rings,
//! spirals, ranges, lines and rotation.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::direction::Direction;
use crate::error::ParseError;

/// A hex in axial coordinates `(q, r)`; the third cube coordinate is `s = -q - r`.
///
/// Pictured pointy-top with the origin at the centre and `r` growing downward (see
/// [`Direction`] for the six neighbour offsets, and [`Orientation`](crate::Orientation)
/// for flat-top maps, which use the same coordinates).
///
/// The order is *reading order*: by `r` (top row first), then by `q` (left to right).
/// Every sorted output of this crate uses it.
///
/// Serialised as a two-element array `[q, r]`; displayed and parsed as `q,r`.
///
/// Coordinates are meant to stay far from the `i32` limits: arithmetic overflows as plain
/// `i32` arithmetic does. The board queries ([`Board::contains`](crate::Board::contains),
/// [`Board::index`](crate::Board::index)) and [`Hex::distance`] are safe for any value,
/// so a hex read from untrusted input can be checked before it is used.
///
/// ```
/// use hexmap::{Direction, Hex};
///
/// let a = Hex::new(3, -1);
/// assert_eq!(a.to_string(), "3,-1");
/// assert_eq!(a.s(), -2);
/// assert_eq!(a.neighbor(Direction::SE), Hex::new(3, 0));
/// assert_eq!(Hex::ORIGIN.distance(a), 3);
/// // Reading order: row first.
/// assert!(Hex::new(5, -2) < Hex::new(-5, -1));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hex {
    /// Column-like axis, growing east.
    pub q: i32,
    /// Row axis, growing south (downward on screen).
    pub r: i32,
}

impl Hex {
    /// The centre, `(0, 0)`.
    pub const ORIGIN: Hex = Hex::new(0, 0);

    /// The hex at axial `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate, `-q - r`.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// How many hexes lie within `radius` of a hex: `3·r·(r+1) + 1`.
    pub const fn range_count(radius: u32) -> usize {
        let r = radius as usize;
        3 * r * (r + 1) + 1
    }

    /// The number of steps between two hexes.
    ///
    /// Computed in 64-bit arithmetic, so it never overflows; it saturates at `u32::MAX`
    /// (only reachable with coordinates near the `i32` limits).
    #[inline]
    pub fn distance(self, other: Hex) -> u32 {
        let dq = i64::from(other.q) - i64::from(self.q);
        let dr = i64::from(other.r) - i64::from(self.r);
        let ds = -dq - dr;
        let d = dq.abs().max(dr.abs()).max(ds.abs());
        u32::try_from(d).unwrap_or(u32::MAX)
    }

    /// The adjacent hex in `direction`.
    #[must_use]
    #[inline]
    pub fn neighbor(self, direction: Direction) -> Hex {
        self + direction.offset()
    }

    /// The six adjacent hexes, in [`Direction::ALL`] order.
    #[inline]
    pub fn neighbors(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbor(d))
    }

    /// The six adjacent hexes in the order of [`Ord`] (reading order: the row above west
    /// to east, then west and east, then the row below), so that lists built from them
    /// need no sorting.
    ///
    /// ```
    /// use hexmap::Hex;
    /// let mut sorted = Hex::new(2, -1).neighbors();
    /// sorted.sort();
    /// assert_eq!(Hex::new(2, -1).neighbors_in_order(), sorted);
    /// ```
    #[inline]
    pub fn neighbors_in_order(self) -> [Hex; 6] {
        use Direction::{E, NE, NW, SE, SW, W};
        [NW, NE, W, E, SW, SE].map(|d| self.neighbor(d))
    }

    /// The direction from `self` to `other` when they are adjacent, otherwise `None`
    /// (also `None` for `self == other`).
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        let dq = i64::from(other.q) - i64::from(self.q);
        let dr = i64::from(other.r) - i64::from(self.r);
        match (i32::try_from(dq), i32::try_from(dr)) {
            (Ok(q), Ok(r)) => Direction::from_offset(Hex::new(q, r)),
            _ => None,
        }
    }

    /// Whether `other` is one of the six neighbours of `self`.
    #[inline]
    pub fn is_adjacent(self, other: Hex) -> bool {
        self.direction_to(other).is_some()
    }

    /// Corner `i` (taken modulo 6) of the ring of `radius` around `self`:
    /// `self + radius · Direction::ALL[i % 6].offset()`.
    ///
    /// # Panics
    ///
    /// If `radius` exceeds `i32::MAX`.
    #[must_use]
    pub fn ring_corner(self, radius: u32, i: usize) -> Hex {
        self + Direction::from_index(i).offset() * radius_i32(radius)
    }

    /// The hexes at exactly `radius` from `self`.
    ///
    /// Radius 0 gives `[self]`. Otherwise there are `6 · radius` hexes, starting at the
    /// north-east corner `self + radius · NE` and walking clockwise (the first step is
    /// south-east), each entry adjacent to the next and the last adjacent to the first.
    ///
    /// ```
    /// use hexmap::Hex;
    ///
    /// let ring = Hex::ORIGIN.ring(2);
    /// assert_eq!(ring.len(), 12);
    /// assert_eq!(ring[0], Hex::new(2, -2));
    /// assert_eq!(ring[1], Hex::new(2, -1));
    /// ```
    ///
    /// # Panics
    ///
    /// If `radius` exceeds `i32::MAX`.
    pub fn ring(self, radius: u32) -> Vec<Hex> {
        if radius == 0 {
            return vec![self];
        }
        let mut out = Vec::with_capacity(6 * radius as usize);
        let mut hex = self.ring_corner(radius, 0);
        for side in 0..6 {
            // From corner `side` the edge of the ring runs two sixths further clockwise.
            let step = Direction::from_index(side + 2).offset();
            for _ in 0..radius {
                out.push(hex);
                hex += step;
            }
        }
        out
    }

    /// `self`, then [`ring`](Hex::ring)`(1)`, `ring(2)`, … `ring(radius)`, each in ring
    /// order: `3·radius·(radius+1) + 1` hexes with no repeats.
    ///
    /// # Panics
    ///
    /// If `radius` exceeds `i32::MAX`.
    pub fn spiral(self, radius: u32) -> Vec<Hex> {
        let mut out = Vec::with_capacity(Hex::range_count(radius));
        out.push(self);
        for k in 1..=radius {
            out.extend(self.ring(k));
        }
        out
    }

    /// Every hex within `radius` of `self` (including `self`), sorted in reading order.
    ///
    /// # Panics
    ///
    /// If `radius` exceeds `i32::MAX`.
    pub fn range(self, radius: u32) -> Vec<Hex> {
        let mut out = Vec::with_capacity(Hex::range_count(radius));
        out.extend(self.range_iter(radius));
        out
    }

    /// The hexes of [`range`](Hex::range), in the same order, without collecting them
    /// (for searches that visit many ranges).
    ///
    /// # Panics
    ///
    /// If `radius` exceeds `i32::MAX`.
    pub fn range_iter(self, radius: u32) -> impl Iterator<Item = Hex> {
        let n = radius_i32(radius);
        (-n..=n).flat_map(move |dr| {
            ((-n).max(-dr - n)..=n.min(n - dr)).map(move |dq| self + Hex::new(dq, dr))
        })
    }

    /// The hexes on the straight line from `self` to `other`, both ends included:
    /// `distance + 1` hexes, each adjacent to the next.
    ///
    /// This is the usual cube interpolation: the centre of each step `i / distance` of
    /// the way along is rounded to the nearest hex. Both ends are first nudged by the
    /// fixed cube offset `(+1e-6, +2e-6, -3e-6)` (in `f64`), so a line running exactly
    /// along a hexside always falls to the same side and results are reproducible on
    /// every platform. Line-of-sight rules that must see *both* hexes beside such a
    /// hexside should use [`common_neighbors`](Hex::common_neighbors) on the two hexes
    /// either side of it.
    ///
    /// ```
    /// use hexmap::Hex;
    ///
    /// let line = Hex::ORIGIN.line_to(Hex::new(2, -1));
    /// assert_eq!(line, [Hex::new(0, 0), Hex::new(1, 0), Hex::new(2, -1)]);
    /// ```
    pub fn line_to(self, other: Hex) -> Vec<Hex> {
        // The nudge keeps every interpolated point off the rounding boundaries.
        const NUDGE_Q: f64 = 1e-6;
        const NUDGE_R: f64 = 2e-6;

        let n = self.distance(other);
        if n == 0 {
            return vec![self];
        }
        let (aq, ar) = (f64::from(self.q) + NUDGE_Q, f64::from(self.r) + NUDGE_R);
        let (bq, br) = (f64::from(other.q) + NUDGE_Q, f64::from(other.r) + NUDGE_R);
        let steps = f64::from(n);
        let mut out = Vec::with_capacity(n as usize + 1);
        out.push(self);
        for i in 1..n {
            let t = f64::from(i) / steps;
            out.push(cube_round(aq + (bq - aq) * t, ar + (br - ar) * t));
        }
        out.push(other);
        out
    }

    /// The first hex after `self` on [`line_to`](Hex::line_to) `other` (`self` itself
    /// when they are the same hex), without building the line.
    ///
    /// ```
    /// use hexmap::Hex;
    ///
    /// assert_eq!(Hex::ORIGIN.step_towards(Hex::new(2, -1)), Hex::new(1, 0));
    /// ```
    #[must_use]
    pub fn step_towards(self, other: Hex) -> Hex {
        let n = self.distance(other);
        if n <= 1 {
            return other;
        }
        if n <= NEAR_STEP_RANGE {
            // The step depends only on where `other` lies from `self`: read near ones
            // from a table of the same interpolation (a bot's evaluation asks this
            // about every unit two or three hexes from a town).
            let d = other - self;
            let side = 2 * NEAR_STEP_RANGE as i32 + 1;
            let range = NEAR_STEP_RANGE as i32;
            return self + NEAR_STEPS[((d.r + range) * side + d.q + range) as usize];
        }
        interpolated_step(self, other, n)
    }

    /// The hexes adjacent to both `self` and `other`, sorted in reading order.
    ///
    /// For adjacent hexes there are two; for hexes two apart there are one (when they lie
    /// in a straight line) or two (when the line between them runs along a hexside: the
    /// two "intermediate" hexes that line-of-sight rules check); farther apart there are
    /// none. A hex is not its own neighbour, so `a.common_neighbors(a)` is all six of
    /// `a`'s neighbours.
    pub fn common_neighbors(self, other: Hex) -> Vec<Hex> {
        let mut out: Vec<Hex> = self
            .neighbors()
            .into_iter()
            .filter(|n| n.distance(other) == 1)
            .collect();
        out.sort_unstable();
        out
    }

    /// `self` rotated clockwise about the origin by `n` sixths of a turn.
    #[must_use]
    pub fn rotate_cw(self, n: u32) -> Hex {
        from_hexx(to_hexx(self).rotate_cw(n))
    }

    /// `self` rotated counter-clockwise about the origin by `n` sixths of a turn.
    #[must_use]
    pub fn rotate_ccw(self, n: u32) -> Hex {
        from_hexx(to_hexx(self).rotate_ccw(n))
    }

    /// `self` rotated clockwise about `center` by `n` sixths of a turn.
    #[must_use]
    pub fn rotate_cw_around(self, center: Hex, n: u32) -> Hex {
        (self - center).rotate_cw(n) + center
    }
}

fn radius_i32(radius: u32) -> i32 {
    i32::try_from(radius).expect("radius exceeds i32::MAX")
}

/// Rounds fractional axial coordinates to the nearest hex (cube rounding).
/// [`Hex::step_towards`] answers from [`NEAR_STEPS`] up to this distance.
const NEAR_STEP_RANGE: u32 = 3;

/// The first step from the origin towards each hex within [`NEAR_STEP_RANGE`] (by
/// `(r + 3) · 7 + q + 3`; unused entries are the origin), worked out once by the same
/// interpolation as farther steps. The step does not depend on where the line starts:
/// the interpolation's nudges keep every rounding off its ties, whose margin dwarfs the
/// floating point error of a board's coordinates (a test checks every start within 200
/// hexes of the origin).
static NEAR_STEPS: std::sync::LazyLock<[Hex; 49]> = std::sync::LazyLock::new(|| {
    let range = NEAR_STEP_RANGE as i32;
    let side = 2 * range + 1;
    let mut steps = [Hex::ORIGIN; 49];
    for r in -range..=range {
        for q in -range..=range {
            let to = Hex::new(q, r);
            let n = Hex::ORIGIN.distance(to);
            if n > 1 && n <= NEAR_STEP_RANGE {
                steps[((r + range) * side + q + range) as usize] =
                    interpolated_step(Hex::ORIGIN, to, n);
            }
        }
    }
    steps
});

/// The first step of the nudged interpolation of `line_to` from `from` to `to`, `n`
/// hexes apart (`n` ≥ 1).
fn interpolated_step(from: Hex, to: Hex, n: u32) -> Hex {
    let (aq, ar) = (f64::from(from.q) + 1e-6, f64::from(from.r) + 2e-6);
    let (bq, br) = (f64::from(to.q) + 1e-6, f64::from(to.r) + 2e-6);
    let t = 1.0 / f64::from(n);
    cube_round(aq + (bq - aq) * t, ar + (br - ar) * t)
}

fn cube_round(q: f64, r: f64) -> Hex {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}

// hexx's `Hex` uses `x` = q and `y` = r with the same cube conventions; these stay
// private so hexx never shows in the public API.
fn to_hexx(hex: Hex) -> hexx::Hex {
    hexx::Hex::new(hex.q, hex.r)
}

fn from_hexx(hex: hexx::Hex) -> Hex {
    Hex::new(hex.x, hex.y)
}

impl Ord for Hex {
    fn cmp(&self, other: &Hex) -> Ordering {
        (self.r, self.q).cmp(&(other.r, other.q))
    }
}

impl PartialOrd for Hex {
    fn partial_cmp(&self, other: &Hex) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Hex {
    type Output = Hex;
    fn add(self, rhs: Hex) -> Hex {
        Hex::new(self.q + rhs.q, self.r + rhs.r)
    }
}

impl Add<Direction> for Hex {
    type Output = Hex;
    /// The neighbour in that direction.
    fn add(self, rhs: Direction) -> Hex {
        self.neighbor(rhs)
    }
}

impl AddAssign for Hex {
    fn add_assign(&mut self, rhs: Hex) {
        *self = *self + rhs;
    }
}

impl Sub for Hex {
    type Output = Hex;
    fn sub(self, rhs: Hex) -> Hex {
        Hex::new(self.q - rhs.q, self.r - rhs.r)
    }
}

impl SubAssign for Hex {
    fn sub_assign(&mut self, rhs: Hex) {
        *self = *self - rhs;
    }
}

impl Neg for Hex {
    type Output = Hex;
    fn neg(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }
}

impl Mul<i32> for Hex {
    type Output = Hex;
    fn mul(self, k: i32) -> Hex {
        Hex::new(self.q * k, self.r * k)
    }
}

impl fmt::Display for Hex {
    /// `q,r`, e.g. `3,-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.q, self.r)
    }
}

impl FromStr for Hex {
    type Err = ParseError;

    /// Parses `q,r` (spaces around either number are allowed).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseError::new("hex", s);
        let (q, r) = s.split_once(',').ok_or_else(err)?;
        let q = q.trim().parse().map_err(|_| err())?;
        let r = r.trim().parse().map_err(|_| err())?;
        Ok(Hex::new(q, r))
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.q, self.r].serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let [q, r] = <[i32; 2]>::deserialize(deserializer)?;
        Ok(Hex::new(q, r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    #[test]
    fn neighbors_in_order_are_the_neighbors_sorted() {
        for q in -4..=4 {
            for r in -4..=4 {
                let mut sorted = h(q, r).neighbors();
                sorted.sort();
                assert_eq!(h(q, r).neighbors_in_order(), sorted, "{}", h(q, r));
            }
        }
    }

    /// The table of near steps answers as the interpolation does, from every start
    /// within 200 hexes of the origin (boards are far smaller), towards every hex up to
    /// four away (one beyond the table, so its edge is crossed), and those steps are
    /// the second hexes of `line_to`.
    #[test]
    fn near_steps_are_the_interpolation() {
        for q in -200..=200 {
            for r in -200..=200 {
                let from = h(q, r);
                for to in from.range(NEAR_STEP_RANGE + 1) {
                    let n = from.distance(to);
                    let step = from.step_towards(to);
                    if n >= 1 {
                        assert_eq!(step, interpolated_step(from, to, n), "{from} to {to}");
                    }
                    if (q + r) % 97 == 0 {
                        assert_eq!(Some(&step), from.line_to(to).get(usize::from(n > 0)));
                    }
                }
            }
        }
    }

    #[test]
    fn cube_coordinate_and_constants() {
        assert_eq!(Hex::ORIGIN, h(0, 0));
        assert_eq!(Hex::default(), Hex::ORIGIN);
        assert_eq!(h(3, -1).s(), -2);
        assert_eq!(h(-2, 5).s(), -3);
        assert_eq!(Hex::range_count(0), 1);
        assert_eq!(Hex::range_count(1), 7);
        assert_eq!(Hex::range_count(4), 61);
    }

    #[test]
    fn reading_order() {
        let mut v = vec![h(1, 0), h(-1, 1), h(0, -1), h(-3, 0), h(2, -1)];
        v.sort();
        assert_eq!(v, [h(0, -1), h(2, -1), h(-3, 0), h(1, 0), h(-1, 1)]);
        assert_eq!(h(0, 0).cmp(&h(0, 0)), Ordering::Equal);
        assert!(h(9, -1) < h(-9, 0));
    }

    #[test]
    fn distance_examples() {
        assert_eq!(h(0, 0).distance(h(0, 0)), 0);
        assert_eq!(h(0, 0).distance(h(1, -1)), 1);
        assert_eq!(h(0, 0).distance(h(2, -1)), 2);
        assert_eq!(h(0, 0).distance(h(3, 0)), 3);
        assert_eq!(h(-2, 3).distance(h(1, -1)), 4);
        assert_eq!(h(1, 1).distance(h(-1, -1)), 4);
        // No overflow at the extremes.
        assert_eq!(h(i32::MIN, 0).distance(h(i32::MAX, 0)), u32::MAX);
    }

    #[test]
    fn neighbours_and_direction_to() {
        let c = h(2, -1);
        assert_eq!(
            c.neighbors(),
            [h(3, -2), h(3, -1), h(2, 0), h(1, 0), h(1, -1), h(2, -2)]
        );
        for d in Direction::ALL {
            assert_eq!(c.neighbor(d), c + d);
            assert_eq!(c.direction_to(c.neighbor(d)), Some(d));
            assert!(c.is_adjacent(c.neighbor(d)));
        }
        assert_eq!(c.direction_to(c), None);
        assert_eq!(c.direction_to(h(4, -1)), None);
        assert!(!c.is_adjacent(h(4, -2)));
        assert_eq!(h(i32::MIN, 0).direction_to(h(i32::MAX, 0)), None);
    }

    #[test]
    fn rings() {
        assert_eq!(h(4, 4).ring(0), [h(4, 4)]);
        assert_eq!(
            Hex::ORIGIN.ring(1),
            [h(1, -1), h(1, 0), h(0, 1), h(-1, 1), h(-1, 0), h(0, -1)]
        );
        let ring2 = Hex::ORIGIN.ring(2);
        assert_eq!(
            ring2,
            [
                h(2, -2),
                h(2, -1),
                h(2, 0),
                h(1, 1),
                h(0, 2),
                h(-1, 2),
                h(-2, 2),
                h(-2, 1),
                h(-2, 0),
                h(-1, -1),
                h(0, -2),
                h(1, -2),
            ]
        );
        let shifted = h(3, -5).ring(2);
        assert_eq!(shifted[0], h(5, -7));
        assert_eq!(shifted[1], h(5, -6));
    }

    #[test]
    fn ring_corners() {
        assert_eq!(Hex::ORIGIN.ring_corner(2, 0), h(2, -2));
        assert_eq!(Hex::ORIGIN.ring_corner(2, 1), h(2, 0));
        assert_eq!(Hex::ORIGIN.ring_corner(2, 3), h(-2, 2));
        assert_eq!(Hex::ORIGIN.ring_corner(2, 7), h(2, 0));
        assert_eq!(h(1, 1).ring_corner(3, 5), h(1, -2));
        let ring = h(1, 1).ring(3);
        for i in 0..6 {
            assert_eq!(ring[3 * i], h(1, 1).ring_corner(3, i));
        }
    }

    #[test]
    fn spirals() {
        assert_eq!(h(1, 2).spiral(0), [h(1, 2)]);
        let s = Hex::ORIGIN.spiral(2);
        assert_eq!(s.len(), 19);
        assert_eq!(s[0], Hex::ORIGIN);
        assert_eq!(&s[1..7], Hex::ORIGIN.ring(1).as_slice());
        assert_eq!(&s[7..], Hex::ORIGIN.ring(2).as_slice());
    }

    #[test]
    fn ranges() {
        assert_eq!(h(5, 5).range(0), [h(5, 5)]);
        assert_eq!(
            Hex::ORIGIN.range(1),
            [
                h(0, -1),
                h(1, -1),
                h(-1, 0),
                h(0, 0),
                h(1, 0),
                h(-1, 1),
                h(0, 1)
            ]
        );
        let r = h(2, -3).range(3);
        assert_eq!(r.len(), 37);
        assert!(r.windows(2).all(|w| w[0] < w[1]));
        assert!(r.iter().all(|x| x.distance(h(2, -3)) <= 3));
    }

    #[test]
    fn lines() {
        assert_eq!(h(1, 1).line_to(h(1, 1)), [h(1, 1)]);
        assert_eq!(h(0, 0).line_to(h(1, -1)), [h(0, 0), h(1, -1)]);
        assert_eq!(
            h(0, 0).line_to(h(3, 0)),
            [h(0, 0), h(1, 0), h(2, 0), h(3, 0)]
        );
        assert_eq!(
            h(0, 0).line_to(h(0, -3)),
            [h(0, 0), h(0, -1), h(0, -2), h(0, -3)]
        );
        // Along hexsides the nudge decides, always the same way.
        assert_eq!(h(0, 0).line_to(h(2, -1)), [h(0, 0), h(1, 0), h(2, -1)]);
        assert_eq!(h(2, -1).line_to(h(0, 0)), [h(2, -1), h(1, 0), h(0, 0)]);
        assert_eq!(
            h(0, 0).line_to(h(4, -2)),
            [h(0, 0), h(1, 0), h(2, -1), h(3, -1), h(4, -2)]
        );
        assert_eq!(h(0, 0).line_to(h(1, 1)), [h(0, 0), h(0, 1), h(1, 1)]);
        // A general line (0,0) -> (3,-1): points at (1, -1/3), (2, -2/3).
        assert_eq!(
            h(0, 0).line_to(h(3, -1)),
            [h(0, 0), h(1, 0), h(2, -1), h(3, -1)]
        );
    }

    #[test]
    fn common_neighbours() {
        assert_eq!(h(0, 0).common_neighbors(h(2, -1)), [h(1, -1), h(1, 0)]);
        assert_eq!(h(0, 0).common_neighbors(h(2, 0)), [h(1, 0)]);
        assert_eq!(h(0, 0).common_neighbors(h(1, 0)), [h(1, -1), h(0, 1)]);
        assert_eq!(h(0, 0).common_neighbors(h(-1, -1)), [h(0, -1), h(-1, 0)]);
        assert_eq!(h(0, 0).common_neighbors(h(3, 0)), []);
        let mut all = h(0, 0).neighbors().to_vec();
        all.sort();
        assert_eq!(h(0, 0).common_neighbors(h(0, 0)), all);
    }

    #[test]
    fn rotation() {
        assert_eq!(h(1, -1).rotate_cw(1), h(1, 0));
        assert_eq!(h(2, -1).rotate_cw(1), h(1, 1));
        assert_eq!(h(2, -1).rotate_cw(3), h(-2, 1));
        assert_eq!(h(2, -1).rotate_cw(6), h(2, -1));
        assert_eq!(h(2, -1).rotate_ccw(1), h(1, -2));
        assert_eq!(h(2, -1).rotate_cw(5), h(2, -1).rotate_ccw(1));
        assert_eq!(h(3, -1).rotate_cw_around(h(2, -1), 1), h(2, 0));
        assert_eq!(h(3, -1).rotate_cw_around(h(3, -1), 4), h(3, -1));
    }

    #[test]
    fn operators() {
        assert_eq!(h(1, 2) + h(3, -4), h(4, -2));
        assert_eq!(h(1, 2) - h(3, -4), h(-2, 6));
        assert_eq!(-h(1, -2), h(-1, 2));
        assert_eq!(h(1, -2) * 3, h(3, -6));
        let mut a = h(0, 0);
        a += h(1, 1);
        a -= h(0, 2);
        assert_eq!(a, h(1, -1));
    }

    #[test]
    fn display_parse_serde() {
        assert_eq!(h(3, -1).to_string(), "3,-1");
        assert_eq!("3,-1".parse::<Hex>(), Ok(h(3, -1)));
        assert_eq!(" -7 , 12 ".parse::<Hex>(), Ok(h(-7, 12)));
        assert!("3".parse::<Hex>().is_err());
        assert!("a,b".parse::<Hex>().is_err());
        let err = "3;1".parse::<Hex>().unwrap_err();
        assert_eq!(err.to_string(), "invalid hex: \"3;1\"");
        assert_eq!(serde_json::to_string(&h(3, -1)).unwrap(), "[3,-1]");
        assert_eq!(serde_json::from_str::<Hex>("[3,-1]").unwrap(), h(3, -1));
        assert!(serde_json::from_str::<Hex>("[3]").is_err());
        assert!(serde_json::from_str::<Hex>("{\"q\":3,\"r\":1}").is_err());
    }
}
