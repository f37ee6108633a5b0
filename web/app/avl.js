// A Victory Lost on the game page: the map sheet from the server's board (drawn once),
// the pieces of each view on it, the turn, phase and victory points, the chits and the
// combat in progress. Like the VIKTORY board it draws what the server sends and
// decides no rule: the hexes outlined are those of the legal actions.

import { h } from './dom.js';
import { charts } from './avl-charts.js';

const SVG = 'http://www.w3.org/2000/svg';
const SIZE = 24; // hex radius in SVG units
const SQRT3 = Math.sqrt(3);
export const SIDE_COLORS = { axis: '#5b6b7a', soviet: '#b3402e' };
// Each reads white text (the counters' numbers, the stack viewer's chips) at 4.5:1 or
// more (WCAG AA; web/tests/avl.mjs checks it).
export const NATION_COLORS = { german: '#5b6b7a', italian: '#44804f', romanian: '#8f6d1f', hungarian: '#7a5b8f', soviet: '#b3402e' };

const key = (hex) => `${hex[0]},${hex[1]}`;
const unkey = (k) => k.split(',').map(Number);
/** The six neighbours of an axial hex key. */
const neighbours = (k) => {
  const [q, r] = unkey(k);
  return [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]].map(([dq, dr]) => `${q + dq},${r + dr}`);
};
/** The axial offsets of the digits of a reach's `steps` (docs/protocol.md, avl). */
const STEP_DIGITS = [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]];

/**
 * The engine's reach (advice `movement.pieces[].reach`, `movement.stacks[].reach`) from
 * hex `from`: per hex key, the cost and MPs left (half MPs), the path as hex keys, and
 * whether it goes by road, ends in an enemy ZOC, or may only be passed through.
 */
export function decodeReach(from, list) {
  const out = new Map();
  for (const r of list || []) {
    let at = r.enter ? key(r.enter) : from;
    const path = r.enter ? [at] : [];
    for (const c of r.steps || '') {
      const [q, rr] = unkey(at);
      const [dq, dr] = STEP_DIGITS[Number(c)];
      at = `${q + dq},${rr + dr}`;
      path.push(at);
    }
    out.set(key(r.to), { cost: r.cost, left: r.left, path, road: Boolean(r.road), zoc: Boolean(r.zoc), pass: Boolean(r.pass) });
  }
  return out;
}

/** The page's A Victory Lost stylesheet, once. */
function ensureStyles() {
  if (typeof document === 'undefined' || document.querySelector('link[href="/avl.css"]')) return;
  document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/avl.css' }));
}

/**
 * Follows event `e` of audience `a`'s feed (the game page calls it for every event):
 * the strengths and odds each combat was resolved at (9.3), kept as `a.avlCombat`
 * `{target, attack, defense, column, die, result}` so that the combat panel shows what
 * was rolled, not a count of what is left on the board after the result.
 */
