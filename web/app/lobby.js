// The lobby: the games this browser plays (waiting for you first), a new game (a
// ruleset card, then players, seats and the options that apply to it), the links of a
// game just made, and the public lists of games. The lists refresh themselves while
// the tab is visible.

import { api, seats } from './api.js';
import { copy, h, seatName } from './dom.js';

/** How often the lists are read again while the tab is visible, ms. */
export const REFRESH_MS = 12000;
/** Most games of "My games" read at once, and in all. */
const CONCURRENCY = 4;
const MY_GAMES_MAX = 30;

const FAMILIES = { viktory: 'VIKTORY II', avl: 'A Victory Lost' };
const PRESET_TITLES = { viktory1: 'Original' };
/** The option groups of the catalog (`group`), in the order the form shows them. */
const GROUPS = [
  ['variants', 'Variants', 'rules switched on or off'],
  ['victory', 'Victory', 'how the game is won and when it ends'],
  ['advanced', 'Advanced', 'the numbers of the rules: board, dice, movement'],
];

const family = (game) => FAMILIES[game] || game;
const presetTitle = (name) => PRESET_TITLES[name] || name.charAt(0).toUpperCase() + name.slice(1);
const rulesetName = (game, preset) => `${family(game)} \u00b7 ${presetTitle(preset)}`;
const words = (text) => String(text).replaceAll('_', ' ');
/** An option's name as a label: "max_turns" is "Max turns". */
const optionLabel = (name) => { const w = words(name); return w.charAt(0).toUpperCase() + w.slice(1); };

export async function showLobby(app) {
  document.getElementById('subtitle').textContent = '';
  const error = h('p', { class: 'error', role: 'alert' });
  const mine = h('section', { class: 'my-games', 'aria-labelledby': 'my-games-title' });
  const created = h('section', { class: 'created', 'aria-label': 'the game just created', hidden: true });
  const newGame = h('section', { class: 'new-game', 'aria-labelledby': 'new-game-title' },
    h('h2', { id: 'new-game-title' }, 'New game'));
  const lists = h('section', { class: 'lists', 'aria-label': 'games on this server' });
  app.replaceChildren(h('div', { class: 'lobby' }, h('h1', {}, 'Lobby'), mine, newGame, created, error, lists));

  const refreshers = [];
  const refreshMine = myGames(mine);
  refreshers.push(refreshMine);
  refreshers.push(publicLists(lists));
  let catalog;
  try {
    catalog = await api.catalog();
  } catch (e) {
    error.textContent = `The server did not answer: ${e.message}`;
  }
  if (catalog) newGame.append(newGameForm(catalog, created, error, refreshMine));
  await Promise.all(refreshers.map((r) => r()));
  // The lists read again by themselves, only while someone can see them.
  setInterval(() => {
    if (!document.hidden) refreshers.forEach((r) => r());
  }, REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) refreshers.forEach((r) => r());
  });
}

/**
 * Replaces `box`'s children with `nodes` unless `key` (what they show) is unchanged,
 * keeping the keyboard focus on the control with the same `data-key`.
 */
