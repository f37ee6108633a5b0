// The lobby: a new game form, invite links to hand out, my games, open and running
// games.

import { api, seats } from './api.js';
import { copy, h, seatName } from './dom.js';

export async function showLobby(app) {
  document.getElementById('subtitle').textContent = 'lobby';
  const error = h('p', { class: 'error', role: 'alert' });
  const created = h('section', { class: 'created', 'aria-label': 'invite links' });
  const formHolder = h('section', { class: 'new-game' }, h('h2', {}, 'New game'));
  const lists = h('section', { class: 'lists' });
  app.replaceChildren(formHolder, created, error, lists);
  let catalog;
  try {
    catalog = await api.catalog();
  } catch (e) {
    error.textContent = `The server did not answer: ${e.message}`;
    return;
  }
  formHolder.append(newGameForm(catalog, created, error));
  lists.append(await gameLists());
}

function newGameForm(catalog, created, error) {
  const gameSelect = h('select', { id: 'game', name: 'game' },
    catalog.games.map((g) => h('option', { value: g.game }, g.game)));
  const presetSelect = h('select', { id: 'preset', name: 'preset' });
  const playersSelect = h('select', { id: 'players', name: 'players' });
  const seatsBox = h('fieldset', { class: 'seats' }, h('legend', {}, 'Seats'));
  const optionsBox = h('details', { class: 'options' }, h('summary', {}, 'Options'));
  const hotSeat = h('input', { type: 'checkbox', id: 'hotseat' });
  const form = h('form', { class: 'form', onsubmit: submit },
    h('label', { for: 'game' }, 'Game '), gameSelect,
    h('label', { for: 'preset' }, ' Ruleset '), presetSelect,
    h('label', { for: 'players' }, ' Players '), playersSelect,
    h('p', { class: 'preset-description' }),
    seatsBox,
    optionsBox,
    h('p', {}, hotSeat, h('label', { for: 'hotseat' },
      ' Hot-seat: play every person\u2019s seat in this browser, passing it between players')),
    h('button', { type: 'submit', class: 'primary' }, 'Create game'));

  const family = () => catalog.games.find((g) => g.game === gameSelect.value);
  const preset = () => family().presets.find((p) => p.name === presetSelect.value);

  function fillPresets() {
    presetSelect.replaceChildren(...family().presets.map((p) => h('option', { value: p.name }, p.name)));
    fillPlayers();
  }
  function fillPlayers() {
    const p = preset();
    form.querySelector('.preset-description').textContent = p.description;
    playersSelect.replaceChildren();
    for (let n = p.min_players; n <= p.max_players; n += 1) {
      playersSelect.append(h('option', { value: n }, String(n)));
    }
    fillSeats();
    fillOptions();
  }
  function fillSeats() {
    const n = Number(playersSelect.value);
    seatsBox.replaceChildren(h('legend', {}, 'Seats'));
    for (let i = 0; i < n; i += 1) {
      const kind = h('select', { name: `kind-${i}`, 'aria-label': `${seatName(i)} is played by` },
        h('option', { value: 'person' }, 'a person'),
        ...catalog.bot_levels.map((l) => h('option', { value: `bot:${l}` }, `a bot (${l})`)));
      // A 2-player game offers a solo game against a bot of middling strength.
      const solo = catalog.bot_levels.includes('normal') ? 'normal' : catalog.bot_levels[0];
      if (i > 0 && n === 2) kind.value = `bot:${solo}`;
      const name = h('input', { name: `name-${i}`, 'aria-label': `${seatName(i)} name`, placeholder: i === 0 ? 'your name' : 'name (optional)', maxlength: 40 });
      seatsBox.append(h('div', { class: 'seat-row' }, h('span', {}, `${seatName(i)}: `), kind, ' ', name));
    }
  }
  // Each option's control reads its value back; `controls` maps option names to them.
  let controls = new Map();
  function fillOptions() {
    controls = new Map();
    optionsBox.replaceChildren(h('summary', {}, 'Options'));
    const settings = h('fieldset', { class: 'settings' }, h('legend', {}, 'Settings'));
    const advanced = h('details', { class: 'more-options' }, h('summary', {}, 'Advanced settings (values in JSON)'));
    // The number of players has its own field above.
    for (const option of preset().options.filter((o) => o.name !== 'players')) {
      const control = optionControl(option);
      controls.set(option.name, control);
      const kind = option.kind || 'json';
      (kind === 'bool' ? optionsBox : kind === 'json' ? advanced : settings).append(control.row);
    }
    if (settings.children.length > 1) optionsBox.append(settings);
    if (advanced.children.length > 1) optionsBox.append(advanced);
  }
  gameSelect.addEventListener('change', fillPresets);
  presetSelect.addEventListener('change', fillPlayers);
  playersSelect.addEventListener('change', fillSeats);
  fillPresets();

  async function submit(event) {
    event.preventDefault();
    error.textContent = '';
    const n = Number(playersSelect.value);
    const seatSpecs = [];
    for (let i = 0; i < n; i += 1) {
      const kind = form.elements[`kind-${i}`].value;
      const name = form.elements[`name-${i}`].value.trim();
      if (kind.startsWith('bot:')) seatSpecs.push({ kind: 'bot', level: kind.slice(4), name: name || undefined });
      else seatSpecs.push({ name: i === 0 || hotSeat.checked ? (name || seatName(i)) : (name || undefined) });
    }
    const options = {};
    for (const [name, control] of controls) {
      const read = control.read();
      if (read.error) {
        error.textContent = `Option ${name.replaceAll('_', ' ')}: ${read.error}`;
        return;
      }
      if (JSON.stringify(read.value) !== JSON.stringify(control.option.default)) options[name] = read.value;
    }
    try {
      const game = await api.create({ game: gameSelect.value, preset: presetSelect.value, options, seats: seatSpecs });
      showCreated(game, created, hotSeat.checked);
    } catch (e) {
      error.textContent = `The game was not created: ${e.explain ? e.explain() : e.message}`;
    }
  }
  return form;
}

