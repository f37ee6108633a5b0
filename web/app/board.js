// The VIKTORY board in SVG: terrain, face-down tiles, towns, cities and capitals,
// stacks of units, fog, and the hexes the server says an action can reach. The board
// draws what the view holds and never decides a rule.

const SVG = 'http://www.w3.org/2000/svg';
const SIZE = 30; // hex radius in SVG units
const SQRT3 = Math.sqrt(3);

/** Seat colours; with the colorblind option every other seat is drawn as one enemy. */
export const SEAT_COLORS = ['#d64541', '#2f6fd6', '#2e9e5b', '#c98a12', '#8e44ad', '#16a3a3', '#e67e22', '#555555'];
const ENEMY = '#7a7a7a';

export const TERRAIN_COLORS = {
  plains: '#e8dc9a',
  grassland: '#9fd17a',
  forest: '#3f8a4a',
  mountain: '#a08f7d',
  water: '#7fb6e0',
};

const UNIT_LETTERS = { infantry: 'I', cavalry: 'C', artillery: 'A', frigate: 'F' };

export const key = (hex) => `${hex[0]},${hex[1]}`;

/** Pixel centre of an axial hex (pointy top). */
export function centre([q, r]) {
  return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
}

function corners([x, y]) {
  const points = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(x + SIZE * Math.cos(angle)).toFixed(1)},${(y + SIZE * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(' ');
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
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

/** The colour of a seat as `viewer` sees it. */
export function seatColor(seat, viewer, colorblind) {
  if (colorblind && viewer !== null && seat !== viewer) return ENEMY;
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

/**
 * Draws the board into `svg`.
 * `marks`: {sources: Set of hex keys, targets: Set, selected: key|null}.
 * `onHex(hexKey)` is called when a hex is clicked or chosen with the keyboard.
 */
export function drawBoard(svg, view, marks, onHex) {
  const position = view.position;
  const side = view.board_side;
  const viewer = view.seat === undefined ? null : view.seat;
  const terrain = new Map(position.tiles.map((t) => [key(t.hex), t.terrain]));
  const sight = view.sight ? new Set(view.sight.map(key)) : null;
  const towns = new Map(position.towns.map((t) => [key(t.hex), t]));
  const stacks = new Map();
  for (const unit of position.units) {
    const k = key(unit.hex);
    if (!stacks.has(k)) stacks.set(k, []);
    stacks.get(k).push(unit);
  }
  svg.replaceChildren();
  const hexes = hexagon(side);
  const layer = el('g', { class: 'board' });
  for (const { hex, ring } of hexes) {
    const k = key(hex);
    const c = centre(hex);
    const perimeter = ring === side - 1;
    const t = perimeter ? 'water' : terrain.get(k);
    const g = el('g', { class: 'hex', 'data-hex': k });
    const classes = ['tile', t ? `terrain-${t}` : 'face-down'];
    if (marks.targets.has(k)) classes.push('target');
    if (marks.sources.has(k)) classes.push('source');
    if (marks.selected === k) classes.push('selected');
    const polygon = el('polygon', {
      points: corners(c),
      class: classes.join(' '),
      fill: t ? TERRAIN_COLORS[t] : '#5d6470',
    });
    g.append(polygon);
    if (!t) g.append(el('text', { x: c[0], y: c[1] + 5, class: 'face-down-mark' }, '?'));
    if (sight && !sight.has(k)) g.append(el('polygon', { points: corners(c), class: 'fog' }));
    const town = towns.get(k);
    if (town) g.append(drawTown(c, town, viewer, view.colorblind));
    const stack = stacks.get(k);
    if (stack) g.append(drawStack(c, stack, viewer, view.colorblind));
    const clickable = marks.targets.has(k) || marks.sources.has(k);
    if (clickable) {
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `hex ${k}${marks.targets.has(k) ? ' (a target)' : ' (has actions)'}`);
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onHex(k);
        }
      });
    }
    g.addEventListener('click', () => onHex(k));
    const title = el('title', {}, describeHex(k, t, town, stack, perimeter));
    g.append(title);
    layer.append(g);
  }
  svg.append(layer);
  if (!svg.dataset.fitted) {
    const extent = (side - 0.5) * SIZE * SQRT3 + SIZE;
    svg.setAttribute('viewBox', `${-extent} ${-extent} ${2 * extent} ${2 * extent}`);
    svg.dataset.fitted = '1';
  }
}

function describeHex(k, t, town, stack, perimeter) {
  const parts = [`${k}: ${t || 'unexplored'}${perimeter ? ' (the sea around the map)' : ''}`];
  if (town) {
    const kind = town.capital_of !== undefined && town.capital_of !== null ? 'capital' : town.city ? 'city' : 'town';
    parts.push(`${kind} of seat ${town.owner + 1}`);
  }
  if (stack) {
    const counts = {};
    for (const u of stack) {
      const aboard = u.aboard !== undefined && u.aboard !== null;
      const name = `seat ${u.owner + 1} ${u.kind}${aboard ? ' aboard a frigate' : ''}`;
      counts[name] = (counts[name] || 0) + 1;
    }
    parts.push(Object.entries(counts).map(([name, n]) => `${n} × ${name}`).join(', '));
  }
  return parts.join('; ');
}

