// A Victory Lost on the game page: the map sheet from the server's board (drawn once),
// the pieces of each view on it, the turn, phase and victory points, the chits and the
// combat in progress. Like the VIKTORY board it draws what the server sends and
// decides no rule: the hexes outlined are those of the legal actions.

import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const SIZE = 24; // hex radius in SVG units
const SQRT3 = Math.sqrt(3);
export const SIDE_COLORS = { axis: '#5b6b7a', soviet: '#b3402e' };
const NATION_COLORS = { german: '#5b6b7a', italian: '#4f8a5b', romanian: '#b08a2e', hungarian: '#7a5b8f', soviet: '#b3402e' };

const key = (hex) => `${hex[0]},${hex[1]}`;

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
  const flat = board.orientation === 'flat_top';
  const centre = ([q, r]) => (flat ? [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)] : [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r]);
  const corners = ([x, y]) => {
    const out = [];
    for (let i = 0; i < 6; i += 1) {
      const a = (Math.PI / 180) * (60 * i + (flat ? 0 : 30));
      out.push(`${(x + SIZE * Math.cos(a)).toFixed(1)},${(y + SIZE * Math.sin(a)).toFixed(1)}`);
    }
    return out.join(' ');
  };
  const labels = new Map(board.hexes.map((x) => [key(x.hex), x]));
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
  // The static layer is drawn once per page; the pieces and marks each render.
  let drawnOn = null;
  let tiles = new Map();
  let pieceLayer = null;
  let cityLayer = null;
  let markLayer = null;

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
      g.append(polygon, el('title', {}, `${x.label} ${x.terrain}${x.name ? `: ${x.name}` : ''}${x.pocket ? ' (Stalingrad Pocket)' : ''}${x.source ? ` (${x.source} supply source)` : ''}`));
      g.addEventListener('click', () => onHex(k));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onHex(k);
        }
      });
      tiles.set(k, { g, polygon, label: x.label });
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
    svg.append(layer, features, cityLayer, pieceLayer, markLayer);
    const pad = SIZE * 1.5;
    const [x0, x1, y0, y1] = [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - pad, Math.max(...ys) + pad];
    svg.setAttribute('viewBox', `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`);
    svg.dataset.fitted = '1';
    drawnOn = svg;
  }

  /** A counter: the side's colour, the ID, and its strengths (attack-defense-movement). */
  function counter(p, state, [x, y], extra) {
    const info = board.pieces[p];
    const piece = state.view.position.pieces[p];
    const g = el('g', { class: `counter ${info.kind}` });
    const fill = NATION_COLORS[info.nationality] || SIDE_COLORS[info.side];
    g.append(el('rect', { x: x - 12, y: y - 10, width: 24, height: 20, rx: 2, fill, class: piece.reduced ? 'reduced' : '' }));
    g.append(el('text', { x, y: y - 1.5, class: 'counter-id' }, info.id.length > 7 ? info.id.slice(0, 7) : info.id));
    let numbers;
    if (info.kind === 'hq') {
      numbers = `HQ ${info.range}-${info.movement}`;
    } else {
      const s = piece.reduced && info.reduced ? info.reduced : info.full;
      numbers = info.mechanized ? `${s.attack}-${s.defense}-${info.movement}` : `${s.attack}-${info.movement}`;
    }
    g.append(el('text', { x, y: y + 7, class: 'counter-numbers' }, numbers));
    if (piece.supply === 'out_of_supply' || piece.supply === 'isolated') {
      g.append(el('text', { x: x + 11, y: y - 7, class: `supply-mark ${piece.supply}` }, piece.supply === 'isolated' ? 'ISO' : 'OOS'));
    }
    if (extra > 0) g.append(el('text', { x: x - 11, y: y - 12, class: 'stack-count' }, `+${extra}`));
    return g;
  }

  function describePiece(p, state) {
    const info = board.pieces[p];
    const piece = state.view.position.pieces[p];
    const parts = [`${info.id} (${info.nationality}${info.kind === 'hq' ? ' HQ' : ''})`];
    if (info.kind !== 'hq') {
      const s = piece.reduced && info.reduced ? info.reduced : info.full;
      parts.push(`${info.mechanized ? `attack ${s.attack}, defense ${s.defense}` : `strength ${s.attack}`}, movement ${info.movement}${piece.reduced ? ', reduced' : ''}`);
    } else {
      parts.push(`command range ${info.range}, movement ${info.movement}`);
    }
    if (piece.supply && piece.supply !== 'in_supply') parts.push(piece.supply.replaceAll('_', ' '));
    return parts.join(', ');
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

  return {
    game: 'avl',
    pieceName,
    chitName,

    /** Draws the map (once) and the pieces and marks of this state. */
    draw(svg, state, marks, onHex) {
      if (drawnOn !== svg || !svg.contains(pieceLayer)) drawStatic(svg, onHex);
      // Rule 6.0: the enemy ZOC, shaded while the side to move moves (advice).
      const movement = state.advice && state.advice.movement;
      const zoc = new Set(((movement && movement.enemy_zoc) || []).map(key));
      for (const [k, t] of tiles) {
        const classes = ['tile'];
        if (labels.get(k).pocket) classes.push('pocket');
        if (zoc.has(k)) classes.push('zoc');
        if (marks.targets.has(k)) classes.push('target');
        if (marks.sources.has(k)) classes.push('source');
        if (marks.selected === k) classes.push('selected');
        t.polygon.setAttribute('class', classes.join(' '));
        const clickable = marks.targets.has(k) || marks.sources.has(k);
        if (clickable) {
          t.g.setAttribute('tabindex', '0');
          t.g.setAttribute('role', 'button');
          t.g.setAttribute('aria-label', `hex ${t.label}${marks.targets.has(k) ? ' (a target)' : ' (has actions)'}`);
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
      const stacks = new Map();
      state.view.position.pieces.forEach((piece, p) => {
        if (piece.location && piece.location.map) {
          const k = key(piece.location.map);
          if (!stacks.has(k)) stacks.set(k, []);
          stacks.get(k).push(p);
        }
      });
      for (const [k, list] of stacks) {
        const c = centre(k.split(',').map(Number));
        // Combat units over HQs: the strongest face up.
        list.sort((a, b) => (board.pieces[a].kind === 'hq') - (board.pieces[b].kind === 'hq') || a - b);
        const g = el('g', { class: 'stack', 'data-hex': k });
        g.append(counter(list[0], state, c, list.length - 1));
        g.append(el('title', {}, `${labels.get(k).label}: ${list.map((p) => describePiece(p, state)).join('; ')}`));
        pieceLayer.append(g);
      }
      // The cost of each move of the selected stack, on its target hexes (8.1-8.3).
      markLayer.replaceChildren();
      if (marks.selected) {
        const cheapest = new Map();
        for (const x of movesFrom(state, marks.selected)) {
          const k = key(x.to);
          const old = cheapest.get(k);
          if (!old || x.cost < old.cost) cheapest.set(k, x);
        }
        for (const [k, x] of cheapest) {
          const [cx, cy] = centre(k.split(',').map(Number));
          markLayer.append(el('text', { x: cx, y: cy + 4, class: `move-cost${x.zoc ? ' zoc' : ''}` }, `${mp(x.cost)}${x.zoc ? ' Z' : ''}`));
        }
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
      const [type, action] = typeof json === 'string' ? [json, {}] : Object.entries(json)[0];
      const piece = action.piece ?? action.unit ?? null;
      const src = piece !== null ? pieceHex(state, piece) : null;
      const target = action.to || action.target;
      if (target) return { src, dst: key(target) };
      // Activating a HQ, losing a step: the piece's own hex is the target.
      const own = action.hq ?? (type === 'lose_step' ? action.unit : null);
      if (own !== null && own !== undefined && type !== 'relocate') return { src: null, dst: pieceHex(state, own) };
      return { src: type === 'lose_step' ? null : src, dst: null };
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

    /** The chits and the combat in progress. */
    panel(state, names) {
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
        boxes.push(h('div', { class: 'battle-box', role: 'region', 'aria-label': 'combat' },
          h('h3', {}, `Combat at ${labels.get(key(b.target)).label}`),
          h('p', {}, `Attacking: ${b.attackers.map(pieceName).join(', ') || 'none yet'}`),
          h('p', {}, `Defending: ${defenders(state, b).map(pieceName).join(', ') || 'nobody'}`),
          odds ? h('p', { class: 'odds' }, oddsText(odds)) : null,
          odds && odds.all ? h('p', {}, `With every unit that may still join: ${oddsText(odds.all)}`) : null,
          odds && odds.results.length && !b.die ? h('p', {}, 'On the die: ', ...odds.results.map((r, i) => h('span', { class: 'crt-cell', title: `die ${i + 1}` }, `${i + 1}: ${r}`))) : null,
          b.die ? h('p', {}, 'Die: ', h('span', { class: 'die' }, String(b.die)), odds && odds.results[b.die - 1] ? ` \u2192 ${odds.results[b.die - 1]}` : '') : null,
          b.steps_left ? h('p', { class: 'hits' }, `Steps still to lose: ${b.steps_left}`) : null,
          stage === 'retreat' ? h('p', { class: 'hits' }, 'Retreat (9.5): pick a highlighted hex for each retreating piece.') : null,
          stage === 'advance' ? h('p', {}, 'Advance after combat (9.6): pick a highlighted hex, or advance no further.') : null,
          h('p', { class: 'quiet' }, `Step: ${stage.replaceAll('_', ' ')}`)));
      }
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