export function trackCombat(a, e) {
  if (!e || typeof e !== 'object') return;
  if (e.odds) a.avlCombat = { ...e.odds };
  else if (e.combat_result && a.avlCombat) Object.assign(a.avlCombat, e.combat_result);
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A phase for people: "selection (soviet)", "movement". */
export function phaseName(phase) {
  if (typeof phase === 'string') return phase.replaceAll('_', ' ');
  const [name, value] = Object.entries(phase)[0];
  return `${name.replaceAll('_', ' ')} (${String(value).replaceAll('_', ' ')})`;
}

/** The family adapter the game page uses for A Victory Lost. */
export async function avlFamily(api, id) {
  const board = (await api.board(id)).board;
  ensureStyles();
  const flat = board.orientation === 'flat_top';
  const centre = ([q, r]) => (flat ? [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)] : [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r]);
  const corners = ([x, y], radius = SIZE) => {
    const out = [];
    for (let i = 0; i < 6; i += 1) {
      const a = (Math.PI / 180) * (60 * i + (flat ? 0 : 30));
      out.push(`${(x + radius * Math.cos(a)).toFixed(1)},${(y + radius * Math.sin(a)).toFixed(1)}`);
    }
    return out.join(' ');
  };
  const labels = new Map(board.hexes.map((x) => [key(x.hex), x]));
  const label = (k) => (labels.has(k) ? labels.get(k).label : k);
  const hexName = (k) => {
    const x = labels.get(k);
    return x ? `${x.label} ${x.terrain}${x.name ? ` (${x.name})` : ''}` : k;
  };
  const pieceName = (p) => (board.pieces[p] ? board.pieces[p].id : `#${p}`);
  const chitName = (c) => {
    if (c === 'stavka') return 'STAVKA';
    if (c === 'hidden') return '?';
    if (c.manstein !== undefined) return `Manstein ${c.manstein + 1}`;
    if (c.hq !== undefined) return `${pieceName(c.hq)} HQ`;
    return JSON.stringify(c);
  };
  // The defenders of a combat: those it names once resolved, before that the enemy
  // pieces in the target hex.
  const defenders = (state, b) => {
    if (b.defenders.length) return b.defenders;
    const attacker = state.view.position.active;
    const at = key(b.target);
    return state.view.position.pieces
      .map((piece, p) => ({ piece, p }))
      .filter(({ piece, p }) => piece.location && piece.location.map && key(piece.location.map) === at && board.pieces[p].side !== attacker)
      .map(({ p }) => p);
  };
  const pieceHex = (state, p) => {
    const piece = state.view.position.pieces[p];
    return piece && piece.location && piece.location.map ? key(piece.location.map) : null;
  };
  /** The pieces on each hex: combat units before HQs, in file order. */
  const stacksOf = (state) => {
    const stacks = new Map();
    state.view.position.pieces.forEach((piece, p) => {
      if (piece.location && piece.location.map) {
        const k = key(piece.location.map);
        if (!stacks.has(k)) stacks.set(k, []);
        stacks.get(k).push(p);
      }
    });
    for (const list of stacks.values()) list.sort((a, b) => (board.pieces[a].kind === 'hq') - (board.pieces[b].kind === 'hq') || a - b);
    return stacks;
  };

  // The static layer is drawn once per page; the pieces and marks each render.
  let drawnOn = null;
  let tiles = new Map();
  let pieceLayer = null;
  let cityLayer = null;
  let markLayer = null;
  /** The reach of the selected stack, shaded under the pieces and the map's features. */
  let reachLayer = null;
  /** The outlines of the hexes with actions, a target or the selection, over the tiles
   *  (a tile's own edge is half hidden under its neighbours). */
  let ringLayer = null;
  /** The outline of the hex in keyboard focus (an SVG group's own outline is a box). */
  let focusRing = null;
  /** The last drawing: its svg, state, marks and stacks (for the pointer's readouts). */
  let last = null;
  /** The game page's hooks ({act, render}); none on the replay page. */
  let ctx = null;
  /** The stack viewer: the hex pointed at, and the one pinned by a click or tap. */
  let hovered = null;
  let pinned = null;
  /** The map's overlay (the move box and the stack viewer), in the map's box. */
  let overlay = null;
  /** A whole move being planned or played (8.1): from which hex, the pieces left out
   *  of the stack's move, the path planned, a path traced by a drag, and what the last
   *  move came to. */
  const mv = { from: null, off: new Set(), plan: null, trail: null, running: false, note: '', goto: '' };
  /** The "go to" buttons over the map (game page only). */
  let jumpBar = null;
  /** Whether the map has opened on this seat's decision, and whether the last drawing
   *  was this seat's decision (a new one zooms the map there again). */
  let focusedOnce = false;
  /** The segment the map last zoomed on (`segmentOf`): a new one of this seat's zooms
   *  the map there again, though no other seat's decision came between. */
  let focusedOn = null;
  /** The selected hex last kept clear of the overlay. */
  let clearedFor = null;
  let wasMine = false;

  /** Resolves once a drawing shows a state newer than `version` (the page fetches the
   *  state after each move's reply), or after `ms`. */
  const drawnAfter = (version, ms = 8000) => new Promise((resolve) => {
    const t0 = Date.now();
    const tick = () => {
      if ((last && last.state.version > version) || Date.now() - t0 > ms) resolve();
      else setTimeout(tick, 25);
    };
    tick();
  });

  function drawStatic(svg, onHex) {
    svg.replaceChildren();
    tiles = new Map();
    const layer = el('g', { class: 'board avl' });
    const xs = [];
    const ys = [];
    for (const x of board.hexes) {
      const c = centre(x.hex);
      xs.push(c[0]);
      ys.push(c[1]);
      const k = key(x.hex);
      const g = el('g', { class: 'hex', 'data-hex': k });
      const polygon = el('polygon', {
        points: corners(c),
        class: `tile${x.pocket ? ' pocket' : ''}`,
        fill: x.color || (x.water ? '#8ab4e0' : '#e8e4c9'),
      });
      const base = `${x.label} ${x.terrain}${x.name ? `: ${x.name}` : ''}${x.pocket ? ' (Stalingrad Pocket)' : ''}${x.source ? ` (${x.source} supply source)` : ''}`;
      const title = el('title', {}, base);
      g.append(polygon, title);
      g.addEventListener('click', () => {
        // A click or a tap on a stack pins it in the stack viewer (again: unpins).
        pinned = last && last.stacks.has(k) && pinned !== k ? k : null;
        onHex(k);
        showStack();
      });
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onHex(k);
        }
      });
      g.addEventListener('pointerenter', () => point(k));
      g.addEventListener('pointerleave', () => { if (hovered === k) point(null); });
      g.addEventListener('focus', () => {
        point(k);
        for (const p of focusRing.children) p.setAttribute('points', corners(c, SIZE - 1.5));
        focusRing.dataset.hex = k;
        focusRing.setAttribute('visibility', g.matches(':focus-visible') ? 'visible' : 'hidden');
      });
      g.addEventListener('blur', () => {
        if (hovered === k) point(null);
        focusRing.setAttribute('visibility', 'hidden');
      });
      tiles.set(k, { g, polygon, title, base, label: x.label });
      layer.append(g);
    }
    const features = el('g', { class: 'features' });
    for (const s of board.sides) {
      const [a, b] = s.hexes.map(centre);
      if (s.barrier) {
        // The hexside itself: perpendicular to the line between the centres.
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const d = [b[0] - a[0], b[1] - a[1]];
        const len = Math.hypot(d[0], d[1]) || 1;
        const half = SIZE / 2;
        features.append(el('line', {
          x1: (mid[0] - (d[1] / len) * half).toFixed(1), y1: (mid[1] + (d[0] / len) * half).toFixed(1),
          x2: (mid[0] + (d[1] / len) * half).toFixed(1), y2: (mid[1] - (d[0] / len) * half).toFixed(1),
          class: `hexside ${s.barrier.replaceAll('_', '-')}`,
        }));
      }
      if (s.railroad) features.append(el('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: 'railroad' }));
      if (s.road) features.append(el('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: 'road' }));
    }
    for (const x of board.hexes) {
      const [cx, cy] = centre(x.hex);
      if (x.settlement === 'town') features.append(el('circle', { cx, cy: cy - 9, r: 3, class: 'settlement' }));
      if (x.settlement === 'city') features.append(el('rect', { x: cx - 4, y: cy - 13, width: 8, height: 8, class: 'settlement' }));
      if (x.source) features.append(el('circle', { cx, cy, r: SIZE * 0.62, class: `supply-source ${x.source}` }));
      if (x.name) features.append(el('text', { x: cx, y: cy + SIZE * 0.72, class: 'place-name' }, x.name));
      features.append(el('text', { x: cx, y: cy - SIZE * 0.55, class: 'hex-label' }, x.label));
    }
    cityLayer = el('g', { class: 'cities' });
    pieceLayer = el('g', { class: 'pieces' });
    markLayer = el('g', { class: 'marks' });
    reachLayer = el('g', { class: 'avl-reach' });
    ringLayer = el('g', { class: 'avl-rings' });
    focusRing = el('g', { class: 'ring ring-focus', visibility: 'hidden' });
    focusRing.append(el('polygon', { class: 'ring-under' }), el('polygon', { class: 'ring-over' }));
    svg.append(layer, reachLayer, ringLayer, features, cityLayer, pieceLayer, markLayer, focusRing);
    const pad = SIZE * 1.5;
    const [x0, x1, y0, y1] = [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - pad, Math.max(...ys) + pad];
    svg.setAttribute('viewBox', `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`);
    // The whole map is the zoom controls' "home"; the page may then zoom on the action.
    svg.dataset.home = svg.getAttribute('viewBox');
    svg.dataset.fitted = '1';
    drawnOn = svg;
    focusedOnce = false;
    traceDrags(svg);
    watchZoom(svg);
    // The overlay: the move box and the stack viewer float over the map's box.
    const box = svg.parentNode;
    if (box && box.nodeType === 1) {
      // (The page may have made this family twice while the board loaded: one overlay.)
      for (const old of box.querySelectorAll(':scope > .avl-overlay, :scope > .avl-jump')) old.remove();
      overlay = h('div', { class: 'avl-overlay' });
      jumpBar = h('div', { class: 'avl-jump', role: 'group', 'aria-label': 'go to' });
      box.append(overlay);
      if (ctx) box.append(jumpBar);
    }
  }

  /** The scale the map is drawn at, in screen pixels per SVG unit (`meet`). */
  function pixelsPerUnit(svg) {
    const vb = (svg.getAttribute('viewBox') || '').split(' ').map(Number);
    const rect = svg.getBoundingClientRect();
    if (vb.length !== 4 || !vb[2] || !rect.width) return 1;
    return Math.min(rect.width / vb[2], rect.height / vb[3]);
  }

  /** Below this many pixels per SVG unit (a counter under about 22 px wide) each stack
   *  is drawn as one counter with its count; above it, full counters. */
  const FAR = 0.9;
  /** Follows the map's zoom (the viewBox, the window's size): far or near drawing. */
  function watchZoom(svg) {
    const update = () => svg.classList.toggle('avl-far', pixelsPerUnit(svg) < FAR);
    new MutationObserver(update).observe(svg, { attributes: true, attributeFilter: ['viewBox'] });
    if (typeof ResizeObserver !== 'undefined') new ResizeObserver(update).observe(svg);
    update();
  }

  /** Pans and zooms the map onto the hexes `keys` (all of them if they fit at a readable
   *  size, else the window of that size holding the most of them), in the map's shape. */
  function zoomTo(svg, keys) {
    const pts = [...new Set(keys)].filter((k) => labels.has(k)).map((k) => centre(unkey(k)));
    if (!pts.length) return false;
    const rect = svg.getBoundingClientRect();
    const [cw, ch] = rect.width > 0 && rect.height > 0 ? [rect.width, rect.height] : [800, 600];
    const aspect = cw / ch;
    const NEAR = 1.3; // px per unit: a counter about 31 px wide
    const CLOSE = 2.6; // no closer than this on opening
    // Room below the hexes for the move box and the stack viewer (bottom left, over the
    // map), and above them for the "go to" buttons: the hexes land in the upper middle.
    const ROOM = 1.45;
    // The largest box of hexes that, with that room, still shows at NEAR.
    const [winW, winH] = [cw / NEAR, (ch / NEAR - SIZE) / ROOM];
    const pad = SIZE * 1.6;
    const boxOf = (list) => {
      const xs = list.map((p) => p[0]);
      const ys = list.map((p) => p[1]);
      return [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) + pad, Math.max(...ys) + pad];
    };
    let b = boxOf(pts);
    if (b[2] - b[0] > winW || b[3] - b[1] > winH) {
      // Too spread out to read at once: the window around the point with most company.
      const inside = (c) => pts.filter((p) => Math.abs(p[0] - c[0]) <= winW / 2 - pad && Math.abs(p[1] - c[1]) <= winH / 2 - pad);
      let best = [pts[0]];
      for (const c of pts) {
        const here = inside(c);
        if (here.length > best.length) best = here;
      }
      b = boxOf(best);
    }
    let [x0, y0, x1, y1] = b;
    y1 += (y1 - y0) * (ROOM - 1);
    y0 -= SIZE;
    let w = x1 - x0;
    let hgt = y1 - y0;
    const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
    // At least as wide as CLOSE allows, and in the map's own shape.
    w = Math.max(w, cw / CLOSE);
    hgt = Math.max(hgt, ch / CLOSE);
    if (w / hgt < aspect) w = hgt * aspect;
    else hgt = w / aspect;
    [x0, y0] = [mx - w / 2, my - hgt / 2];
    const home = (svg.dataset.home || '').split(' ').map(Number);
    if (home.length === 4) {
      // No closer than the whole map means the whole map. (Compare scales, not widths:
      // the map is taller than wide, the window wider than tall.)
      if (cw / w <= Math.min(cw / home[2], ch / home[3])) {
        svg.setAttribute('viewBox', svg.dataset.home);
        return true;
      }
      // Within the map where it can be: centred on it across a side longer than it; no
      // blank above it; below it, room for the move box is kept.
      x0 = w >= home[2] ? home[0] + (home[2] - w) / 2 : Math.min(Math.max(x0, home[0]), home[0] + home[2] - w);
      y0 = hgt >= home[3] ? home[1] + (home[3] - hgt) / 2 : Math.max(y0, home[1]);
    }
    svg.setAttribute('viewBox', [x0, y0, w, hgt].map((v) => v.toFixed(1)).join(' '));
    return true;
  }

  /** Pans the map up when hex `k` or its neighbours would sit under the move box and
   *  the stack viewer (bottom left, over the map). */
  function keepClear(svg, k) {
    const t = tiles.get(k);
    if (!t || !overlay || !overlay.childElementCount) return;
    const hex = t.polygon.getBoundingClientRect();
    const over = overlay.getBoundingClientRect();
    const margin = hex.height * 1.1;
    const need = hex.bottom + margin - over.top;
    if (need <= 0 || hex.left - margin > over.right || hex.right + margin < over.left) return;
    const vb = svg.getAttribute('viewBox').split(' ').map(Number);
    const room = hex.top - svg.getBoundingClientRect().top - margin; // not off the top
    const dy = Math.min(need, Math.max(room, 0)) / pixelsPerUnit(svg);
    if (dy > 0) svg.setAttribute('viewBox', [vb[0], vb[1] + dy, vb[2], vb[3]].map((v) => v.toFixed(1)).join(' '));
  }

  /** Whether this seat's decision is where to place a HQ taken off the map (12.7): its
   *  legal actions are then relocations and nothing else. */
  function relocating(state) {
    const legal = ctx ? state.legal || [] : [];
    return legal.length > 0 && legal.every((a) => typeof a === 'object' && Object.keys(a)[0] === 'relocate');
  }

  /** The hexes of the decision now: the pieces that may act, the combat, the retreat,
   *  the HQ's relocation (its place it came from, then the hexes it may be placed in). */
  function decision(state, marks) {
    const p = state.view.position;
    const b = p.battle;
    const stage = b && (typeof b.stage === 'string' ? b.stage : Object.keys(b.stage)[0]);
    const mine = ctx && (state.legal || []).length > 0;
    const out = { act: [], combat: [], retreat: [], relocate: [] };
    if (relocating(state)) {
      const from = (p.relocations || []).map((r) => key(r.from));
      out.relocate = [...new Set([...from, ...state.legal.map((a) => key(a.relocate.to))])];
    } else if (mine) {
      // As the page marks them with nothing selected: the hexes the actions start from,
      // else those they go to.
      const ends = state.legal.map((a) => endsOf(a, state));
      const src = [...new Set(ends.map((e) => e.src).filter(Boolean))];
      out.act = src.length ? src : [...new Set(ends.map((e) => e.dst).filter(Boolean))];
    }
    if (b) {
      out.combat = [key(b.target), ...b.attackers.map((x) => pieceHex(state, x)).filter(Boolean)];
      if (stage === 'retreat' && !out.relocate.length) {
        const movers = defenders(state, b).map((x) => pieceHex(state, x)).filter(Boolean);
        out.retreat = [...movers, ...(mine ? marks.targets : [])];
        if (!out.retreat.length) out.retreat = [key(b.target)];
      }
    }
    return out;
  }

  /** Where the map opens: the retreat, the combat, the pieces that may act; else (the
   *  other side's decision) the activated pieces, else nothing (the whole map). */
  function focusKeys(state, marks) {
    const d = decision(state, marks);
    if (d.relocate.length) return d.relocate;
    if (d.retreat.length) return d.retreat;
    if (d.combat.length) return d.combat;
    if (d.act.length) return d.act;
    const a = state.view.position.activation;
    return a ? [...a.units, ...a.hqs].map((x) => pieceHex(state, x)).filter(Boolean) : [];
  }

  /** The segment a decision belongs to: the turn, the phase, the side to move and the
   *  activation (the chit drawn and its HQs, 7.2). */
  function segmentOf(state) {
    const p = state.view.position;
    const a = p.activation;
    return JSON.stringify([p.turn, p.phase, p.active, a ? a.chit : null, a ? a.hqs : null]);
  }

  /** The "go to" buttons over the map: the next piece to act, the combat, a retreat,
   *  a HQ's relocation, each when it applies; each pans and zooms there and selects or
   *  shows it. */
  function showJumps(svg, state, marks, onHex) {
    if (!jumpBar || !ctx) return;
    const d = decision(state, marks);
    const buttons = [];
    const order = d.act.filter((k) => last && last.stacks.has(k));
    if (d.act.length) {
      const from = marks.selected && order.includes(marks.selected) ? order.indexOf(marks.selected) : -1;
      const next = order.length ? order[(from + 1) % order.length] : d.act[0];
      const here = last && last.stacks.get(next);
      const who = here && here.length ? `${pieceName(here[0])}${here.length > 1 ? ` +${here.length - 1}` : ''}, ` : '';
      buttons.push(h('button', {
        type: 'button', class: 'avl-jump-act', 'data-hex': next,
        title: order.length > 1 ? `the next of ${order.length} stacks that may act` : 'where you must act',
        onclick: () => {
          zoomTo(svg, [next, ...neighbours(next)]);
          if (order.includes(next) && marks.selected !== next && (marks.sources.has(next) || marks.selected)) {
            if (marks.selected) onHex(marks.selected); // unselect first: a click would move there
            if (!last.marks.selected) onHex(next);
          }
          const t = tiles.get(next);
          if (t && t.g.hasAttribute('tabindex')) t.g.focus({ preventScroll: true });
          else {
            pinned = last.stacks.has(next) ? next : pinned;
            showStack();
          }
        },
      }, `Next to act: ${who}${label(next)}`));
    }
    if (d.combat.length) {
      const at = d.combat[0];
      buttons.push(h('button', {
        type: 'button', class: 'avl-jump-combat', 'data-hex': at,
        onclick: () => {
          zoomTo(svg, d.combat);
          pinned = last.stacks.has(at) ? at : null;
          showStack();
          const t = tiles.get(at);
          if (t && t.g.hasAttribute('tabindex')) t.g.focus({ preventScroll: true });
        },
      }, `Combat: ${label(at)}`));
    }
    if (d.retreat.length) {
      const to = [...marks.targets][0] || d.retreat[0];
      buttons.push(h('button', {
        type: 'button', class: 'avl-jump-retreat', 'data-hex': to,
        onclick: () => {
          zoomTo(svg, d.retreat);
          const t = tiles.get(to);
          if (t && t.g.hasAttribute('tabindex')) t.g.focus({ preventScroll: true });
        },
      }, `Retreat: ${label(d.retreat[0])}`));
    }
    if (d.relocate.length) {
      const r = state.view.position.relocations[0];
      const to = [...marks.targets][0] || d.relocate[d.relocate.length - 1];
      buttons.push(h('button', {
        type: 'button', class: 'avl-jump-relocate', 'data-hex': to,
        title: `the hexes ${pieceName(r.hq)} may be placed in (12.7), and where it came from`,
        onclick: () => {
          zoomTo(svg, d.relocate);
          const t = tiles.get(to);
          if (t && t.g.hasAttribute('tabindex')) t.g.focus({ preventScroll: true });
        },
      }, `Relocate ${pieceName(r.hq)}: ${state.legal.length} ${state.legal.length === 1 ? 'hex' : 'hexes'}`));
    }
    jumpBar.replaceChildren(...buttons);
    jumpBar.hidden = !buttons.length;
  }

  /** A drag from the selected stack traces its path, hex by hex, under the pointer. */
  function traceDrags(svg) {
    let down = false;
    svg.addEventListener('pointerdown', (e) => {
      const g = e.target.closest && e.target.closest('g.hex');
      down = Boolean(g && last && mover(last.state) && movesFrom(last.state, g.dataset.hex).length);
      mv.trail = down ? [g.dataset.hex] : null;
    });
    svg.addEventListener('pointermove', (e) => {
      if (!down || !mv.trail) return;
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const g = under && under.closest && under.closest('g.hex');
      if (!g) return;
      const k = g.dataset.hex;
      const t = mv.trail;
      if (k === t[t.length - 1]) return;
      if (t.length > 1 && k === t[t.length - 2]) t.pop(); // back the way it came
      else if (t.includes(k)) t.length = t.indexOf(k) + 1;
      else if (neighbours(t[t.length - 1]).includes(k)) t.push(k);
      else return;
      drawPath(t.slice(1), t[0]);
    });
    const up = () => { down = false; };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', () => { down = false; mv.trail = null; });
  }

  /** A counter: the side's colour, the ID, and its strengths (attack-defense-movement). */
  function counter(p, state, [x, y], extra) {
    const info = board.pieces[p];
    const piece = state.view.position.pieces[p];
    const g = el('g', { class: `counter ${info.kind}` });
    const fill = NATION_COLORS[info.nationality] || SIDE_COLORS[info.side];
    g.append(el('rect', { x: x - 12, y: y - 10, width: 24, height: 20, rx: 2, fill, class: piece.reduced ? 'reduced' : '' }));
    g.append(el('text', { x, y: y - 1.5, class: 'counter-id' }, info.id.length > 7 ? info.id.slice(0, 7) : info.id));
    g.append(el('text', { x, y: y + 7, class: 'counter-numbers' }, numbersOf(p, state)));
    if (piece.supply === 'out_of_supply' || piece.supply === 'isolated') {
      g.append(el('text', { x: x + 11, y: y - 7, class: `supply-mark ${piece.supply}` }, piece.supply === 'isolated' ? 'ISO' : 'OOS'));
    }
    if (extra > 0) g.append(el('text', { x: x - 11, y: y - 12, class: 'stack-count' }, `+${extra}`));
    return g;
  }

  /** What a counter prints: attack-defense-movement, strength-movement, or HQ range-movement. */
  function numbersOf(p, state) {
    const info = board.pieces[p];
    const piece = state.view.position.pieces[p];
    if (info.kind === 'hq') return `HQ ${info.range}-${info.movement}`;
    const s = piece.reduced && info.reduced ? info.reduced : info.full;
    return info.mechanized ? `${s.attack}-${s.defense}-${info.movement}` : `${s.attack}-${info.movement}`;
  }

  /** Rules 2.2, 7.3, 8.1: a piece's MPs left this segment, from the engine's advice
   *  (the cost and what is left of each legal step), or what the view says. */
  function mpLeft(p, state) {
    const a = state.view.position.activation;
    const moves = (state.advice && state.advice.movement && state.advice.movement.moves) || [];
    const m = moves.find((x) => x.piece === p);
    if (m) return mp(m.left + m.cost);
    if (!a || !(a.units.includes(p) || a.hqs.includes(p))) return null;
    if (a.moved.includes(p)) return '0 (its move is over)';
    return null;
  }

  /** One piece as the stack viewer and the hex's name say it. */
  function pieceFacts(p, state) {
    const info = board.pieces[p];
    const piece = state.view.position.pieces[p];
    const a = state.view.position.activation;
    const facts = [];
    if (info.kind === 'hq') {
      facts.push(`HQ, command range ${info.range}, movement ${info.movement}`);
    } else {
      const s = piece.reduced && info.reduced ? info.reduced : info.full;
      facts.push(info.mechanized ? `attack ${s.attack}, defense ${s.defense}` : `strength ${s.attack}`);
      const steps = info.reduced ? (piece.reduced ? 1 : 2) : 1;
      facts.push(`${piece.reduced ? 'reduced' : 'full strength'}, ${steps} step${steps === 1 ? '' : 's'} left`);
      facts.push(`movement ${info.movement}`);
    }
    if (a && state.view.position.active === info.side) {
      if (a.hqs.includes(p)) facts.push('activated HQ');
      else if (a.units.includes(p)) facts.push('activated');
      if (a.mover && a.mover.piece === p) facts.push(`moving, ${mp(a.mover.spent)} MP spent${a.mover.strategic ? ' by road' : ''}`);
      else if (a.moved.includes(p)) facts.push('has moved');
      if (a.attacked && a.attacked.includes(p)) facts.push('has attacked');
    }
    const left = mpLeft(p, state);
    if (left !== null) facts.push(`${left} MP left`);
    if (piece.supply && piece.supply !== 'in_supply') facts.push(piece.supply.replaceAll('_', ' '));
    return facts;
  }

  function describePiece(p, state) {
    const info = board.pieces[p];
    return `${info.id} (${info.nationality}${info.kind === 'hq' ? ' HQ' : ''}), ${pieceFacts(p, state).join(', ')}`;
  }

  /** The pointer (or the focus) is on hex `k` (`null`: it left the map). */
  function point(k) {
    hovered = k;
    showStack();
    showWhy();
  }

  /** "Why not?": what is known of the hex pointed at, when the selected stack may not
   *  step there (the move box's last line; the rest of the box stays as it is). */
  function showWhy() {
    const box = overlay && overlay.querySelector('.avl-move');
    if (!box || !last) return;
    const old = box.querySelector('.avl-why');
    let fresh = null;
    const state = last.state;
    const r = mv.from && reachFor(state, mv.from);
    const there = r && r.reach.get(hovered);
    if (mv.from && !mv.running && hovered && hovered !== mv.from && mover(state) && (!there || there.pass)) {
      const why = whyNot(state, mv.from, hovered);
      if (why) fresh = h('p', { class: 'avl-why', 'data-hex': hovered }, h('strong', {}, `Why not ${label(hovered)}? `), why);
    }
    if (old && fresh) old.replaceWith(fresh);
    else if (old) old.remove();
    else if (fresh) box.append(fresh);
  }

  /** The stack viewer: every piece on the hex pointed at (else the pinned one, else the
   *  selected one), with what the view says of each (VASSAL's stack viewer). */
  function showStack() {
    if (!overlay || !last) return;
    let viewer = overlay.querySelector('.avl-stack');
    const k = [hovered, pinned, mv.from].find((x) => x && last.stacks.has(x));
    if (!k) {
      if (viewer) viewer.remove();
      return;
    }
    const list = last.stacks.get(k);
    const fresh = h('div', { class: 'avl-stack', role: 'region', 'aria-label': 'stack viewer', 'data-hex': k },
      h('p', { class: 'avl-stack-title' }, h('strong', {}, hexName(k)), `: ${list.length} piece${list.length === 1 ? '' : 's'}`,
        k === pinned ? h('button', { type: 'button', class: 'avl-unpin', onclick: () => { pinned = null; showStack(); } }, 'Close') : null),
      h('ul', {}, list.map((p) => {
        const info = board.pieces[p];
        const fill = NATION_COLORS[info.nationality] || SIDE_COLORS[info.side];
        return h('li', { class: 'avl-piece', 'data-piece': String(p) },
          h('span', { class: `avl-chip${last.state.view.position.pieces[p].reduced ? ' reduced' : ''}`, style: `background:${fill}` }, numbersOf(p, last.state)),
          ' ', h('strong', {}, info.id), ` ${info.nationality}${info.kind === 'hq' ? ' HQ' : ''}: `, pieceFacts(p, last.state).join(', '));
      })));
    if (viewer) viewer.replaceWith(fresh);
    else overlay.append(fresh);
  }

  const mp = (half) => (half % 2 ? `${(half - 1) / 2}.5` : `${half / 2}`);
  // The legal moves of the pieces on the hex `k`, with what each costs (advice, 8.1-8.3).
  const movesFrom = (state, k) => {
    const m = state.advice && state.advice.movement;
    if (!m || !m.moves) return [];
    return m.moves.filter((x) => pieceHex(state, x.piece) === k);
  };
  const moveText = (x) => `${mp(x.cost)} MP${x.road ? ' by road' : ''}, ${mp(x.left)} left${x.zoc ? ', into an enemy ZOC' : ''}`;
  const oddsText = (o) => `${o.attack} against ${o.defense}: ${o.odds ? `odds ${o.odds}` : 'impossible odds (9.3.4)'}`;

  /** Whether whole moves can be played now: a Movement Segment, the seat at the screen
   *  to move, on the game page. */
  const mover = (state) => Boolean(ctx && state.advice && state.advice.movement && state.advice.movement.moves && (state.legal || []).length);

  /** The pieces of hex `k` that move together: those with a legal step, less those the
   *  player left out. */
  const groupAt = (state, k) => [...new Set(movesFrom(state, k).map((m) => m.piece))].filter((p) => !mv.off.has(p));

  /** The engine's reach for the group moving from `k` (the pieces with a legal step,
   *  less those left out): one piece's own, or the stack's common one (advice), with
   *  the pieces in the order they move. Cached per state and group. */
  let reachCache = { version: -1, keyed: new Map() };
  function reachFor(state, k) {
    const group = groupAt(state, k);
    if (!group.length) return null;
    const m = state.advice && state.advice.movement;
    if (!m || !m.pieces) return null;
    if (reachCache.version !== state.version) reachCache = { version: state.version, keyed: new Map() };
    const id = `${k}:${[...group].sort((a, b) => a - b).join(',')}`;
    if (reachCache.keyed.has(id)) return reachCache.keyed.get(id);
    let found = null;
    if (group.length === 1) {
      const x = m.pieces.find((e) => e.piece === group[0]);
      if (x) found = { pieces: group, reach: decodeReach(k, x.reach) };
    } else {
      const x = (m.stacks || []).find((e) => e.at && e.at.map && key(e.at.map) === k && e.pieces.length === group.length && group.every((p) => e.pieces.includes(p)));
      if (x) found = { pieces: x.pieces, reach: decodeReach(k, x.reach) };
    }
    reachCache.keyed.set(id, found);
    return found;
  }

  /** Plans the group's move from the selected hex to `to`: the path the player traced
   *  there, else the engine's cheapest path (its reach). */
  function planTo(state, to) {
    const t = mv.trail;
    const r = reachFor(state, mv.from);
    const there = r && r.reach.get(to);
    mv.trail = null;
    mv.plan = null;
    mv.note = '';
    if (t && t[0] === mv.from && t[t.length - 1] === to && t.length > 1) {
      const path = t.slice(1);
      const same = there && there.path.join(' ') === path.join(' ');
      mv.plan = { path, dest: to, traced: !same, road: same && there.road, cost: same ? there.cost : null, left: same ? there.left : null, pieces: r ? r.pieces : groupAt(state, mv.from) };
      return;
    }
    if (there && !there.pass) {
      mv.plan = { path: there.path, dest: to, traced: false, road: there.road, cost: there.cost, left: there.left, pieces: r.pieces };
      return;
    }
    mv.note = `${hexName(to)}: ${whyNot(state, mv.from, to) || 'not in reach'}`;
  }

  /** "Why not?" for hex `to` from `from`, in the engine's words: the refusal `check`
   *  gives each piece of the group for a hex next to it (advice `refused`), a hex the
   *  stack may only pass through (5.0.4), or one beyond its MPs this segment. */
  function whyNot(state, from, to) {
    const m = state.advice && state.advice.movement;
    if (!m || !m.pieces) return null;
    const group = groupAt(state, from);
    const r = reachFor(state, from);
    const there = r && r.reach.get(to);
    if (there && there.pass) return `the stack may pass through it but not end its move there (the stacking limit, rule 5.0.4; ${mp(there.cost)} MP to get there).`;
    if (neighbours(from).includes(to)) {
      const reasons = new Map();
      for (const p of group) {
        const e = m.pieces.find((x) => x.piece === p);
        const no = e && e.refused.find((x) => key(x.to) === to);
        if (!no) continue;
        const text = `${no.message} (rule ${no.rule})`;
        reasons.set(text, [...(reasons.get(text) || []), pieceName(p)]);
      }
      if (reasons.size) {
        const all = [...reasons.values()].flat().length === group.length && reasons.size === 1;
        return [...reasons].map(([text, names]) => (all ? `${text}.` : `${names.join(' and ')}: ${text}.`)).join(' ');
      }
      if (group.length > 1) return 'each piece could step there alone, but not the stack together (the stacking limit, rule 5.0.1).';
    }
    if (!labels.has(to)) return 'off the map (rule 8.1.5).';
    if (labels.get(to).water) return 'a water hex (rule 8.1.5).';
    const alone = group.filter((p) => {
      const e = m.pieces.find((x) => x.piece === p);
      return e && e.reach.some((x) => key(x.to) === to);
    });
    if (alone.length && alone.length < group.length) return `only ${alone.map(pieceName).join(' and ')} can get there this segment; untick the others to move ${alone.length === 1 ? 'it' : 'them'} alone.`;
    if (alone.length) return 'the pieces can each get there, but not along one path together.';
    const left = group.map((p) => `${pieceName(p)} ${mpLeft(p, state) ?? '?'} MP`).join(', ');
    return `out of reach this segment: no path of legal steps gets there with the MPs left (${left}).`;
  }

  /** The move box: the selected stack's pieces (untick one to move it alone), the path
   *  planned, and the buttons to play or cancel it; "why not?" for the hex pointed at. */
  function showMove() {
    if (!overlay || !last) return;
    let box = overlay.querySelector('.avl-move');
    const state = last.state;
    if (!mv.from || !mover(state)) {
      if (box && !mv.note) box.remove();
      else if (box) box.replaceChildren(h('p', { role: 'status', class: 'avl-note' }, mv.note));
      else if (mv.note) overlay.prepend(h('div', { class: 'avl-move', role: 'region', 'aria-label': 'move' }, h('p', { role: 'status', class: 'avl-note' }, mv.note)));
      return;
    }
    const all = [...new Set(movesFrom(state, mv.from).map((m) => m.piece))];
    const group = groupAt(state, mv.from);
    const parts = [h('p', {}, h('strong', {}, `Move from ${label(mv.from)}: `),
      ...all.map((p) => h('label', { class: 'avl-pick' }, h('input', {
        type: 'checkbox', checked: !mv.off.has(p), disabled: mv.running,
        onchange: (e) => {
          if (e.target.checked) mv.off.delete(p);
          else mv.off.add(p);
          mv.plan = null;
          redraw();
        },
      }), ` ${pieceName(p)} (${mpLeft(p, state) ?? '?'} MP)`)))];
    if (mv.plan) {
      const p = mv.plan;
      const n = `${p.path.length} hex${p.path.length === 1 ? '' : 'es'}`;
      parts.push(h('p', { class: 'avl-path', 'data-path': p.path.join(' '), 'data-road': p.road ? '1' : '0' }, `Path: ${[mv.from, ...p.path].map(label).join(' \u2192 ')} `,
        p.traced
          ? `(${n}, traced by you; the engine judges each hex as it is entered and the move stops where one is refused).`
          : `(${n}${p.road ? ' by road, strategic movement (8.3)' : ''}: ${mp(p.cost)} MP, ${mp(p.left)} MP left; the engine's cheapest path).`));
      parts.push(h('p', {},
        h('button', { type: 'button', class: 'primary avl-go', disabled: mv.running || !group.length, onclick: () => play() }, `Move ${group.map(pieceName).join(' and ')} to ${label(p.dest)}`), ' ',
        h('button', { type: 'button', disabled: mv.running, onclick: () => { mv.plan = null; redraw(); } }, 'Cancel path')));
    } else {
      parts.push(h('p', { class: 'quiet' }, 'Click (or drag to) a hex: one step plays at once, a farther hex shows its path to confirm.'));
    }
    const input = h('input', { type: 'text', inputmode: 'numeric', size: 5, maxlength: 4, 'aria-label': 'move to hex (XXYY)', placeholder: 'XXYY', value: mv.goto, oninput: (e) => { mv.goto = e.target.value; } });
    parts.push(h('form', {
      class: 'avl-goto',
      onsubmit: (e) => {
        e.preventDefault();
        const k = [...labels.values()].find((x) => x.label === mv.goto.trim());
        if (!k) {
          mv.note = `No hex ${mv.goto} on the map.`;
        } else {
          planTo(state, key(k.hex));
        }
        redraw();
      },
    }, h('label', {}, 'Move to hex ', input), ' ', h('button', { type: 'submit', disabled: mv.running }, 'Show path')));
    if (mv.note) parts.push(h('p', { role: 'status', class: 'avl-note' }, mv.note));
    const fresh = h('div', { class: 'avl-move', role: 'region', 'aria-label': 'move' }, parts);
    // Keep the focus (a checkbox, the field) across a redraw.
    const focused = box && box.contains(document.activeElement) ? document.activeElement.getAttribute('aria-label') || document.activeElement.textContent : null;
    if (box) box.replaceWith(fresh);
    else overlay.prepend(fresh);
    showWhy();
    if (focused) {
      const again = [...fresh.querySelectorAll('input, button')].find((x) => (x.getAttribute('aria-label') || x.textContent) === focused);
      if (again) again.focus();
    }
  }

  /** Redraws the marks and the move box from the last drawing (a plan changed). */
  function redraw() {
    if (!last) return;
    drawMarks(last.state, last.marks);
    showMove();
  }

  /** The path on the map: a line through the hexes, and the destination ringed. */
  function drawPath(path, from) {
    if (!markLayer) return;
    for (const old of markLayer.querySelectorAll('.avl-route')) old.remove();
    if (!path || !path.length) return;
    const points = [from, ...path].map((k) => centre(unkey(k)).map((v) => v.toFixed(1)).join(',')).join(' ');
    const g = el('g', { class: 'avl-route' });
    g.append(el('polyline', { points, class: 'route-under' }), el('polyline', { points, class: 'route' }));
    const [cx, cy] = centre(unkey(path[path.length - 1]));
    g.append(el('circle', { cx, cy, r: SIZE * 0.45, class: 'route-end' }));
    path.forEach((k, i) => {
      const [x, y] = centre(unkey(k));
      g.append(el('text', { x, y: y + SIZE * 0.75, class: 'route-step' }, String(i + 1)));
    });
    markLayer.append(g);
  }

  /** The selected stack's reach, shaded with the MPs each hex costs (Z: an enemy
   *  ZOC; a hex it may only pass through is hatched), and the planned path. */
  function drawMarks(state, marks) {
    markLayer.replaceChildren();
    if (reachLayer) reachLayer.replaceChildren();
    const r = marks.selected && groupAt(state, marks.selected).length ? reachFor(state, marks.selected) : null;
    if (r) {
      for (const [k, x] of r.reach) {
        const c = centre(unkey(k));
        if (reachLayer) reachLayer.append(el('polygon', { points: corners(c), class: `reach-hex${x.pass ? ' pass' : ''}${x.road ? ' road' : ''}`, 'data-hex': k }));
        // Under a counter, not over it: its ID and strengths stay readable.
        const y = last && last.stacks.has(k) ? c[1] + SIZE * 0.62 : c[1] + 4;
        markLayer.append(el('text', { x: c[0], y, class: `move-cost${x.zoc ? ' zoc' : ''}`, 'data-hex': k }, `${mp(x.cost)}${x.zoc ? ' Z' : ''}`));
      }
    }
    if (mv.plan && mv.from) drawPath(mv.plan.path, mv.from);
    for (const old of ringLayer ? ringLayer.querySelectorAll('.avl-combat') : []) old.remove();
    const battle = state.view.position.battle;
    if (battle && ringLayer) drawCombat(state, battle);
  }

  /** The combat on the map, under the counters: the defending hex ringed in red, an
   *  arrow across the hex side from each attacking hex (attackers are adjacent). */
  function drawCombat(state, b) {
    const target = key(b.target);
    const [tx, ty] = centre(b.target);
    const g = el('g', { class: 'avl-combat', 'data-hex': target });
    // Inside the hex's own outline (a hex with actions keeps its ring).
    const ring = corners([tx, ty], SIZE - 6.5);
    g.append(el('polygon', { points: ring, class: 'combat-ring-under' }), el('polygon', { points: ring, class: 'combat-ring' }));
    const from = [...new Set(b.attackers.map((x) => pieceHex(state, x)).filter(Boolean))];
    for (const k of from) {
      const [ax, ay] = centre(unkey(k));
      const [dx, dy] = [tx - ax, ty - ay];
      const len = Math.hypot(dx, dy) || 1;
      const [ux, uy] = [dx / len, dy / len];
      // From just past the attacker's counter to just short of the defender's.
      const s0 = [ax + ux * SIZE * 0.62, ay + uy * SIZE * 0.62];
      const s1 = [tx - ux * SIZE * 0.62, ty - uy * SIZE * 0.62];
      const line = `${s0[0].toFixed(1)},${s0[1].toFixed(1)} ${s1[0].toFixed(1)},${s1[1].toFixed(1)}`;
      const w = SIZE * 0.22;
      const head = [[s1[0] + ux * w, s1[1] + uy * w], [s1[0] - uy * w, s1[1] + ux * w], [s1[0] + uy * w, s1[1] - ux * w]]
        .map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ');
      g.append(
        el('polyline', { points: line, class: 'combat-arrow-under', 'data-from': k }),
        el('polyline', { points: line, class: 'combat-arrow' }),
        el('polygon', { points: head, class: 'combat-head' }),
      );
    }
    ringLayer.append(g);
  }

  /** Plays the planned move: each piece of the group along the path, one engine Move
   *  (or, along a road clear of enemy ZOCs, strategic Road Move) per hex. The engine
   *  judges every hex; at the first refusal the move stops and says why. */
  async function play(plan = mv.plan) {
    if (!ctx || !plan || mv.running) return;
    const from = mv.from;
    // The pieces in the engine's order (the one moving now first), each along the
    // whole path, by road when the engine's path is strategic movement (8.3).
    const group = plan.pieces;
    const hexes = [from, ...plan.path];
    mv.running = true;
    mv.note = '';
    showMove();
    const moved = [];
    let stop = null;
    for (const p of group) {
      const road = plan.road;
      for (let i = 0; i < plan.path.length; i += 1) {
        const to = unkey(plan.path[i]);
        const before = last.state.version;
        const refusal = await ctx.act(road ? { road_move: { piece: p, to } } : { move: { piece: p, to } });
        if (!refusal) await drawnAfter(before);
        if (refusal) {
          stop = { p, at: hexes[i], to: plan.path[i], refusal };
          break;
        }
      }
      if (stop) break;
      moved.push(p);
    }
    mv.running = false;
    mv.plan = null;
    if (stop) {
      const left = group.filter((p) => p !== stop.p && !moved.includes(p));
      mv.note = `${pieceName(stop.p)} stopped at ${label(stop.at)}: the step into ${label(stop.to)} was refused: ${stop.refusal}.${moved.length ? ` ${moved.map(pieceName).join(' and ')} reached ${label(plan.dest)}.` : ''}${left.length ? ` Not moved: ${left.map(pieceName).join(', ')}.` : ''}`;
    } else {
      mv.note = `${moved.map(pieceName).join(' and ')} moved to ${hexName(plan.dest)} (${plan.path.length} hex${plan.path.length === 1 ? '' : 'es'}).`;
    }
    mv.from = null;
    mv.off = new Set();
    ctx.render();
    showMove();
  }

  /** Where an action starts and where it goes, as hex keys (see `ends`). */
  function endsOf(json, state) {
    const [type, action] = typeof json === 'string' ? [json, {}] : Object.entries(json)[0];
    const piece = action.piece ?? action.unit ?? null;
    const src = piece !== null ? pieceHex(state, piece) : null;
    const target = action.to || action.target;
    if (target) return { src, dst: key(target) };
    // Activating a HQ, losing a step: the piece's own hex is the target.
    const own = action.hq ?? (type === 'lose_step' ? action.unit : null);
    if (own !== null && own !== undefined && type !== 'relocate') return { src: null, dst: pieceHex(state, own) };
    return { src: type === 'lose_step' ? null : src, dst: null };
  }

  return {
    game: 'avl',
    pieceName,
    chitName,

    /** The game page's hooks: `act(action)` plays an action and resolves with `null`,
     *  or the server's refusal; `render()` draws the page again. */
    connect(hooks) {
      ctx = hooks;
    },

    /**
     * A click on hex `k` with `selected` the selected hex: in a Movement Segment a stack
     * moves as a whole, one click (or drag) to an adjacent hex, or a path to confirm to
     * a farther one. Returns true when it took the click.
     */
    onHex(k, selected) {
      const state = last && last.state;
      if (mv.running) return true;
      if (!state || !mover(state) || !selected || k === selected) return false;
      if (mv.from !== selected) {
        mv.from = selected;
        mv.off = new Set();
        mv.plan = null;
      }
      if (mv.plan && mv.plan.dest === k) {
        play();
        return true;
      }
      const r = reachFor(state, selected);
      const sourceHere = movesFrom(state, k).length > 0;
      if (!(r && r.reach.has(k)) && sourceHere && !(mv.trail && mv.trail[0] === selected && mv.trail.length > 2)) return false;
      planTo(state, k);
      if (mv.plan && mv.plan.path.length === 1) {
        play();
      } else {
        redraw();
      }
      return true;
    },

    /** Draws the map (once) and the pieces and marks of this state. */
    draw(svg, state, marks, onHex) {
      if (drawnOn !== svg || !svg.contains(pieceLayer)) drawStatic(svg, onHex);
      const stacks = stacksOf(state);
      last = { svg, state, marks, stacks };
      if (!mv.running && mv.from !== marks.selected) {
        mv.from = marks.selected && mover(state) && movesFrom(state, marks.selected).length ? marks.selected : null;
        mv.off = new Set();
        mv.plan = null;
      }
      // Rule 6.0: the enemy ZOC, shaded while the side to move moves (advice).
      const movement = state.advice && state.advice.movement;
      const zoc = new Set(((movement && movement.enemy_zoc) || []).map(key));
      ringLayer.replaceChildren();
      for (const [k, t] of tiles) {
        const classes = ['tile'];
        if (labels.get(k).pocket) classes.push('pocket');
        if (zoc.has(k)) classes.push('zoc');
        if (marks.targets.has(k)) classes.push('target');
        if (marks.sources.has(k)) classes.push('source');
        if (marks.selected === k) classes.push('selected');
        t.polygon.setAttribute('class', classes.join(' '));
        // A dark line under a light one, inside the hex: it shows on any terrain.
        const ring = marks.selected === k ? 'selected' : marks.targets.has(k) ? 'target' : marks.sources.has(k) ? 'source' : null;
        if (ring) {
          const points = corners(centre(unkey(k)), SIZE - 3);
          const g = el('g', { class: `ring ring-${ring}`, 'data-hex': k });
          g.append(el('polygon', { points, class: 'ring-under' }), el('polygon', { points, class: 'ring-over' }));
          ringLayer.append(g);
        }
        const here = stacks.get(k);
        const pieces = here ? here.map((p) => describePiece(p, state)).join('; ') : '';
        t.title.textContent = pieces ? `${t.base}. ${pieces}` : t.base;
        const clickable = marks.targets.has(k) || marks.sources.has(k) || marks.selected === k;
        if (clickable) {
          t.g.setAttribute('tabindex', '0');
          t.g.setAttribute('role', 'button');
          t.g.setAttribute('aria-label', `hex ${t.label}${here ? `, ${here.map(pieceName).join(', ')}` : ''}${marks.targets.has(k) ? ' (a target)' : marks.sources.has(k) ? ' (has actions)' : ' (selected)'}`);
        } else {
          t.g.removeAttribute('tabindex');
          t.g.removeAttribute('role');
          t.g.removeAttribute('aria-label');
        }
      }
      // Victory Cities: who controls each now.
      cityLayer.replaceChildren();
      const control = state.view.position.control || [];
      for (const x of board.hexes) {
        if (x.victory_city === undefined || x.victory_city === null) continue;
        const [cx, cy] = centre(x.hex);
        const side = control[x.victory_city];
        cityLayer.append(el('text', { x: cx + 11, y: cy - 9, class: 'victory-city', fill: SIDE_COLORS[side] || '#222' }, '\u2605'));
      }
      // Pieces on the map: the first of each hex on top, the rest counted.
      pieceLayer.replaceChildren();
      for (const [k, list] of stacks) {
        const c = centre(unkey(k));
        const g = el('g', { class: `stack${list.length > 1 ? ' many' : ''}`, 'data-hex': k });
        // A stack of several: the counters beneath peek out, offset, under the top one.
        for (let i = Math.min(list.length - 1, 2); i >= 1; i -= 1) {
          g.append(el('rect', { x: c[0] - 12 + 2.5 * i, y: c[1] - 10 - 2.5 * i, width: 24, height: 20, rx: 2, class: 'under', fill: NATION_COLORS[board.pieces[list[i]].nationality] || SIDE_COLORS[board.pieces[list[i]].side] }));
        }
        const near = el('g', { class: 'near' });
        near.append(...g.childNodes);
        near.append(counter(list[0], state, c, list.length - 1));
        // Zoomed out: the stack is one plain counter with its count (CSS picks one).
        const top = board.pieces[list[0]];
        const far = el('g', { class: 'far counter compact', 'aria-hidden': 'true' });
        far.append(el('rect', { x: c[0] - 17, y: c[1] - 14, width: 34, height: 28, rx: 3, fill: NATION_COLORS[top.nationality] || SIDE_COLORS[top.side] }));
        if (list.length > 1) far.append(el('text', { x: c[0], y: c[1] + 8, class: 'far-count' }, String(list.length)));
        g.append(near, far);
        pieceLayer.append(g);
      }
      drawMarks(state, marks);
      showStack();
      showMove();
      showJumps(svg, state, marks, onHex);
      // A stack just selected, with its neighbours, is kept clear of the move box.
      if (mv.from && mv.from !== clearedFor) keepClear(svg, mv.from);
      clearedFor = mv.from;
      // Open on the decision: on the first drawing, when the decision comes to this
      // seat, and when this seat's next segment begins (the next chit drawn may be his
      // again, with other stacks elsewhere); not on each of its moves: the player keeps
      // the view they chose.
      if (ctx && Array.isArray(state.legal)) {
        const mine = state.legal.length > 0;
        const segment = segmentOf(state);
        if (!focusedOnce || (mine && (!wasMine || segment !== focusedOn))) {
          focusedOnce = true;
          focusedOn = segment;
          const keys = focusKeys(state, marks);
          if (keys.length) zoomTo(svg, keys);
        }
        wasMine = mine;
      }
    },

    /** What a legal action costs or promises, from the advice: a move's MPs and ZOC, an
     *  attack's odds if every unit that may join does. */
    note(json, state) {
      if (typeof json === 'string') return '';
      const [type, action] = Object.entries(json)[0];
      const advice = state.advice || {};
      if ((type === 'move' || type === 'road_move') && advice.movement) {
        const x = advice.movement.moves.find((m) => m.piece === action.piece && key(m.to) === key(action.to) && m.road === (type === 'road_move'));
        return x ? ` (${moveText(x)})` : '';
      }
      if (type === 'attack' && advice.attacks) {
        const o = advice.attacks.find((a) => key(a.target) === key(action.target));
        const all = o && o.units.length > 1 ? `with all ${o.units.length} units able` : 'alone';
        return o ? ` (${all}: ${o.odds ? `odds ${o.odds}` : 'impossible odds'})` : '';
      }
      return '';
    },

    /** Where an action starts and where it goes, as hex keys. A Victory Lost's
     *  actions are `"end_movement"` or `{"move": {"piece": 3, "to": [q, r]}}`. */
    ends(json, state) {
      return endsOf(json, state);
    },

    /** The status line: turn, phase, victory points. */
    status(state, names) {
      const p = state.view.position;
      const vp = state.view.vp || [0, 0];
      return [
        h('span', {}, `A Victory Lost \u00b7 turn ${p.turn} of ${board.turns} \u00b7 ${phaseName(p.phase)}${p.active ? ` (${p.active})` : ''} \u00b7 `),
        h('span', { class: 'scores' }, 'victory points: ',
          h('span', { class: 'swatch', style: `background:${SIDE_COLORS.axis}` }), ` ${names[0]} (Axis) ${vp[0]} `,
          h('span', { class: 'swatch', style: `background:${SIDE_COLORS.soviet}` }), ` ${names[1]} (Soviet) ${vp[1]}`),
      ];
    },

    /** The colour a seat plays. */
    seatColor(seat) {
      return seat === 0 ? SIDE_COLORS.axis : SIDE_COLORS.soviet;
    },

    /** The chits and the combat in progress. `heard`: the audience on screen, whose
     *  feed says what each combat was resolved at (`trackCombat`). */
    panel(state, names, heard) {
      const p = state.view.position;
      const you = state.you;
      const chits = (list) => (list && list.length ? list.map(chitName).join(', ') : 'none');
      const parts = [h('h3', {}, 'Command chits')];
      if (you === 0 || you === 1) parts.push(h('p', {}, `Your pool: ${chits(p.inactive[you])}`));
      parts.push(h('p', {}, `In the cup: ${p.cup.length} (${chits(p.cup)})`));
      parts.push(h('p', {}, `Played: ${names[0]} ${chits(p.played[0])}; ${names[1]} ${chits(p.played[1])}`));
      if (p.drawn) parts.push(h('p', { class: 'odds' }, `Drawn: ${chitName(p.drawn)}`));
      if (p.activation) {
        const a = p.activation;
        parts.push(h('p', {}, `Activated: ${a.hqs.map(pieceName).join(', ') || 'no HQ'}${a.chit ? ` (${chitName(a.chit)})` : ''}; units in command ${a.units.length}, moved ${a.moved.length}`));
      }
      const boxes = [h('div', { class: 'battle-box odds-box', role: 'region', 'aria-label': 'command chits' }, parts)];
      // Rule 12.7: a HQ taken off the map waits for its owner to place it.
      const moving = (p.relocations || [])[0];
      if (moving) {
        const owner = board.pieces[moving.hq] && board.pieces[moving.hq].side === 'soviet' ? 1 : 0;
        boxes.push(h('div', { class: 'battle-box', role: 'region', 'aria-label': 'HQ relocation' },
          h('h3', {}, 'HQ relocation (12.7)'),
          h('p', {}, `${pieceName(moving.hq)} was taken off the map at ${label(key(moving.from))}.`),
          relocating(state)
            ? h('p', { class: 'hits' }, 'Place it on a highlighted hex: the nearest hexes at least four away that are closer to a friendly supply source, outside enemy zones of control, and able to trace a supply line.')
            : h('p', {}, `${names[owner]} places it.`)));
      }
      const b = p.battle;
      // Rule 9.3: the odds of each attack open now, before a unit is named (advice).
      const open = state.advice && state.advice.attacks;
      if (!b && open && open.length) {
        boxes.push(h('div', { class: 'battle-box', role: 'region', 'aria-label': 'possible attacks' },
          h('h3', {}, 'Possible attacks'),
          h('ul', { class: 'attack-list' }, open.map((o) => h('li', {},
            `${labels.get(key(o.target)).label}${labels.get(key(o.target)).name ? ` (${labels.get(key(o.target)).name})` : ''}: `,
            `${o.units.map(pieceName).join(', ')}: ${oddsText(o)}`)))));
      }
      // The odds and the CRT row the server gives the two sides (advice).
      const odds = state.advice && state.advice.combat;
      if (b) {
        const stage = typeof b.stage === 'string' ? b.stage : Object.keys(b.stage)[0];
        const declaring = stage === 'declaring';
        // Rule 9.3: once resolved, the strengths and odds the die was rolled at, from
        // the feed's Odds event (the board after the result says less: a defender that
        // retreated or died no longer counts).
        const rolled = heard && heard.avlCombat && key(heard.avlCombat.target) === key(b.target) ? heard.avlCombat : null;
        let oddsLine = null;
        if (declaring) {
          oddsLine = odds ? h('p', { class: 'odds' }, oddsText(odds)) : null;
        } else if (rolled) {
          oddsLine = h('p', { class: 'odds' }, `Resolved at ${rolled.attack} against ${rolled.defense}: odds ${rolled.column}`);
        } else if (odds && odds.odds) {
          oddsLine = h('p', { class: 'odds' }, `Resolved at odds ${odds.odds} (the strengths are in the log)`);
        }
        boxes.push(h('div', { class: 'battle-box', role: 'region', 'aria-label': 'combat' },
          h('h3', {}, `Combat at ${labels.get(key(b.target)).label}`),
          h('p', {}, `Attacking: ${b.attackers.map(pieceName).join(', ') || 'none yet'}`),
          h('p', {}, `Defending: ${defenders(state, b).map(pieceName).join(', ') || 'nobody'}`),
          oddsLine,
          declaring && odds && odds.all ? h('p', {}, `With every unit that may still join: ${oddsText(odds.all)}`) : null,
          odds && odds.results.length && !b.die ? h('p', {}, 'On the die: ', ...odds.results.map((r, i) => h('span', { class: 'crt-cell', title: `die ${i + 1}` }, `${i + 1}: ${r}`))) : null,
          b.die ? h('p', {}, 'Die: ', h('span', { class: 'die' }, String(b.die)), odds && odds.results[b.die - 1] ? ` \u2192 ${odds.results[b.die - 1]}` : '') : null,
          b.steps_left ? h('p', { class: 'hits' }, `Steps still to lose: ${b.steps_left}`) : null,
          stage === 'retreat' && !(p.relocations || []).length ? h('p', { class: 'hits' }, 'Retreat (9.5): pick a highlighted hex for each retreating piece.') : null,
          stage === 'advance' ? h('p', {}, 'Advance after combat (9.6): pick a highlighted hex, or advance no further.') : null,
          h('p', { class: 'quiet' }, `Step: ${stage.replaceAll('_', ' ')}`)));
      }
      // The charts on the table: TEC, CRT (this combat's column), turn and VP tracks, cup.
      const table = charts(board, state, names, heard, chitName);
      if (table) boxes.push(table);
      return boxes;
    },

    /** A hex key as printed on the map sheet ("XXYY"). */
    hexLabel(k) {
      return labels.has(k) ? labels.get(k).label : k;
    },

    /** Engine texts name pieces already ("23Pz"); nothing to add. */
    nameText(text) {
      return text;
    },
  };
}
