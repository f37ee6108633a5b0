// A game page: the board, whose turn it is, the legal actions the server offers (on
// the board and as a list), the reserve tray, battles, the log, a review of what
// happened since your last turn, messages, notifications and fair dice.
//
// What is on screen is always one audience's: the seat at the screen (or a
// spectator). Each audience has its own model (feed.js), fed by its own live stream,
// and its own log, battles and units seen. In hot-seat play, each seat's panels come
// from its own feed only, behind a "pass to the next player" screen.

import { api, live, seats } from './api.js';
import { avlFamily, trackCombat } from './avl.js';
import { battleList, currentDice, trackBattle } from './battles.js';
import { displayControls, drawBoard, highlight, key, legend, markRecent, panZoom, seatColor, zoomControls } from './board.js';
import { h, seatName } from './dom.js';
import { Feed } from './feed.js';

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

/** What the odds the server gives assume (docs/odds.md, "Policies"). */
const ODDS_POLICY = 'Odds if the attacker fights to the end, each 1 taking the unit whose loss costs the other side most dice, other hits taken by their owner infantry first, then artillery, cavalry, frigates.';

/** The actions that end a phase or segment: the E key plays the first one offered. */
const PASSES = ['end_phase', 'end_movement', 'end_advance', 'end_combat'];

/** Unit kinds in the order of the reserve tray. */
const KINDS = ['infantry', 'cavalry', 'artillery', 'frigate'];

/** Over this many choices the list gets a filter box. */
const FILTER_FROM = 30;

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
  return { src, dst };
}