function drawTown([x, y], town, viewer, colorblind) {
  const color = seatColor(town.owner, viewer, colorblind);
  const g = el('g', { class: 'town' });
  const capital = town.capital_of !== undefined && town.capital_of !== null;
  if (capital) {
    g.append(el('polygon', { points: star(x, y - 12, 9, 4), fill: color, stroke: '#111', 'stroke-width': 1.2 }));
  } else if (town.city) {
    g.append(el('rect', { x: x - 8, y: y - 20, width: 16, height: 13, fill: color, stroke: '#111', 'stroke-width': 1.2 }));
  } else {
    g.append(el('circle', { cx: x, cy: y - 13, r: 6, fill: color, stroke: '#111', 'stroke-width': 1.2 }));
  }
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

/**
 * A stack: one counter per owner and kind, with a count. Land units aboard frigates
 * are not counters of the hex: each owner's cargo rides on his frigate counter as small
 * counters of their own (a letter per kind and a count).
 */
function drawStack([x, y], stack, viewer, colorblind) {
  const aboard = (u) => u.aboard !== undefined && u.aboard !== null;
  const groups = new Map();
  for (const unit of stack.filter((u) => !aboard(u))) {
    const k = `${unit.owner}:${unit.kind}`;
    if (!groups.has(k)) groups.set(k, { owner: unit.owner, kind: unit.kind, n: 0 });
    groups.get(k).n += 1;
  }
  const g = el('g', { class: 'stack' });
  const list = [...groups.values()];
  const width = 14;
  const start = x - (list.length * width) / 2;
  list.forEach((group, i) => {
    const cx = start + i * width;
    const color = seatColor(group.owner, viewer, colorblind);
    g.append(el('rect', { x: cx, y: y - 2, width: width - 1, height: 15, rx: 2, fill: color, stroke: '#111', 'stroke-width': 0.8 }));
    g.append(el('text', { x: cx + (width - 1) / 2, y: y + 9, class: 'unit-letter' }, UNIT_LETTERS[group.kind] || '?'));
    if (group.n > 1) g.append(el('text', { x: cx + (width - 1) / 2, y: y + 22, class: 'unit-count' }, `${group.n}`));
    if (group.kind === 'frigate') g.append(drawCargo(cx + (width - 1) / 2, y - 3, stack.filter((u) => aboard(u) && u.owner === group.owner), color));
  });
  return g;
}

/** The land units aboard one owner's frigates in a hex, centred above the frigate counter at (x, y). */
function drawCargo(x, y, cargo, color) {
  const g = el('g', { class: 'cargo' });
  const kinds = ['infantry', 'cavalry', 'artillery'].map((kind) => [kind, cargo.filter((u) => u.kind === kind).length]).filter(([, n]) => n > 0);
  const width = 13;
  const start = x - (kinds.length * width) / 2;
  kinds.forEach(([kind, n], i) => {
    const cx = start + i * width;
    g.append(el('rect', { x: cx + 0.5, y: y - 10, width: width - 2, height: 10, rx: 1.5, fill: color, 'fill-opacity': 0.75, stroke: '#111', 'stroke-width': 0.6, 'stroke-dasharray': '1.5 1' }));
    g.append(el('text', { x: cx + width / 2 - 0.5, y: y - 2.3, class: 'cargo-letter' }, `${n > 1 ? n : ''}${UNIT_LETTERS[kind]}`));
  });
  return g;
}

/** Pan with a drag, zoom with the wheel or a pinch, on `svg`'s viewBox. */
export function panZoom(svg) {
  const box = () => svg.getAttribute('viewBox').split(' ').map(Number);
  const set = (b) => svg.setAttribute('viewBox', b.map((v) => v.toFixed(1)).join(' '));
  const pointers = new Map();
  let last = null;
  let moved = 0;
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
  }, { passive: false });
  function zoom(factor, clientX, clientY) {
    const [x, y, w, h] = box();
    const rect = svg.getBoundingClientRect();
    const px = x + ((clientX - rect.left) / rect.width) * w;
    const py = y + ((clientY - rect.top) / rect.height) * h;
    const nw = Math.min(Math.max(w * factor, 120), 4000);
    const f = nw / w;
    set([px - (px - x) * f, py - (py - y) * f, nw, h * f]);
  }
  svg.addEventListener('pointerdown', (e) => {
    // A drag that starts on a hex with actions moves a unit; it does not pan.
    if (e.target.closest && e.target.closest('g.hex:has(polygon.source)')) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    last = pointers.size === 2 ? distance() : [e.clientX, e.clientY];
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
      return;
    }
    if (!Array.isArray(last)) return;
    const [x, y, w, h] = box();
    const rect = svg.getBoundingClientRect();
    const dx = ((e.clientX - last[0]) / rect.width) * w;
    const dy = ((e.clientY - last[1]) / rect.height) * h;
    moved += Math.abs(e.clientX - last[0]) + Math.abs(e.clientY - last[1]);
    if (moved > 4) {
      svg.setPointerCapture(e.pointerId);
      set([x - dx, y - dy, w, h]);
    }
    last = [e.clientX, e.clientY];
  });
  const end = (e) => {
    pointers.delete(e.pointerId);
    last = null;
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
