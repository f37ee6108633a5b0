// Replay of a game: a step slider over its versions (the board as this browser's seat,
// or a spectator, saw it at each), what happened at each step (its log lines and its
// dice), the result, autoplay, and a chart of each player's score by game turn.
//
// Versions are the audience's own feed numbers: the page uses exactly those the server
// hands it (`/steps`' indexes and versions, `/history`'s points), never counts its own.

import { api, seats } from './api.js';
import { avlFamily, phaseName } from './avl.js';
import { drawBoard, legend as mapKey, panZoom, seatColor, zoomControls } from './board.js';
import { h, seatName } from './dom.js';

const NO_MARKS = { sources: new Set(), targets: new Set(), selected: null };
/** Steps a second that autoplay offers, and its default. */
const SPEEDS = [1, 2, 5, 10];
const SPEED = 2;
/** Views kept in memory (each a few KB), so stepping back and forth does not refetch. */
const CACHE = 64;
/** What a VIKTORY die is rolled for, in words. */
const PURPOSES = {
  attack: 'attack', defense: 'defence', pre_battle: 'pre-battle fire', bombard: 'bombardment', doomsday: 'the doomsday clock',
};

export async function showReplay(app, id) {
  document.getElementById('subtitle').textContent = `replay of game ${id}`;
  const error = h('p', { class: 'error replay-error', role: 'alert' });
  // A seat this browser held sees its own view of the past; others see the public one.
  const held = Object.values(seats.of(id))[0] || null;
  let state;
  let feed;
  let history;
  let family;
  let latest;
  try {
    state = await api.state(id, held);
    // The whole feed once (the server does not page it: about 140 bytes a step, gzipped
    // to a tenth), then only views are fetched as the slider moves. Meanwhile the board
    // (A Victory Lost draws its own map; VIKTORY's views carry theirs) and the view at
    // the game's latest version, where the page opens.
    latest = api.at(id, state.version, held);
    latest.catch(() => {}); // handled where it is used
    [feed, history, family] = await Promise.all([
      api.steps(id, held, 0), api.history(id, held), state.game === 'avl' ? avlFamily(api, id) : null]);
  } catch (e) {
    app.replaceChildren(h('h1', {}, `Replay of game ${id}`), error);
    error.textContent = e.explain ? e.explain() : e.message;
    return;
  }
  const colorOf = (seat) => (family ? family.seatColor(seat) : seatColor(seat, null, false));
  const scoreName = family ? 'Victory points' : 'Empire points';
  const names = state.seats.map((s) => s.name || seatName(s.seat));
  // A Victory Lost's seats play sides: "Ann (Axis)".
  const players = family ? names.map((n, i) => `${n} (${i === 0 ? 'Axis' : 'Soviet'})`) : names;
  const steps = feed.steps;
  const versions = feedVersions(feed);
  const last = steps.length; // positions 0..last; version of position p: versions[p]
  const lines = stepLines(steps, names, state);

  const slider = h('input', {
    type: 'range', min: 0, max: last, value: last, id: 'step', 'aria-label': 'step of the game', 'aria-valuetext': '',
  });
  const label = h('output', { for: 'step', class: 'step-label' });
  const playButton = h('button', { type: 'button', class: 'play', title: 'keyboard: space' }, 'Play');
  const speed = h('select', { id: 'replay-speed' }, SPEEDS.map((s) => h('option', { value: s, selected: s === SPEED }, `${s} step${s === 1 ? '' : 's'}/s`)));
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'map replay-map');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'the map at this step');
  const chart = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  chart.setAttribute('class', 'chart');
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', `${scoreName.toLowerCase()} by game turn`);
  const now = h('div', { class: 'step-now' });
  const list = h('div', {
    class: 'step-list', role: 'listbox', tabindex: 0, 'aria-label': 'every step: choose one to show it',
  });
  const options = [h('div', { role: 'option', id: 'step-0', class: 'step-item', 'data-pos': 0 }, h('span', { class: 'step-no' }, 'Start'), ' the game begins')];
  steps.forEach((step, k) => {
    const who = step.by === 'chance' ? 'chance' : names[step.by.seat] || 'someone';
    const text = lines[k].length ? lines[k].join('; ') : (step.undo ? `${who} took back a move` : `${who} acted (nothing this view shows)`);
    options.push(h('div', {
      role: 'option', id: `step-${k + 1}`, class: `step-item${lines.undone.has(k) ? ' undone' : ''}`, 'data-pos': k + 1,
      title: lines.undone.has(k) ? 'taken back' : undefined,
    }, h('span', { class: 'step-no' }, String(versions[k + 1])), ` ${text}`));
  });
  list.append(...options);

  const over = state.result || (state.to_move && state.to_move.over);
  const result = h('p', { class: 'replay-result' });
  if (over) {
    const winners = over.winners.map((w) => players[w]).join(' and ') || 'nobody';
    const scores = over.scores || state.view.scores || state.view.vp || [];
    result.append(h('strong', {}, `${winners} won`), ` (${over.reason}).`);
    if (scores.length) {
      result.append(` Final ${scoreName.toLowerCase()}: `, ...scores.map((s, i) => h('span', { class: 'score' },
        h('span', { class: 'swatch', style: `background:${colorOf(i)}` }), ` ${players[i]} ${s === null ? '?' : s}${i < scores.length - 1 ? ', ' : '.'}`)));
    }
  } else {
    result.append(`The game is still being played; this replay runs to step ${versions[last]}.`);
  }

  const controls = h('div', { class: 'replay-controls', role: 'group', 'aria-label': 'replay controls' },
    h('button', { type: 'button', onclick: () => jump(0), title: 'keyboard: Home' }, 'Start'),
    h('button', { type: 'button', onclick: () => jump(pos() - 1), 'aria-label': 'one step back', title: 'keyboard: \u2190' }, '\u25c0'),
    slider,
    h('button', { type: 'button', onclick: () => jump(pos() + 1), 'aria-label': 'one step forward', title: 'keyboard: \u2192' }, '\u25b6'),
    h('button', { type: 'button', onclick: () => jump(last), title: 'keyboard: End' }, 'End'),
    playButton,
    h('label', { for: 'replay-speed' }, 'speed'), speed,
    label);
  const legend = h('p', { class: 'legend' }, players.map((n, i) => h('span', {},
    h('span', { class: 'swatch', style: `background:${colorOf(i)}` }), ` ${n} `)));
  app.replaceChildren(
    h('h1', { class: 'replay-title' }, `Replay: ${names.join(' vs ')}`),
    result,
    h('p', { class: 'replay-links' },
      state.you !== null && state.you !== undefined ? `The game as ${players[state.you]} saw it. ` : 'The game as a spectator saw it. ',
      h('a', { href: `/play/${id}` }, 'Back to the game'), ' \u00b7 ',
      state.seed ? h('a', { href: `/api/games/${id}/record`, download: `hexwar-${id}.json` }, 'Download the record') : 'The record can be downloaded once the game is over.'),
    controls, error,
    h('div', { class: 'layout replay-layout' }, h('div', { class: 'map-box' }, svg, zoomControls(svg)),
      h('aside', { class: 'panel replay-panel', 'aria-label': 'what happened' },
        h('h2', {}, 'This step'), now,
        h('h2', { id: 'steps-heading' }, 'All steps'), list,
        h('h2', {}, `${scoreName} by turn`), chart, legend,
        // VIKTORY's map key (A Victory Lost's counters say what they are).
        family ? null : mapKey({ seats: names.map((name) => ({ name })), viewer: state.you ?? null, colorblind: Boolean(state.view.colorblind) }))));
  panZoom(svg);

  const pos = () => Number(slider.value);
  // Views by version, as promises; the oldest go first.
  const views = new Map([[state.version, latest]]);
  latest.catch(() => views.delete(state.version));
  const view = (version) => {
    if (!views.has(version)) {
      views.set(version, api.at(id, version, held));
      if (views.size > CACHE) views.delete(views.keys().next().value);
      views.get(version).catch(() => views.delete(version));
    }
    return views.get(version);
  };
  let drawn = -1; // the position on the map
  let asked = 0; // the latest draw asked for: older answers are dropped
  let playing = null; // the autoplay timer
  let run = 0; // which autoplay a tick belongs to: a pause ends it

  /** Marks position `p` in the list and says what happened there. */
  function mark(p) {
    const version = versions[p];
    slider.setAttribute('aria-valuetext', `step ${version} of ${versions[last]}`);
    for (const o of list.querySelectorAll('[aria-selected="true"]')) o.setAttribute('aria-selected', 'false');
    const option = options[p];
    option.setAttribute('aria-selected', 'true');
    list.setAttribute('aria-activedescendant', option.id);
    // The current step in the middle of the list, the steps before and after it around
    // it (the list scrolls, not the page, as scrollIntoView would).
    list.scrollTop = option.offsetTop - (list.clientHeight - option.offsetHeight) / 2;
    now.replaceChildren(...stepPanel(p));
  }

  /** "This step": who acted, the lines, the dice. */
  function stepPanel(p) {
    if (p === 0) return [h('p', {}, 'The start of the game: nothing has happened yet.')];
    const step = steps[p - 1];
    const chance = family ? 'Chance (a die or a chit)' : 'Chance (a die or a tile)';
    const who = step.by === 'chance' ? chance : players[step.by.seat] || 'Someone';
    const out = [h('p', { class: 'step-who' }, h('strong', {}, `Step ${versions[p]}`), ` \u00b7 ${step.undo ? `${who} took back a move` : who}`)];
    if (lines[p - 1].length) out.push(h('ul', { class: 'step-lines' }, lines[p - 1].map((t) => h('li', {}, t))));
    else if (!step.undo) out.push(h('p', { class: 'quiet' }, 'Nothing that this view shows happened.'));
    const dice = diceOf(steps, p - 1, players, family);
    if (dice.length) {
      out.push(h('p', { class: 'dice-head' }, dice.length === 1 ? 'Die rolled:' : `${dice.length} dice rolled:`),
        h('ul', { class: 'step-dice' }, dice.map((d) => h('li', {},
          d.seat !== null ? h('span', { class: 'swatch', style: `background:${colorOf(d.seat)}` }) : null,
          ` ${d.who} rolled `, h('span', { class: 'die', 'aria-label': `a ${d.value}` }, String(d.value)), ` ${d.what}`))));
    }
    if (lines.undone.has(p - 1)) out.push(h('p', { class: 'quiet' }, 'This move was taken back later.'));
    return out;
  }

  /** Draws the map and the chart at the slider's position (the latest asked wins). */
  async function show() {
    const p = pos();
    const version = versions[p];
    const ticket = ++asked;
    try {
      const at = await view(version);
      if (ticket !== asked) return;
      const turn = at.view.position.turn;
      if (family) {
        label.textContent = `step ${version} of ${versions[last]} \u00b7 turn ${turn}, ${phaseName(at.view.position.phase)}`;
        family.draw(svg, at, NO_MARKS, () => {});
      } else {
        label.textContent = `step ${version} of ${versions[last]} \u00b7 turn ${turn.number}, ${turn.stage.replaceAll('_', ' ')} phase`;
        drawBoard(svg, at.view, NO_MARKS, () => {}, names);
      }
      drawChart(chart, history.points, players, version, colorOf);
      drawn = p;
      error.textContent = '';
    } catch (e) {
      if (ticket === asked) error.textContent = e.explain ? e.explain() : e.message;
    }
  }

  /** Goes to position `p` (clamped); the list and the panel follow at once, the map
   *  when its view arrives. Anything but autoplay pauses autoplay. */
  function jump(p, { auto = false } = {}) {
    if (!auto) pause();
    const to = Math.min(last, Math.max(0, p));
    slider.value = String(to);
    mark(to);
    return show();
  }

  function pause() {
    if (playing === null) return;
    clearTimeout(playing);
    playing = null;
    run += 1;
    playButton.textContent = 'Play';
    playButton.classList.remove('playing');
  }

  function play() {
    if (playing !== null) return;
    // From the end, play from the start again.
    if (pos() >= last) jump(0);
    playButton.textContent = 'Pause';
    playButton.classList.add('playing');
    const mine = ++run;
    const tick = async () => {
      const started = performance.now();
      if (pos() >= last) {
        pause();
        return;
      }
      view(versions[Math.min(last, pos() + 2)]); // fetched while this one is shown
      await jump(pos() + 1, { auto: true });
      if (run !== mine) return;
      if (pos() >= last) {
        pause();
        return;
      }
      // The next step after 1/speed s, or as soon as the view came if it took longer.
      playing = setTimeout(tick, Math.max(0, 1000 / Number(speed.value) - (performance.now() - started)));
    };
    playing = setTimeout(tick, 0);
  }

  playButton.addEventListener('click', () => (playing === null ? play() : pause()));
  slider.addEventListener('input', () => {
    pause();
    mark(pos());
    clearTimeout(slider.timer);
    slider.timer = setTimeout(show, 120);
  });
  list.addEventListener('click', (e) => {
    const option = e.target.closest('[role="option"]');
    if (option) jump(Number(option.dataset.pos));
  });
  list.addEventListener('keydown', (e) => {
    const delta = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
    if (delta === undefined) return;
    e.preventDefault();
    jump(pos() + delta);
  });
  // ←/→ step, Home/End, space plays or pauses: anywhere but in a field (the slider
  // and the speed choice keep their own keys) or, for space, on a button.
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || !app.contains(slider)) return;
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement || t.isContentEditable) return;
    if (e.key === ' ' && (t instanceof HTMLButtonElement || t instanceof HTMLAnchorElement)) return;
    const go = { ArrowLeft: () => jump(pos() - 1), ArrowRight: () => jump(pos() + 1), Home: () => jump(0), End: () => jump(last), ' ': () => (playing === null ? play() : pause()) }[e.key];
    if (!go) return;
    e.preventDefault();
    go();
  });

  mark(last);
  await show();
  return drawn;
}