const label = (text) => String(text).replaceAll('_', ' ');

/**
 * The form control of one option, by its kind (from the server's catalog): a checkbox,
 * a number, a number or nothing, one choice, several choices, or JSON text. Returns
 * `{row, read, option}`; `read()` gives `{value}` or `{error}`.
 */
function optionControl(option) {
  const id = `option-${option.name}`;
  // A numeric option's range (`min`, `max` in the catalog; for an object of numbers, each).
  const ranged = option.min !== undefined && option.max !== undefined;
  const range = ranged ? ` (${option.min} to ${option.max})` : '';
  const description = h('small', {}, ` \u2014 ${option.description}${range}`);
  const name = h('label', { for: id, title: ranged ? `from ${option.min} to ${option.max}` : undefined }, label(option.name));
  switch (option.kind) {
    case 'bool': {
      const box = h('input', { type: 'checkbox', id, name: option.name, checked: option.default });
      return { option, row: h('div', { class: 'option' }, box, ' ', name, description), read: () => ({ value: box.checked }) };
    }
    case 'number':
    case 'number_or_none': {
      const none = option.kind === 'number_or_none';
      const [min, max] = ranged ? [option.min, option.max] : [0, Infinity];
      const input = h('input', { type: 'number', id, name: option.name, min, max: ranged ? max : undefined, step: 1, title: range.trim() || undefined, value: option.default === null ? '' : String(option.default), placeholder: none ? 'none' : '' });
      const read = () => {
        const text = input.value.trim();
        if (text === '' && none) return { value: null };
        const n = Number(text);
        return text !== '' && Number.isInteger(n) && n >= min && n <= max ? { value: n } : { error: `${text || 'nothing'} is not a whole number${ranged ? ` from ${min} to ${max}` : ''}${none ? ' (leave it empty for none)' : ''}` };
      };
      return { option, row: h('div', { class: 'option' }, name, ' ', input, description), read };
    }
    case 'choice': {
      const select = h('select', { id, name: option.name }, option.choices.map((c) => h('option', { value: c }, label(c))));
      select.value = option.default;
      return { option, row: h('div', { class: 'option' }, name, ' ', select, description), read: () => ({ value: select.value }) };
    }
    case 'choices': {
      const boxes = option.choices.map((c, i) => {
        const box = h('input', { type: 'checkbox', id: `${id}-${i}`, name: option.name, value: c, checked: option.default.includes(c) });
        return h('span', { class: 'choice' }, box, ' ', h('label', { for: `${id}-${i}` }, label(c)), ' ');
      });
      const group = h('fieldset', { class: 'option choices', id }, h('legend', {}, label(option.name)), description, h('div', {}, boxes));
      const read = () => ({ value: option.choices.filter((c, i) => boxes[i].querySelector('input').checked) });
      return { option, row: group, read };
    }
    default: {
      const input = h('input', { id, name: option.name, value: JSON.stringify(option.default), size: 24, title: range.trim() || undefined });
      const read = () => {
        try {
          return { value: JSON.parse(input.value) };
        } catch {
          return { error: `${input.value} is not a JSON value (a number, null, "text", {"an": "object"})` };
        }
      };
      return { option, row: h('div', { class: 'option' }, name, ' ', input, description), read };
    }
  }
}

