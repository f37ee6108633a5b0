// The VIKTORY board in SVG: terrain (each with its own pattern, so colour is not the
// only cue), face-down tiles, towns, cities and capitals, counters of units, fog, and
// the hexes the server says an action can reach; plus what helps reading it: a hover
// readout, highlights, the other players' last moves, a legend, display settings, and
// pan and zoom by pointer, pinch, buttons and keys. The board draws what the view
// holds and never decides a rule.

const SVG = 'http://www.w3.org/2000/svg';
const SIZE = 30; // hex radius in SVG units
const SQRT3 = Math.sqrt(3);

/**
 * Seat colours: the Okabe–Ito palette, ordered so that the first seats stay far apart
 * under protanopia, deuteranopia and tritanopia (web/tests/board.mjs measures it).
 * Each seat also has a shape (SEAT_SHAPES), drawn on its counters and towns.
 */
export const SEAT_COLORS = ['#D55E00', '#0072B2', '#000000', '#F0E442', '#56B4E9', '#E69F00', '#009E73', '#CC79A7'];
/** The shape of each seat's mark, in seat order. */
export const SEAT_SHAPES = ['circle', 'square', 'triangle', 'diamond', 'inverted triangle', 'cross', 'saltire', 'pentagon'];
/** The rules' `colorblind` option: every other seat in one enemy colour. */
export const ENEMY = '#5A5A5A';
/** The personal 'colorblind' palette: you in blue, everyone else in orange. */
export const YOU = '#0072B2';
export const THEM = '#E69F00';

export const TERRAIN_COLORS = {
  plains: '#e8dc9a',
  grassland: '#9fd17a',
  forest: '#4f9a56',
  mountain: '#a99783',
  water: '#7fb6e0',
};
/** The ink of each terrain's pattern (≥ 3:1 against the terrain colour). */
export const TERRAIN_INK = {
  plains: '#6e5f1c',
  grassland: '#2a5e1a',
  forest: '#10301a',
  mountain: '#3a2d21',
  water: '#1b4a73',
};
const FACE_DOWN = '#5d6470';
const TERRAINS = ['plains', 'grassland', 'forest', 'mountain', 'water'];
const KINDS = ['infantry', 'cavalry', 'artillery', 'frigate'];
const TERRAIN_WORDS = {
  plains: 'plains (rows)', grassland: 'grassland (tufts)', forest: 'forest (trees)', mountain: 'mountain (peaks)', water: 'water (waves)',
};

export const key = (hex) => `${hex[0]},${hex[1]}`;
const unkey = (k) => k.split(',').map(Number);
/** "2,−1": a key written for people (a true minus sign). */
const shown = (k) => k.replaceAll('-', '\u2212');

/** Pixel centre of an axial hex (pointy top). */
export function centre([q, r]) {
  return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
}