/** The page's icon: plain, or marked while it is this browser's move. */
function setIcon(mine) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  const href = mine ? '/icon-move.svg' : '/icon.svg';
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
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
  // Whether this server sends e-mail (the notification form says so when it does not).
  let emailOn = true;
  api.catalog().then((c) => {
    emailOn = c.email !== false;
    renderNotify();
  }, () => {});

  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'map');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'the map');
  const title = h('h1', { class: 'game-title' }, 'Game');
  const status = h('div', { class: 'status', role: 'status' });
  const banner = h('div', { class: 'banner' });
  const review = h('div', { class: 'review' });
  const tray = h('div', { class: 'tray' });
  const actions = h('div', { class: 'actions', role: 'group', 'aria-label': 'legal actions' });
  const battle = h('div', { class: 'battle' });
  const battles = h('div', { class: 'battles' });
  const error = h('p', { class: 'error', role: 'alert' });
  const logBox = h('div', { class: 'log-box' });
  const chat = h('ul', { class: 'chat', 'aria-live': 'polite' });
  const chatInput = h('input', { 'aria-label': 'message to the table', maxlength: 2000, placeholder: 'message' });
  const chatForm = h('form', { class: 'chat-form', onsubmit: sendMessage }, chatInput, ' ', h('button', { type: 'submit' }, 'Send'));
  const dice = h('p', { class: 'commitment' });
  const notifyBox = h('div', { class: 'notify' });
  const curtain = h('div', { class: 'curtain', hidden: true });
  const joinBox = h('div', { class: 'join' });
  const resignButton = h('button', { type: 'button', class: 'resign', onclick: resign }, 'Resign');
  const undoButton = h('button', { type: 'button', class: 'undo', onclick: undo, title: 'keyboard: U', hidden: true }, 'Take back my last move');
  // The map's key and the personal display settings (VIKTORY's board; A Victory Lost
  // draws its own).
  const legendBox = h('div', { class: 'legend-box' });
  const displayBox = h('div', { class: 'display-box' });
  const drawerToggle = h('button', { type: 'button', class: 'drawer-toggle', 'aria-expanded': 'true', onclick: () => toggleDrawer() }, 'Actions');
  const panel = h('aside', { class: 'panel', id: 'panel' },
    joinBox, banner, error, review, h('p', { class: 'undo-box' }, undoButton), tray, actions, battle, battles,
    h('details', { open: true, class: 'log-details' }, h('summary', {}, 'Log'), logBox),
    h('details', {}, h('summary', {}, 'Messages'), chat, chatForm),
    h('details', {}, h('summary', {}, 'Tell me when it is my move'), notifyBox),
    h('details', {}, h('summary', {}, 'Fair dice'), dice),
    legendBox,
    h('details', {}, h('summary', {}, 'Display'), displayBox),
    h('p', {}, resignButton));
  drawerToggle.setAttribute('aria-controls', 'panel');
  const mapBox = h('div', { class: 'map-box' }, svg);
  // Everything but the hot-seat curtain: inert while the curtain is up.
  const table = h('div', { class: 'table' }, title, status, drawerToggle, h('div', { class: 'layout' }, mapBox, panel));
  app.replaceChildren(table, curtain);
  panZoom(svg);
  mapBox.append(zoomControls(svg));

  /** On a phone the panel is a drawer over the bottom of the map. */
  function toggleDrawer(open) {
    const now = open === undefined ? panel.classList.contains('closed') : open;
    panel.classList.toggle('closed', !now);
    drawerToggle.setAttribute('aria-expanded', String(now));
    if (screen && screen.feed.state) render();
  }

  // Drag from a unit's hex (or a reserve counter) to where it should go: the same as
  // two clicks.
  let dragFrom = null;
  svg.addEventListener('pointerdown', (e) => {
    const from = e.target.closest && e.target.closest('g.hex:has(polygon.source)');
    dragFrom = from ? from.dataset.hex : null;
  });
  document.addEventListener('pointerup', (e) => {
    const from = dragFrom;
    dragFrom = null;
    if (!from || !screen || !screen.feed.state || ui.reviewing) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const to = under && under.closest && under.closest('g.hex');
    if (!to || to.dataset.hex === from) return;
    if (from.startsWith('tray:')) {
      ui.placing = from.slice(5);
      ui.selected = null;
    } else {
      ui.selected = from;
      ui.placing = null;
    }
    render();
    onHex(to.dataset.hex, currentEntries);
  });

  // A Victory Lost's board and drawing; `null` for VIKTORY, whose views carry everything.
  let family = null;
  let currentEntries = [];
  /** What the person at the screen is doing: a selected hex, a reserve kind being
   *  placed, a filter on the choices, the review of past moves. */
  const ui = { selected: null, placing: null, filter: '', reviewing: null };
  let busy = false;

  /** Each audience this page has shown, by seat (`'watch'` for a spectator). */
  const audiences = new Map();
  /** The audience on screen. */
  let screen = null;

  function audience(seat, token) {
    const name = seat === null ? 'watch' : String(seat);
    if (audiences.has(name)) return audiences.get(name);
    const a = {
      seat,
      token,
      // Focusable, so that the keyboard can scroll it.
      log: h('ul', { class: 'log', 'aria-live': 'polite', 'aria-label': 'what happened, newest first', tabindex: '0' }),
      // Every unit this audience has seen, by id: {kind, owner}. Ids are never reused,
      // so log lines can name a unit ("Ann's cavalry #3") after it has left the map.
      unitsSeen: new Map(),
      /** Every battle this audience heard of: {hex, attacker, defender, rounds, lost, winner}. */
      battles: [],
      /** Where each of this seat's own turns started in `battles` and `others`. */
      turnMarks: [],
      /** Steps by other seats since this seat last acted: the review's material. */
      others: [],
      othersDone: false,
      stop: null,
    };
    a.feed = new Feed({
      fetchState: () => api.state(id, token),
      fetchSteps: (since) => api.steps(id, token, since),
      onSteps: (steps) => heard(a, steps),
      onChange: () => { if (a === screen) changed(); },
      onError: (e) => { if (a === screen) error.textContent = e.explain ? e.explain() : e.message; },
    });
    audiences.set(name, a);
    return a;
  }

  /** Puts audience `a` on screen (its live stream open, the others' closed). */
  function show(a) {
    if (screen === a) return;
    if (screen && screen.stop) {
      screen.stop();
      screen.stop = null;
    }
    screen = a;
    ui.selected = null;
    ui.placing = null;
    ui.reviewing = null;
    ui.filter = '';
    // Nothing of the seat shown before stays on screen: its board and panels are
    // cleared until this audience's own state is drawn.
    svg.replaceChildren();
    for (const box of [banner, review, tray, actions, battle, battles, joinBox, status]) box.replaceChildren();
    error.textContent = '';
    keyFor = '';
    renderNotify();
    logBox.replaceChildren(a.log);
    a.feed.connecting();
    a.stop = live(id, a.token, a.feed.logVersion, (m) => onLive(a, m));
    a.feed.resync();
  }

  function onLive(a, message) {
    if (message.type === 'actions') {
      a.feed.live(message);
    } else if (message.type === 'hello') {
      // Everything up to `version` was sent before this: a gap check, and the state.
      a.feed.hello(message.version);
    } else if (message.type === 'seats') {
      a.feed.resync();
    } else if (message.type === 'message') {
      addMessage(message.message);
    }
  }

  /** The names of the seats, from the newest state on screen. */
  const names = () => (screen && screen.feed.state ? screen.feed.state.seats.map((s) => s.name || seatName(s.seat)) : []);

  /** "#3" in an engine text, named: "Ann's cavalry #3" (unless the text names the kind already). */
  function nameUnits(text, a = screen) {
    const n = names();
    return (text || '').replace(/(?<!(?:infantry|cavalry|artillery|frigate) )#(\d+)/g, (m, num) => {
      const u = a.unitsSeen.get(Number(num));
      if (!u) return m;
      return u.owner !== undefined && n[u.owner] ? `${n[u.owner]}\u2019s ${u.kind} ${m}` : `${u.kind} ${m}`;
    });
  }

  /** The engine says "Seat 2"; the table knows names. */
  function withNames(text, a = screen) {
    const n = names();
    return nameUnits(text, a).replace(/\bSeat (\d+)\b/g, (m, num) => n[Number(num) - 1] || m);
  }

  /** New steps of audience `a`, in order: its log, units seen, battles and review. */
  function heard(a, steps) {
    for (const step of steps) {
      if (step.undo) {
        // The move at step.index was taken back: its lines leave the log.
        for (const li of a.log.querySelectorAll(`li[data-index="${step.index}"]`)) li.remove();
        a.others = a.others.filter((s) => s.index !== step.index);
        const who = step.by && step.by.seat !== undefined ? (names()[step.by.seat] || seatName(step.by.seat)) : 'Someone';
        a.log.prepend(h('li', { class: 'quiet' }, `${who} took back a move`));
        continue;
      }
      for (const e of step.events) {
        if (e.type === 'unit_placed' || (e.unit !== undefined && e.kind && e.seat !== undefined)) a.unitsSeen.set(e.unit, { kind: e.kind, owner: e.seat });
        if (e.type === 'turn_started' && a.seat !== null && e.seat === a.seat) {
          a.turnMarks.push({ battles: a.battles.length });
        }
        trackBattle(a.battles, e);
        trackCombat(a, e);
      }
      // The others' steps since this seat last acted stay for the review until
      // another seat acts after it. Chance after the seat's own step (a tile its
      // explorer turned up, its battle's dice) is its own turn going on: it neither
      // joins the review nor ends it.
      const by = step.by && step.by.seat;
      if (a.seat !== null && by === a.seat) {
        a.othersDone = true;
      } else if (step.text.length && !(a.othersDone && by === undefined)) {
        if (a.othersDone) a.others = [];
        a.othersDone = false;
        a.others.push(step);
      }
      for (const text of step.text) a.log.prepend(h('li', { 'data-index': String(step.index), 'data-raw': text }, withNames(text, a)));
    }
  }

  /** The seat whose model is on screen: the held seat to move, else the one shown. */
  function wanted(state) {
    const mine = held();
    const toMove = state.to_move && state.to_move.seat;
    // A seat that resigned is played by a bot: nobody is passed the screen for it.
    const resigned = toMove !== undefined && toMove !== null && state.seats[toMove] && state.seats[toMove].resigned;
    if (toMove !== undefined && toMove !== null && mine[toMove] && !resigned && !state.to_move.over) return [toMove, mine[toMove]];
    return null;
  }

  /** The model on screen changed: switch seats if the move passed to another held
   *  one (hot-seat), then draw. */
  function changed() {
    const state = screen.feed.state;
    if (!state) return;
    const next = wanted(state);
    if (next && next[0] !== screen.seat) {
      const first = !screen.shown;
      show(audience(next[0], next[1]));
      if (!first) showCurtain(next[0]);
      return;
    }
    screen.shown = true;
    render();
  }

  /** Hides the table from the seat that moved; its button shows the next seat's view
   *  once that view is drawn. Keys and focus stay off the table meanwhile. */
  function showCurtain(seat) {
    const name = names()[seat] || seatName(seat);
    curtain.hidden = false;
    table.inert = true;
    const button = h('button', { class: 'primary', type: 'button', disabled: true, onclick: () => {
      curtain.hidden = true;
      table.inert = false;
    } }, `Loading ${name}’s view…`);
    button.dataset.name = name;
    curtain.replaceChildren(h('div', { class: 'curtain-card' },
      h('h2', {}, `Pass to ${name}`),
      h('p', {}, 'The other players should look away now.'),
      button));
    curtain.querySelector('h2').setAttribute('tabindex', '-1');
    curtain.querySelector('h2').focus();
  }

  /** The curtain's button, once the seat behind it has its view drawn. */
  function readyCurtain() {
    const button = curtain.querySelector('button[disabled]');
    if (curtain.hidden || !button) return;
    button.disabled = false;
    button.textContent = `I am ${button.dataset.name}: show my view`;
    button.focus();
  }

  function render() {
    const state = screen.feed.state;
    if (!state) return;
    if (state.game === 'avl' && !family) {
      avlFamily(api, id).then((f) => {
        family = f;
        family.connect({ act, render });
        render();
      }, (e) => { error.textContent = e.message; });
      return;
    }
    const view = state.view;
    const position = view.position;
    for (const u of position.units || []) screen.unitsSeen.set(u.id, { kind: u.kind, owner: u.owner });
    const you = state.you;
    const seatNames = names();
    // Lines heard before the names were known (or before a player joined) are named anew.
    const named = JSON.stringify(seatNames);
    if (screen.named !== named) {
      screen.named = named;
      for (const li of screen.log.querySelectorAll('li[data-raw]')) li.textContent = withNames(li.dataset.raw);
    }
    const toMove = state.to_move;
    const over = toMove.over || state.result;
    const mine = !over && toMove.seat === you && you !== null;
    let whose;
    if (toMove.over) {
      const winners = toMove.over.winners.map((w) => seatNames[w]).join(' and ') || 'nobody';
      whose = `Game over (${toMove.over.reason}): ${winners} won`;
    } else if (state.result) {
      whose = `Game over (${state.result.reason}): ${state.result.winners.map((w) => seatNames[w]).join(' and ')} won`;
    } else if (toMove.seat !== undefined) {
      whose = mine ? 'Your move' : `${seatNames[toMove.seat]} to move`;
    } else {
      whose = 'Rolling\u2026';
    }
    document.title = `${mine ? '\u25cf Your move \u00b7 ' : ''}${family ? 'A Victory Lost' : 'VIKTORY II'} \u00b7 hexwar`;
    setIcon(mine);
    if (mine) notifyBrowser();
    title.textContent = family ? `A Victory Lost \u00b7 game ${id}` : `VIKTORY II \u00b7 ${state.preset} \u00b7 game ${id}`;
    status.dataset.version = String(state.version);
    const colorOf = (seat) => (family ? family.seatColor(seat) : seatColor(seat, you, view.colorblind));
    const youAre = you !== null ? h('span', {}, ` \u00b7 you are `, h('span', { class: 'swatch', style: `background:${colorOf(you)}` }), ` ${seatNames[you]}`) : h('span', {}, ' \u00b7 watching');
    if (family) {
      const [where, scores] = family.status(state, seatNames);
      status.replaceChildren(where, h('strong', {}, whose), youAre, h('span', {}, ' \u00b7 '), scores);
    } else {
      const turn = position.turn;
      status.replaceChildren(
        h('span', {}, `turn ${turn.number} \u00b7 ${turn.stage.replaceAll('_', ' ')} phase \u00b7 `),
        h('strong', {}, whose),
        youAre,
        h('span', { class: 'scores' }, ' \u00b7 empire points: ', ...view.scores.map((score, i) => h('span', { class: 'score' },
          h('span', { class: 'swatch', style: `background:${colorOf(i)}` }), ` ${seatNames[i]} ${score === null ? '?' : score} `))));
    }
    banner.textContent = over ? 'The game is over.' : mine ? 'Your move: choose an action on the map or below.' : '';
    banner.className = `banner${mine ? ' mine' : ''}`;
    const count = (state.legal || []).length;
    drawerToggle.textContent = `${mine ? `Your move: ${count} choice${count === 1 ? '' : 's'}` : whose} · ${panel.classList.contains('closed') ? 'show' : 'hide'} the panel`;
    dice.replaceChildren(
      h('span', {}, `The server committed to this game's dice seed before the first roll: SHA-256 ${state.seed_commitment}.`),
      state.seed ? h('span', {}, ` The seed was ${state.seed}; `, h('a', { href: `/api/games/${id}/record`, download: `hexwar-${id}.json` }, 'download the record'), ' and check it with hexwar verify.') : h('span', {}, ' The seed is revealed when the game ends.'));
    renderJoin();
    resignButton.hidden = you === null || Boolean(over) || state.seats[you].resigned;
    undoButton.hidden = !state.can_undo;
    if (family) battle.replaceChildren(...family.panel(state, seatNames, screen));
    else renderBattle(position, seatNames);
    renderBattles(seatNames);
    if (!family) renderKey(seatNames, view);
    renderReview(mine);
    renderTray(view, mine, Boolean(over));
    if (!ui.reviewing) {
      renderActions(view);
      if (over) renderOver(seatNames, over);
    }
    readyCurtain();
  }

  /** A player who opened an invite link gives their name, which claims the seat. */
  function renderJoin() {
    const state = screen.feed.state;
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
          await api.join(id, screen.token, name.value);
          screen.feed.resync();
        } catch (e) {
          error.textContent = e.explain ? e.explain() : e.message;
        }
      },
    }, h('strong', {}, `You hold ${seatName(you)}. `), name, ' ', h('button', { type: 'submit', class: 'primary' }, 'Join the game')));
  }

  async function resign() {
    if (!confirm('Resign? A bot will play your seat from now on (in a 2-player game, your opponent wins).')) return;
    try {
      await screen.feed.send(() => api.resign(id, screen.token));
    } catch (e) {
      error.textContent = e.explain ? e.explain() : e.message;
    }
  }

  function renderOver(seatNames, over) {
    const state = screen.feed.state;
    const scores = (over.scores || state.view.scores || state.view.vp || []);
    actions.replaceChildren(h('div', { class: 'game-over' },
      h('h2', {}, 'Game over'),
      h('p', {}, `Won by ${over.winners.map((w) => seatNames[w]).join(' and ') || 'nobody'} (${over.reason}).`),
      scores.length ? h('table', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Score')),
        scores.map((s, i) => h('tr', {}, h('td', {}, seatNames[i]), h('td', {}, s === null ? '?' : String(s))))) : null,
      h('a', { class: 'button primary', href: `/replay/${id}` }, 'Replay this game'), ' ',
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
  }

  function renderBattle(position, seatNames) {
    const state = screen.feed.state;
    const b = position.battle;
    const advised = (state.advice && state.advice.battles) || [];
    if (!b) {
      // Before a battle starts: the odds of each one this seat may start.
      const coming = advised.filter((o) => !o.started);
      battle.replaceChildren(...(coming.length ? [h('div', { class: 'battle-box odds-box', role: 'region', 'aria-label': 'battle odds' },
        h('h3', {}, coming.length > 1 ? 'Battles you can start' : 'Battle you can start'),
        h('ul', {}, coming.map((o) => h('li', {}, h('strong', {}, `${key(o.hex)}: `), oddsText(o, seatNames)))),
        h('p', { class: 'quiet' }, ODDS_POLICY))] : []));
      return;
    }
    const started = advised.find((o) => o.started);
    const here = position.units.filter((u) => key(u.hex) === key(b.hex) && u.aboard === undefined);
    const marked = new Set(b.marked || []);
    const roundDice = currentDice(screen.battles);
    // Each side's units; those already hit this round are struck through.
    const units = (seat) => {
      const theirs = here.filter((u) => u.owner === seat);
      if (!theirs.length) return [h('span', {}, 'no units')];
      return theirs.map((u) => h(marked.has(u.id) ? 's' : 'span', { class: 'battle-unit', title: marked.has(u.id) ? 'hit this round' : '' }, `${u.kind} #${u.id}`));
    };
    const diceOf = (seat) => {
      const rolled = roundDice.filter((d) => d.seat === seat);
      return rolled.length ? h('span', { class: 'dice' }, rolled.map((d) => h('span', { class: 'die', title: d.purpose.replaceAll('_', ' ') }, String(d.value)))) : h('span', { class: 'quiet' }, 'no dice yet');
    };
    const hits = (on, roller, owner) => {
      const t = (on && on.tactical) || 0;
      const r = (on && on.regular) || 0;
      if (!t && !r) return null;
      const parts = [];
      if (t) parts.push(`${t} chosen by ${seatNames[roller]}`);
      if (r) parts.push(`${r} chosen by ${seatNames[owner]}`);
      return h('p', { class: 'hits' }, `Hits on ${seatNames[owner]} to take: ${parts.join(', ')}`);
    };
    const side = (seat, verb) => h('div', { class: 'battle-side' },
      h('p', {}, h('span', { class: 'swatch', style: `background:${seatColor(seat, state.you, state.view.colorblind)}` }), ' ', h('strong', {}, seatNames[seat]), ` ${verb}: `, ...units(seat).flatMap((x) => [x, ' '])),
      h('p', {}, 'Dice this round: ', diceOf(seat)));
    battle.replaceChildren(h('div', { class: 'battle-box', role: 'region', 'aria-label': 'battle' },
      h('h3', {}, `Battle at ${key(b.hex)}${b.naval ? ' (naval)' : ''}, ${b.round ? `round ${b.round}` : 'pre-battle fire'}`),
      side(b.attacker, 'attacks'),
      side(b.defender, 'defends'),
      b.suppressed ? h('p', {}, `${seatNames[b.defender]} loses ${b.suppressed} dice to suppression.`) : null,
      hits(b.defender_hits, b.attacker, b.defender),
      hits(b.attacker_hits, b.defender, b.attacker),
      started ? h('p', { class: 'odds' }, 'Odds from here: ', oddsText(started, seatNames)) : null,
      started ? h('p', { class: 'quiet' }, ODDS_POLICY) : null,
      h('p', { class: 'quiet' }, `Step: ${String(b.step).replaceAll('_', ' ')}`)));
  }

  /** The map's key with the players' colours and shapes, and the display settings. */
  let keyFor = '';
  function renderKey(seatNames, view) {
    const wantedKey = JSON.stringify([seatNames, screen.seat, view.colorblind]);
    if (wantedKey === keyFor) return;
    keyFor = wantedKey;
    const mapKey = legend({ seats: seatNames.map((name) => ({ name })), viewer: screen.seat, colorblind: view.colorblind });
    // Folded until asked for, keeping its state across redraws.
    const was = legendBox.querySelector('details');
    mapKey.open = Boolean(was && was.open);
    legendBox.replaceChildren(mapKey);
    if (!displayBox.firstChild) displayBox.append(displayControls(() => { keyFor = ''; render(); }));
  }

  /** The other players' moves in `steps` (by default, those since this seat last
   *  acted), to mark on the map. */
  function recentMoves(steps = screen.others) {
    const moves = [];
    for (const step of steps) {
      const by = step.by && step.by.seat;
      for (const e of step.events) {
        const owner = e.seat !== undefined ? e.seat : (screen.unitsSeen.get(e.unit) || {}).owner;
        const seat = owner !== undefined ? owner : by;
        if (seat === undefined || seat === screen.seat) continue;
        if (e.type === 'moved' || e.type === 'disembarked') moves.push({ from: key(e.from), to: key(e.to), seat });
        else if (e.type === 'unit_placed' || e.type === 'town_built' || e.type === 'city_built' || e.type === 'capital_founded') moves.push({ from: null, to: key(e.hex), seat });
        else if (e.type === 'captured') moves.push({ from: null, to: key(e.hex), seat: e.to });
      }
    }
    return moves;
  }

  /** Every battle since this seat's previous turn began (a spectator: the last 8),
   *  including those over in one round and those fought against it. */
  function renderBattles(seatNames) {
    const a = screen;
    const marks = a.turnMarks;
    const from = a.seat === null ? Math.max(0, a.battles.length - 8) : marks.length >= 2 ? marks[marks.length - 2].battles : 0;
    const recent = a.battles.slice(from);
    if (!recent.length) {
      battles.replaceChildren();
      return;
    }
    const title = a.seat === null ? 'Recent battles' : 'Battles since your last turn';
    battles.replaceChildren(battleList(recent, (seat) => seatNames[seat] || seatName(seat), title));
  }

  /** The reserve of the seat at the screen, as counters to place (one click, then a
   *  hex; or a drag onto the hex). */
  function renderTray(view, mine, over) {
    if (family || over || ui.reviewing || !view.position.players || screen.seat === null) {
      tray.replaceChildren();
      return;
    }
    const reserve = (view.position.players[screen.seat] || {}).reserve || {};
    const kinds = KINDS.filter((k) => reserve[k] > 0);
    if (!kinds.length) {
      tray.replaceChildren();
      return;
    }
    const placeable = new Set((screen.feed.state.legal || []).filter((a) => typeOf(a) === 'place').map((a) => a.kind));
    const color = seatColor(screen.seat, screen.seat, view.colorblind);
    tray.replaceChildren(h('div', { class: 'tray-box', role: 'region', 'aria-label': 'your reserve' },
      h('h3', {}, 'Your reserve'),
      h('div', { class: 'tray-units' }, kinds.map((k) => {
        const can = mine && placeable.has(k);
        const button = h('button', {
          type: 'button',
          class: `tray-unit${ui.placing === k ? ' chosen' : ''}`,
          disabled: !can,
          'aria-pressed': String(ui.placing === k),
          title: can ? `place a ${k}: click, then a highlighted hex (or drag it there)` : `${k} waiting in the reserve`,
          onclick: () => {
            ui.placing = ui.placing === k ? null : k;
            ui.selected = null;
            render();
          },
        }, h('span', { class: 'swatch', style: `background:${color}` }), ` ${reserve[k]} \u00d7 ${k}`);
        button.addEventListener('pointerdown', () => { if (can) dragFrom = `tray:${k}`; });
        return button;
      })),
      ui.placing ? h('p', { class: 'quiet' }, `Placing ${ui.placing}: choose a highlighted hex. `, h('button', { type: 'button', onclick: () => { ui.placing = null; render(); } }, 'Cancel (Esc)')) : null));
  }

  /** "Since your last turn": the other players' steps, one at a time on the map as it
   *  was after each, then the board. */
  function renderReview(mine) {
    const steps = screen.others;
    if (ui.reviewing) {
      const at = ui.reviewing.at;
      const step = steps[at];
      if (!step) {
        ui.reviewing = null;
        return;
      }
      const rolled = step.events.filter((e) => e.type === 'die_rolled');
      review.replaceChildren(h('div', { class: 'review-box', role: 'region', 'aria-label': 'since your last turn' },
        h('h3', {}, `Since your last turn: ${at + 1} of ${steps.length}`),
        h('ul', {}, step.text.map((t) => h('li', {}, withNames(t)))),
        rolled.length ? h('p', {}, 'Dice: ', h('span', { class: 'dice' }, rolled.map((d) => h('span', { class: 'die', title: `${names()[d.seat] || seatName(d.seat)}, ${d.purpose.replaceAll('_', ' ')}` }, String(d.value))))) : null,
        h('p', { class: 'review-nav' },
          h('button', { type: 'button', disabled: at === 0, onclick: () => reviewTo(at - 1) }, '\u25c0 Back'), ' ',
          h('button', { type: 'button', class: 'primary', onclick: () => (at + 1 < steps.length ? reviewTo(at + 1) : endReview()) }, at + 1 < steps.length ? 'Next \u25b6' : 'To the board'), ' ',
          h('button', { type: 'button', onclick: endReview }, 'Skip to the board'))));
      actions.replaceChildren();
      return;
    }
    const worth = steps.filter((s) => s.by && s.by.seat !== undefined);
    review.replaceChildren(...(mine && worth.length && screen.seat !== null ? [h('p', { class: 'review-offer' },
      h('button', { type: 'button', onclick: () => reviewTo(0) }, `Review the ${steps.length} step${steps.length === 1 ? '' : 's'} since your last turn`))] : []));
  }

  async function reviewTo(at) {
    const step = screen.others[at];
    if (!step) return;
    ui.reviewing = { at };
    try {
      // The board as this seat saw it just after the step.
      const then = await api.at(id, step.index + 1, screen.token);
      if (!ui.reviewing || ui.reviewing.at !== at) return;
      const moved = new Set();
      for (const e of step.events) {
        for (const f of ['from', 'to', 'hex']) if (Array.isArray(e[f])) moved.add(key(e[f]));
      }
      if (family) family.draw(svg, then, { sources: new Set(), targets: new Set(), selected: null }, () => {});
      else {
        drawBoard(svg, then.view, { sources: new Set(), targets: moved, selected: null }, () => {}, names());
        markRecent(svg, recentMoves([step]));
      }
    } catch (e) {
      error.textContent = e.explain ? e.explain() : e.message;
    }
    render();
  }

  function endReview() {
    ui.reviewing = null;
    screen.others = [];
    screen.othersDone = false;
    render();
  }

  function renderActions(view) {
    const state = screen.feed.state;
    const legal = state.legal || [];
    const texts = state.legal_text || [];
    const unitsById = new Map((view.position.units || []).map((u) => [u.id, u.hex]));
    const advised = new Map(((state.advice && state.advice.battles) || []).filter((o) => !o.started).map((o) => [key(o.hex), o]));
    const withOdds = (action, text) => (action.type === 'fight' && advised.has(key(action.hex)) ? `${text} (wins ${pct(advised.get(key(action.hex)).attacker_wins)})` : text);
    const note = (action) => (family && family.note ? family.note(action, state) : '');
    let entries = legal.map((action, i) => ({ action, text: withOdds(action, nameUnits(texts[i])) + note(action), ...(family ? family.ends(action, state) : ends(action, unitsById)) }));
    // Placing from the tray: the places of that kind, their target hexes on the map.
    if (ui.placing) {
      entries = entries.filter((e) => typeOf(e.action) === 'place' && e.action.kind === ui.placing).map((e) => ({ ...e, src: null }));
      if (!entries.length) ui.placing = null;
    }
    currentEntries = entries;
    const sources = new Set();
    const targets = new Set();
    for (const e of entries) {
      if (ui.selected) {
        if (e.src === ui.selected && e.dst) targets.add(e.dst);
      } else if (e.src) {
        sources.add(e.src);
      } else if (e.dst) {
        targets.add(e.dst);
      }
    }
    const marks = { sources, targets, selected: ui.selected };
    if (family) family.draw(svg, state, marks, (k) => onHex(k, currentEntries));
    else {
      drawBoard(svg, { ...view, board_side: view.board_side }, marks, (k) => onHex(k, currentEntries), names());
      markRecent(svg, screen.seat === null ? [] : recentMoves());
      highlight(svg, []);
    }
    actions.replaceChildren();
    if (!legal.length) return;
    const shown = ui.selected ? entries.filter((e) => e.src === ui.selected) : entries;
    const general = ui.placing ? [] : entries.filter((e) => !e.src && !e.dst);
    const list = h('ul', { class: 'action-list' });
    // A Victory Lost lists each choice once: a button above, or a line in the list.
    const listed = family ? shown.filter((e) => !general.includes(e)) : shown;
    const fill = () => {
      const words = ui.filter.toLowerCase().split(/\s+/).filter(Boolean);
      list.replaceChildren(...listed.filter((e) => words.every((w) => e.text.toLowerCase().includes(w))).map((e) => h('li', {},
        h('button', { type: 'button', onclick: () => act(e.action), ...hover(e) }, e.text))));
    };
    fill();
    if (ui.selected) {
      actions.append(h('p', {}, `Selected ${family && family.hexLabel ? family.hexLabel(ui.selected) : ui.selected}. `, h('button', { type: 'button', onclick: () => { ui.selected = null; render(); } }, 'Clear (Esc)')));
    }
    if (general.length) {
      actions.append(h('div', { class: 'general' }, general.map((e) => h('button', {
        type: 'button',
        ...hover(e),
        class: PASSES.includes(typeOf(e.action)) ? 'primary' : '',
        onclick: () => act(e.action),
        title: PASSES.includes(typeOf(e.action)) ? 'keyboard: E' : undefined,
      }, e.text))));
    }
    const filter = listed.length >= FILTER_FROM ? h('input', {
      type: 'search', class: 'action-filter', 'aria-label': 'filter the choices', placeholder: 'filter: e.g. infantry 2,0', value: ui.filter,
      oninput: (event) => { ui.filter = event.target.value; fill(); },
    }) : null;
    if (family && !listed.length) return;
    actions.append(h('details', { open: legal.length <= 12 || ui.selected !== null || ui.placing !== null }, h('summary', {}, family && general.length ? `${listed.length} more choice${listed.length === 1 ? '' : 's'}` : choices(listed.length)), filter, list));
  }

  /** Pointing at (or focusing) a choice outlines its hexes on the map. */
  function hover(e) {
    if (family) return {};
    const keys = [e.src, e.dst].filter(Boolean);
    const on = () => highlight(svg, keys);
    const off = () => highlight(svg, []);
    return { onpointerenter: on, onpointerleave: off, onfocus: on, onblur: off };
  }

  function onHex(k, entries) {
    error.textContent = '';
    // A Victory Lost moves a stack along a path in one gesture (avl.js).
    if (family && family.onHex && family.onHex(k, ui.selected)) return;
    const chosen = entries.filter((e) => e.dst === k && (ui.selected ? e.src === ui.selected : !e.src));
    if (chosen.length === 1) {
      act(chosen[0].action);
      return;
    }
    if (chosen.length > 1) {
      actions.replaceChildren(h('p', {}, `Choose for ${family && family.hexLabel ? family.hexLabel(k) : k}:`), h('ul', { class: 'action-list chooser' },
        chosen.map((e) => h('li', {}, h('button', { type: 'button', onclick: () => act(e.action) }, e.text)))),
      h('button', { type: 'button', onclick: () => { ui.selected = null; render(); } }, 'Cancel'));
      return;
    }
    if (entries.some((e) => e.src === k)) {
      ui.selected = ui.selected === k ? null : k;
      render();
    } else if (ui.selected) {
      ui.selected = null;
      render();
    }
  }

  /** Plays `action`; resolves with null once played, else why not. */
  async function act(action) {
    if (busy || !screen.feed.state) return 'another move is being sent';
    busy = true;
    error.textContent = '';
    const a = screen;
    try {
      await a.feed.send(() => api.act(id, a.token, a.feed.state.version, action));
      ui.selected = null;
      ui.placing = null;
      ui.filter = '';
      // The reply brought the new state, drawn while the choice was still selected.
      render();
      return null;
    } catch (e) {
      error.textContent = `Refused: ${e.explain ? e.explain() : e.message}`;
      a.feed.resync();
      return e.explain ? e.explain() : e.message;
    } finally {
      busy = false;
    }
  }

  /** Takes back this seat's last move (the server says when that is allowed). */
  async function undo() {
    if (busy || !screen.feed.state || !screen.feed.state.can_undo) return;
    busy = true;
    error.textContent = '';
    const a = screen;
    try {
      await a.feed.send(() => api.undo(id, a.token, a.feed.state.version));
      ui.selected = null;
      render();
    } catch (e) {
      error.textContent = `Refused: ${e.explain ? e.explain() : e.message}`;
      a.feed.resync();
    } finally {
      busy = false;
    }
  }

  function addMessage(m) {
    const name = names()[m.seat] || seatName(m.seat);
    chat.append(h('li', {}, h('strong', {}, `${name}: `), m.body));
  }

  async function sendMessage(event) {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    try {
      await api.say(id, screen.token, text);
      chatInput.value = '';
    } catch (e) {
      error.textContent = e.explain ? e.explain() : e.message;
    }
  }

  // Browser notifications: asked for by the player, shown when the tab is hidden.
  const notifyKey = 'hexwar.notify-browser';
  let notifiedAt = null;
  function notifyBrowser() {
    const state = screen.feed.state;
    if (localStorage.getItem(notifyKey) !== '1' || !document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    if (notifiedAt === state.version) return;
    notifiedAt = state.version;
    try {
      new Notification('hexwar: your move', { body: `Game ${id}`, icon: '/icon-move.svg', tag: `hexwar-${id}` });
    } catch {
      // Some browsers only notify from a service worker; the title still says it.
    }
  }

  function renderNotify() {
    const email = h('input', { type: 'email', 'aria-label': 'e-mail address', placeholder: 'e-mail', disabled: !emailOn });
    const webhook = h('input', { type: 'url', 'aria-label': 'webhook URL', placeholder: 'https://\u2026 webhook' });
    const done = h('span', { class: 'quiet', role: 'status' });
    const browserBox = h('input', { type: 'checkbox', id: 'notify-browser', checked: localStorage.getItem(notifyKey) === '1' });
    browserBox.addEventListener('change', async () => {
      if (browserBox.checked && typeof Notification !== 'undefined' && Notification.permission !== 'granted') {
        const answer = await Notification.requestPermission();
        if (answer !== 'granted') browserBox.checked = false;
      }
      localStorage.setItem(notifyKey, browserBox.checked ? '1' : '0');
    });
    notifyBox.replaceChildren(
      h('p', {}, browserBox, ' ', h('label', { for: 'notify-browser' }, 'A browser notification when this tab is in the background'), h('br'),
        h('span', { class: 'quiet' }, 'The tab\u2019s title and icon always say when it is your move.')),
      emailOn ? null : h('p', { class: 'quiet' }, 'E-mail is off on this server (it has no mail server set up); a webhook still works.'),
      h('form', {
        onsubmit: async (event) => {
          event.preventDefault();
          try {
            await api.notify(id, screen.token, emailOn ? (email.value || null) : null, webhook.value || null);
            done.textContent = emailOn || !email.value ? ' Saved.' : ' Saved the webhook; e-mail is off on this server.';
          } catch (e) {
            done.textContent = ` ${e.explain ? e.explain() : e.message}`;
          }
        },
      }, email, ' ', webhook, ' ', h('button', { type: 'submit' }, 'Save'), done));
  }
  renderNotify();

  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || !screen || !curtain.hidden) return;
    const state = screen.feed.state;
    if (e.key === 'Escape' && (ui.selected || ui.placing)) {
      ui.selected = null;
      ui.placing = null;
      render();
    }
    if ((e.key === 'u' || e.key === 'U') && state && state.can_undo) undo();
    if ((e.key === 'e' || e.key === 'E') && state && state.legal && !ui.reviewing) {
      const end = PASSES.map((type) => state.legal.find((a) => typeOf(a) === type)).find(Boolean);
      if (end) act(end);
    }
  });
  // A tab that comes back, or a network that comes back, asks for the state again.
  document.addEventListener('visibilitychange', () => { if (!document.hidden && screen) screen.feed.resync(); });
  window.addEventListener('online', () => { if (screen) screen.feed.resync(); });

  // The seat to show first: the held seat to move, else the first held; a spectator
  // holds none.
  const mine = held();
  const first = Object.keys(mine)[0];
  show(first === undefined ? audience(null, null) : audience(Number(first), mine[first]));
  if (window.matchMedia('(max-width: 800px)').matches) toggleDrawer(false);
  try {
    for (const m of (await api.messages(id)).messages) addMessage(m);
  } catch {
    // Messages are a convenience; the game goes on without them.
  }
}
