// Browser tests of the VIKTORY board (board.js): terrain patterns, the map key,
// counters that stay in their hex, colours that stay apart under colour-vision
// deficiencies, contrast, the hover readout, highlights and last moves, the display
// setting, keyboard zoom and a pinch on a phone.

import { accessible, api, axe, check, ready, shot, watch } from './lib.mjs';

// ---------------------------------------------------------------------------------
// Colour science, done here from the colours the page draws.

const toRgb = (color) => {
  const m = String(color).trim().match(/^rgba?\(([^)]+)\)$/);
  if (m) return m[1].split(',').slice(0, 3).map((v) => Number(v) / 255);
  const hex = String(color).replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255);
};
const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const gamma = (c) => {
  const v = Math.min(1, Math.max(0, c));
  return v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
};
/** WCAG 2 relative luminance and contrast ratio. */
export const luminance = (color) => {
  const [r, g, b] = toRgb(color).map(linear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
export const contrast = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};
// Machado, Oliveira and Fernandes (2009), severity 1.0 (dichromacy), on linear RGB.
const MACHADO = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
};
/** The sRGB (0..1) a person with `vision` sees for `color`. */
export function simulate(color, vision) {
  const rgb = toRgb(color);
  if (!MACHADO[vision]) return rgb;
  const l = rgb.map(linear);
  return MACHADO[vision].map((row) => gamma(row[0] * l[0] + row[1] * l[1] + row[2] * l[2]));
}
function lab(rgb) {
  const [r, g, b] = rgb.map(linear);
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
/** CIEDE2000 colour difference of two sRGB (0..1) colours. */
export function deltaE2000(c1, c2) {
  const [L1, a1, b1] = lab(c1);
  const [L2, a2, b2] = lab(c2);
  const rad = Math.PI / 180;
  const Cbar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cbar ** 7 / (Cbar ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + G) * a1, (1 + G) * a2];
  const [C1p, C2p] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const hue = (b, a) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const [h1p, h2p] = [hue(b1, a1p), hue(b2, a2p)];
  const dL = L2 - L1;
  const dC = C2p - C1p;
  let dh = 0;
  if (C1p * C2p !== 0) {
    dh = h2p - h1p;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(C1p * C2p) * Math.sin((dh * rad) / 2);
  const Lbar = (L1 + L2) / 2;
  const Cbarp = (C1p + C2p) / 2;
  let hbar = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) > 180) hbar = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
    else hbar = (h1p + h2p) / 2;
  }
  const T = 1 - 0.17 * Math.cos((hbar - 30) * rad) + 0.24 * Math.cos(2 * hbar * rad) + 0.32 * Math.cos((3 * hbar + 6) * rad) - 0.2 * Math.cos((4 * hbar - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hbar - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(Cbarp ** 7 / (Cbarp ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lbar - 50) ** 2) / Math.sqrt(20 + (Lbar - 50) ** 2);
  const SC = 1 + 0.045 * Cbarp;
  const SH = 1 + 0.015 * Cbarp * T;
  const RT = -Math.sin(2 * dTheta * rad) * RC;
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}
const VISIONS = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'];
/** The smallest CIEDE2000 difference of two colours over normal vision and the three
 *  dichromacies, with the vision where it is smallest. */
export function leastDifference(a, b) {
  return VISIONS.map((v) => ({ v, d: deltaE2000(simulate(a, v), simulate(b, v)) })).sort((x, y) => x.d - y.d)[0];
}

// Thresholds. Distinctness: a CIEDE2000 difference of about 2 is just noticeable side
// by side; telling two players' small counters apart at a glance, apart, needs far
// more. 20 is asked of every pair among the first four seats (most games) and 10 of
// neighbouring seats among eight (the seat shapes then carry the rest); both under
// normal vision and simulated protanopia, deuteranopia and tritanopia.
const DISTINCT_FIRST4 = 20;
const DISTINCT_NEIGHBOURS = 10;
// WCAG 2.1: 4.5:1 for text (1.4.3), 3:1 for the graphics one needs to read the map (1.4.11).
const TEXT_CONTRAST = 4.5;
const GRAPHIC_CONTRAST = 3;

// ---------------------------------------------------------------------------------
// A table with every terrain, four players, a crowded hex and a loaded frigate.

export function crowdedSetup() {
  const terrains = ['plains', 'grassland', 'forest', 'mountain', 'water'];
  const tiles = [];
  for (let q = -3; q <= 3; q += 1) {
    for (let r = Math.max(-3, -q - 3); r <= Math.min(3, -q + 3); r += 1) {
      tiles.push({ hex: [q, r], terrain: terrains[(((q * 2 + r * 3) % 5) + 5) % 5] });
    }
  }
  const set = (hex, terrain) => { tiles.find((t) => t.hex[0] === hex[0] && t.hex[1] === hex[1]).terrain = terrain; };
  for (const [hex, terrain] of [[[0, 0], 'plains'], [[1, 0], 'grassland'], [[-2, 0], 'plains'], [[2, 0], 'plains'], [[0, 2], 'water'], [[0, -2], 'plains'], [[-1, 2], 'grassland'], [[3, -3], 'mountain']]) set(hex, terrain);
  let id = 0;
  const unit = (owner, kind, hex, extra = {}) => ({ id: (id += 1), owner, kind, hex, mp: 0, ...extra });
  const units = [
    // The crowded hex: a city and five counters of two owners.
    unit(0, 'infantry', [0, 0]), unit(0, 'infantry', [0, 0]), unit(0, 'cavalry', [0, 0]), unit(0, 'artillery', [0, 0]),
    unit(1, 'infantry', [0, 0]), unit(1, 'cavalry', [0, 0]),
    // A hex with actions holding two counters of 2: drawn, they read "22", which a
    // control's name must not be made of (axe's label-content-name-mismatch).
    unit(0, 'infantry', [1, 0], { mp: 1 }), unit(0, 'infantry', [1, 0], { mp: 1 }),
    unit(0, 'cavalry', [1, 0], { mp: 2 }), unit(0, 'cavalry', [1, 0], { mp: 2 }),
    unit(1, 'infantry', [2, 0]), unit(1, 'infantry', [2, 0]), unit(1, 'artillery', [2, 0]),
    unit(2, 'cavalry', [0, -2]), unit(2, 'artillery', [0, -2]),
    unit(3, 'infantry', [3, -3]),
  ];
  // Seat 1's frigates at sea, one carrying an infantry and a cavalry.
  const frigate = unit(1, 'frigate', [0, 2]);
  units.push(frigate, unit(1, 'frigate', [0, 2]), unit(1, 'infantry', [0, 2], { aboard: frigate.id }), unit(1, 'cavalry', [0, 2], { aboard: frigate.id }));
  return {
    rules: { preset: 'classic', players: 4, board_side: 5 },
    tiles,
    bank: { plains: 0, grassland: 0, forest: 0, mountain: 0, water: 0 },
    towns: [
      { hex: [-2, 0], owner: 0, city: true, capital_of: 0 },
      { hex: [2, 0], owner: 1, city: true, capital_of: 1 },
      { hex: [0, 0], owner: 0, city: true, capital_of: null },
      { hex: [-1, 2], owner: 1, city: false, capital_of: null },
      { hex: [0, -2], owner: 2, city: true, capital_of: 2 },
      { hex: [3, -3], owner: 3, city: true, capital_of: 3 },
    ],
    units,
    players: [{}, {}, {}, {}],
    turn: { number: 2, active: 0, first: 0, stage: 'move', started_here: [] },
    reveals: [],
    units_as_given: true, // a hand-made position: no economy behind its units (8.0)
  };
}

async function newGame(base) {
  const created = await api(base, 'POST', '/api/games', {
    game: 'viktory', setup: crowdedSetup(), seats: [{ name: 'Ann' }, { kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }],
  });
  check(created.id, `a game from the crowded setup: ${JSON.stringify(created).slice(0, 300)}`);
  return created;
}

/** The game page shows the map key, the display settings and the zoom buttons; the
 *  key and the settings are folded in the panel, and are unfolded here to be looked at. */
async function widgets(page) {
  await page.waitForSelector('.zoom-controls');
  const placed = await page.evaluate(() => ['.zoom-controls', '.display-controls', '.board-legend'].filter((s) => !document.querySelector(s)));
  check(placed.length === 0, `the game page places the board's widgets (missing: ${placed.join(', ')})`);
  await page.evaluate(() => {
    for (const s of ['.display-controls', '.board-legend']) {
      const node = document.querySelector(s);
      const fold = node && (node.tagName === 'DETAILS' ? node : node.closest('details'));
      if (fold) fold.open = true;
    }
  });
}

const viewBox = (page) => page.locator('svg.map').getAttribute('viewBox').then((v) => v.split(' ').map(Number));

// ---------------------------------------------------------------------------------

/** Terrain patterns, the map key, counters inside their hex, colours and contrast. */
export async function boardDrawing(browser, base) {
  const created = await newGame(base);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watch(page, 'board');
  await page.goto(created.seats[0].invite);
  await ready(page);
  await page.waitForSelector('g.stack');
  await widgets(page);

  // Every terrain is filled with its own pattern, and each pattern has glyphs in an ink
  // that stands out 3:1 from the terrain's colour.
  const terrains = await page.evaluate(() => {
    const out = {};
    for (const t of ['plains', 'grassland', 'forest', 'mountain', 'water']) {
      const tiles = [...document.querySelectorAll(`svg.map polygon.tile[data-terrain="${t}"]`)];
      const fills = new Set(tiles.map((p) => p.getAttribute('fill')));
      const id = [...fills][0] && [...fills][0].match(/^url\(#(.+)\)$/);
      const pattern = id && document.getElementById(id[1]);
      const base = pattern && pattern.querySelector('rect');
      const glyph = pattern && pattern.querySelector('.terrain-glyph');
      out[t] = {
        tiles: tiles.length,
        fills: [...fills],
        pattern: !!(pattern && pattern.tagName === 'pattern'),
        glyphs: pattern ? pattern.querySelectorAll('.terrain-glyph').length : 0,
        base: base && base.getAttribute('fill'),
        ink: glyph && (glyph.getAttribute('stroke') !== 'none' && glyph.getAttribute('stroke') ? glyph.getAttribute('stroke') : glyph.getAttribute('fill')),
      };
    }
    return out;
  });
  const glyphsSeen = new Set();
  for (const [t, info] of Object.entries(terrains)) {
    check(info.tiles > 0 && info.fills.length === 1 && info.pattern && info.glyphs >= 1, `${t}: its tiles are filled with a pattern of glyphs (${JSON.stringify(info)})`);
    if (info.base && info.ink) {
      const ratio = contrast(info.base, info.ink);
      check(ratio >= GRAPHIC_CONTRAST, `${t}: the pattern's glyphs stand out ${ratio.toFixed(2)}:1 from the terrain (≥ ${GRAPHIC_CONTRAST})`);
      console.log(`  terrain ${t}: pattern ink ${info.ink} on ${info.base}: ${ratio.toFixed(2)}:1`);
    }
    glyphsSeen.add(info.fills[0]);
  }
  check(glyphsSeen.size === 5, 'five terrains, five different patterns');

  // The key names every terrain, the towns, the unit kinds and the marks.
  const key = await page.locator('.board-legend').textContent();
  for (const word of ['plains', 'grassland', 'forest', 'mountain', 'water', 'town', 'city', 'capital', 'infantry', 'cavalry', 'artillery', 'frigate', 'has actions', 'a target', 'selected', 'last move']) {
    check(key.includes(word), `the map key lists ${word}`);
  }
  const keyPatterns = await page.evaluate(() => [...document.querySelectorAll('.board-legend .key-icon polygon')]
    .map((p) => p.getAttribute('fill')).filter((f) => f && f.startsWith('url(#') && document.getElementById(f.slice(5, -1))).length);
  check(keyPatterns >= 5, `the key's terrain icons use the patterns (${keyPatterns})`);

  // Counters stay inside their hex: every counter's box lies inside the hex polygon's
  // bounding box, and its four corners inside the hexagon itself.
  const stacks = await page.evaluate(() => [...document.querySelectorAll('svg.map g.hex')].filter((g) => g.querySelector('.stack')).map((g) => {
    const polygon = g.querySelector('polygon.tile');
    const hexBox = polygon.getBoundingClientRect();
    const counters = [...g.querySelectorAll('.stack .counter')];
    const outside = [];
    for (const c of counters) {
      const r = c.querySelector('.counter-body').getBoundingClientRect();
      if (r.left < hexBox.left - 0.5 || r.right > hexBox.right + 0.5 || r.top < hexBox.top - 0.5 || r.bottom > hexBox.bottom + 0.5) outside.push(`${c.dataset.kind} box`);
      // The corners in the map's own units.
      const body = c.querySelector('.counter-body');
      const m = polygon.getScreenCTM().inverse().multiply(body.getScreenCTM());
      const [w, h] = [Number(body.getAttribute('width')), Number(body.getAttribute('height'))];
      for (const [x, y] of [[0, 0], [w, 0], [0, h], [w, h]]) {
        const p = new DOMPoint(x, y).matrixTransform(m);
        if (!polygon.isPointInFill(p)) outside.push(`${c.dataset.kind} corner ${p.x.toFixed(1)},${p.y.toFixed(1)}`);
      }
    }
    // Counters do not overlap each other or the town.
    const boxes = [...counters.map((c) => c.querySelector('.counter-body')), ...g.querySelectorAll('.town-shape')].map((e) => e.getBoundingClientRect());
    let overlaps = 0;
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const [a, b] = [boxes[i], boxes[j]];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps += 1;
      }
    }
    const width = counters.length ? counters[0].querySelector('.counter-body').getBoundingClientRect().width : 0;
    return { hex: g.dataset.hex, counters: counters.length, outside, overlaps, width, hexWidth: hexBox.width };
  }));
  const crowded = stacks.find((s) => s.hex === '0,0');
  check(crowded && crowded.counters === 5, `the crowded hex shows five counters (${crowded && crowded.counters})`);
  for (const s of stacks) {
    check(s.outside.length === 0, `hex ${s.hex}: its ${s.counters} counters stay inside the hex (${s.outside.join(', ')})`);
    check(s.overlaps === 0, `hex ${s.hex}: its counters and town do not overlap (${s.overlaps})`);
  }
  console.log(`  crowded hex: 5 counters ${crowded.width.toFixed(1)} px wide each, in a hex ${crowded.hexWidth.toFixed(1)} px wide`);
  const sea = stacks.find((s) => s.hex === '0,2');
  check(sea && sea.counters === 2 && (await page.locator('g.hex[data-hex="0,2"] .counter.cargo').count()) === 1, 'the frigates carry their cargo as a dashed counter beside them');

  // Colours: each seat's counters and towns in one colour, its own shape, and its
  // count in an ink that reads ≥ 4.5:1 on it.
  const seats = await page.evaluate(() => {
    const out = {};
    for (const c of document.querySelectorAll('svg.map .counter:not(.cargo), svg.map .town')) {
      const owner = c.dataset.owner;
      out[owner] = out[owner] || { fills: new Set(), shapes: new Set(), inks: [] };
      const body = c.querySelector('.counter-body, .town-shape');
      out[owner].fills.add(body.getAttribute('fill'));
      out[owner].shapes.add(c.querySelector('.seat-shape').getAttribute('href'));
      const count = c.querySelector('.counter-count');
      if (count) out[owner].inks.push([body.getAttribute('fill'), count.getAttribute('fill')]);
      const seatShape = c.querySelector('.seat-shape');
      out[owner].inks.push([body.getAttribute('fill'), seatShape.getAttribute('color')]);
    }
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { fills: [...v.fills], shapes: [...v.shapes], inks: v.inks }]));
  });
  const owners = Object.keys(seats).sort();
  check(owners.length === 4, `four seats are drawn (${owners.join(',')})`);
  for (const o of owners) {
    check(seats[o].fills.length === 1 && seats[o].shapes.length === 1, `seat ${o}: one colour and one shape (${seats[o].fills}, ${seats[o].shapes})`);
    for (const [fill, ink] of seats[o].inks) check(contrast(fill, ink) >= TEXT_CONTRAST, `seat ${o}: ink ${ink} on ${fill} is ${contrast(fill, ink).toFixed(2)}:1 (≥ ${TEXT_CONTRAST})`);
  }
  check(new Set(owners.map((o) => seats[o].shapes[0])).size === owners.length, 'every seat has its own shape');
  const drawn = owners.map((o) => seats[o].fills[0]);
  const figures = [];
  for (let i = 0; i < drawn.length; i += 1) {
    for (let j = i + 1; j < drawn.length; j += 1) {
      const least = leastDifference(drawn[i], drawn[j]);
      figures.push(`${i}/${j} ${least.d.toFixed(0)} (${least.v})`);
      check(least.d >= DISTINCT_FIRST4, `seats ${i} and ${j} (${drawn[i]}, ${drawn[j]}) differ by ΔE2000 ${least.d.toFixed(1)} under ${least.v} (≥ ${DISTINCT_FIRST4})`);
    }
  }
  console.log(`  the four drawn seats, least ΔE2000 over normal/protan/deutan/tritan vision: ${figures.join(', ')}`);
  // All eight seats, from the key's swatches: neighbours stay apart, and each keeps a
  // readable ink.
  const eight = await page.evaluate(async () => {
    const board = await import('/board.js');
    const key = board.legend({ seats: Array.from({ length: 8 }, (_, i) => ({ name: `P${i + 1}` })), viewer: null });
    document.body.append(key);
    const out = [...key.querySelectorAll('.key-section:last-child .counter-body')].map((r) => [r.getAttribute('fill'), r.nextElementSibling.getAttribute('color')]);
    key.remove();
    return out;
  });
  check(eight.length === 8, `the key shows eight seats (${eight.length})`);
  const neighbours = [];
  for (let i = 0; i < eight.length; i += 1) {
    const [a, b] = [eight[i][0], eight[(i + 1) % eight.length][0]];
    const least = leastDifference(a, b);
    neighbours.push(least.d.toFixed(0));
    check(least.d >= DISTINCT_NEIGHBOURS, `seats ${i} and ${(i + 1) % 8} (${a}, ${b}) differ by ΔE2000 ${least.d.toFixed(1)} under ${least.v} (≥ ${DISTINCT_NEIGHBOURS})`);
    check(contrast(eight[i][0], eight[i][1]) >= TEXT_CONTRAST, `seat ${i}: its shape's ink reads ${contrast(eight[i][0], eight[i][1]).toFixed(2)}:1`);
  }
  console.log(`  eight seats, neighbours' least ΔE2000: ${neighbours.join(', ')}`);
  // The rules' colorblind option (one enemy colour) and the personal two-colour palette.
  const pairs = await page.evaluate(async () => {
    const board = await import('/board.js');
    return { enemy: board.ENEMY, seats: board.SEAT_COLORS, you: board.YOU, them: board.THEM };
  });
  for (const [i, color] of pairs.seats.entries()) {
    const least = leastDifference(color, pairs.enemy);
    check(least.d >= DISTINCT_NEIGHBOURS, `rules colorblind: seat ${i} (${color}) and the enemy colour differ by ${least.d.toFixed(1)} under ${least.v}`);
  }
  const two = leastDifference(pairs.you, pairs.them);
  check(two.d >= DISTINCT_FIRST4, `two-colour palette: ΔE2000 ${two.d.toFixed(1)} under ${two.v}`);
  console.log(`  two-colour palette: ΔE2000 ≥ ${two.d.toFixed(0)} (${two.v})`);

  // Outlines: each mark has a dark and a light line; one of them stands out ≥ 3:1 on
  // every terrain and on face-down tiles. The counters' and towns' halo and edge too.
  await page.evaluate(async () => {
    const board = await import('/board.js');
    const svg = document.querySelector('svg.map');
    board.highlight(svg, ['1,1']);
    board.markRecent(svg, [{ from: '2,0', to: '1,1', seat: 1 }]);
  });
  const strokes = await page.evaluate(() => {
    const out = {};
    const made = [];
    for (const kind of ['source', 'target', 'selected', 'highlight', 'hover', 'recent']) {
      const ring = document.querySelector(`svg.map .ring-${kind}`) || (() => {
        // Hover and selected need a gesture: measure a ring made the same way.
        const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
        g.setAttribute('class', `ring ring-${kind}`);
        g.innerHTML = '<polygon class="ring-under" points="0,0 1,1"/><polygon class="ring-over" points="0,0 1,1"/>';
        document.querySelector('svg.map .overlay').append(g);
        made.push(g);
        return g;
      })();
      out[kind] = [...ring.querySelectorAll('.ring-under, .ring-over')].map((p) => getComputedStyle(p).stroke);
    }
    out.counter = [getComputedStyle(document.querySelector('svg.map .counter .halo')).stroke, getComputedStyle(document.querySelector('svg.map .counter .counter-body')).stroke];
    for (const g of made) g.remove();
    return out;
  });
  const grounds = { ...Object.fromEntries(Object.entries(terrains).map(([t, info]) => [t, info.base])), 'face-down': '#5d6470' };
  for (const [mark, colors] of Object.entries(strokes)) {
    for (const [ground, color] of Object.entries(grounds)) {
      const best = Math.max(...colors.map((c) => contrast(c, color)));
      check(best >= GRAPHIC_CONTRAST, `the ${mark} outline stands out ${best.toFixed(2)}:1 on ${ground} (≥ ${GRAPHIC_CONTRAST})`);
    }
  }
  const least = Math.min(...Object.values(strokes).flatMap((colors) => Object.values(grounds).map((g) => Math.max(...colors.map((c) => contrast(c, g))))));
  console.log(`  outlines and counter edges: at least ${least.toFixed(2)}:1 on every terrain`);

  await page.screenshot({ path: shot('board-table') });
  await page.locator('svg.map').screenshot({ path: shot('board-map') });
  await page.locator('.board-legend').screenshot({ path: shot('board-legend') });
  // A close look at the crowded hex.
  await page.evaluate(() => document.querySelector('svg.map').setAttribute('viewBox', '-60 -60 120 120'));
  await page.locator('svg.map').screenshot({ path: shot('board-crowded') });
  await page.evaluate(() => document.querySelector('svg.map').setAttribute('viewBox', '-40 20 120 120'));
  await page.locator('svg.map').screenshot({ path: shot('board-frigates') });

  // Checked on the whole map: axe skips what is off screen (the crowded hex and 1,0).
  await page.evaluate(() => document.querySelector('svg.map').setAttribute('viewBox', document.querySelector('svg.map').dataset.home));
  await accessible(page, 'game board');
  await axe(page, 'game board');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** The hover readout, highlight(), markRecent(), keyboard zoom and the display setting. */