function render(box, key, nodes) {
  if (box.dataset.shown === key) return;
  box.dataset.shown = key;
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
  box.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
  if (focused) box.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

/** Runs `f` on every item, at most `limit` at a time; the results in order. */
async function eachLimited(items, limit, f) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      out[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Drops a game from the seats this browser holds. */
const forget = (id) => seats.forget(id);

/** The game turn a state's view shows (VIKTORY: `turn.number`; A Victory Lost: `turn`). */
function turnOf(view) {
  const t = view && view.position && view.position.turn;
  return typeof t === 'number' ? t : (t && typeof t.number === 'number' ? t.number : null);
}

/** A seat's name for lists: its name, else what it is; bots say so. */
function playerName(s) {
  const name = s.name || (s.open ? 'open seat' : `${seatName(s.seat)} (invited)`);
  return s.kind === 'bot' ? `${name} (bot)` : name;
}

/** How a game ended, in words: "Ann won (resignation)", "Draw". `me`: seats held here. */
function resultText(result, gameSeats, me = []) {
  if (!result) return 'Over';
  const winners = result.winners || [];
  const reason = result.reason ? ` (${words(result.reason)})` : '';
  if (!winners.length) return `Draw${reason}`;
  if (winners.some((w) => me.includes(w)) && me.length === 1) return `You won${reason}`;
  const names = winners.map((w) => { const s = gameSeats.find((x) => x.seat === w); return s ? playerName(s) : seatName(w); });
  return `${names.join(' and ')} won${reason}`;
}

/** Who decides now, in words; `me`: seats held in this browser. */
function toMoveText(toMove, gameSeats, me = []) {
  if (!toMove) return null;
  if (toMove === 'chance') return 'dice are rolling';
  if (toMove.seat !== undefined) {
    const s = gameSeats.find((x) => x.seat === toMove.seat);
    if (me.includes(toMove.seat)) return me.length > 1 && s && s.name ? `your move (${s.name})` : 'your move';
    return `${s ? playerName(s) : seatName(toMove.seat)} to move`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// My games

/** Fills `box` with the games this browser holds a seat in; returns its refresh. */
function myGames(box) {
  const notes = [];
  return async function refresh() {
    const held = seats.all();
    const ids = Object.keys(held);
    // The newest (localStorage keeps them in the order they were taken).
    const read = ids.slice(-MY_GAMES_MAX);
    const games = await eachLimited(read, CONCURRENCY, async (id) => {
      const tokens = held[id];
      const [seat, token] = Object.entries(tokens)[0];
      try {
        return { id, tokens, state: await api.state(id, token) };
      } catch (e) {
        if (e.status === 404) {
          forget(id);
          notes.push(`Game ${id} is no longer on this server; it was taken off your list.`);
          return null;
        }
        return { id, tokens, seat: Number(seat), problem: e.explain ? e.explain() : e.message };
      }
    });
    const entries = games.filter(Boolean).map((g) => {
      const me = Object.keys(g.tokens).map(Number);
      const state = g.state;
      const over = state && state.status === 'over';
      const toMove = state && state.to_move;
      const myMove = !over && toMove && toMove.seat !== undefined && me.includes(toMove.seat);
      return { ...g, me, over, myMove };
    });
    // Waiting for you first, then games being played, then finished ones.
    const rank = (e) => (e.myMove ? 0 : e.over ? 2 : 1);
    entries.sort((a, b) => rank(a) - rank(b));
    const waiting = entries.filter((e) => e.myMove).length;
    const rows = entries.map(myGameRow);
    const key = JSON.stringify([entries.map((e) => [e.id, e.problem, e.state && [e.state.version, e.state.status, e.state.to_move, e.state.seats]]), notes, ids.length]);
    render(box, key, [
      h('h2', { id: 'my-games-title' }, 'My games', waiting ? h('span', { class: 'count' }, ` \u2014 ${waiting} waiting for you`) : null),
      entries.length ? h('ul', { class: 'game-list' }, rows) : h('p', { class: 'quiet' }, 'None yet: the games you make or join in this browser appear here.'),
      ids.length > read.length ? h('p', { class: 'quiet' }, `Showing ${read.length} of your ${ids.length} games.`) : null,
      ...notes.map((n) => h('p', { class: 'note' }, n)),
    ]);
  };
}

function myGameRow(e) {
  if (!e.state) {
    return h('li', { class: 'game' },
      h('a', { href: `/play/${e.id}#token=${e.tokens[e.seat]}`, 'data-key': `mine-${e.id}` }, `Game ${e.id}`),
      h('p', { class: 'line error' }, `Could not read it: ${e.problem}`));
  }
  const s = e.state;
  // The link opens the seat that must move when it is held here (hot-seat), else the first.
  const seat = e.myMove ? s.to_move.seat : e.me[0];
  const token = e.tokens[seat];
  const opponents = s.seats.filter((x) => !e.me.includes(x.seat)).map(playerName);
  const turn = turnOf(s.view);
  const status = e.over ? resultText(s.result || (s.to_move && s.to_move.over), s.seats, e.me)
    : s.status === 'open' ? 'waiting for players to join' : toMoveText(s.to_move, s.seats, e.me);
  return h('li', { class: `game${e.myMove ? ' my-move' : ''}` },
    h('a', { href: `/play/${s.id}#token=${token}`, 'data-key': `mine-${s.id}` }, e.myMove ? 'Your move: ' : '', rulesetName(s.game, s.preset)),
    h('p', { class: 'line' },
      turn !== null ? `Turn ${turn} \u00b7 ` : '',
      h(e.myMove ? 'strong' : 'span', {}, status),
      e.me.length > 1 ? ` \u00b7 hot-seat: ${s.seats.filter((x) => e.me.includes(x.seat)).map(playerName).join(', ')}` : '',
      opponents.length ? ` \u00b7 against ${opponents.join(', ')}` : ''));
}

// ---------------------------------------------------------------------------------------
// The public lists

const LISTS = [
  ['open', 'Games with open seats', 'No game has an open seat right now.'],
  ['running', 'Games being played', 'No game is being played right now.'],
  ['over', 'Finished games', 'No game has finished yet.'],
];

/** Fills `box` with the open, running and finished games; returns its refresh. */
function publicLists(box) {
  const parts = LISTS.map(([status, title]) => {
    const id = `list-${status}`;
    return { status, title, section: h('section', { class: `list list-${status}`, 'aria-labelledby': id }) };
  });
  box.replaceChildren(...parts.map((p) => p.section));
  return async function refresh() {
    await Promise.all(parts.map(async (part) => {
      // A claim being typed in is not swept away.
      if (part.section.querySelector('.claim-form')) return;
      let games;
      let problem = null;
      try {
        games = (await api.games(part.status)).games;
      } catch (e) {
        games = [];
        problem = `Could not read the list: ${e.message}`;
      }
      const [, , none] = LISTS.find(([s]) => s === part.status);
      const key = JSON.stringify([games.map((g) => [g.id, g.version, g.status, g.turn, g.to_move, g.result, g.seats]), problem]);
      render(part.section, key, [
        h('h2', { id: `list-${part.status}` }, part.title),
        problem ? h('p', { class: 'error' }, problem) : null,
        games.length ? h('ul', { class: 'game-list' }, games.map((g) => publicRow(g, part.status))) : h('p', { class: 'quiet' }, none),
      ]);
    }));
  };
}

function publicRow(g, status) {
  const over = status === 'over';
  const state = over ? resultText(g.result, g.seats)
    : g.status === 'open' ? `waiting for ${g.seats.filter((s) => s.open).length === 1 ? 'a player' : 'players'}`
      : toMoveText(g.to_move, g.seats);
  const row = h('li', { class: 'game' },
    h('a', { href: over ? `/replay/${g.id}` : `/play/${g.id}`, 'data-key': `${status}-${g.id}` },
      `${over ? 'Replay' : 'Watch'} ${rulesetName(g.game, g.preset)}`),
    h('p', { class: 'line' },
      g.turn !== null && g.turn !== undefined ? `Turn ${g.turn} \u00b7 ` : '',
      state ? h('span', {}, state) : null,
      ` \u00b7 ${g.seats.map(playerName).join(' vs ')}`));
  const open = g.seats.filter((s) => s.open);
  if (!over && open.length) {
    row.append(h('p', { class: 'takes' }, open.map((s) => h('button', {
      type: 'button',
      'data-key': `take-${g.id}-${s.seat}`,
      onclick: (event) => claimForm(event.currentTarget, g, s.seat),
    }, `Take ${seatName(s.seat)}`))));
  }
  return row;
}

/** Replaces a "Take seat" button with a small form asking the taker's name. */
function claimForm(button, g, seat) {
  const id = `claim-${g.id}-${seat}`;
  const name = h('input', { id, name: 'name', maxlength: 40, required: true, autocomplete: 'nickname' });
  const problem = h('span', { class: 'error', role: 'alert' });
  const form = h('form', {
    class: 'claim-form',
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        const claimed = await api.claim(g.id, seat, name.value.trim() || seatName(seat));
        seats.remember(g.id, claimed.seat, claimed.token);
        location.href = `/play/${g.id}#token=${claimed.token}`;
      } catch (e) {
        problem.textContent = ` Not taken: ${e.explain ? e.explain() : e.message}`;
      }
    },
  }, h('label', { for: id }, `Your name for ${seatName(seat)} `), name, ' ', h('button', { type: 'submit', class: 'primary' }, 'Join'), problem);
  button.replaceWith(form);
  name.focus();
}

// ---------------------------------------------------------------------------------------
// A new game

function newGameForm(catalog, created, error, refreshMine) {
  const box = h('div', { class: 'new-game-body' });
  const formHolder = h('div', { class: 'game-form-holder' });
  const cards = [];
  const chooser = h('div', { class: 'rulesets' },
    h('p', { class: 'hint' }, 'Choose a ruleset:'),
    catalog.games.map((g) => h('div', { class: 'family' },
      h('h3', {}, family(g.game)),
      h('ul', { class: 'ruleset-cards' }, g.presets.map((p) => {
        const card = h('button', {
          type: 'button',
          class: 'ruleset',
          'aria-pressed': 'false',
          'data-game': g.game,
          'data-preset': p.name,
          onclick: () => choose(g, p, card),
        }, h('strong', {}, presetTitle(p.name)), h('span', {}, p.description));
        cards.push(card);
        return h('li', {}, card);
      })))));
  function choose(g, p, card) {
    cards.forEach((c) => c.setAttribute('aria-pressed', String(c === card)));
    formHolder.replaceChildren(gameForm(catalog, g, p, created, error, refreshMine));
  }
  box.append(chooser, formHolder);
  return box;
}

/** The form of a game of preset `p` of family `g`: players, seats, options, create. */
function gameForm(catalog, g, p, created, error, refreshMine) {
  const playersSelect = h('select', { id: 'players', name: 'players' });
  for (let n = p.min_players; n <= p.max_players; n += 1) playersSelect.append(h('option', { value: n }, String(n)));
  const seatsBox = h('fieldset', { class: 'seats' });
  const hotSeat = h('input', { type: 'checkbox', id: 'hotseat', name: 'hotseat' });
  const options = h('div', { class: 'options' });
  const form = h('form', { class: 'form game-form', onsubmit: submit, 'aria-labelledby': 'game-form-title' },
    h('h3', { id: 'game-form-title' }, rulesetName(g.game, p.name)),
    h('p', { class: 'preset-description' }, p.description),
    p.min_players === p.max_players
      ? h('p', {}, `${p.min_players} players.`)
      : h('p', {}, h('label', { for: 'players' }, 'Players '), playersSelect),
    seatsBox,
    h('p', { class: 'hot-seat' }, hotSeat, ' ', h('label', { for: 'hotseat' },
      'Hot-seat: every person\u2019s seat is played in this browser, passed between players')),
    options,
    h('p', {}, h('button', { type: 'submit', class: 'primary' }, 'Create game')));

  const bots = catalog.bot_levels;
  // A 2-player game offers a solo game against a bot of middling strength.
  const solo = bots.includes('normal') ? 'normal' : bots[0];
  function fillSeats() {
    const n = Number(playersSelect.value || p.min_players);
    seatsBox.replaceChildren(h('legend', {}, 'Seats'));
    for (let i = 0; i < n; i += 1) {
      const kind = h('select', { name: `kind-${i}`, id: `kind-${i}`, 'aria-label': `${seatName(i)} is played by` },
        h('option', { value: 'person' }, i === 0 ? 'you' : 'a person with a link'),
        i === 0 ? null : h('option', { value: 'open' }, 'anyone who takes it'),
        ...bots.map((l) => h('option', { value: `bot:${l}` }, `a bot (${l})`)));
      if (i > 0 && n === 2) kind.value = `bot:${solo}`;
      const name = h('input', { name: `name-${i}`, id: `name-${i}`, 'aria-label': `${seatName(i)} name`, placeholder: i === 0 ? 'your name' : 'name (optional)', maxlength: 40, autocomplete: i === 0 ? 'nickname' : 'off' });
      const sync = () => { name.disabled = kind.value === 'open'; };
      kind.addEventListener('change', sync);
      seatsBox.append(h('div', { class: 'seat-row' }, h('span', { class: 'seat-name' }, seatName(i)), kind, name));
    }
  }
  playersSelect.addEventListener('change', fillSeats);
  fillSeats();

  // Each option's control reads its value back; `controls` maps option names to them.
  const controls = new Map();
  const applicable = p.options.filter((o) => o.name !== 'players');
  for (const [group, title, about] of GROUPS) {
    // Lists of choices first (the victory conditions lead their group).
    const mine = applicable.filter((o) => optionGroup(o) === group)
      .sort((a, b) => Number(b.kind === 'choices') - Number(a.kind === 'choices'));
    if (!mine.length) continue;
    const rows = h('div', { class: 'option-rows' });
    for (const option of mine) {
      const control = optionControl(option);
      controls.set(option.name, control);
      rows.append(control.row);
    }
    options.append(h('details', { class: 'option-group', 'data-group': group },
      h('summary', {}, `${title} (${mine.length})`, h('span', { class: 'about' }, ` \u2014 ${about}`)), rows));
  }

  async function submit(event) {
    event.preventDefault();
    error.textContent = '';
    const n = p.min_players === p.max_players ? p.min_players : Number(playersSelect.value);
    const seatSpecs = [];
    for (let i = 0; i < n; i += 1) {
      const kind = form.elements[`kind-${i}`].value;
      const name = form.elements[`name-${i}`].value.trim();
      if (kind.startsWith('bot:')) seatSpecs.push({ kind: 'bot', level: kind.slice(4), name: name || undefined });
      else if (kind === 'open') seatSpecs.push({ open: true });
      else seatSpecs.push({ name: i === 0 || hotSeat.checked ? (name || seatName(i)) : (name || undefined) });
    }
    const chosen = {};
    for (const [name, control] of controls) {
      const read = control.read();
      if (read.error) {
        error.textContent = `Option ${words(name)}: ${read.error}`;
        control.row.closest('details').open = true;
        return;
      }
      if (JSON.stringify(read.value) !== JSON.stringify(control.option.default)) chosen[name] = read.value;
    }
    try {
      const game = await api.create({ game: g.game, preset: p.name, options: chosen, seats: seatSpecs });
      showCreated(game, created, hotSeat.checked, seatSpecs);
      refreshMine();
    } catch (e) {
      error.textContent = `The game was not created: ${e.explain ? e.explain() : e.message}`;
    }
  }
  return form;
}

/** The group an option is shown in: the catalog's, else one by its kind. */
function optionGroup(option) {
  if (GROUPS.some(([g]) => g === option.group)) return option.group;
  return option.kind === 'bool' || option.kind === 'choice' ? 'variants' : 'advanced';
}

/**
 * The form control of one option, by its kind (from the server's catalog): a checkbox,
 * a number, a number or nothing, one choice, several choices, or JSON text. Returns
 * `{row, read, option}`; `read()` gives `{value}` or `{error}`.
 */
function optionControl(option) {
  const id = `option-${option.name}`;
  // A numeric option's range (`min`, `max` in the catalog; for an object of numbers, each).
  const ranged = option.min !== undefined && option.max !== undefined;
  const rangeText = ranged ? (option.kind === 'json' ? `each ${option.min} to ${option.max}` : `${option.min} to ${option.max}`) : null;
  const none = option.kind === 'number_or_none' ? ' Leave it empty for none.' : '';
  const text = h('p', { class: 'option-text', id: `${id}-text` }, option.description, none);
  const range = rangeText ? h('span', { class: 'range' }, rangeText) : null;
  const name = h('label', { for: id }, optionLabel(option.name));
  const described = `${id}-text`;
  switch (option.kind) {
    case 'bool': {
      const box = h('input', { type: 'checkbox', id, name: option.name, checked: option.default, 'aria-describedby': described });
      return { option, row: h('div', { class: 'option option-bool' }, h('div', { class: 'option-head' }, box, ' ', name), text), read: () => ({ value: box.checked }) };
    }
    case 'number':
    case 'number_or_none': {
      const none = option.kind === 'number_or_none';
      const [min, max] = ranged ? [option.min, option.max] : [0, Infinity];
      const input = h('input', { type: 'number', id, name: option.name, min, max: ranged ? max : undefined, step: 1, value: option.default === null ? '' : String(option.default), placeholder: none ? 'none' : '', 'aria-describedby': described });
      const read = () => {
        const value = input.value.trim();
        if (value === '' && none) return { value: null };
        const n = Number(value);
        return value !== '' && Number.isInteger(n) && n >= min && n <= max ? { value: n } : { error: `${value || 'nothing'} is not a whole number${ranged ? ` from ${min} to ${max}` : ''}${none ? ' (leave it empty for none)' : ''}` };
      };
      return { option, row: h('div', { class: 'option' }, h('div', { class: 'option-head' }, name, range), input, text), read };
    }
    case 'choice': {
      const select = h('select', { id, name: option.name, 'aria-describedby': described }, option.choices.map((c) => h('option', { value: c }, words(c))));
      select.value = option.default;
      return { option, row: h('div', { class: 'option' }, h('div', { class: 'option-head' }, name), select, text), read: () => ({ value: select.value }) };
    }
    case 'choices': {
      const boxes = option.choices.map((c, i) => h('input', { type: 'checkbox', id: `${id}-${i}`, name: option.name, value: c, checked: option.default.includes(c) }));
      const group = h('fieldset', { class: 'option option-wide choices', id, 'aria-describedby': described },
        h('legend', {}, optionLabel(option.name)),
        h('div', { class: 'choice-list' }, boxes.map((box, i) => h('span', { class: 'choice' }, box, ' ', h('label', { for: `${id}-${i}` }, words(option.choices[i]))))),
        text);
      const read = () => ({ value: option.choices.filter((c, i) => boxes[i].checked) });
      return { option, row: group, read };
    }
    default: {
      const input = h('input', { id, name: option.name, value: JSON.stringify(option.default), class: 'json', spellcheck: 'false', 'aria-describedby': described });
      const read = () => {
        try {
          return { value: JSON.parse(input.value) };
        } catch {
          return { error: `${input.value} is not a JSON value (a number, null, "text", {"an": "object"})` };
        }
      };
      return { option, row: h('div', { class: 'option option-wide' }, h('div', { class: 'option-head' }, name, range), input, text), read };
    }
  }
}

/**
 * The box of a game just created: the links to hand out, who else sits at the table,
 * and the way in: Play now (a seat is held here) or Watch (bots only).
 */
function showCreated(game, created, hotSeat, specs) {
  const people = game.seats.filter((s) => s.token);
  // The creator plays the first person's seat here; in hot-seat play, all of them.
  const here = hotSeat ? people : people.slice(0, 1);
  here.forEach((s) => seats.remember(game.id, s.seat, s.token));
  const mine = here[0];
  const invites = people.filter((s) => !here.includes(s)).map((s) => {
    const input = h('input', { value: s.invite, readonly: true, id: `invite-${s.seat}`, 'aria-label': `invite link for ${seatName(s.seat)}`, class: 'invite' });
    const button = h('button', { type: 'button', onclick: async () => {
      button.textContent = (await copy(s.invite, input)) ? 'Copied' : 'Select and copy';
    } }, `Copy ${seatName(s.seat)}\u2019s link`);
    return h('li', {}, h('span', { class: 'seat-name' }, `${seatName(s.seat)}${specs[s.seat] && specs[s.seat].name ? ` (${specs[s.seat].name})` : ''}`), input, button);
  });
  const others = game.seats.filter((s) => !s.token).map((s) => (s.kind === 'bot'
    ? `${seatName(s.seat)}: ${specs[s.seat] && specs[s.seat].name ? specs[s.seat].name : 'a bot'} (bot, ${specs[s.seat] ? specs[s.seat].level : ''})`
    : `${seatName(s.seat)}: open \u2014 anyone can take it from \u201cGames with open seats\u201d`));
  const parts = [
    h('h2', { tabindex: '-1', id: 'created-title' }, 'Game created'),
    invites.length ? h('p', {}, 'Send each player their own link; whoever holds a link plays that seat.') : null,
    invites.length ? h('ul', { class: 'invites' }, invites) : null,
    others.length ? h('ul', { class: 'others' }, others.map((t) => h('li', {}, t))) : null,
    hotSeat && here.length > 1 ? h('p', {}, `Hot-seat: ${here.map((s) => seatName(s.seat)).join(', ')} are played in this browser.`) : null,
    mine
      ? h('p', {}, h('a', { class: 'button primary', href: `/play/${game.id}#token=${mine.token}` }, 'Play now'))
      : h('p', {}, h('a', { class: 'button primary', href: `/play/${game.id}` }, 'Watch'), ' the bots play (the spectator\u2019s view).'),
    h('p', { class: 'commitment' }, `Fair dice: the server committed to its dice seed; SHA-256 ${game.seed_commitment}.`),
  ];
  created.replaceChildren(...parts.filter(Boolean));
  created.hidden = false;
  created.querySelector('#created-title').focus();
}