function showCreated(game, created, hotSeat) {
  const people = game.seats.filter((s) => s.token);
  // The creator plays the first person's seat here; in hot-seat play, all of them.
  people.forEach((s, i) => {
    if (i === 0 || hotSeat) seats.remember(game.id, s.seat, s.token);
  });
  const mine = people[0];
  const rows = people.slice(hotSeat ? people.length : 1).map((s) => {
    const input = h('input', { value: s.invite, readonly: true, 'aria-label': `invite link for ${seatName(s.seat)}`, size: 60 });
    const button = h('button', { type: 'button', onclick: async () => {
      button.textContent = (await copy(s.invite, input)) ? 'Copied' : 'Select and copy';
    } }, 'Copy');
    return h('li', {}, `${seatName(s.seat)}: `, input, ' ', button);
  });
  created.replaceChildren(
    h('h2', {}, 'Game created'),
    rows.length ? h('p', {}, 'Send each player their own link; whoever holds a link plays that seat.') : null,
    rows.length ? h('ul', { class: 'invites' }, rows) : null,
    h('p', { class: 'commitment' }, `Fair dice: the server committed to its dice seed; SHA-256 ${game.seed_commitment}.`),
    mine ? h('a', { class: 'button primary', href: `/play/${game.id}#token=${mine.token}` }, 'Play now') : null,
  );
}

async function gameLists() {
  const box = h('div');
  const mine = seats.all();
  const myIds = Object.keys(mine);
  if (myIds.length) {
    box.append(h('h2', {}, 'My games'), h('ul', {}, myIds.map((id) => {
      const [seat, token] = Object.entries(mine[id])[0];
      return h('li', {}, h('a', { href: `/play/${id}#token=${token}` }, `Game ${id}`), ` (${seatName(Number(seat))}${Object.keys(mine[id]).length > 1 ? ' and others, hot-seat' : ''})`);
    })));
  }
  for (const [status, title] of [['open', 'Games with open seats'], ['running', 'Games being played'], ['over', 'Finished games']]) {
    let games = [];
    try {
      games = (await api.games(status)).games;
    } catch {
      games = [];
    }
    box.append(h('h2', {}, title));
    if (!games.length) {
      box.append(h('p', { class: 'quiet' }, 'None right now.'));
      continue;
    }
    box.append(h('ul', {}, games.map((g) => h('li', {},
      h('a', { href: status === 'over' ? `/replay/${g.id}` : `/play/${g.id}` }, `${status === 'over' ? 'Replay game' : 'Game'} ${g.id}`),
      ` \u2014 ${g.preset}, ${g.players} players, version ${g.version} `,
      ...g.seats.filter((s) => s.open).map((s) => h('button', {
        type: 'button',
        onclick: async () => {
          const name = prompt(`Your name for ${seatName(s.seat)}`) || seatName(s.seat);
          const claimed = await api.claim(g.id, s.seat, name);
          seats.remember(g.id, claimed.seat, claimed.token);
          location.href = `/play/${g.id}#token=${claimed.token}`;
        },
      }, `Take ${seatName(s.seat)}`))))));
  }
  return box;
}
