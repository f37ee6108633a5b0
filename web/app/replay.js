// Replay of a game: a step slider over its versions (the board as a spectator saw it
// at each), and a chart of each player's empire points by game turn.

import { api, seats } from './api.js';
import { avlFamily, phaseName } from './avl.js';
import { drawBoard, panZoom, seatColor } from './board.js';
import { h, seatName } from './dom.js';

const NO_MARKS = { sources: new Set(), targets: new Set(), selected: null };

export async function showReplay(app, id) {
  document.getElementById('subtitle').textContent = `replay of game ${id}`;
  const error = h('p', { class: 'error', role: 'alert' });
  let state;
  let history;
  // A seat this browser held sees its own view of the past; others see the public one.
  const held = Object.values(seats.of(id))[0] || null;
  try {
    state = await api.state(id, held);
    history = await api.history(id, held);
  } catch (e) {
    app.replaceChildren(error);
    error.textContent = e.explain ? e.explain() : e.message;
    return;
  }
  // A Victory Lost draws its own map; VIKTORY's views carry theirs.
  const family = state.game === 'avl' ? await avlFamily(api, id) : null;
  const colorOf = (seat) => (family ? family.seatColor(seat) : seatColor(seat, null, false));
  const scoreName = family ? 'Victory points' : 'Empire points';
  const last = state.version;
  const names = state.seats.map((s) => s.name || seatName(s.seat));
  const slider = h('input', { type: 'range', min: 0, max: last, value: last, id: 'step', 'aria-label': 'step of the game' });
  const label = h('output', { for: 'step', class: 'step-label' });
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'map replay-map');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'the map at this step');
  const chart = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  chart.setAttribute('class', 'chart');
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `${scoreName.toLowerCase()} by game turn`);
  const step = (delta) => () => {
    slider.value = String(Math.min(last, Math.max(0, Number(slider.value) + delta)));
    show();
  };
  const controls = h('div', { class: 'replay-controls' },
    h('button', { type: 'button', onclick: () => { slider.value = '0'; show(); } }, 'Start'),
    h('button', { type: 'button', onclick: step(-1), 'aria-label': 'one step back' }, '\u25c0'),
    slider,
    h('button', { type: 'button', onclick: step(1), 'aria-label': 'one step forward' }, '\u25b6'),
    h('button', { type: 'button', onclick: () => { slider.value = String(last); show(); } }, 'End'),
    ' ', label);
  const legend = h('p', { class: 'legend' }, names.map((n, i) => h('span', {},
    h('span', { class: 'swatch', style: `background:${colorOf(i)}` }), ` ${n} `)));
  app.replaceChildren(
    h('p', {}, h('a', { href: `/play/${id}` }, 'Back to the game'), ' \u00b7 ',
      state.seed ? h('a', { href: `/api/games/${id}/record`, download: `hexwar-${id}.json` }, 'Download the record') : 'The record can be downloaded once the game is over.'),
    controls, error,
    h('div', { class: 'layout' }, h('div', { class: 'map-box' }, svg),
      h('aside', { class: 'panel' }, h('h2', {}, `${scoreName} by turn`), chart, legend)));
  panZoom(svg);
  slider.addEventListener('input', () => {
    clearTimeout(slider.timer);
    slider.timer = setTimeout(show, 120);
  });

  async function show() {
    const version = Number(slider.value);
    try {
      const at = await api.at(id, version, held);
      const turn = at.view.position.turn;
      if (family) {
        label.textContent = `step ${version} of ${last} \u00b7 turn ${turn}, ${phaseName(at.view.position.phase)}`;
        family.draw(svg, at, NO_MARKS, () => {});
      } else {
        label.textContent = `step ${version} of ${last} \u00b7 turn ${turn.number}, ${turn.stage.replaceAll('_', ' ')} phase`;
        drawBoard(svg, at.view, NO_MARKS, () => {});
      }
      drawChart(chart, history.points, names, version, colorOf);
      error.textContent = '';
    } catch (e) {
      error.textContent = e.explain ? e.explain() : e.message;
    }
  }
  await show();
}

/** Lines of each seat's score over the game turns, with the current step marked. */
function drawChart(svg, points, names, version, colorOf) {
  const NS = 'http://www.w3.org/2000/svg';
  const W = 320;
  const H = 180;
  const pad = 28;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const known = points.filter((p) => Array.isArray(p.scores));
  if (!known.length) return;
  const maxTurn = Math.max(1, ...known.map((p) => Number(p.turn) || 0));
  const maxScore = Math.max(1, ...known.flatMap((p) => p.scores.filter((s) => s !== null)));
  // Victory points can fall below zero; the chart starts at zero.
  const x = (turn) => pad + ((W - 2 * pad) * turn) / maxTurn;
  const y = (score) => H - pad - ((H - 2 * pad) * Math.max(0, score)) / maxScore;
  const line = (attrs) => {
    const node = document.createElementNS(NS, 'line');
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.append(node);
  };
  const text = (tx, ty, content, anchor = 'middle') => {
    const node = document.createElementNS(NS, 'text');
    node.setAttribute('x', tx);
    node.setAttribute('y', ty);
    node.setAttribute('class', 'chart-text');
    node.setAttribute('text-anchor', anchor);
    node.textContent = content;
    svg.append(node);
  };
  line({ x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, stroke: '#444' });
  line({ x1: pad, y1: pad, x2: pad, y2: H - pad, stroke: '#444' });
  text(W / 2, H - 6, 'game turn');
  text(pad - 4, pad + 4, String(maxScore), 'end');
  text(pad - 4, H - pad, '0', 'end');
  text(W - pad, H - pad + 14, String(maxTurn));
  names.forEach((_, seat) => {
    const path = known
      .filter((p) => p.scores[seat] !== null && p.scores[seat] !== undefined)
      .map((p) => `${x(Number(p.turn) || 0).toFixed(1)},${y(p.scores[seat]).toFixed(1)}`);
    if (path.length < 1) return;
    const polyline = document.createElementNS(NS, 'polyline');
    polyline.setAttribute('points', path.join(' '));
    polyline.setAttribute('fill', 'none');
    polyline.setAttribute('stroke', colorOf(seat));
    // Thinner lines over thicker ones, so that equal scores still show every player.
    polyline.setAttribute('stroke-width', String(2 + 1.5 * (names.length - 1 - seat)));
    svg.append(polyline);
  });
  // The turn of the step on the board.
  const current = [...known].reverse().find((p) => p.version <= version) || known[0];
  const cx = x(Number(current.turn) || 0);
  line({ x1: cx, y1: pad, x2: cx, y2: H - pad, stroke: '#f0b400', 'stroke-width': 2, 'stroke-dasharray': '4 3' });
}