function corners([x, y], radius = SIZE) {
  const points = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(x + radius * Math.cos(angle)).toFixed(1)},${(y + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(' ');
}

/** An SVG element with attributes and children (strings become text). */
function el(name, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** Every hex of a hexagonal board of side `side`, with its distance from the centre. */
export function hexagon(side) {
  const out = [];
  const n = side - 1;
  for (let q = -n; q <= n; q += 1) {
    for (let r = Math.max(-n, -q - n); r <= Math.min(n, -q + n); r += 1) {
      out.push({ hex: [q, r], ring: Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------
// Display settings: personal, kept in this browser.

const DISPLAY_KEY = 'hexwar.display';
const DEFAULT_DISPLAY = { palette: 'standard', coords: false };
let displayCache = null;

/** This browser's display settings: {palette: 'standard'|'colorblind', coords: bool}. */
export function display() {
  if (!displayCache) {
    let stored = {};
    try {
      stored = JSON.parse(localStorage.getItem(DISPLAY_KEY) || '{}') || {};
    } catch {
      stored = {};
    }
    displayCache = { ...DEFAULT_DISPLAY, ...stored };
    if (!['standard', 'colorblind'].includes(displayCache.palette)) displayCache.palette = 'standard';
    displayCache.coords = displayCache.coords === true;
  }
  return displayCache;
}

/** Changes and saves display settings (`patch` holds the fields that change). */
export function setDisplay(patch) {
  const next = { ...display(), ...patch };
  try {
    localStorage.setItem(DISPLAY_KEY, JSON.stringify(next));
  } catch {
    // Private browsing without storage: the setting lasts as long as the page.
  }
  displayCache = null;
  displayCache = { ...next };
  return display();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === DISPLAY_KEY) displayCache = null;
  });
}

/** The colour of a seat as `viewer` sees it (null: a spectator). */
export function seatColor(seat, viewer, colorblind) {
  const hasViewer = viewer !== null && viewer !== undefined;
  if (hasViewer && display().palette === 'colorblind') return seat === viewer ? YOU : THEM;
  if (colorblind && hasViewer && seat !== viewer) return ENEMY;
  return SEAT_COLORS[((seat % SEAT_COLORS.length) + SEAT_COLORS.length) % SEAT_COLORS.length];
}

function channel(c) {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}
/** WCAG relative luminance of '#rrggbb'. */
export function luminance(color) {
  const hex = color.replace('#', '');
  const [r, g, b] = [0, 2, 4].map((i) => channel(parseInt(hex.slice(i, i + 2), 16)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
/** WCAG contrast ratio of two '#rrggbb' colours. */
export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
/** Black or white, whichever reads better on `color`. */
export function inkOn(color) {
  return contrast(color, '#000000') >= contrast(color, '#ffffff') ? '#000000' : '#ffffff';
}

// ---------------------------------------------------------------------------------
// Shared drawings: terrain patterns, unit symbols, seat shapes.

/** A `<defs>` with ids starting with `prefix`: a pattern per terrain, a symbol per
 *  unit kind and one per seat shape. */
function definitions(prefix) {
  const defs = el('defs');
  for (const t of TERRAINS) {
    const p = el('pattern', { id: `${prefix}-terrain-${t}`, patternUnits: 'userSpaceOnUse', width: 18, height: 16, class: `terrain-pattern terrain-pattern-${t}` });
    p.append(el('rect', { width: 18, height: 16, fill: TERRAIN_COLORS[t] }));
    const ink = TERRAIN_INK[t];
    const stroke = { fill: 'none', stroke: ink, 'stroke-width': 1.2, 'stroke-linecap': 'round', class: 'terrain-glyph' };
    for (const [dx, dy] of [[0, 0], [9, 8]]) {
      if (t === 'plains') {
        p.append(el('path', { ...stroke, d: `M${dx + 2} ${dy + 4}h5` }));
      } else if (t === 'grassland') {
        p.append(el('path', { ...stroke, d: `M${dx + 2.5} ${dy + 6}l-1.2 -3M${dx + 4} ${dy + 6}v-3.5M${dx + 5.5} ${dy + 6}l1.2 -3` }));
      } else if (t === 'forest') {
        p.append(el('path', { fill: ink, class: 'terrain-glyph', d: `M${dx + 4.5} ${dy + 0.8}l3 4.6h-6zM${dx + 4} ${dy + 5.2}h1v1.8h-1z` }));
      } else if (t === 'mountain') {
        p.append(el('path', { ...stroke, 'stroke-linejoin': 'round', d: `M${dx + 0.8} ${dy + 6.5}l3 -5 3 5` }));
      } else {
        p.append(el('path', { ...stroke, d: `M${dx + 0.8} ${dy + 4}q1.7 -2 3.4 0t3.4 0` }));
      }
    }
    defs.append(p);
  }
  const symbol = (id, viewBox, ...children) => {
    const s = el('symbol', { id, viewBox, overflow: 'visible' });
    s.append(...children);
    defs.append(s);
  };
  const frame = () => el('rect', { x: 0.75, y: 0.75, width: 14.5, height: 8.5, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 });
  const line = (d) => el('path', { d, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.3 });
  symbol(`${prefix}-unit-infantry`, '0 0 16 10', frame(), line('M0.75 0.75L15.25 9.25M0.75 9.25L15.25 0.75'));
  symbol(`${prefix}-unit-cavalry`, '0 0 16 10', frame(), line('M0.75 9.25L15.25 0.75'));
  symbol(`${prefix}-unit-artillery`, '0 0 16 10', frame(), el('circle', { cx: 8, cy: 5, r: 2.5, fill: 'currentColor' }));
  symbol(`${prefix}-unit-frigate`, '0 0 16 10',
    el('path', { d: 'M0.5 6.2H15.5L12.6 9.6H3.4Z', fill: 'currentColor' }),
    el('path', { d: 'M7.6 0.3V6.2', stroke: 'currentColor', 'stroke-width': 1.1 }),
    el('path', { d: 'M8.3 0.6L13 5.4H8.3Z', fill: 'currentColor' }),
    el('path', { d: 'M6.9 1.6L3.3 5.4H6.9Z', fill: 'currentColor' }));
  const shapes = [
    el('circle', { cx: 0, cy: 0, r: 4.3 }),
    el('rect', { x: -3.9, y: -3.9, width: 7.8, height: 7.8 }),
    el('path', { d: 'M0 -4.8L4.6 3.6H-4.6Z' }),
    el('path', { d: 'M0 -5L5 0 0 5 -5 0Z' }),
    el('path', { d: 'M0 4.8L4.6 -3.6H-4.6Z' }),
    el('path', { d: 'M-1.6 -4.8h3.2v3.2h3.2v3.2h-3.2v3.2h-3.2v-3.2h-3.2v-3.2h3.2Z' }),
    el('path', { d: 'M-3.4 -5.2L0 -1.8 3.4 -5.2 5.2 -3.4 1.8 0 5.2 3.4 3.4 5.2 0 1.8 -3.4 5.2 -5.2 3.4 -1.8 0 -5.2 -3.4Z' }),
    el('path', { d: 'M0 -4.9L4.7 -1.5 2.9 4 -2.9 4 -4.7 -1.5Z' }),
  ];
  shapes.forEach((shape, i) => {
    shape.setAttribute('fill', 'currentColor');
    symbol(`${prefix}-seat-${i}`, '-5.2 -5.2 10.4 10.4', shape);
  });
  return defs;
}

const use = (prefix, name, x, y, width, height, color, extra = {}) => el('use', { href: `#${prefix}-${name}`, x, y, width, height, color, ...extra });

// ---------------------------------------------------------------------------------
// The board.

const MAP = 'hexwar-map';
/** Per svg: what the overlays need between draws. */
const boards = new WeakMap();
function stateOf(svg) {
  if (!boards.has(svg)) boards.set(svg, { viewer: null, colorblind: false, highlight: [], recent: [], hover: null, texts: new Map(), overlay: null });
  return boards.get(svg);
}

/**
 * Draws the board into `svg`.
 * `marks`: {sources: Set of hex keys, targets: Set, selected: key|null}.
 * `onHex(hexKey)` is called when a hex is clicked or chosen with the keyboard.
 * `names`: the players' names by seat, for the hexes' descriptions ("seat N" without).
 * What `highlight` and `markRecent` last set on this svg is drawn again.
 */
export function drawBoard(svg, view, marks, onHex, names = []) {
  const position = view.position;
  const side = view.board_side;
  const viewer = view.seat === undefined ? null : view.seat;
  const { coords } = display();
  const terrain = new Map(position.tiles.map((t) => [key(t.hex), t.terrain]));
  const sight = view.sight ? new Set(view.sight.map(key)) : null;
  const towns = new Map(position.towns.map((t) => [key(t.hex), t]));
  const stacks = new Map();
  for (const unit of position.units) {
    const k = key(unit.hex);
    if (!stacks.has(k)) stacks.set(k, []);
    stacks.get(k).push(unit);
  }
  const state = stateOf(svg);
  state.viewer = viewer;
  state.colorblind = !!view.colorblind;
  state.texts = new Map();
  svg.replaceChildren(definitions(MAP));
  const layer = el('g', { class: 'board viktory' });
  for (const { hex, ring } of hexagon(side)) {
    const k = key(hex);
    const c = centre(hex);
    const perimeter = ring === side - 1;
    const t = perimeter ? 'water' : terrain.get(k);
    const g = el('g', { class: 'hex', 'data-hex': k });
    const classes = ['tile', t ? `terrain-${t}` : 'face-down'];
    if (marks.targets.has(k)) classes.push('target');
    if (marks.sources.has(k)) classes.push('source');
    if (marks.selected === k) classes.push('selected');
    g.append(el('polygon', {
      points: corners(c),
      class: classes.join(' '),
      fill: t ? `url(#${MAP}-terrain-${t})` : FACE_DOWN,
      'data-terrain': t || 'face-down',
    }));
    if (!t) g.append(el('text', { x: c[0], y: c[1] + 5, class: 'face-down-mark' }, '?'));
    if (sight && !sight.has(k)) g.append(el('polygon', { points: corners(c), class: 'fog' }));
    // The outlines of this hex, inside its edge and under its town and counters.
    const slot = el('g', { class: 'hex-marks' });
    if (marks.sources.has(k)) slot.append(ringAt(k, 'source'));
    else if (marks.targets.has(k)) slot.append(ringAt(k, 'target'));
    if (marks.selected === k) slot.append(ringAt(k, 'selected'));
    g.append(slot);
    const town = towns.get(k);
    if (town) g.append(drawTown(c, town, viewer, view.colorblind));
    const stack = stacks.get(k);
    if (stack) g.append(drawStack(c, stack, viewer, view.colorblind, !!town));
    if (coords) g.append(el('text', { x: c[0], y: c[1] + 25.5, class: 'hex-coords' }, shown(k)));
    const text = describeHex(k, t, town, stack, perimeter, sight && !sight.has(k), names);
    state.texts.set(k, text);
    const clickable = marks.targets.has(k) || marks.sources.has(k);
    g.append(el('title', {}, text));
    if (clickable) {
      // The control is a clear hex laid over what the hex draws, named by its label,
      // which says everything the hex shows. Were the drawn group the control, its
      // numbers would be its content too: two stacks of 2 read "22", which the label
      // ("2 × infantry…") does not contain (WCAG 2.5.3, label in name).
      const hit = el('polygon', {
        points: corners(c),
        class: 'hit',
        'data-hex': k,
        tabindex: '0',
        role: 'button',
        'aria-label': `hex ${k}${marks.targets.has(k) ? ' (a target)' : ' (has actions)'}: ${text}`,
      });
      hit.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onHex(k);
        }
      });
      g.append(hit);
    }
    g.addEventListener('click', () => onHex(k));
    layer.append(g);
  }
  svg.append(layer);
  // The arrows of the last moves go above every hex.
  const overlay = el('g', { class: 'overlay' });
  state.overlay = { recent: el('g', { class: 'recent-moves' }) };
  overlay.append(state.overlay.recent);
  svg.append(overlay);
  drawRecent(svg);
  drawHighlight(svg);
  drawHover(svg);
  if (!svg.dataset.fitted) {
    const extent = (side - 0.5) * SIZE * SQRT3 + SIZE;
    svg.setAttribute('viewBox', `${-extent} ${-extent} ${2 * extent} ${2 * extent}`);
    svg.dataset.home = svg.getAttribute('viewBox');
    svg.dataset.fitted = '1';
  }
  watchPointer(svg);
}

const RING_RANK = { source: 0, target: 0, selected: 1, recent: 2, highlight: 3, hover: 4 };
/** An outline of hex `k` (a dark line under a light one, so it shows on any terrain),
 *  inside the hex's edge: the widest line (6.8) ends at the edge. */
function ringAt(k, kind, color) {
  const c = centre(unkey(k));
  const radius = SIZE - 4;
  const g = el('g', { class: `ring ring-${kind}`, 'data-hex': k, 'data-rank': RING_RANK[kind] });
  if (kind === 'highlight') g.append(el('polygon', { points: corners(c, radius), class: 'ring-fill' }));
  g.append(el('polygon', { points: corners(c, radius), class: 'ring-under' }));
  g.append(el('polygon', { points: corners(c, radius), class: 'ring-over', stroke: color }));
  return g;
}

function townKind(town) {
  return town.capital_of !== undefined && town.capital_of !== null ? 'capital' : town.city ? 'city' : 'town';
}

/** A hex in words, its town and counters named by their players' `names`. */
function describeHex(k, t, town, stack, perimeter, fogged, names) {
  const who = (seat) => names[seat] || `seat ${seat + 1}`;
  const parts = [`${shown(k)}: ${t || 'unexplored'}${perimeter ? ' (the sea around the map)' : ''}${fogged ? ', out of sight' : ''}`];
  if (town) parts.push(`${townKind(town)} of ${who(town.owner)}`);
  if (stack) {
    const counts = {};
    for (const u of stack) {
      const aboard = u.aboard !== undefined && u.aboard !== null;
      const name = `${who(u.owner)}\u2019s ${u.kind}${aboard ? ' aboard a frigate' : ''}`;
      counts[name] = (counts[name] || 0) + 1;
    }
    parts.push(Object.entries(counts).map(([name, n]) => `${n} × ${name}`).join(', '));
  }
  return parts.join('; ');
}

/** A town (circle), city (square) or capital (star) in its owner's colour, with the
 *  owner's shape inside. */
function drawTown([x, y], town, viewer, colorblind) {
  const color = seatColor(town.owner, viewer, colorblind);
  const ink = inkOn(color);
  const kind = townKind(town);
  const g = el('g', { class: `town town-${kind}`, 'data-owner': town.owner });
  const cy = y - 14;
  let shape;
  if (kind === 'capital') shape = el('polygon', { points: star(x, cy + 1, 10.5, 5.6) });
  else if (kind === 'city') shape = el('rect', { x: x - 8, y: cy - 6.5, width: 16, height: 13, rx: 1 });
  else shape = el('circle', { cx: x, cy, r: 6.8 });
  const halo = shape.cloneNode();
  halo.setAttribute('class', 'halo');
  shape.setAttribute('fill', color);
  shape.setAttribute('class', 'town-shape');
  g.append(halo, shape);
  const s = kind === 'capital' ? 5.4 : 7;
  g.append(use(MAP, `seat-${town.owner % SEAT_SHAPES.length}`, x - s / 2, cy + (kind === 'capital' ? 1.2 : 0) - s / 2, s, s, ink, { class: 'seat-shape' }));
  return g;
}

function star(x, y, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(x + radius * Math.cos(angle)).toFixed(1)},${(y + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(' ');
}

const CW = 20; // a counter's width and height, before it is scaled to fit
const CH = 24;
const GAP = 2;

/** How `n` counters fit in a w×h box: columns, rows and scale (at most 1). */
function fit(n, w, h) {
  let best = { cols: n, rows: 1, scale: 0 };
  for (let cols = 1; cols <= n; cols += 1) {
    const rows = Math.ceil(n / cols);
    const scale = Math.min(1, w / (cols * CW + (cols - 1) * GAP), h / (rows * CH + (rows - 1) * GAP));
    if (scale > best.scale + 1e-9) best = { cols, rows, scale };
  }
  return best;
}

/**
 * A stack: one counter per owner and kind, with the kind's symbol, the owner's shape
 * and the count. Land units aboard frigates are not counters of the hex: each owner's
 * cargo is a dashed counter right after his frigates'. The counters wrap and shrink to
 * stay inside the hex (below the town, if there is one).
 */
function drawStack([x, y], stack, viewer, colorblind, hasTown) {
  const aboard = (u) => u.aboard !== undefined && u.aboard !== null;
  const groups = new Map();
  for (const unit of stack.filter((u) => !aboard(u))) {
    const k = `${unit.owner}:${unit.kind}`;
    if (!groups.has(k)) groups.set(k, { owner: unit.owner, kind: unit.kind, n: 0 });
    groups.get(k).n += 1;
  }
  const cells = [];
  for (const group of [...groups.values()].sort((a, b) => a.owner - b.owner || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind))) {
    cells.push(group);
    if (group.kind === 'frigate') {
      const cargo = stack.filter((u) => aboard(u) && u.owner === group.owner);
      if (cargo.length) cells.push({ owner: group.owner, kind: 'cargo', cargo });
    }
  }
  // The box the counters share: the hex's widest band, below the town.
  const box = hasTown ? { x0: x - 21, y0: y - 4.5, x1: x + 21, y1: y + 17.5 } : { x0: x - 22, y0: y - 15, x1: x + 22, y1: y + 15 };
  const { cols, rows, scale } = fit(cells.length, box.x1 - box.x0, box.y1 - box.y0);
  const w = CW * scale;
  const h = CH * scale;
  const gap = GAP * scale;
  const g = el('g', { class: 'stack' });
  cells.forEach((cell, i) => {
    const row = Math.floor(i / cols);
    const inRow = row === rows - 1 ? cells.length - row * cols : cols;
    const rowWidth = inRow * w + (inRow - 1) * gap;
    const cx = (box.x0 + box.x1) / 2 - rowWidth / 2 + (i % cols) * (w + gap);
    const blockHeight = rows * h + (rows - 1) * gap;
    const cy = (box.y0 + box.y1) / 2 - blockHeight / 2 + row * (h + gap);
    const color = seatColor(cell.owner, viewer, colorblind);
    const counter = cell.kind === 'cargo' ? drawCargo(cell.cargo, cell.owner, color) : drawCounter(cell, color);
    counter.setAttribute('transform', `translate(${cx.toFixed(2)} ${cy.toFixed(2)}) scale(${scale.toFixed(3)})`);
    g.append(counter);
  });
  return g;
}

/** One counter at (0, 0), CW×CH: the owner's shape, the count, the kind's symbol. */
function drawCounter(group, color) {
  const ink = inkOn(color);
  const g = el('g', { class: `counter unit-${group.kind}`, 'data-owner': group.owner, 'data-kind': group.kind, 'data-count': group.n });
  g.append(el('rect', { x: 0, y: 0, width: CW, height: CH, rx: 2.5, class: 'halo' }));
  g.append(el('rect', { x: 0, y: 0, width: CW, height: CH, rx: 2.5, fill: color, class: 'counter-body' }));
  g.append(use(MAP, `seat-${group.owner % SEAT_SHAPES.length}`, 2, 2, 7, 7, ink, { class: 'seat-shape' }));
  g.append(el('text', { x: CW - 2, y: 9, fill: ink, class: 'counter-count' }, String(group.n)));
  g.append(use(MAP, `unit-${group.kind}`, 2, 12, 16, 10, ink, { class: 'unit-symbol' }));
  return g;
}

/** One owner's land units aboard frigates: a dashed counter, a row per kind. */
function drawCargo(cargo, owner, color) {
  const ink = inkOn(color);
  const g = el('g', { class: 'counter cargo', 'data-owner': owner, 'data-kind': 'cargo' });
  g.append(el('rect', { x: 0, y: 0, width: CW, height: CH, rx: 2.5, class: 'halo' }));
  g.append(el('rect', { x: 0, y: 0, width: CW, height: CH, rx: 2.5, fill: color, class: 'counter-body cargo-body' }));
  const kinds = ['infantry', 'cavalry', 'artillery'].map((kind) => [kind, cargo.filter((u) => u.kind === kind).length]).filter(([, n]) => n > 0);
  const rowH = Math.min(8, (CH - 2) / kinds.length);
  kinds.forEach(([kind, n], i) => {
    const top = 1 + i * rowH + (rowH - 5.5) / 2;
    g.append(el('text', { x: 8, y: top + 5, fill: ink, class: 'cargo-count' }, String(n)));
    g.append(use(MAP, `unit-${kind}`, 9.5, top, 9, 5.6, ink, { class: 'unit-symbol' }));
  });
  return g;
}

// ---------------------------------------------------------------------------------
// Overlays: hover, highlights, the other players' last moves.

/** Outlines the hexes of `keys` (say, while an action in the list is hovered) without
 *  redrawing the board; `highlight(svg, [])` clears them. Kept through redraws. */
export function highlight(svg, keys) {
  stateOf(svg).highlight = [...(keys || [])].filter(Boolean);
  drawHighlight(svg);
}

/** Replaces the rings of `kind` on the board by one per key of `keys`. */
function setRings(svg, kind, keys, color) {
  for (const ring of svg.querySelectorAll(`.hex-marks > .ring-${kind}`)) ring.remove();
  for (const k of keys) {
    const slot = svg.querySelector(`g.hex[data-hex="${CSS.escape(k)}"] > .hex-marks`);
    if (!slot) continue;
    const ring = ringAt(k, kind, typeof color === 'function' ? color(k) : color);
    const after = [...slot.children].find((r) => Number(r.dataset.rank) > RING_RANK[kind]);
    slot.insertBefore(ring, after || null);
  }
}

function drawHighlight(svg) {
  const state = stateOf(svg);
  if (!state.overlay) return;
  setRings(svg, 'highlight', state.highlight);
}

/**
 * Marks other players' last moves: `moves` is [{from: key|null, to: key, seat}]; each
 * is an arrow from `from` to `to` (or, with no `from`, an outline of `to`) in the
 * mover's colour, over a dark line. Kept through redraws until the next call;
 * `markRecent(svg, [])` clears them.
 */
export function markRecent(svg, moves) {
  stateOf(svg).recent = [...(moves || [])].filter((m) => m && m.to);
  drawRecent(svg);
}

function drawRecent(svg) {
  const state = stateOf(svg);
  if (!state.overlay) return;
  const layer = state.overlay.recent;
  layer.replaceChildren();
  const ringColor = new Map();
  for (const move of state.recent) {
    const color = seatColor(move.seat, state.viewer, state.colorblind);
    const to = typeof move.to === 'string' ? move.to : key(move.to);
    const from = move.from === null || move.from === undefined ? null : typeof move.from === 'string' ? move.from : key(move.from);
    const g = el('g', { class: 'recent-move', 'data-seat': move.seat, 'data-to': to, 'data-from': from || '' });
    ringColor.set(to, color);
    if (from && from !== to) {
      const [x0, y0] = centre(unkey(from));
      const [x1, y1] = centre(unkey(to));
      const len = Math.hypot(x1 - x0, y1 - y0);
      const [ux, uy] = [(x1 - x0) / len, (y1 - y0) / len];
      // Across the edge between the hexes, clear of most of their counters.
      const a = [x0 + ux * 20, y0 + uy * 20];
      const b = [x1 - ux * 23, y1 - uy * 23];
      const d = `M${a[0].toFixed(1)} ${a[1].toFixed(1)}L${b[0].toFixed(1)} ${b[1].toFixed(1)}`;
      const tip = [b[0] + ux * 7, b[1] + uy * 7];
      const head = [tip, [b[0] - uy * 5, b[1] + ux * 5], [b[0] + uy * 5, b[1] - ux * 5]].map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ');
      g.append(el('path', { d, class: 'arrow-under' }), el('path', { d, class: 'arrow-over', stroke: color }));
      g.append(el('polygon', { points: head, class: 'arrow-head', fill: color }));
    }
    layer.append(g);
  }
  setRings(svg, 'recent', [...ringColor.keys()], (k) => ringColor.get(k));
}

function drawHover(svg) {
  const state = stateOf(svg);
  if (!state.overlay) return;
  setRings(svg, 'hover', state.hover && state.texts.has(state.hover) ? [state.hover] : []);
  const readout = readoutOf(svg);
  if (!readout) return;
  if (state.hover && state.texts.has(state.hover)) {
    readout.textContent = state.texts.get(state.hover);
    readout.hidden = false;
  } else {
    readout.hidden = true;
  }
}

/** The readout under the map that names the hex under the pointer (or in focus). */
function readoutOf(svg) {
  const parent = svg.parentNode;
  if (!parent) return null;
  let readout = parent.querySelector(':scope > .hex-readout');
  if (!readout) {
    readout = html('div', { class: 'hex-readout', hidden: true });
    parent.append(readout);
  }
  return readout;
}

const watched = new WeakSet();
function watchPointer(svg) {
  if (watched.has(svg)) return;
  watched.add(svg);
  const over = (e) => {
    const g = e.target.closest && e.target.closest('g.hex');
    const k = g ? g.dataset.hex : null;
    const state = stateOf(svg);
    if (k !== state.hover) {
      state.hover = k;
      drawHover(svg);
    }
  };
  svg.addEventListener('pointerover', over);
  svg.addEventListener('pointermove', over);
  svg.addEventListener('focusin', over);
  const leave = () => {
    stateOf(svg).hover = null;
    drawHover(svg);
  };
  svg.addEventListener('pointerleave', leave);
  svg.addEventListener('focusout', (e) => {
    if (!svg.contains(e.relatedTarget)) leave();
  });
}

// ---------------------------------------------------------------------------------
// Pan and zoom.

const zoomers = new WeakMap();

/**
 * Pan with a drag, the arrow keys or the buttons of `zoomControls`; zoom with the
 * wheel, a pinch, + and −; 0 goes back to the whole map. Works on `svg`'s viewBox, so
 * the page itself never zooms or scrolls under a pinch on the map.
 */
export function panZoom(svg) {
  const box = () => svg.getAttribute('viewBox').split(' ').map(Number);
  const set = (b) => {
    if (!svg.dataset.home) svg.dataset.home = svg.getAttribute('viewBox');
    svg.setAttribute('viewBox', b.map((v) => v.toFixed(1)).join(' '));
  };
  svg.style.touchAction = 'none';
  if (!svg.hasAttribute('tabindex')) svg.setAttribute('tabindex', '0');
  svg.setAttribute('aria-keyshortcuts', '+ - 0 ArrowUp ArrowDown ArrowLeft ArrowRight');
  if (!svg.getAttribute('aria-roledescription')) svg.setAttribute('aria-roledescription', 'map');
  const pointers = new Map();
  let last = null;
  let moved = 0;
  let panning = false;
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
  }, { passive: false });
  function zoom(factor, clientX, clientY) {
    if (!svg.getAttribute('viewBox')) return;
    const [x, y, w, h] = box();
    const rect = svg.getBoundingClientRect();
    const cx = clientX === undefined ? rect.left + rect.width / 2 : clientX;
    const cy = clientY === undefined ? rect.top + rect.height / 2 : clientY;
    const px = x + ((cx - rect.left) / (rect.width || 1)) * w;
    const py = y + ((cy - rect.top) / (rect.height || 1)) * h;
    const nw = Math.min(Math.max(w * factor, 120), 4000);
    const f = nw / w;
    set([px - (px - x) * f, py - (py - y) * f, nw, h * f]);
  }
  function pan(fx, fy) {
    if (!svg.getAttribute('viewBox')) return;
    const [x, y, w, h] = box();
    set([x + fx * w, y + fy * h, w, h]);
  }
  function reset() {
    if (svg.dataset.home) svg.setAttribute('viewBox', svg.dataset.home);
  }
  zoomers.set(svg, { zoomIn: () => zoom(1 / 1.25), zoomOut: () => zoom(1.25), reset, pan });
  svg.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const actions = {
      '+': () => zoom(1 / 1.25), '=': () => zoom(1 / 1.25), '-': () => zoom(1.25), _: () => zoom(1.25),
      0: reset, ArrowLeft: () => pan(-0.1, 0), ArrowRight: () => pan(0.1, 0), ArrowUp: () => pan(0, -0.1), ArrowDown: () => pan(0, 0.1),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  });
  svg.addEventListener('pointerdown', (e) => {
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      last = distance();
      panning = false;
      return;
    }
    // A drag that starts on a hex with actions moves a unit; it does not pan.
    panning = !(e.target.closest && e.target.closest('g.hex:has(polygon.source)'));
    last = [e.clientX, e.clientY];
    moved = 0;
  });
  svg.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      const d = distance();
      if (typeof last === 'number' && d > 0) {
        const [a, b] = [...pointers.values()];
        zoom(last / d, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      }
      last = d;
      moved += 5; // a pinch is not a click
      return;
    }
    if (!panning || !Array.isArray(last)) return;
    const [x, y, w, h] = box();
    const rect = svg.getBoundingClientRect();
    const dx = ((e.clientX - last[0]) / rect.width) * w;
    const dy = ((e.clientY - last[1]) / rect.height) * h;
    moved += Math.abs(e.clientX - last[0]) + Math.abs(e.clientY - last[1]);
    if (moved > 4) {
      if (!svg.hasPointerCapture(e.pointerId)) svg.setPointerCapture(e.pointerId);
      set([x - dx, y - dy, w, h]);
    }
    last = [e.clientX, e.clientY];
  });
  const end = (e) => {
    pointers.delete(e.pointerId);
    last = null;
    panning = false;
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  // A drag is not a click on the hex under it.
  svg.addEventListener('click', (e) => {
    if (moved > 4) e.stopPropagation();
  }, true);
  function distance() {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  }
}