/** The version at each slider position: the feed's start, then the version after each
 *  step, as the server numbers them (a step's `index` is the version before it; a
 *  take-back's is the step it takes back, so it counts from the step before). */
export function feedVersions(feed) {
  const { steps } = feed;
  const before = (k) => (steps[k].undo || typeof steps[k].index !== 'number' ? null : steps[k].index);
  const versions = [feed.from];
  for (let k = 0; k < steps.length; k += 1) {
    const next = k + 1 < steps.length ? before(k + 1) : feed.version;
    versions.push(next ?? (before(k) ?? versions[k]) + 1);
  }
  return versions;
}

/** Each step's lines in words, seats and units named as the game page names them
 *  ("Seat 2" is the seat's player, "#3" is "Ann’s cavalry #3"); `.undone` holds the
 *  positions of steps taken back later. */
function stepLines(steps, names, state) {
  const units = new Map();
  for (const u of (state.view.position && state.view.position.units) || []) units.set(u.id, { kind: u.kind, owner: u.owner });
  for (const step of steps) {
    for (const e of step.events) {
      if (e && e.unit !== undefined && e.kind) units.set(e.unit, { kind: e.kind, owner: e.seat ?? e.owner });
    }
  }
  const named = (text) => text
    .replace(/(?<!(?:infantry|cavalry|artillery|frigate) )#(\d+)/g, (m, n) => {
      const u = units.get(Number(n));
      if (!u) return m;
      return u.owner !== undefined && names[u.owner] ? `Seat ${u.owner + 1}\u2019s ${u.kind} ${m}` : `${u.kind} ${m}`;
    })
    .replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n) - 1] || m);
  const out = steps.map((step) => (step.text || []).map(named));
  const byIndex = new Map();
  steps.forEach((step, k) => { if (!step.undo) byIndex.set(step.index, k); });
  out.undone = new Set(steps.filter((s) => s.undo && s.index !== null && byIndex.has(s.index)).map((s) => byIndex.get(s.index)));
  return out;
}