export async function boardInteraction(browser, base) {
  const created = await newGame(base);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watch(page, 'board interaction');
  await page.goto(created.seats[0].invite);
  await ready(page);
  await page.waitForSelector('g.stack');
  await widgets(page);

  // Hover: the hex is outlined and its coordinates and contents are read out.
  await page.locator('g.hex[data-hex="2,0"] polygon.tile').hover();
  const readout = page.locator('.hex-readout');
  await readout.waitFor({ state: 'visible' });
  const text = await readout.textContent();
  check(/^2,0: plains; capital of Bot 2; 2 × Bot 2\u2019s infantry, 1 × Bot 2\u2019s artillery/.test(text), `the readout names the hex and its players under the pointer (${text})`);
  check((await page.locator('svg.map .ring-hover[data-hex="2,0"]').count()) === 1, 'the hex under the pointer is outlined');
  await page.locator('g.hex[data-hex="-1,-1"] polygon.tile').hover();
  check(/^−1,−1: /.test(await readout.textContent()), `the readout follows the pointer (${await readout.textContent()})`);
  await page.screenshot({ path: shot('board-hover') });
  // A hex reached with the keyboard is read out too.
  await page.mouse.move(1, 1);
  await page.locator('g.hex[data-hex="1,0"] polygon.hit').focus();
  check(/^1,0: grassland/.test(await readout.textContent()) && (await page.locator('svg.map .ring-hover[data-hex="1,0"]').count()) === 1, `the readout names the focused hex (${await readout.textContent()})`);
  // The wheel zooms where it points.
  const unzoomed = await viewBox(page);
  const mapBox = await page.locator('svg.map').boundingBox();
  await page.mouse.move(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height / 2);
  await page.mouse.wheel(0, -200);
  await page.waitForFunction((w) => Number(document.querySelector('svg.map').getAttribute('viewBox').split(' ')[2]) < w - 1, unzoomed[2], { timeout: 2000 }).catch(() => {});
  check((await viewBox(page))[2] < unzoomed[2] - 1, 'the wheel zooms in');
  await page.evaluate(() => document.querySelector('svg.map').setAttribute('viewBox', document.querySelector('svg.map').dataset.home));

  // highlight(): outlines without a redraw, and clears.
  const result = await page.evaluate(async () => {
    const board = await import('/board.js');
    const svg = document.querySelector('svg.map');
    const layer = svg.querySelector('g.board');
    layer.dataset.probe = 'same';
    board.highlight(svg, ['1,0', '2,0']);
    const on = [...svg.querySelectorAll('.ring-highlight')].map((g) => g.dataset.hex).sort();
    const same = svg.querySelector('g.board').dataset.probe === 'same';
    board.markRecent(svg, [{ from: '3,-2', to: '2,0', seat: 1 }, { from: null, to: '0,-1', seat: 2 }]);
    const recent = [...svg.querySelectorAll('.recent-move')].map((g) => ({
      to: g.dataset.to,
      from: g.dataset.from,
      arrow: !!g.querySelector('.arrow-over'),
      color: (g.querySelector('.arrow-over') || svg.querySelector(`.ring-recent[data-hex="${g.dataset.to}"] .ring-over`)).getAttribute('stroke'),
      ring: svg.querySelector(`.ring-recent[data-hex="${g.dataset.to}"] .ring-over`).getAttribute('stroke'),
    }));
    return { on, same, recent, colors: [board.seatColor(1, 0, false), board.seatColor(2, 0, false)] };
  });
  check(result.on.join(' ') === '1,0 2,0' && result.same, `highlight() outlines the hexes without redrawing the board (${JSON.stringify(result.on)}, same board: ${result.same})`);
  check(result.recent.length === 2 && result.recent[0].arrow && !result.recent[1].arrow && result.recent.every((m, i) => m.color === result.colors[i] && m.ring === result.colors[i]),
    `markRecent() draws an arrow in the mover's colour, and an outline for a move with no origin (${JSON.stringify(result.recent)})`);
  await page.locator('svg.map').screenshot({ path: shot('board-highlight-recent') });
  const cleared = await page.evaluate(async () => {
    const board = await import('/board.js');
    const svg = document.querySelector('svg.map');
    board.highlight(svg, []);
    board.markRecent(svg, []);
    return svg.querySelectorAll('.ring-highlight, .ring-recent, .recent-move').length;
  });
  check(cleared === 0, 'highlight(svg, []) and markRecent(svg, []) clear them');

  // Keyboard zoom and pan when the map has focus; the buttons too.
  const home = await viewBox(page);
  await page.locator('svg.map').focus();
  await page.keyboard.press('+');
  const zoomed = await viewBox(page);
  check(zoomed[2] < home[2] - 1, `+ zooms in (${home[2]} → ${zoomed[2]})`);
  await page.keyboard.press('ArrowRight');
  const panned = await viewBox(page);
  check(panned[0] > zoomed[0] + 1 && panned[2] === zoomed[2], `→ pans (${zoomed[0]} → ${panned[0]})`);
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  check((await viewBox(page))[2] > zoomed[2] + 1, '− zooms out');
  await page.keyboard.press('0');
  check((await viewBox(page)).join(' ') === home.join(' '), '0 shows the whole map again');
  // The buttons, by keyboard alone.
  await page.locator('.zoom-controls .zoom-in').focus();
  await page.keyboard.press('Enter');
  check((await viewBox(page))[2] < home[2] - 1, 'the zoom-in button zooms in');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  check((await viewBox(page))[2] > home[2] + 1, 'the zoom-out button zooms out');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  check((await viewBox(page)).join(' ') === home.join(' '), 'the reset button shows the whole map');

  // The display setting: the two-colour palette, kept across a reload.
  const before = await page.locator('g.hex[data-hex="2,0"] .counter-body').first().getAttribute('fill');
  // The game page keeps the settings in a folded "Display" section.
  const unfold = () => page.evaluate(() => { const d = document.querySelector('.display-controls')?.closest('details'); if (d) d.open = true; });
  await unfold();
  await page.locator('.display-controls input[value="colorblind"]').check();
  await page.locator('.display-controls input[type="checkbox"]').check();
  const stored = await page.evaluate(() => localStorage.getItem('hexwar.display'));
  check(JSON.parse(stored || '{}').palette === 'colorblind', `the setting is stored (${stored})`);
  await page.reload();
  await ready(page);
  await page.waitForSelector('g.stack');
  const after = await page.evaluate(async () => {
    const board = await import('/board.js');
    return {
      mine: document.querySelector('g.hex[data-hex="1,0"] .counter-body').getAttribute('fill'),
      theirs: document.querySelector('g.hex[data-hex="2,0"] .counter-body').getAttribute('fill'),
      you: board.YOU,
      them: board.THEM,
      coords: document.querySelectorAll('svg.map .hex-coords').length,
    };
  });
  check(after.mine === after.you && after.theirs === after.them && after.theirs !== before, `after a reload the map is drawn in the two-colour palette (${JSON.stringify(after)}, was ${before})`);
  check(after.coords > 30, `after a reload every hex shows its coordinates (${after.coords})`);
  await widgets(page);
  await unfold();
  check(await page.locator('.display-controls input[value="colorblind"]').isChecked(), 'the form shows the stored setting');
  await page.locator('svg.map').screenshot({ path: shot('board-colorblind') });
  await page.locator('.display-controls input[value="standard"]').check();
  await page.locator('.display-controls input[type="checkbox"]').uncheck();
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** A pinch on a phone zooms the map, not the page. */
export async function boardPhone(browser, base) {
  const created = await newGame(base);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const problems = watch(page, 'board phone');
  await page.goto(created.seats[0].invite);
  await ready(page);
  await page.waitForSelector('g.stack');
  const box = await page.locator('svg.map').boundingBox();
  const before = await viewBox(page);
  const cdp = await context.newCDPSession(page);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const touch = (type, spread) => cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: type === 'touchEnd' ? [] : [{ x: cx - spread, y: cy, id: 1 }, { x: cx + spread, y: cy, id: 2 }],
  });
  await touch('touchStart', 30);
  for (let spread = 40; spread <= 130; spread += 10) {
    await touch('touchMove', spread);
    await page.waitForTimeout(16);
  }
  await touch('touchEnd', 0);
  await page.waitForTimeout(300);
  const after = await viewBox(page);
  const scale = await page.evaluate(() => window.visualViewport.scale);
  const scroll = await page.evaluate(() => [window.scrollX, window.scrollY]);
  check(after[2] < before[2] * 0.8, `a pinch on the map zooms the map in (viewBox width ${before[2]} → ${after[2]})`);
  check(scale === 1, `the page does not zoom under the pinch (visualViewport.scale ${scale})`);
  check(scroll[0] === 0 && scroll[1] === 0, `the page does not scroll under the pinch (${scroll})`);
  console.log(`  phone pinch: viewBox width ${before[2].toFixed(0)} → ${after[2].toFixed(0)}, page scale ${scale}`);
  // One finger drags the map (from a hex with no actions: a drag from one moves a unit).
  await page.evaluate(() => document.querySelector('svg.map').setAttribute('viewBox', document.querySelector('svg.map').dataset.home));
  const dragged = await viewBox(page);
  const from = await page.locator('g.hex[data-hex="3,-1"] polygon.tile').boundingBox();
  const [fx, fy] = [from.x + from.width / 2, from.y + from.height / 2];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fx, y: fy, id: 3 }] });
  for (let dy = 10; dy <= 80; dy += 10) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: fx, y: fy - dy, id: 3 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForTimeout(200);
  const moved = await viewBox(page);
  check(moved[1] > dragged[1] + 1 && (await page.evaluate(() => window.scrollY)) === 0, `a one-finger drag pans the map, not the page (${dragged[1]} → ${moved[1]})`);
  await page.screenshot({ path: shot('board-phone') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** The tests of this module, in the order they run. */
export const tests = [boardDrawing, boardInteraction, boardPhone];