/** Zoom in, zoom out and show-all buttons for the map `svg` (after `panZoom(svg)`). */
export function zoomControls(svg) {
  const act = (name) => () => {
    const z = zoomers.get(svg);
    if (z) z[name]();
  };
  return html('div', { class: 'zoom-controls', role: 'group', 'aria-label': 'zoom the map' },
    html('button', { type: 'button', class: 'zoom-in', 'aria-label': 'zoom in', title: 'zoom in (+)', onclick: act('zoomIn') }, '+'),
    html('button', { type: 'button', class: 'zoom-out', 'aria-label': 'zoom out', title: 'zoom out (−)', onclick: act('zoomOut') }, '\u2212'),
    html('button', { type: 'button', class: 'zoom-reset', 'aria-label': 'show the whole map', title: 'show the whole map (0)', onclick: act('reset') }, '\u21ba'));
}

// ---------------------------------------------------------------------------------
// The legend and the display settings: HTML for the page's panel.

const KEY = 'hexwar-key';

function icon(...children) {
  const svg = el('svg', { viewBox: '-13 -13 26 26', width: 26, height: 26, class: 'key-icon', 'aria-hidden': 'true', focusable: 'false' });
  svg.append(...children);
  return svg;
}

/**
 * The map's key: terrain, towns, units, marks and, given `seats` ([{name}] in seat
 * order) and the viewer, each player's colour and shape. An HTML element.
 */
