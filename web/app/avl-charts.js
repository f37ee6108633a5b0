// A Victory Lost's charts on the table, drawn from the scenario the server sends with
// the board (`board.tec`, `board.crt`, `board.track`, each counter's `arrival`) and the
// view: the Terrain Effects Chart, the whole CRT with the combat's column and die
// marked, the turn track with the reinforcements due, the victory point track, and the
// chit cup with the chits drawn this turn. They show; they decide nothing.

import { h } from './dom.js';

const SIDE_COLORS = { axis: '#5b6b7a', soviet: '#b3402e' };

/** The CRT column a combat at `odds` (e.g. "3-1", "8-1") resolves on: its own, or the
 *  last one past the table's end (9.3); -1 when none. */
export function crtColumn(columns, odds) {
  if (!odds) return -1;
  const i = columns.indexOf(odds);
  if (i >= 0) return i;
  const ratio = (s) => Number(String(s).split('-')[0]);
  return ratio(odds) > ratio(columns[columns.length - 1]) ? columns.length - 1 : -1;
}

function tec(board) {
  const t = board.tec;
  const rows = Object.entries(t.terrain).map(([name, x]) => h('tr', {},
    h('th', { scope: 'row' }, h('span', { class: 'avl-swatch', style: `background:${x.color || (x.water ? '#8ab4e0' : '#e8e4c9')}` }), ` ${name}`),
    h('td', {}, x.water ? 'no entry' : `${x.move_cost} MP`),
    h('td', {}, x.water ? '\u2014' : (x.shifts ? `${x.shifts} left` : 'none'))));
  const rule = (what, mp, shifts) => h('tr', { class: 'avl-tec-rule' }, h('th', { scope: 'row' }, what), h('td', {}, mp), h('td', {}, shifts));
  return h('section', { class: 'avl-chart avl-tec', 'aria-label': 'terrain effects chart' },
    h('h4', {}, 'Terrain effects (8.1, 9.3.3)'),
    h('table', {},
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'terrain'), h('th', { scope: 'col' }, 'to enter'), h('th', { scope: 'col' }, 'odds shifts'))),
      h('tbody', {}, rows,
        rule('town in the hex', '\u2014', `${t.town_shifts} left`),
        rule('city in the hex', '\u2014', `${t.city_shifts} left`),
        rule('minor river, no bridge', '+1 MP', '\u2014'),
        rule('major river, no bridge', 'only from beside it, then stop', '\u2014'),
        rule('road (strategic movement)', '\u00bd MP a hex', '\u2014'),
        rule('enemy ZOC, to enter or leave', '+2 MP each', '\u2014'))));
}

function crt(board, state, heard) {
  const { columns, rows } = board.crt;
  const b = state.view.position.battle;
  const advice = state.advice && state.advice.combat;
  const rolled = b && heard && heard.avlCombat && heard.avlCombat.target && String(heard.avlCombat.target) === String(b.target) ? heard.avlCombat : null;
  const odds = b ? ((rolled && rolled.column) || (advice && advice.odds)) : null;
  const col = crtColumn(columns, odds);
  const die = b && b.die;
  return h('section', { class: 'avl-chart avl-crt', 'aria-label': 'combat results table', 'data-column': col >= 0 ? columns[col] : '' },
    h('h4', {}, 'Combat results (9.4)', odds ? ` \u2014 this combat: ${odds}${col >= 0 && columns[col] !== odds ? ` (the ${columns[col]} column)` : ''}` : ''),
    h('div', { class: 'avl-scroll', tabindex: '0', role: 'group', 'aria-label': 'the CRT, scrolls sideways' }, h('table', {},
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'die'), columns.map((c, i) => h('th', { scope: 'col', class: i === col ? 'current' : '' }, c)))),
      h('tbody', {}, rows.map((row, d) => h('tr', { class: die === d + 1 ? 'rolled' : '' },
        h('th', { scope: 'row' }, String(d + 1)),
        row.map((r, i) => h('td', { class: `${i === col ? 'current' : ''}${i === col && die === d + 1 ? ' hit' : ''}` }, r))))))),
    h('p', { class: 'quiet' }, 'A: attacker steps; a number: defender steps; DR: defender retreats (DR2: two hexes). Odds below 1-1 may not attack; each terrain shift moves one column left.'));
}

