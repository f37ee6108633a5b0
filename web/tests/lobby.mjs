// Browser tests of the lobby: making games, the lists of games, and my games.

import { accessible, api, axe, check, keyboardReach, shot, watch } from './lib.mjs';

/** Chooses the ruleset card of `preset` (of `game`) and waits for its form. */
async function chooseRuleset(page, preset, game = 'viktory') {
  await page.click(`button.ruleset[data-game="${game}"][data-preset="${preset}"]`);
  await page.waitForSelector('form.game-form');
}

/** Opens every folded group of options (and other details) on the page. */
async function unfoldAll(page) {
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
}

/** Nothing on the page is wider than the window. */
async function fits(page, name) {
  const { scroll, inner, wide } = await page.evaluate(() => ({
    scroll: document.scrollingElement.scrollWidth,
    inner: window.innerWidth,
    wide: [...document.querySelectorAll('.lobby *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 3).map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}px`),
  }));
  check(scroll <= inner, `${name}: the page is ${scroll} px wide in a ${inner} px window (${wide.join(', ')})`);
}

/**
 * From the lobby at `base`, Ann makes a classic 2-player game against a bot with the
 * option max turns set to 30 (and no other option changed), and opens it: the page is
 * left on the new game. The vs-bot test of play.mjs plays it on.
 */
export async function createVsBotInLobby(page, base) {
  await page.goto(base);
  await page.waitForSelector('button.ruleset');
  await chooseRuleset(page, 'classic');
  await accessible(page, 'lobby');
  await keyboardReach(page, 'lobby');
  await page.fill('input[name="name-0"]', 'Ann');
  check(await page.locator('select[name="kind-1"]').inputValue() === 'bot:normal', 'a 2-player game is against a bot by default');
  // Options are folded by group; settings have controls of their kind.
  await page.click('details.option-group[data-group="victory"] > summary');
  await page.fill('#option-max_turns', '30');
  check(await page.locator('#option-max_turns[type="number"]').count() === 1, 'max turns is a number field');
  check(await page.locator('#option-victory input[value="standard_conquest"]').isChecked(), 'the preset\'s victory condition is ticked');
  await page.click('details.option-group[data-group="variants"] > summary');
  check(await page.locator('select#option-suppression option').count() === 3, 'suppression offers its three choices');
  await page.screenshot({ path: shot('lobby-vs-bot-form') });
  await page.click('form.game-form button[type="submit"]');
  await page.waitForSelector('.created a.button.primary', { timeout: 5000 }).catch(async () => {
    check(false, `the game was not created: ${await page.locator('.error').first().textContent()}`);
  });
  await page.click('.created a.button.primary');
}

/** Issue 25.1: the "Game created" box after a game against a bot, a hot-seat game and
 *  a bots-only game: no "null" in it, the way in (Play now, or Watch for bots). */
export async function lobbyCreated(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = watch(page, 'lobby created');
  await page.goto(base);
  await page.waitForSelector('button.ruleset');
  // Against a bot.
  await chooseRuleset(page, 'classic');
  await page.fill('input[name="name-0"]', 'Ann');
  await page.click('form.game-form button[type="submit"]');
  await page.waitForSelector('.created a.button.primary');
  let text = await page.locator('.created').textContent();
  check(!/null|undefined/.test(text), `vs bot: the created box says "${text}"`);
  check(/bot/.test(text), `vs bot: the created box names the bot seat: "${text}"`);
  check((await page.locator('.created a.button.primary').textContent()) === 'Play now', 'vs bot: Play now');
  // Hot-seat, two people.
  await page.selectOption('select[name="kind-1"]', 'person');
  await page.fill('input[name="name-1"]', 'Bob');
  await page.check('#hotseat');
  await page.click('form.game-form button[type="submit"]');
  await page.waitForFunction(() => /Hot-seat/.test(document.querySelector('.created')?.textContent || ''));
  text = await page.locator('.created').textContent();
  check(!/null|undefined/.test(text), `hot-seat: the created box says "${text}"`);
  check(await page.locator('.created .invites').count() === 0, 'hot-seat: no invite links to hand out');
  const hot = await page.locator('.created a.button.primary').getAttribute('href');
  check(/^\/play\/[0-9a-f]{12}#token=[0-9a-f]+$/.test(hot || ''), `hot-seat: Play now opens a seat (${hot})`);
  // A person with a link: one invite row, with its link.
  await page.uncheck('#hotseat');
  await page.click('form.game-form button[type="submit"]');
  await page.waitForSelector('.created .invites li');
  text = await page.locator('.created').textContent();
  check(!/null|undefined/.test(text), `invite: the created box says "${text}"`);
  check(/#token=/.test(await page.locator('.created .invites input').inputValue()), 'invite: the link carries a token');
  await fits(page, 'created 1280x800');
  await axe(page, 'lobby created');
  await page.locator('.created').screenshot({ path: shot('lobby-created-invite') });
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, 'created 390x844');
  await page.locator('.created').screenshot({ path: shot('lobby-created-invite-390x844') });
  await page.setViewportSize({ width: 1280, height: 800 });
  // Bots only: Watch, to the spectator's view.
  await page.selectOption('select[name="kind-0"]', 'bot:random').catch(() => {});
  const firstIsBot = await page.locator('select[name="kind-0"] option[value="bot:random"]').count();
  check(firstIsBot === 1, 'the first seat can be a bot');
  await page.selectOption('select[name="kind-1"]', 'bot:random');
  await page.click('form.game-form button[type="submit"]');
  await page.waitForFunction(() => /Watch/.test(document.querySelector('.created a.button.primary')?.textContent || ''));
  text = await page.locator('.created').textContent();
  check(!/null|undefined/.test(text), `bots only: the created box says "${text}"`);
  const watchHref = await page.locator('.created a.button.primary').getAttribute('href');
  check(/^\/play\/[0-9a-f]{12}$/.test(watchHref || ''), `bots only: Watch opens the spectator's view (${watchHref})`);
  await page.locator('.created').screenshot({ path: shot('lobby-created-bots') });
  await page.click('.created a.button.primary');
  await page.waitForSelector('.status', { timeout: 15000 });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** Issue 25.3: each ruleset offers only its own options, grouped, folded, with ranges;
 *  issue 25.4: nothing is wider than the window. Accessibility at both sizes. */
export async function lobbyOptions(browser, base) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const size = `${viewport.width}x${viewport.height}`;
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems = watch(page, `lobby ${size}`);
    await page.goto(base);
    await page.waitForSelector('button.ruleset');
    const cards = await page.locator('button.ruleset').allTextContents();
    for (const name of ['Classic', 'Expansion', 'Online', 'Original', 'Campaign']) {
      check(cards.some((c) => c.startsWith(name)), `${size}: a ${name} card (${cards.join(' | ')})`);
    }
    check(await page.locator('h1').count() === 1, `${size}: one h1`);
    await page.screenshot({ path: shot(`lobby-cards-${size}`), fullPage: true });
    await chooseRuleset(page, 'classic');
    const groups = await page.locator('details.option-group').evaluateAll((ds) => ds.map((d) => [d.dataset.group, d.open]));
    check(JSON.stringify(groups.map(([g]) => g)) === JSON.stringify(['variants', 'victory', 'advanced']), `${size}: option groups ${JSON.stringify(groups)}`);
    check(groups.every(([, open]) => !open), `${size}: option groups are folded`);
    const classic = await page.locator('form.game-form [id^="option-"]').evaluateAll((els) => els.map((e) => e.id));
    for (const expansionOnly of ['option-build_actions', 'option-combat_supply', 'option-metropolis', 'option-dark']) {
      check(!classic.includes(expansionOnly), `${size}: classic does not offer ${expansionOnly}`);
    }
    check(await page.locator('#option-victory input[value="quicker_victory"]').count() === 0, `${size}: classic does not offer the Expansion's quicker victory`);
    const range = await page.locator('#option-max_turns').evaluate((el) => el.closest('.option').querySelector('.range')?.textContent);
    check(range === '1 to 1000', `${size}: max turns shows its range (${range})`);
    await unfoldAll(page);
    await fits(page, `${size} classic`);
    await accessible(page, `lobby ${size}`);
    await axe(page, `lobby ${size}`);
    await keyboardReach(page, `lobby ${size}`);
    await page.screenshot({ path: shot(`lobby-classic-${size}`), fullPage: true });
    // Close-ups to look at: the seats, and a group of options.
    await page.locator('form.game-form').screenshot({ path: shot(`lobby-form-top-${size}`), clip: undefined }).catch(() => {});
    await page.locator('details.option-group[data-group="victory"]').screenshot({ path: shot(`lobby-victory-${size}`) });
    await page.locator('details.option-group[data-group="variants"]').screenshot({ path: shot(`lobby-variants-${size}`) });
    await chooseRuleset(page, 'online');
    check(await page.locator('#option-dark').count() === 1, `${size}: online offers dark`);
    check(await page.locator('details.option-group[open]').count() === 0, `${size}: a new ruleset's groups are folded`);
    await unfoldAll(page);
    await fits(page, `${size} online`);
    await axe(page, `lobby ${size} online`);
    await chooseRuleset(page, 'campaign', 'avl');
    await fits(page, `${size} avl`);
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  }
}

/** Issue 25.2: the public lists show ruleset, players, turn and who moves (the result
 *  when over), never a version, and refresh by themselves. */
export async function lobbyLists(browser, base) {
  const running = await api(base, 'POST', '/api/games', { game: 'viktory', preset: 'expansion', seats: [{ name: 'Ann' }, { name: 'Bob' }] });
  const open = await api(base, 'POST', '/api/games', { game: 'viktory', preset: 'classic', seats: [{ name: 'Cy' }, { open: true }] });
  const bots = await api(base, 'POST', '/api/games', { game: 'viktory', preset: 'classic', options: { max_turns: 2 }, seats: [{ kind: 'bot', name: 'Hal' }, { kind: 'bot', name: 'Eve' }] });
  for (let i = 0; i < 100 && (await api(base, 'GET', `/api/games/${bots.id}`)).status !== 'over'; i += 1) await new Promise((r) => setTimeout(r, 200));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = watch(page, 'lobby lists');
  await page.clock.install();
  await page.goto(base);
  await page.waitForSelector('.list-running .game-list');
  const row = (status, id) => page.locator(`.list-${status} li`, { has: page.locator(`a[href$="${id}"]`) });
  const lists = await page.locator('.lists').textContent();
  check(!/version/i.test(lists), `the lists show no version: ${lists.slice(0, 300)}`);
  const runningText = await row('running', running.id).textContent();
  check(/Expansion/.test(runningText) && /Ann/.test(runningText) && /Bob/.test(runningText), `a running game names its ruleset and players: ${runningText}`);
  const first = await api(base, 'GET', `/api/games/${running.id}`);
  const firstName = first.seats[first.to_move.seat].name;
  check(/Turn \d+/.test(runningText) && runningText.includes(`${firstName} to move`), `a running game says its turn and who moves (${firstName}): ${runningText}`);
  const overText = await row('over', bots.id).textContent();
  check(/won|Draw/.test(overText) && /Turn \d+/.test(overText), `a finished game names its result: ${overText}`);
  const openText = await row('open', open.id).textContent();
  check(/open seat/.test(openText) && /Cy/.test(openText), `an open game says who sits and what is open: ${openText}`);
  check(await row('open', open.id).locator('button', { hasText: 'Take Seat 2' }).count() === 1, 'an open seat can be taken');
  await page.screenshot({ path: shot('lobby-lists'), fullPage: true });
  // A move and a new game, seen without reloading.
  const token = running.seats[first.to_move.seat].token;
  const state = await api(base, 'GET', `/api/games/${running.id}`, null, token);
  await api(base, 'POST', `/api/games/${running.id}/actions`, { version: state.version, action: state.legal[0] }, token);
  const after = await api(base, 'GET', `/api/games/${running.id}`);
  const later = await api(base, 'POST', '/api/games', { game: 'viktory', preset: 'online', seats: [{ name: 'Dee' }, { name: 'Flo' }] });
  await page.clock.runFor(13000);
  await page.waitForSelector(`.list-running a[href$="${later.id}"]`, { timeout: 5000 }).catch(() => {});
  check(await row('running', later.id).count() === 1, 'a game created meanwhile appears without a reload');
  const mover = after.seats[after.to_move.seat].name;
  const moved = await row('running', running.id).textContent();
  check(moved.includes(`${mover} to move`), `the list follows the game (${mover} to move): ${moved}`);
  // Taking the open seat.
  await row('open', open.id).locator('button', { hasText: 'Take Seat 2' }).click();
  await page.fill(`#claim-${open.id}-1`, 'Gus');
  await page.click(`.claim-form button[type="submit"]`);
  await page.waitForURL(new RegExp(`/play/${open.id}#token=`));
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** My games: every game this browser holds a seat in, waiting for you first, with
 *  ruleset, turn, whose move and opponents; hot-seat as one; a vanished game dropped. */
export async function lobbyMyGames(browser, base) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const size = `${viewport.width}x${viewport.height}`;
    // The first player is drawn by the dice: each game is held by the seat that suits it.
    const make = async (preset, names) => {
      const game = await api(base, 'POST', '/api/games', { game: 'viktory', preset, seats: names.map((name) => ({ name })) });
      const { to_move: toMove } = await api(base, 'GET', `/api/games/${game.id}`);
      return { ...game, mover: toMove.seat, other: 1 - toMove.seat, names };
    };
    const waiting = await make('classic', ['Ann', 'Bob']);
    const theirs = await make('online', ['Cy', 'Ann']);
    const hot = await make('expansion', ['Di', 'Ed']);
    const done = await make('classic', ['Ann', 'Flo']);
    await api(base, 'POST', `/api/games/${done.id}/resign`, {}, done.seats[1].token);
    const held = {
      [theirs.id]: { [theirs.other]: theirs.seats[theirs.other].token },
      [done.id]: { 0: done.seats[0].token },
      [hot.id]: { 0: hot.seats[0].token, 1: hot.seats[1].token },
      [waiting.id]: { [waiting.mover]: waiting.seats[waiting.mover].token },
      '0123456789ab': { 0: '00112233445566778899aabbccddeeff' },
    };
    const context = await browser.newContext({ viewport });
    await context.addInitScript((seats) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('hexwar.seats', JSON.stringify(seats));
        sessionStorage.setItem('seeded', '1');
      }
    }, held);
    const page = await context.newPage();
    const problems = watch(page, `my games ${size}`);
    await page.goto(base);
    await page.waitForSelector('.my-games .game-list');
    const items = await page.locator('.my-games .game-list > li').allTextContents();
    check(items.length === 4, `${size}: four games (the hot-seat one once, the vanished one dropped): ${items.join(' | ')}`);
    const ids = await page.locator('.my-games .game-list > li a').evaluateAll((as) => as.map((a) => a.getAttribute('href').split('/')[2].slice(0, 12)));
    check(ids.indexOf(waiting.id) < ids.indexOf(theirs.id) && ids.indexOf(hot.id) < ids.indexOf(theirs.id), `${size}: games waiting for you come first: ${ids.join(', ')}`);
    check(ids[ids.length - 1] === done.id, `${size}: finished games come last: ${ids.join(', ')}`);
    const text = (id) => items[ids.indexOf(id)] || '';
    const [you, them] = [waiting.names[waiting.mover], waiting.names[waiting.other]];
    check(/Your move/.test(text(waiting.id)) && /Classic/.test(text(waiting.id)) && text(waiting.id).includes(`against ${them}`) && /Turn \d+/.test(text(waiting.id)), `${size}: a game waiting for you (${you}): ${text(waiting.id)}`);
    const mover = theirs.names[theirs.mover];
    check(text(theirs.id).includes(`${mover} to move`) && /Online/.test(text(theirs.id)) && text(theirs.id).includes(`against ${mover}`), `${size}: a game waiting for ${mover}: ${text(theirs.id)}`);
    check(/hot-seat: Di, Ed/.test(text(hot.id)) && /your move/i.test(text(hot.id)), `${size}: the hot-seat game is one entry: ${text(hot.id)}`);
    check(/You won \(resignation\)/.test(text(done.id)), `${size}: a finished game says its result: ${text(done.id)}`);
    check(/0123456789ab is no longer on this server/.test(await page.locator('.my-games').textContent()), `${size}: the vanished game is noted`);
    check(!('0123456789ab' in JSON.parse(await page.evaluate(() => localStorage.getItem('hexwar.seats')))), `${size}: the vanished game is forgotten`);
    const hotHref = await page.locator(`.my-games a[href^="/play/${hot.id}"]`).getAttribute('href');
    check(hotHref.endsWith(hot.seats[hot.mover].token), `${size}: the hot-seat entry opens the seat to move`);
    await fits(page, `my games ${size}`);
    await axe(page, `my games ${size}`);
    await keyboardReach(page, `my games ${size}`);
    await page.screenshot({ path: shot(`lobby-my-games-${size}`), fullPage: true });
    // The opponent resigns elsewhere: the list follows by itself (here when the tab is
    // shown again; otherwise every few seconds).
    await api(base, 'POST', `/api/games/${waiting.id}/resign`, {}, waiting.seats[waiting.other].token);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    const entry = page.locator('.my-games li', { has: page.locator(`a[href^="/play/${waiting.id}"]`) });
    await page.waitForFunction((id) => /You won/.test(document.querySelector(`.my-games a[href^="/play/${id}"]`)?.closest('li')?.textContent || ''), waiting.id, { timeout: 8000 }).catch(() => {});
    check(/You won \(resignation\)/.test(await entry.textContent()), `${size}: my games follow the game by themselves: ${await entry.textContent()}`);
    // The vanished game's 404 is the one expected failure.
    check(problems.filter((p) => !/404/.test(p)).length === 0, problems.join('\n'));
    await context.close();
  }
}

/** The tests of this module, in the order they run. */
export const tests = [lobbyCreated, lobbyOptions, lobbyLists, lobbyMyGames];