export function legend({ seats = null, viewer = null, colorblind = false } = {}) {
  const defsHolder = el('svg', { width: 0, height: 0, class: 'key-defs', 'aria-hidden': 'true', focusable: 'false' });
  defsHolder.append(definitions(KEY));
  const item = (graphic, text) => html('li', {}, graphic, html('span', {}, text));
  const hexIcon = (fill, ...extra) => icon(el('polygon', { points: corners([0, 0], 12), fill, stroke: '#39404d', 'stroke-width': 1 }), ...extra);
  const section = (title, items) => html('div', { class: 'key-section' }, html('h3', {}, title), html('ul', {}, items));
  const owner = viewer === null || viewer === undefined ? 0 : viewer;
  const mine = seatColor(owner, viewer, colorblind);
  const counter = (kind) => {
    const g = drawCounterIn(KEY, { owner, kind, n: 2 }, mine);
    g.setAttribute('transform', 'translate(-9 -11) scale(0.9)');
    return icon(g);
  };
  const town = (kind) => {
    const ink = inkOn(mine);
    const shape = kind === 'capital' ? el('polygon', { points: star(0, 1, 11, 5.8) })
      : kind === 'city' ? el('rect', { x: -8, y: -6.5, width: 16, height: 13, rx: 1 }) : el('circle', { cx: 0, cy: 0, r: 7 });
    const halo = shape.cloneNode();
    halo.setAttribute('class', 'halo');
    shape.setAttribute('fill', mine);
    shape.setAttribute('class', 'town-shape');
    const s = kind === 'capital' ? 5.4 : 7;
    return icon(el('g', { class: 'town' }, halo, shape, use(KEY, `seat-${owner % SEAT_SHAPES.length}`, -s / 2, (kind === 'capital' ? 1.2 : 0) - s / 2, s, s, ink)));
  };
  const ring = (kind) => {
    const g = el('g', { class: `ring ring-${kind}` });
    const points = corners([0, 0], 10.5);
    if (kind === 'highlight') g.append(el('polygon', { points, class: 'ring-fill' }));
    g.append(el('polygon', { points, class: 'ring-under' }), el('polygon', { points, class: 'ring-over', stroke: kind === 'recent' ? mine : undefined }));
    return hexIcon(`url(#${KEY}-terrain-plains)`, g);
  };
  const sections = [
    section('Terrain', [
      ...TERRAINS.map((t) => item(hexIcon(`url(#${KEY}-terrain-${t})`), TERRAIN_WORDS[t])),
      item(hexIcon(FACE_DOWN, el('text', { x: 0, y: 4.5, class: 'face-down-mark' }, '?')), 'face down'),
    ]),
    section('Towns', [item(town('town'), 'town (circle)'), item(town('city'), 'city (square)'), item(town('capital'), 'capital (star)')]),
    section('Units (count at the top right)', [
      ...KINDS.map((kind) => item(counter(kind), kind)),
      item(icon(el('g', { transform: 'translate(-9 -11) scale(0.9)' }, drawCargoIn(KEY, [{ kind: 'infantry' }, { kind: 'infantry' }, { kind: 'cavalry' }], owner, mine))), 'aboard frigates (dashed)'),
    ]),
    section('Marks', [
      item(ring('source'), 'has actions'), item(ring('target'), 'a target'), item(ring('selected'), 'selected'),
      item(ring('highlight'), 'the hovered action'), item(ring('recent'), 'a last move (arrow from where it came)'),
    ]),
  ];
  if (seats) {
    sections.push(section('Players', seats.map((seat, i) => {
      const color = seatColor(i, viewer, colorblind);
      const swatch = icon(el('rect', { x: -9, y: -9, width: 18, height: 18, rx: 2.5, fill: color, class: 'counter-body' }), use(KEY, `seat-${i % SEAT_SHAPES.length}`, -5, -5, 10, 10, inkOn(color)));
      return item(swatch, `${(seat && seat.name) || `Seat ${i + 1}`} (${SEAT_SHAPES[i % SEAT_SHAPES.length]})`);
    })));
  }
  return html('details', { class: 'board-legend', open: true }, html('summary', {}, 'Map key'), defsHolder, ...sections);
}

