// A game page: the board, whose turn it is, the legal actions the server offers (on
// the board and as a list), battles, the log, messages, notifications and fair dice.
// Hot-seat: when this browser holds several seats, each seat's view hides behind a
// "pass to the next player" screen.

import { api, live, seats } from './api.js';
import { avlFamily } from './avl.js';
import { drawBoard, key, panZoom, seatColor } from './board.js';
import { h, seatName } from './dom.js';

/** "All 3 choices", "1 choice". */
function choices(n) {
  return n === 1 ? '1 choice' : `All ${n} choices`;
}

/** A probability as a whole percentage ("<1 %" rather than a misleading "0 %"). */
function pct(p) {
  if (p > 0 && p < 0.005) return '<1 %';
  if (p < 1 && p > 0.995) return '>99 %';
  return `${Math.round(p * 100)} %`;
}

/** The exact odds the server gives for a battle, in words. */
function oddsText(o, names) {
  const parts = [`${names[o.attacker]} takes the hex ${pct(o.attacker_wins)}`];
  const holds = o.defender_holds + o.both_destroyed;
  parts.push(`${o.defender !== null && o.defender !== undefined ? names[o.defender] : 'the defence'} holds ${pct(holds)}`);
  if (o.attacker_retreats > 0) parts.push(`retreat ${pct(o.attacker_retreats)}`);
  const odds = `${parts.join(', ')}; expected losses ${o.expected_attacker_losses.toFixed(1)} attacking, ${o.expected_defender_losses.toFixed(1)} defending`;
  // Battles too big for the exact method come as a labelled estimate (docs/odds.md).
  return o.exact === false ? `estimate from ${o.samples} simulated battles: ${odds}` : odds;
}

/** The actions that end a phase or segment: the E key plays the first one offered. */
const PASSES = ['end_phase', 'end_movement', 'end_advance', 'end_combat'];

/** An action's type: VIKTORY's actions carry it (`{"type": "move", …}`), A Victory
 *  Lost's are named by their one key (`{"move": {…}}`) or are a bare name. */
function typeOf(action) {
  if (typeof action === 'string') return action;
  return action.type ?? Object.keys(action)[0];
}

/** Where a VIKTORY action starts and where it goes, as hex keys, read from its fields. */
function ends(action, unitsById) {
  const unitHex = action.unit !== undefined && action.unit !== null && unitsById.get(action.unit);
  const src = unitHex ? key(unitHex) : action.from ? key(action.from) : action.town ? key(action.town) : null;
  const target = action.to || action.target || action.hex;
  const dst = Array.isArray(target) ? key(target) : null;
  return { src, dst: dst === src && !action.to ? dst : dst };
}