function turnTrack(board, state, names) {
  const p = state.view.position;
  const t = board.track;
  const due = new Map();
  board.pieces.forEach((x) => {
    if (x.arrival) due.set(x.arrival, [...(due.get(x.arrival) || []), x]);
  });
  const turns = [];
  for (let n = 1; n <= board.turns; n += 1) {
    const arriving = due.get(n) || [];
    const manstein = t.manstein_turns.filter((m) => m === n).length;
    turns.push(h('li', { class: `avl-turn${n === p.turn ? ' current' : ''}${n < p.turn ? ' past' : ''}`, 'aria-current': n === p.turn ? 'step' : null },
      h('strong', {}, `Turn ${n}`),
      h('span', {}, `Axis chits ${t.axis_chits[n - 1] ?? '?'}`),
      manstein ? h('span', {}, `+${manstein} Manstein`) : null,
      n <= t.pocket_until_turn ? h('span', { class: 'quiet' }, 'Pocket closed') : null,
      arriving.length ? h('span', { class: 'avl-due' }, arriving.map((x) => h('span', { class: 'avl-chip', style: `background:${SIDE_COLORS[x.side]}`, title: `${x.id} (${x.nationality}${x.kind === 'hq' ? ' HQ' : ''})${x.box ? `, in box ${x.box}` : ''}` }, x.id))) : null));
  }
  return h('section', { class: 'avl-chart avl-track', 'aria-label': 'turn track' },
    h('h4', {}, `Turn track (11.0): turn ${p.turn} of ${board.turns}, with the reinforcements due`),
    h('ol', {}, turns));
}

function vpTrack(board, state, names) {
  const vp = state.view.vp || [0, 0];
  const margin = board.track.sudden_death_margin;
  const top = Math.max(margin, vp[0], vp[1], 10);
  const w = 300;
  const x = (v) => 10 + (v / top) * (w - 20);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} 54`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `victory points: ${names[0]} (Axis) ${vp[0]}, ${names[1]} (Soviet) ${vp[1]}; a lead of ${margin} wins at once`);
  const add = (name, attrs, text) => {
    const e = document.createElementNS('http://www.w3.org/2000/svg', name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
  };
  add('line', { x1: 10, y1: 44, x2: w - 10, y2: 44, stroke: '#555' });
  for (let v = 0; v <= top; v += 5) {
    add('line', { x1: x(v), y1: 42, x2: x(v), y2: 46, stroke: '#555' });
    add('text', { x: x(v), y: 53, 'font-size': 7, 'text-anchor': 'middle', fill: '#333' }, String(v));
  }
  [['axis', 0, 6], ['soviet', 1, 22]].forEach(([side, i, y]) => {
    add('rect', { x: 10, y, width: Math.max(1, x(vp[i]) - 10), height: 12, fill: SIDE_COLORS[side] });
    add('text', { x: x(vp[i]) + 3, y: y + 10, 'font-size': 9, fill: '#111' }, `${side === 'axis' ? 'Axis' : 'Soviet'} ${vp[i]}`);
  });
  const lead = vp[0] - vp[1];
  return h('section', { class: 'avl-chart avl-vp', 'aria-label': 'victory point track' },
    h('h4', {}, 'Victory points (14.0)'),
    svg,
    h('p', { class: 'quiet' }, `${lead === 0 ? 'Level' : `${lead > 0 ? 'Axis' : 'Soviet'} lead ${Math.abs(lead)}`}; a lead of ${margin} wins at once. A Victory City ${board.track.victory.city} VP; German mechanized lost ${board.track.victory.german_mechanized}, other German ${board.track.victory.german_other}; Soviet mechanized lost ${board.track.victory.soviet_mechanized}.`));
}

function cup(board, state, names, chitName) {
  const p = state.view.position;
  const chip = (c, side) => h('span', { class: 'avl-chit', style: `border-color:${SIDE_COLORS[side] || '#555'}` }, chitName(c));
  const sideOf = (c) => {
    if (c === 'stavka') return 'soviet';
    if (c && c.manstein !== undefined) return 'axis';
    if (c && c.hq !== undefined && board.pieces[c.hq]) return board.pieces[c.hq].side;
    return null;
  };
  return h('section', { class: 'avl-chart avl-cup', 'aria-label': 'chit cup' },
    h('h4', {}, `The cup (7.2): ${p.cup.length} chit${p.cup.length === 1 ? '' : 's'}`),
    h('p', { class: 'avl-chits' }, p.cup.length ? p.cup.map((c) => chip(c, sideOf(c))) : 'empty'),
    h('p', {}, h('strong', {}, 'Drawn this turn: '), [...p.played[0], ...p.played[1]].length
      ? [...p.played[0].map((c) => chip(c, 'axis')), ...p.played[1].map((c) => chip(c, 'soviet'))]
      : 'none yet',
    p.drawn ? h('span', {}, ' \u00b7 just drawn: ', chip(p.drawn, sideOf(p.drawn))) : null));
}

/** Whether the player left the charts open (kept across redraws). */
let open = true;

/** The charts box for the panel. */
export function charts(board, state, names, heard, chitName) {
  if (!board.tec || !board.crt || !board.track) return null;
  const fighting = Boolean(state.view.position.battle);
  return h('details', { class: 'battle-box avl-charts', open, role: 'region', 'aria-label': 'charts', ontoggle: (e) => { open = e.target.open; } },
    h('summary', {}, 'Charts'),
    fighting ? crt(board, state, heard) : null,
    turnTrack(board, state, names),
    vpTrack(board, state, names),
    cup(board, state, names, chitName),
    fighting ? null : crt(board, state, heard),
    tec(board));
}