/** The dice of step `k`: `{seat, who, value, what}`. VIKTORY's die_rolled events name
 *  the roller and the purpose; A Victory Lost's combat die is the attacker's, at the
 *  odds the last `odds` event gave. */
function diceOf(steps, k, players, family) {
  const out = [];
  for (const e of steps[k].events) {
    if (e && e.type === 'die_rolled') {
      out.push({ seat: e.seat, who: players[e.seat] || `Seat ${e.seat + 1}`, value: e.value, what: `for ${PURPOSES[e.purpose] || String(e.purpose).replaceAll('_', ' ')}` });
    } else if (family && e && e.combat_result) {
      // The combat these dice resolve: the last odds announced before it.
      let odds = null;
      let seat = null;
      for (let j = k; j >= 0 && !odds; j -= 1) {
        const found = steps[j].events.find((x) => x && x.odds);
        if (found) {
          odds = found.odds;
          seat = steps[j].by === 'chance' ? null : steps[j].by.seat;
        }
      }
      const r = e.combat_result.result || {};
      const parts = [];
      if (r.attacker_steps) parts.push(`attacker loses ${r.attacker_steps} step${r.attacker_steps > 1 ? 's' : ''}`);
      if (r.defender_steps) parts.push(`defender loses ${r.defender_steps} step${r.defender_steps > 1 ? 's' : ''}`);
      if (r.retreat) parts.push(`defender retreats ${r.retreat} hex${r.retreat > 1 ? 'es' : ''}`);
      const at = odds ? ` at ${odds.column} (${odds.attack} against ${odds.defense}${family.hexLabel ? ` at ${family.hexLabel(`${odds.target[0]},${odds.target[1]}`)}` : ''})` : '';
      out.push({
        seat, who: seat !== null ? players[seat] : 'The attacker', value: e.combat_result.die, what: `for combat${at}: ${parts.join(', ') || 'no effect'}`,
      });
    }
  }
  return out;
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
