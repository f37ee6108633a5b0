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
  function fillOptions() {
    optionsBox.replaceChildren(h('summary', {}, 'Options'));
    const more = h('details', { class: 'more-options' }, h('summary', {}, 'More options (values in JSON: a number, null, a list)'));
    // The number of players has its own field above.
    for (const option of preset().options.filter((o) => o.name !== 'players')) {
      if (typeof option.default !== 'boolean') {
        const id = `option-${option.name}`;
        const input = h('input', { id, name: option.name, value: JSON.stringify(option.default), size: 24 });
        more.append(h('div', { class: 'option' }, h('label', { for: id }, option.name.replaceAll('_', ' ')), ' ', input,
          h('small', {}, ` \u2014 ${option.description}`)));
        continue;
      }
      const id = `option-${option.name}`;
      const box = h('input', { type: 'checkbox', id, name: option.name, checked: option.default });
      optionsBox.append(h('div', { class: 'option' }, box, ' ',
        h('label', { for: id }, option.name.replaceAll('_', ' ')),
        h('small', {}, ` \u2014 ${option.description}`)));
    }
    optionsBox.append(more);
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
    for (const option of preset().options.filter((o) => o.name !== 'players')) {
      const input = document.getElementById(`option-${option.name}`);
      if (typeof option.default === 'boolean') {
        if (input.checked !== option.default) options[option.name] = input.checked;
      } else if (input.value.trim() !== JSON.stringify(option.default)) {
        try {
          options[option.name] = JSON.parse(input.value);
        } catch {
          error.textContent = `Option ${option.name}: ${input.value} is not a JSON value (a number, null, "text", [a, list])`;
          return;
        }
      }
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