export async function showGame(app, id, linkToken) {
  document.getElementById('subtitle').textContent = `game ${id}`;
  const held = () => seats.of(id);
  if (linkToken) {
    try {
      const state = await api.state(id, linkToken);
      seats.remember(id, state.you, linkToken);
    } catch (e) {
      app.replaceChildren(h('p', { class: 'error', role: 'alert' }, `This link does not open a seat: ${e.message}`));
      return;
    }
  }
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'map');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'the map');
  const status = h('div', { class: 'status', role: 'status' });
  const banner = h('div', { class: 'banner' });
  const actions = h('div', { class: 'actions', 'aria-label': 'legal actions' });
  const battle = h('div', { class: 'battle' });
  const error = h('p', { class: 'error', role: 'alert' });
  const log = h('ul', { class: 'log' });
  const chat = h('ul', { class: 'chat' });
  const chatInput = h('input', { 'aria-label': 'message to the table', maxlength: 2000, placeholder: 'message' });
  const chatForm = h('form', { class: 'chat-form', onsubmit: sendMessage }, chatInput, ' ', h('button', { type: 'submit' }, 'Send'));
  const dice = h('p', { class: 'commitment' });
  const notifyForm = notificationForm();
  const curtain = h('div', { class: 'curtain', hidden: true });
  const joinBox = h('div', { class: 'join' });
  const resignButton = h('button', { type: 'button', class: 'resign', onclick: resign }, 'Resign');
  const undoButton = h('button', { type: 'button', class: 'undo', onclick: undo, title: 'keyboard: U', hidden: true }, 'Take back my last move');
  const panel = h('aside', { class: 'panel' },
    joinBox, banner, error, h('p', { class: 'undo-box' }, undoButton), actions, battle,
    h('details', { open: true }, h('summary', {}, 'Log'), log),
    h('details', {}, h('summary', {}, 'Messages'), chat, chatForm),
    h('details', {}, h('summary', {}, 'Tell me when it is my move'), notifyForm),
    h('details', {}, h('summary', {}, 'Fair dice'), dice),
    h('p', {}, resignButton));
  app.replaceChildren(status, h('div', { class: 'layout' }, h('div', { class: 'map-box' }, svg), panel), curtain);
  panZoom(svg);
  // Drag from a unit's hex to where it should go: the same as two clicks.
  let dragFrom = null;
  svg.addEventListener('pointerdown', (e) => {
    const from = e.target.closest && e.target.closest('g.hex:has(polygon.source)');
    dragFrom = from ? from.dataset.hex : null;
  });
  svg.addEventListener('pointerup', (e) => {
    const from = dragFrom;
    dragFrom = null;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const to = under && under.closest && under.closest('g.hex');
    if (!from || !to || to.dataset.hex === from || !state) return;
    selected = from;
    render();
    onHex(to.dataset.hex, currentEntries);
  });

  let state = null;
  // A Victory Lost's board and drawing; `null` for VIKTORY, whose views carry everything.
  let family = null;
  let currentEntries = [];
  // Every unit this page has seen, by id: {kind, owner}. Ids are never reused, so log
  // lines about a unit can name it ("Ann's cavalry #3") after it has left the map.
  const unitsSeen = new Map();
  // The battle dice of the current round, from the events: {seat, purpose, value}.
  let battleDice = [];
  let selected = null;
  let shownSeat = null; // the seat whose view is on screen (hot-seat)
  let busy = false;
  // A live update that arrived while a move was being sent: refresh once it is done.
  let missed = false;

  /** The token this browser uses now: the seat to move if it holds it, else its first. */
  function currentToken(toMove) {
    const mine = held();
    if (toMove !== undefined && toMove !== null && mine[toMove]) return [toMove, mine[toMove]];
    const first = Object.keys(mine)[0];
    return first === undefined ? [null, null] : [Number(first), mine[first]];
  }

  async function refresh() {
    try {
      const peek = await api.state(id, currentToken(null)[1]);
      const toMove = peek.to_move && peek.to_move.seat;
      const [seat, token] = currentToken(toMove);
      state = seat === peek.you ? peek : await api.state(id, token);
      if (state.game === 'avl' && !family) family = await avlFamily(api, id);
      if (Object.keys(held()).length > 1 && shownSeat !== null && state.you !== shownSeat && state.status !== 'over') {
        showCurtain(state.you);
      }
      shownSeat = state.you;
      render();
    } catch (e) {
      error.textContent = e.explain ? e.explain() : e.message;
    }
  }

  function showCurtain(seat) {
    curtain.hidden = false;
    curtain.replaceChildren(h('div', { class: 'curtain-card' },
      h('h2', {}, `Pass to ${state.seats[seat].name || seatName(seat)}`),
      h('p', {}, 'The other players should look away now.'),
      h('button', { class: 'primary', type: 'button', onclick: () => { curtain.hidden = true; } }, `I am ${state.seats[seat].name || seatName(seat)}: show my view`)));
    curtain.querySelector('button').focus();
  }

  /** "#3" in an engine text, named: "Ann's cavalry #3" (unless the text names the kind already). */
  function nameUnits(text) {
    const names = state ? state.seats.map((x) => x.name || seatName(x.seat)) : [];
    return (text || '').replace(/(?<!(?:infantry|cavalry|artillery|frigate) )#(\d+)/g, (m, n) => {
      const u = unitsSeen.get(Number(n));
      if (!u) return m;
      return u.owner !== undefined && names[u.owner] ? `${names[u.owner]}\u2019s ${u.kind} ${m}` : `${u.kind} ${m}`;
    });
  }

  function render() {
    const view = state.view;
    const position = view.position;
    const turn = position.turn;
    for (const u of position.units || []) unitsSeen.set(u.id, { kind: u.kind, owner: u.owner });
    const you = state.you;
    const names = state.seats.map((s) => s.name || seatName(s.seat));
    const toMove = state.to_move;
    let whose;
    if (toMove.over) {
      const winners = toMove.over.winners.map((w) => names[w]).join(' and ') || 'nobody';
      whose = `Game over (${toMove.over.reason}): ${winners} won`;
    } else if (state.result) {
      whose = `Game over (${state.result.reason}): ${state.result.winners.map((w) => names[w]).join(' and ')} won`;
    } else if (toMove.seat !== undefined) {
      whose = toMove.seat === you ? 'Your move' : `${names[toMove.seat]} to move`;
    } else {
      whose = 'Rolling\u2026';
    }
    status.dataset.version = String(state.version);
    const colorOf = (seat) => (family ? family.seatColor(seat) : seatColor(seat, you, view.colorblind));
    const youAre = you !== null ? h('span', {}, ` \u00b7 you are `, h('span', { class: 'swatch', style: `background:${colorOf(you)}` }), ` ${names[you]}`) : h('span', {}, ' \u00b7 watching');
    if (family) {
      const [where, scores] = family.status(state, names);
      status.replaceChildren(where, h('strong', {}, whose), youAre, h('span', {}, ' \u00b7 '), scores);
    } else {
      status.replaceChildren(
        h('span', {}, `${state.preset} \u00b7 turn ${turn.number} \u00b7 ${turn.stage.replaceAll('_', ' ')} phase \u00b7 `),
        h('strong', {}, whose),
        youAre,
        h('span', { class: 'scores' }, ' \u00b7 empire points: ', ...view.scores.map((score, i) => h('span', { class: 'score' },
          h('span', { class: 'swatch', style: `background:${colorOf(i)}` }), ` ${names[i]} ${score === null ? '?' : score} `))));
    }
    banner.textContent = toMove.over || state.result ? 'The game is over.' : toMove.seat === you ? 'Your move: choose an action on the map or below.' : '';
    banner.className = `banner${toMove.seat === you ? ' mine' : ''}`;
    dice.replaceChildren(
      h('span', {}, `The server committed to this game's dice seed before the first roll: SHA-256 ${state.seed_commitment}.`),
      state.seed ? h('span', {}, ` The seed was ${state.seed}; `, h('a', { href: `/api/games/${id}/record`, download: `hexwar-${id}.json` }, 'download the record'), ' and check it with hexwar verify.') : h('span', {}, ' The seed is revealed when the game ends.'));
    renderJoin();
    resignButton.hidden = you === null || Boolean(toMove.over || state.result) || state.seats[you].resigned;
    undoButton.hidden = !state.can_undo;
    if (family) battle.replaceChildren(...family.panel(state, names));
    else renderBattle(position, names);
    renderActions(view);
    const over = toMove.over || state.result;
    if (over) renderOver(names, over);
  }

  /** A player who opened an invite link gives their name, which claims the seat. */
  function renderJoin() {
    const you = state.you;
    if (you === null || state.seats[you].claimed) {
      joinBox.replaceChildren();
      return;
    }
    // Kept across re-renders: a live update must not wipe a name being typed.
    if (joinBox.querySelector('.join-form')) return;
    const name = h('input', { 'aria-label': 'your name', maxlength: 40, placeholder: 'your name', required: true });
    joinBox.replaceChildren(h('form', {
      class: 'join-form',
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api.join(id, currentToken(you)[1], name.value);
          await refresh();
        } catch (e) {
          error.textContent = e.explain ? e.explain() : e.message;
        }
      },
    }, h('strong', {}, `You hold ${seatName(you)}. `), name, ' ', h('button', { type: 'submit', class: 'primary' }, 'Join the game')));
  }

  async function resign() {
    if (!confirm('Resign? A bot will play your seat from now on (in a 2-player game, your opponent wins).')) return;
    try {
      await api.resign(id, currentToken(state.you)[1]);
      await refresh();
    } catch (e) {
      error.textContent = e.explain ? e.explain() : e.message;
    }
  }

  function renderOver(names, over) {
    const scores = (over.scores || state.view.scores || state.view.vp || []);
    actions.replaceChildren(h('div', { class: 'game-over' },
      h('h2', {}, 'Game over'),
      h('p', {}, `Won by ${over.winners.map((w) => names[w]).join(' and ') || 'nobody'} (${over.reason}).`),
      scores.length ? h('table', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Score')),
        scores.map((s, i) => h('tr', {}, h('td', {}, names[i]), h('td', {}, s === null ? '?' : String(s))))) : null,
      h('a', { class: 'button primary', href: `/replay/${id}` }, 'Replay this game'), ' ',
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
  }

  function renderBattle(position, names) {
    const b = position.battle;
    const advised = (state.advice && state.advice.battles) || [];
    if (!b) {
      // Before a battle starts: the odds of each one this seat may start.
      const coming = advised.filter((o) => !o.started);
      battle.replaceChildren(...(coming.length ? [h('div', { class: 'battle-box odds-box', role: 'region', 'aria-label': 'battle odds' },
        h('h3', {}, coming.length > 1 ? 'Battles you can start' : 'Battle you can start'),
        h('ul', {}, coming.map((o) => h('li', {}, h('strong', {}, `${key(o.hex)}: `), oddsText(o, names)))),
        h('p', { class: 'quiet' }, 'Exact odds if you fight to the end; casualties taken infantry first, then artillery, cavalry, frigates.'))] : []));
      return;
    }
    const started = advised.find((o) => o.started);
    const here = position.units.filter((u) => key(u.hex) === key(b.hex) && u.aboard === undefined);
    const marked = new Set(b.marked || []);
    // Each side's units; those already hit this round are struck through.
    const units = (seat) => {
      const mine = here.filter((u) => u.owner === seat);
      if (!mine.length) return [h('span', {}, 'no units')];
      return mine.map((u) => h(marked.has(u.id) ? 's' : 'span', { class: 'battle-unit', title: marked.has(u.id) ? 'hit this round' : '' }, `${u.kind} #${u.id}`));
    };
    const dice = (seat) => {
      const mine = battleDice.filter((d) => d.seat === seat);
      return mine.length ? h('span', { class: 'dice' }, mine.map((d) => h('span', { class: 'die', title: d.purpose.replaceAll('_', ' ') }, String(d.value)))) : h('span', { class: 'quiet' }, 'no dice yet');
    };
    const hits = (on, roller, owner) => {
      const t = (on && on.tactical) || 0;
      const r = (on && on.regular) || 0;
      if (!t && !r) return null;
      const parts = [];
      if (t) parts.push(`${t} chosen by ${names[roller]}`);
      if (r) parts.push(`${r} chosen by ${names[owner]}`);
      return h('p', { class: 'hits' }, `Hits on ${names[owner]} to take: ${parts.join(', ')}`);
    };
    const side = (seat, verb) => h('div', { class: 'battle-side' },
      h('p', {}, h('span', { class: 'swatch', style: `background:${seatColor(seat, state.you, state.view.colorblind)}` }), ' ', h('strong', {}, names[seat]), ` ${verb}: `, ...units(seat).flatMap((x) => [x, ' '])),
      h('p', {}, 'Dice this round: ', dice(seat)));
    battle.replaceChildren(h('div', { class: 'battle-box', role: 'region', 'aria-label': 'battle' },
      h('h3', {}, `Battle at ${key(b.hex)}${b.naval ? ' (naval)' : ''}, ${b.round ? `round ${b.round}` : 'pre-battle fire'}`),
      side(b.attacker, 'attacks'),
      side(b.defender, 'defends'),
      b.suppressed ? h('p', {}, `${names[b.defender]} loses ${b.suppressed} dice to suppression.`) : null,
      hits(b.defender_hits, b.attacker, b.defender),
      hits(b.attacker_hits, b.defender, b.attacker),
      started ? h('p', { class: 'odds' }, 'Odds from here: ', oddsText(started, names)) : null,
      h('p', { class: 'quiet' }, `Step: ${String(b.step).replaceAll('_', ' ')}`)));
  }

  function renderActions(view) {
    const legal = state.legal || [];
    const texts = state.legal_text || [];
    const unitsById = new Map((view.position.units || []).map((u) => [u.id, u.hex]));
    const advised = new Map(((state.advice && state.advice.battles) || []).filter((o) => !o.started).map((o) => [key(o.hex), o]));
    const withOdds = (action, text) => (action.type === 'fight' && advised.has(key(action.hex)) ? `${text} (wins ${pct(advised.get(key(action.hex)).attacker_wins)})` : text);
    const note = (action) => (family && family.note ? family.note(action, state) : '');
    const entries = legal.map((action, i) => ({ action, text: withOdds(action, nameUnits(texts[i])) + note(action), ...(family ? family.ends(action, state) : ends(action, unitsById)) }));
    currentEntries = entries;
    const sources = new Set();
    const targets = new Set();
    for (const e of entries) {
      if (selected) {
        if (e.src === selected && e.dst) targets.add(e.dst);
      } else if (e.src) {
        sources.add(e.src);
      } else if (e.dst) {
        targets.add(e.dst);
      }
    }
    if (family) family.draw(svg, state, { sources, targets, selected }, (k) => onHex(k, currentEntries));
    else drawBoard(svg, { ...view, board_side: view.board_side }, { sources, targets, selected }, (k) => onHex(k, entries));
    actions.replaceChildren();
    if (!legal.length) return;
    const shown = selected ? entries.filter((e) => e.src === selected) : entries;
    const general = entries.filter((e) => !e.src && !e.dst);
    const list = h('ul', { class: 'action-list' });
    for (const e of (selected ? shown : entries).slice(0, 400)) {
      list.append(h('li', {}, h('button', { type: 'button', onclick: () => act(e.action) }, e.text)));
    }
    if (selected) {
      actions.append(h('p', {}, `Selected ${family && family.hexLabel ? family.hexLabel(selected) : selected}. `, h('button', { type: 'button', onclick: () => { selected = null; render(); } }, 'Clear (Esc)')));
    }
    if (general.length) {
      actions.append(h('div', { class: 'general' }, general.map((e) => h('button', {
        type: 'button',
        class: PASSES.includes(typeOf(e.action)) ? 'primary' : '',
        onclick: () => act(e.action),
        title: PASSES.includes(typeOf(e.action)) ? 'keyboard: E' : undefined,
      }, e.text))));
    }
    actions.append(h('details', { open: legal.length <= 12 || selected !== null }, h('summary', {}, choices(selected ? shown.length : legal.length)), list));
  }

  function onHex(k, entries) {
    error.textContent = '';
    const chosen = entries.filter((e) => e.dst === k && (selected ? e.src === selected : !e.src));
    if (chosen.length === 1) {
      act(chosen[0].action);
      return;
    }
    if (chosen.length > 1) {
      actions.replaceChildren(h('p', {}, `Choose for ${family && family.hexLabel ? family.hexLabel(k) : k}:`), h('ul', { class: 'action-list chooser' },
        chosen.map((e) => h('li', {}, h('button', { type: 'button', onclick: () => act(e.action) }, e.text)))),
      h('button', { type: 'button', onclick: () => { selected = null; render(); } }, 'Cancel'));
      return;
    }
    if (entries.some((e) => e.src === k)) {
      selected = selected === k ? null : k;
      render();
    } else if (selected) {
      selected = null;
      render();
    }
  }

  async function act(action) {
    if (busy) return;
    busy = true;
    error.textContent = '';
    const [, token] = currentToken(state.you);
    try {
      await api.act(id, token, state.version, action);
      selected = null;
      await refresh();
    } catch (e) {
      error.textContent = `Refused: ${e.explain ? e.explain() : e.message}`;
      await refresh();
    } finally {
      busy = false;
      if (missed) { missed = false; refresh(); }
    }
  }

  /** Takes back this seat's last move (the server says when that is allowed). */
  async function undo() {
    if (busy || !state || !state.can_undo) return;
    busy = true;
    error.textContent = '';
    try {
      await api.undo(id, currentToken(state.you)[1], state.version);
      selected = null;
    } catch (e) {
      error.textContent = `Refused: ${e.explain ? e.explain() : e.message}`;
    } finally {
      busy = false;
      if (missed) { missed = false; refresh(); }
      await refresh();
    }
  }

  async function sendMessage(event) {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    try {
      await api.say(id, currentToken(state && state.you)[1], text);
      chatInput.value = '';
    } catch (e) {
      error.textContent = e.explain ? e.explain() : e.message;
    }
  }

  function notificationForm() {
    const email = h('input', { type: 'email', 'aria-label': 'e-mail address', placeholder: 'e-mail' });
    const webhook = h('input', { type: 'url', 'aria-label': 'webhook URL', placeholder: 'https://\u2026 webhook' });
    const done = h('span', { class: 'quiet' });
    return h('form', {
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api.notify(id, currentToken(state && state.you)[1], email.value || null, webhook.value || null);
          done.textContent = ' Saved.';
        } catch (e) {
          done.textContent = ` ${e.explain ? e.explain() : e.message}`;
        }
      },
    }, email, ' ', webhook, ' ', h('button', { type: 'submit' }, 'Save'), done);
  }

  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'Escape' && selected) {
      selected = null;
      render();
    }
    if ((e.key === 'u' || e.key === 'U') && state && state.can_undo) undo();
    if ((e.key === 'e' || e.key === 'E') && state && state.legal) {
      const end = PASSES.map((type) => state.legal.find((a) => typeOf(a) === type)).find(Boolean);
      if (end) act(end);
    }
  });

  await refresh();
  if (!state) return;
  // The log from the start, then live.
  const [, token] = currentToken(null);
  // The engine says "Seat 2"; the table knows names.
  const withNames = (text) => nameUnits(text).replace(/\bSeat (\d+)\b/g, (m, n) => {
    const seat = state.seats[Number(n) - 1];
    return seat && seat.name ? seat.name : m;
  });
  live(id, token, 0, (message) => {
    if (message.type === 'actions') {
      for (const step of message.steps) {
        if (step.undo) {
          // The move at step.index was taken back: its lines leave the log.
          for (const li of log.querySelectorAll(`li[data-index="${step.index}"]`)) li.remove();
          const who = step.by.seat !== undefined ? (state.seats[step.by.seat].name || seatName(step.by.seat)) : 'Someone';
          log.prepend(h('li', { class: 'quiet' }, `${who} took back a move`));
          continue;
        }
        for (const e of step.events) {
          if (e.unit !== undefined && e.kind && e.seat !== undefined) unitsSeen.set(e.unit, { kind: e.kind, owner: e.seat });
        }
        for (const text of step.text) log.prepend(h('li', { 'data-index': String(step.index), 'data-raw': text }, withNames(text)));
        for (const e of step.events) {
          if (e.type === 'battle_started' || e.type === 'round_started') battleDice = [];
          else if (e.type === 'die_rolled' && e.purpose !== 'doomsday' && e.purpose !== 'bombard') battleDice.push(e);
        }
      }
      if (busy) missed = true; else refresh();
    } else if (message.type === 'seats') {
      // A player joined or left: the log's lines name them anew.
      refresh().then(() => {
        for (const li of log.querySelectorAll('li[data-raw]')) li.textContent = withNames(li.dataset.raw);
      });
    } else if (message.type === 'message') {
      const m = message.message;
      const name = state.seats[m.seat] && (state.seats[m.seat].name || seatName(m.seat));
      chat.append(h('li', {}, h('strong', {}, `${name}: `), m.body));
    }
  });
  try {
    for (const m of (await api.messages(id)).messages) {
      chat.append(h('li', {}, h('strong', {}, `${state.seats[m.seat].name || seatName(m.seat)}: `), m.body));
    }
  } catch {
    // Messages are a convenience; the game goes on without them.
  }
}