// The counters of the legend use the legend's own definitions.
function drawCounterIn(prefix, group, color) {
  const g = drawCounter(group, color);
  for (const u of g.querySelectorAll('use')) u.setAttribute('href', u.getAttribute('href').replace(MAP, prefix));
  return g;
}
function drawCargoIn(prefix, cargo, owner, color) {
  const g = drawCargo(cargo, owner, color);
  for (const u of g.querySelectorAll('use')) u.setAttribute('href', u.getAttribute('href').replace(MAP, prefix));
  return g;
}

let controlIds = 0;
/**
 * A small form of this browser's display settings (the palette, hex coordinates).
 * Saved in localStorage at once; `onChange(settings)` is then called so the page can
 * redraw.
 */
export function displayControls(onChange) {
  controlIds += 1;
  const id = (name) => `display-${name}-${controlIds}`;
  const current = display();
  const radio = (value, text) => {
    const input = html('input', { type: 'radio', name: id('palette'), id: id(value), value, checked: current.palette === value });
    input.addEventListener('change', () => {
      if (input.checked) changed({ palette: value });
    });
    return html('div', { class: 'display-choice' }, input, ' ', html('label', { for: id(value) }, text));
  };
  const coords = html('input', { type: 'checkbox', id: id('coords'), checked: current.coords });
  coords.addEventListener('change', () => changed({ coords: coords.checked }));
  function changed(patch) {
    const settings = setDisplay(patch);
    if (onChange) onChange(settings);
  }
  return html('form', { class: 'display-controls', 'aria-label': 'display settings' },
    html('fieldset', {}, html('legend', {}, 'Player colours'),
      radio('standard', 'a colour and a shape per player'),
      radio('colorblind', 'two colours: mine and everyone else\u2019s (shapes tell the others apart)')),
    html('div', { class: 'display-choice' }, coords, ' ', html('label', { for: id('coords') }, 'show every hex\u2019s coordinates')));
}
