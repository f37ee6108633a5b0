// Browser tests of playing VIKTORY and A Victory Lost: against a bot, two people with
// fog, hot-seat, battles, take-back, invite links and resigning.

import path from 'node:path';
import { createVsBotInLobby } from './lobby.mjs';
import { api, accessible, axe, battleSetup, check, keyboardReach, playOne, ready, shots, turnNumber, watch } from './lib.mjs';

export async function vsBot(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'vs bot');
  // Ann makes a classic game against a bot in the lobby, with one option changed.
  await createVsBotInLobby(page, base);
  await ready(page);
  const gameId = new URL(page.url()).pathname.split('/').pop();
  const summary = await api(base, 'GET', `/api/games/${gameId}`);
  check(summary.options && summary.options.max_turns === 30 && Object.keys(summary.options).length === 1, `the form's options reached the game (and only the changed one): ${JSON.stringify(summary.options)}`);
  await page.screenshot({ path: path.join(shots, '02-game-start.png') });
  let acted = 0;
  let reloaded = false;
  // Ann must build, move and place reserves through the page: actions of a kind not
  // yet played are preferred, one decision in two, until the log shows each.
  const played = { build: /Ann builds a (town|city)/, move: /Ann’s \w+ #\d+ (moves|takes the road)/, place: /Ann places \w+ #\d+/ };
  const missing = async () => {
    const text = await page.locator('.log').textContent();
    return Object.entries(played).filter(([, re]) => !re.test(text)).map(([k]) => k);
  };
  const wants = { build: /^(build a town|upgrade \S+ to a city)/, move: /^move Ann’s/, place: /^place an? /u };
  for (let n = 0; n < 600 && ((await turnNumber(page)) < 4 || ((await missing()).length && (await turnNumber(page)) < 9)); n += 1) {
    const still = n % 2 === 0 ? await missing() : [];
    if (await playOne(page, n, still.map((k) => wants[k]))) acted += 1;
    else await page.waitForTimeout(100);
    if (!reloaded && (await turnNumber(page)) >= 2) {
      await page.screenshot({ path: path.join(shots, '03-turn-2.png') });
      await page.reload();
      await ready(page);
      reloaded = true;
    }
  }
  // Ending phases is one choice in five, so three turns can take as few as six decisions.
  check(acted >= 6, `played ${acted} decisions through the UI`);
  check((await turnNumber(page)) >= 3, 'several full turns were played');
  check(reloaded, 'the page was reloaded mid-game and play went on');
  const log = await page.locator('.log li').count();
  check(log > 10, `the log shows the events (${log})`);
  check((await page.locator('.log').textContent()).includes('Ann '), 'the log names players by name');
  check((await missing()).length === 0, `Ann built, moved and placed reserves through the page (missing: ${(await missing()).join(', ')})`);
  await accessible(page, 'game');
  // On the player's own move the page holds still (no bot move re-renders it).
  await page.waitForSelector('.banner.mine', { timeout: 15000 });
  await keyboardReach(page, 'game');
  await page.screenshot({ path: path.join(shots, '04-after-turns.png') });
  // The tab says whose move it is, even from another tab.
  check((await page.title()).startsWith('\u25cf Your move'), `the tab title says it is your move: ${await page.title()}`);
  check((await page.getAttribute('link[rel="icon"]', 'href')) === '/icon-move.svg', 'the tab icon marks your move');
  await axe(page, 'game');
  // What happened since Ann's last turn, step by step on the map, then the board.
  const offer = page.locator('.review-offer button');
  check(await offer.count() === 1, 'the page offers a review of the bot\u2019s steps');
  if (await offer.count()) {
    await offer.click();
    await page.waitForSelector('.review-box');
    check(/Since your last turn: 1 of \d+/.test(await page.locator('.review-box h3').textContent()), 'the review steps through the other player\u2019s moves');
    await page.click('.review-nav button.primary');
    await page.waitForFunction(() => /2 of/.test(document.querySelector('.review-box h3')?.textContent || '') || !document.querySelector('.review-box'));
    await page.screenshot({ path: path.join(shots, 'game-review.png') });
    await page.click('.review-nav button:has-text("Skip to the board")');
    check(await page.locator('.review-box').count() === 0 && await page.locator('.action-list button').count() > 0, 'after the review the board and choices are back');
  }
  // Battles fought since Ann's last turn are listed, with their dice.
  if (await page.locator('.battles-box').count()) await page.screenshot({ path: path.join(shots, 'game-battles.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

export async function twoPeopleAndFog(browser, base) {
  // A Dark game between two people, each in their own browser context.
  const created = await api(base, 'POST', '/api/games', {
    game: 'viktory', preset: 'online', options: { dark: true },
    seats: [{ name: 'Ann' }, { name: 'Bob' }],
  });
  const [a, b] = created.seats;
  const pages = [];
  const problems = [];
  for (const seat of [a, b]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    problems.push(...watch(page, `seat ${seat.seat}`));
    await page.goto(seat.invite);
    await ready(page);
    pages.push(page);
  }
  for (let n = 0; n < 40; n += 1) {
    let moved = false;
    for (const page of pages) moved = (await playOne(page, n)) || moved;
    if (!moved) await pages[0].waitForTimeout(100);
  }
  // The other page heard the moves live: its log has grown without a reload.
  check((await pages[1].locator('.log li').count()) > 5, 'the second player sees the first player\u2019s moves live');
  // What the DOM shows is exactly what the seat's view holds: explored tiles, and
  // units only where the seat sees.
  for (const [i, seat] of [a, b].entries()) {
    await ready(pages[i]);
    const state = await api(base, 'GET', `/api/games/${created.id}`, null, seat.token);
    const side = state.view.board_side;
    const tiles = new Set(state.view.position.tiles.map((t) => t.hex.join(',')));
    const shown = await pages[i].evaluate((s) => [...document.querySelectorAll('g.hex')].filter((g) => {
      const [q, r] = g.dataset.hex.split(',').map(Number);
      const ring = Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
      return ring < s - 1 && !g.querySelector('polygon.face-down');
    }).map((g) => g.dataset.hex), side);
    check(shown.length === tiles.size && shown.every((k) => tiles.has(k)), `seat ${i}: the DOM shows exactly the explored tiles`);
    const units = new Set(state.view.position.units.map((u) => u.hex.join(',')));
    const stacks = await pages[i].evaluate(() => [...document.querySelectorAll('g.hex')].filter((g) => g.querySelector('.stack')).map((g) => g.dataset.hex));
    check(stacks.every((k) => units.has(k)), `seat ${i}: no unit drawn that the view does not hold`);
    await pages[i].screenshot({ path: path.join(shots, `05-dark-seat-${i}.png`) });
  }
  check(problems.length === 0, problems.join('\n'));
  // On a phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await small.goto(a.invite);
  await ready(small);
  await small.screenshot({ path: path.join(shots, '11-phone.png'), fullPage: true });
  await phone.close();
  // Hot-seat: one browser holds both seats of a new game and hides each view.
  const hot = await api(base, 'POST', '/api/games', { game: 'viktory', seats: [{ name: 'Cy' }, { name: 'Di' }] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(hot.seats[1].invite);
  await ready(page);
  await page.goto(hot.seats[0].invite);
  await ready(page);
  let curtain = false;
  for (let n = 0; n < 30 && !curtain; n += 1) {
    if (await page.locator('.curtain:not([hidden])').count()) {
      curtain = true;
      await page.screenshot({ path: path.join(shots, '06-hot-seat-curtain.png') });
      await page.click('.curtain button');
    } else if (!(await playOne(page, n))) {
      await page.waitForTimeout(100);
    }
  }
  check(curtain, 'hot-seat play hides the next seat\u2019s view behind a pass screen');
  await context.close();
}

export async function battle(browser, base) {
  // The dice are the server's, so a casualty choice may take a few battles.
  let chose = false;
  let fought = false;
  for (let attempt = 0; attempt < 8 && !chose; attempt += 1) {
    const created = await api(base, 'POST', '/api/games', { game: 'viktory', setup: battleSetup(), seats: [{ name: 'Ann' }, { kind: 'bot' }] });
    check(created.id, `a game from a position: ${JSON.stringify(created)}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const problems = watch(page, 'battle');
    await page.goto(created.seats[0].invite);
    await ready(page);
    // Move all three units into the enemy city: the first by dragging, the others by
    // selecting their hex, then the city.
    for (let i = 0; i < 3; i += 1) {
      const version = await page.locator('.status').getAttribute('data-version');
      if (i === 0) {
        await page.locator('g.hex[data-hex="1,0"]').dragTo(page.locator('g.hex[data-hex="2,0"]'));
      } else {
        await page.click('g.hex[data-hex="1,0"]');
        await page.click('g.hex[data-hex="2,0"]');
      }
      // Several units could go: the page asks which.
      await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v || document.querySelector('.chooser'), version);
      if (await page.locator('.chooser').count()) await page.locator('.chooser button').first().click();
      await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v, version);
    }
    // Before the battle starts, the page shows its exact odds from the server.
    if (attempt === 0) {
      await page.waitForSelector('.odds-box');
      const odds = await page.locator('.odds-box').textContent();
      check(/2,0: Ann takes the hex \d+ %/.test(odds), `the odds of the coming battle are shown: ${odds}`);
      await page.screenshot({ path: path.join(shots, '09-battle-odds.png') });
    }
    // Per attempt: a battle panel was seen, and one of them with its odds. (The odds
    // check once ran across attempts and failed when a later battle was over before
    // the page showed it: that was the "some steps show no odds" of 9a198bd.)
    let foughtHere = false;
    let sawOdds = false;
    const noOdds = [];
    // The battle is fought in this turn; the loop must not play on into later turns.
    // (It once did: the random bot's turn was over before the page fetched the state,
    // so "Your move" showed again and the first button ended Ann's next turn as well.
    // By her turn after that, the battle was no longer "since your last turn".)
    const battleTurn = await turnNumber(page);
    for (let n = 0; n < 60; n += 1) {
      await ready(page);
      if ((await turnNumber(page)) !== battleTurn) break;
      // The panel of a battle being fought (not the odds box of battles to come).
      const panels = await page.evaluate(() => [...document.querySelectorAll('.battle-box:not(.odds-box)')].map((b) => (b.querySelector('.odds') ? '' : b.textContent)));
      for (const text of panels.filter(Boolean)) noOdds.push(text);
      sawOdds = sawOdds || (panels.length > 0 && panels.every((t) => !t));
      if (!(await page.locator('.banner.mine').count())) break;
      const version = await page.locator('.status').getAttribute('data-version');
      const lose = page.locator('.action-list button', { hasText: /^lose Ann’s (infantry|cavalry) #/ });
      const fight = page.locator('g.hex[data-hex="2,0"]:has(polygon.target)');
      if (panels.length) {
        fought = true;
        foughtHere = true;
        if (!chose) await page.screenshot({ path: path.join(shots, '09-battle.png') });
      }
      if (await lose.count()) {
        await page.locator('.action-list').first().evaluate((el) => { const d = el.closest('details'); if (d) d.open = true; });
        await page.screenshot({ path: path.join(shots, '10-casualty-choice.png') });
        await lose.first().click();
        chose = true;
      } else if (await fight.count()) {
        await fight.click();
      } else if (await page.locator('.general button', { hasText: 'fight another round' }).count()) {
        await page.click('.general button:has-text("fight another round")');
      } else if (await page.locator('.general button').count()) {
        await page.locator('.general button').first().click();
      } else {
        break;
      }
      await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v || document.querySelector('.error')?.textContent, version, { timeout: 5000 }).catch(() => {});
      const error = (await page.locator('.error').first().textContent()) || '';
      check(!error.startsWith('Refused'), `battle: the server refused a move the UI offered: ${error}`);
      if (chose) break;
    }
    check(!foughtHere || sawOdds, `the battle panel shows the odds from the current step; panels without: ${noOdds.join(' | ')}`);
    if (foughtHere) {
      // The battle stays listed, with its dice, once it is over or while it goes on.
      await page.waitForSelector('.battle-list > li', { timeout: 15000 }).catch(() => {});
      const listed = await page.locator('.battle-list > li').allTextContents();
      const when = `turn ${battleTurn} → ${await turnNumber(page)}, status “${await page.locator('.status').textContent()}”`;
      check(listed.some((t) => /2,0: Ann attacked Bot 2/.test(t)), `the battle is listed: ${listed.join(' | ')} (${when}; log: ${(await page.locator('.log li').allTextContents()).slice(0, 12).join(' / ')})`);
      check(await page.locator('.battle-list .die').count() > 0, 'the listed battle shows its dice');
      if (attempt === 0 && listed.length) {
        await page.locator('.battle-list details').first().evaluate((d) => { d.open = true; });
        await page.screenshot({ path: path.join(shots, 'game-battle-list.png') });
      }
    }
    if (noOdds.length) console.log(`battle panels without odds: ${noOdds.join(' | ')}`);
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  }
  check(fought, 'a battle was fought through the UI');
  check(chose, 'a casualty was chosen through the UI');
}

export async function takeBack(browser, base) {
  // Ann moves a unit, then takes it back with the button, then again with the U key.
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', setup: battleSetup(), seats: [{ name: 'Ann' }, { kind: 'bot' }] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'take back');
  await page.goto(created.seats[0].invite);
  await ready(page);
  const hexText = () => page.locator('g.hex[data-hex="1,0"]').textContent();
  const version = () => page.locator('.status').getAttribute('data-version');
  check(!(await page.locator('button.undo').isVisible()), 'nothing to take back at the start');
  const before = await hexText();
  // The replies to a move and to a take-back carry the seat's state: the page asks for
  // it no more (nothing else moves meanwhile: the bot waits for Ann's turn to end).
  const statePath = `/api/games/${created.id}`;
  let stateGets = 0;
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === statePath) stateGets += 1;
  });
  for (const how of ['button', 'key']) {
    const v0 = await version();
    await page.click('g.hex[data-hex="1,0"]');
    await page.click('g.hex[data-hex="2,0"]');
    await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v || document.querySelector('.chooser'), v0);
    if (await page.locator('.chooser').count()) await page.locator('.chooser button').first().click();
    await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v, v0);
    await page.waitForSelector('button.undo:not([hidden])');
    check((await hexText()) !== before, `the move left 1,0 (${how})`);
    // The version before the take-back, read before it (once the page has refreshed,
    // waiting for a change would wait forever).
    const v1 = await version();
    if (how === 'button') {
      await page.screenshot({ path: path.join(shots, '14-take-back.png') });
      await page.click('button.undo');
    } else {
      await page.keyboard.press('u');
    }
    await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v, v1);
    check(Number(await version()) === Number(v0) + 2, `a move and its take-back are two versions (${how})`);
    check((await hexText()) === before, `the unit is back at 1,0 (${how})`);
    check(await page.locator('button.undo').isHidden(), `nothing more to take back (${how})`);
  }
  check(stateGets === 0, `the state came with the replies, not fetched again (${stateGets} GETs)`);
  await page.waitForFunction(() => [...document.querySelectorAll('.log li')].some((li) => li.textContent.includes('took back a move')));
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** The hexes marked as having actions: how many, how many have their centre inside the
 *  map's box (the map is zoomed, so the rest are out of view), and the first one a click
 *  reaches (the hex itself is hit at its centre, not the page around the map nor the
 *  box over it), or null. */
async function sourcesInView(page) {
  return page.evaluate(() => {
    const box = document.querySelector('svg.map').getBoundingClientRect();
    const out = { sources: 0, inView: 0, clickable: null };
    for (const g of document.querySelectorAll('svg.map g.hex')) {
      if (!g.querySelector('polygon.source')) continue;
      const r = g.getBoundingClientRect();
      const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
      out.sources += 1;
      if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) out.inView += 1;
      const hit = document.elementFromPoint(x, y);
      if (!out.clickable && hit && hit.closest && hit.closest('g.hex') === g) out.clickable = g.dataset.hex;
    }
    return out;
  });
}

export async function victoryLost(browser, base) {
  // A Victory Lost against the random bot: the map sheet from the board, counters on
  // it, chits, activations and moves played by clicking.
  const created = await api(base, 'POST', '/api/games', { game: 'avl', seats: [{ name: 'Ann' }, { kind: 'bot', level: 'random' }] });
  check(created.id, `an A Victory Lost game: ${JSON.stringify(created)}`);
  const board = (await api(base, 'GET', `/api/games/${created.id}/board`)).board;
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'avl');
  await page.goto(created.seats[0].invite);
  await ready(page);
  check((await page.locator('.status').textContent()).includes('A Victory Lost'), 'the status line names the game');
  check(await page.locator('svg.map g.hex').count() === board.hexes.length, 'every hex of the map sheet is drawn');
  check(await page.locator('svg.map .hexside.major-river, svg.map .hexside.minor-river').count() > 0, 'rivers are drawn on their hexsides');
  check(await page.locator('svg.map .counter').count() > 0, 'counters stand on the map');
  await page.screenshot({ path: path.join(shots, '15-avl-start.png') });
  let acted = 0;
  let marked = false;
  let costs = false;
  let explained = false;
  let attacks = false;
  const texts = new Set();
  // Each Movement Segment of Ann's opens with a stack that may move in view, also when
  // it follows another of hers with no Soviet decision between (the next chit drawn was
  // an Axis HQ's): the segment is read from the API, at the version the page shows.
  let segment = null;
  let segments = 0;
  const unseen = [];
  for (let n = 0; n < 400 && (acted < 40 || !costs); n += 1) {
    if (await page.locator('.banner.mine').count()) {
      const st = await api(base, 'GET', `/api/games/${created.id}`, null, created.seats[0].token);
      const p = st.view.position;
      const seg = JSON.stringify([p.turn, p.phase, p.active, p.activation && p.activation.chit, p.activation && p.activation.hqs]);
      const shown = Number(await page.locator('.status').getAttribute('data-version'));
      if (seg !== segment && shown === st.version && p.phase === 'movement' && st.legal.length) {
        segment = seg;
        segments += 1;
        const where = await sourcesInView(page);
        if (where.sources && !where.inView) unseen.push(`${p.phase} of turn ${JSON.stringify(p.turn)}, version ${st.version}: ${where.sources} stacks to move, none in view`);
      }
      for (const t of await page.locator('.action-list button, .general button').allTextContents()) texts.add(t.split(' ')[0]);
      marked = marked || (await page.locator('g.hex:has(polygon.source), g.hex:has(polygon.target)').count()) > 0;
      // Movement (8.1-8.3): selecting a stack shows what each of its moves costs. The
      // stack clicked is one a player can click: in view (the map is zoomed on the
      // decision, and a spread-out one may not fit) and not under the move box.
      const source = !costs && (await page.locator('.status').textContent()).includes('movement') ? (await sourcesInView(page)).clickable : null;
      if (source) {
        await page.click(`g.hex[data-hex="${source}"]`, { timeout: 5000 }).catch(() => {});
        costs = (await page.locator('svg.map .move-cost').count()) > 0;
        explained = explained || (await page.locator('.action-list button', { hasText: / MP,/ }).count()) > 0;
        if (costs) await page.screenshot({ path: path.join(shots, '17-avl-move-costs.png') });
      }
      if (!attacks && (await page.locator('[aria-label="possible attacks"]').count())) {
        attacks = true;
        await page.screenshot({ path: path.join(shots, '18-avl-possible-attacks.png') });
      }
    }
    if (await playOne(page, n)) acted += 1;
    else await page.waitForTimeout(100);
    if (await page.locator('.game-over').count()) break;
  }
  check(acted >= 10, `played ${acted} A Victory Lost decisions through the UI`);
  check(marked, 'the hexes of the legal actions are outlined on the map');
  check(segments > 0 && unseen.length === 0, `each of Ann's ${segments} Movement Segments (at least one) opened with a stack to move in view: ${unseen.join('; ')}`);
  check(costs, 'a selected stack shows the MP cost of its moves on the map');
  check(explained, 'the move actions say what they cost');
  console.log(`  avl: ${acted} decisions; the odds of possible attacks ${attacks ? 'were' : 'were not'} shown`);
  check(texts.has('select') || texts.has('choose'), `chits were chosen or selected on the page (${[...texts].join(', ')})`);
  await accessible(page, 'avl');
  await page.screenshot({ path: path.join(shots, '16-avl-played.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

export async function inviteAndResign(browser, base) {
  // Ann invites someone; whoever opens the link names themselves and joins.
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', seats: [{ name: 'Ann' }, {}] });
  check((await api(base, 'GET', `/api/games/${created.id}`)).status === 'open', 'the game waits for its invitee');
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'invitee');
  await page.goto(created.seats[1].invite);
  await page.waitForSelector('.join-form');
  await page.screenshot({ path: path.join(shots, '12-invitee-joins.png') });
  await page.fill('.join-form input', 'Eve');
  await page.click('.join-form button');
  await page.waitForFunction(() => !document.querySelector('.join-form'));
  const state = await api(base, 'GET', `/api/games/${created.id}`);
  check(state.seats[1].name === 'Eve' && state.status === 'running', `the invitee joined: ${JSON.stringify(state.seats[1])} ${state.status}`);
  // Eve resigns: in a 2-player game Ann wins.
  page.on('dialog', (dialog) => dialog.accept());
  await page.click('button.resign');
  await page.waitForSelector('.game-over');
  check((await page.locator('.game-over').textContent()).includes('Won by Ann'), 'the game-over panel names the winner');
  check(!(await page.locator('button.resign').isVisible()), 'no resign button once the game is over');
  await page.screenshot({ path: path.join(shots, '13-resigned.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}


/** The tests of this module, in the order they run. */
export const tests = [vsBot, twoPeopleAndFog, battle, takeBack, victoryLost, inviteAndResign, outOfOrder, hotSeatDark, manyChoices, emailOff, phone, trayPlacement, soak];

/** A small seeded random number generator (mulberry32), so a test's delays repeat. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Holds back every GET answer of the game API by 0 to `most` ms (seeded), so answers
 * arrive out of order: a state asked for later can come before one asked for
 * earlier, and live steps arrive while the page waits for the state after a move.
 */
async function delayAnswers(page, seed, most) {
  const random = seeded(seed);
  await page.route('**/api/games/**', async (route) => {
    // Moves go through at once; the states and steps asked for come back late (a
    // state fetched before a bot's move can then land after the bot's step).
    const delay = route.request().method() === 'GET' ? Math.floor(random() * most) : 0;
    let response;
    try {
      response = await route.fetch();
    } catch {
      return; // the page went away
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    await route.fulfill({ response }).catch(() => {});
  });
}

/**
 * Waits until the page shows the server's state for `token`: the same version, and
 * "Your move" exactly when the server says it is. Returns '' when it does, or what
 * differs after `ms`.
 */
async function caughtUp(page, base, id, token, ms = 15000) {
  const until = Date.now() + ms;
  let differs = '';
  while (Date.now() < until) {
    const server = await api(base, 'GET', `/api/games/${id}`, null, token);
    const shown = await page.evaluate(() => ({
      version: Number(document.querySelector('.status')?.dataset.version),
      mine: Boolean(document.querySelector('.banner.mine')),
    }));
    const mine = !server.to_move.over && server.to_move.seat === server.you;
    if (shown.version === server.version && shown.mine === mine) return '';
    differs = `page at version ${shown.version} (${shown.mine ? 'your move' : 'not yours'}), server at ${server.version} (${mine ? 'your move' : JSON.stringify(server.to_move)})`;
    await page.waitForTimeout(200);
  }
  return differs;
}

/**
 * Plays `games` whole games (or until `decisions` decisions each) against the easy
 * bot with every answer held back 0-`most` ms; after each decision the page must
 * catch up with the server. Returns {games, decisions, stuck: [what differed]}.
 */
async function playDelayed(browser, base, { games, decisions, most, seed, maxTurns, shots: keep }) {
  const stuck = [];
  let played = 0;
  let finished = 0;
  for (let g = 0; g < games; g += 1) {
    const created = await api(base, 'POST', '/api/games', { game: 'viktory', options: { max_turns: maxTurns }, seats: [{ name: 'Ann' }, { kind: 'bot', level: 'easy' }] });
    const token = created.seats[0].token;
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const problems = watch(page, `delayed game ${g}`);
    await delayAnswers(page, seed + g, most);
    await page.goto(created.seats[0].invite);
    await ready(page);
    for (let n = 0; n < decisions; n += 1) {
      if (await playOne(page, n)) played += 1;
      const differs = await caughtUp(page, base, created.id, token);
      if (differs) {
        stuck.push(`game ${g}, decision ${n}: ${differs}`);
        if (keep) await page.screenshot({ path: path.join(shots, `stuck-${g}-${n}.png`) });
        // A stuck page is counted once; a reload lets the game go on.
        await page.reload();
        await ready(page);
      }
      if (await page.locator('.game-over').count()) {
        finished += 1;
        break;
      }
    }
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  }
  return { games, finished, decisions: played, stuck };
}

/** Bug: the page froze on "Bot 2 to move" while it was your move (issue 25). With
 *  every answer held back 0-700 ms and out of order, the page never stays behind. */
export async function outOfOrder(browser, base) {
  const result = await playDelayed(browser, base, { games: 1, decisions: 60, most: 700, seed: 25, maxTurns: 3, shots: true });
  console.log(`  out of order: ${result.decisions} decisions, ${result.finished} of ${result.games} game(s) finished, ${result.stuck.length} stuck`);
  // Enough was played: 15 of Ann's decisions, or the whole game (3 turns; a short one,
  // with few units to move, has had fewer: 14 once). Ann ends her phases herself, so a
  // page that plays nothing never finishes.
  check(result.decisions >= 15 || result.finished === result.games, `played ${result.decisions} decisions with delayed answers and finished ${result.finished} of ${result.games} game(s)`);
  check(result.stuck.length === 0, `the page fell behind the server:\n  ${result.stuck.join('\n  ')}`);
}

/** The soak of issue 25, run by hand: E2E_SOAK_GAMES=20 E2E_ONLY=soak node tests/e2e.mjs
 *  plays that many whole games (8 game turns) against the bot, half of them with
 *  answers held back, and counts the pages left behind. Skipped unless asked for. */
export async function soak(browser, base) {
  const games = Number(process.env.E2E_SOAK_GAMES || 0);
  if (!games) return;
  const started = Date.now();
  const plain = await playDelayed(browser, base, { games: Math.ceil(games / 2), decisions: 2000, most: 0, seed: 100, maxTurns: 8 });
  const delayed = await playDelayed(browser, base, { games: Math.floor(games / 2), decisions: 2000, most: 700, seed: 200, maxTurns: 8 });
  const stuck = [...plain.stuck, ...delayed.stuck];
  console.log(`  soak: ${games} games (${plain.finished + delayed.finished} played to the end), ${plain.decisions + delayed.decisions} decisions, ${stuck.length} stuck pages, ${Math.round((Date.now() - started) / 1000)} s`);
  check(stuck.length === 0, `soak: pages left behind:\n  ${stuck.join('\n  ')}`);
}

/** Bug: in hot-seat the log came from the first seat's feed, so under Dark fog Ben
 *  read Ann's capital hex, her tile draws and her reveals. Every panel must come from
 *  the seat at the screen: the log is exactly Ben's own feed. */
export async function hotSeatDark(browser, base) {
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', preset: 'online', options: { dark: true }, seats: [{ name: 'Ann' }, { name: 'Ben' }] });
  const [ann, ben] = created.seats;
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'hot-seat dark');
  await page.goto(ben.invite);
  await ready(page);
  await page.goto(ann.invite);
  await ready(page);
  let passedToBen = false;
  for (let n = 0; n < 120 && !passedToBen; n += 1) {
    const curtain = page.locator('.curtain:not([hidden])');
    if (await curtain.count()) {
      passedToBen = (await curtain.textContent()).includes('Pass to Ben');
      if (passedToBen) {
        await page.screenshot({ path: path.join(shots, 'game-hot-seat-pass.png') });
        // Behind the curtain the table takes no keys: E does not end Ben's phase.
        await page.waitForSelector('.curtain button:not([disabled])');
        const before = (await api(base, 'GET', `/api/games/${created.id}`, null, ben.token)).version;
        await page.keyboard.press('e');
        await page.waitForTimeout(300);
        const after = (await api(base, 'GET', `/api/games/${created.id}`, null, ben.token)).version;
        check(before === after, `a key pressed behind the curtain played nothing (${before} → ${after})`);
        check(await page.locator('.table').evaluate((t) => t.inert), 'the table is inert behind the curtain');
        check(/I am Ben/.test(await page.locator('.curtain button').textContent()), 'the curtain\u2019s button names Ben');
      }
      await page.click('.curtain button');
    } else if (!(await playOne(page, n))) {
      await page.waitForTimeout(100);
    }
  }
  check(passedToBen, 'the game passed to Ben at the screen');
  check(!(await caughtUp(page, base, created.id, ben.token)), 'Ben\u2019s view is on screen');
  await page.waitForTimeout(500);
  const feed = async (token) => (await api(base, 'GET', `/api/games/${created.id}/steps?since=0`, null, token)).steps.flatMap((s) => s.text);
  const benSees = await feed(ben.token);
  const annSees = await feed(ann.token);
  const shown = await page.$$eval('.log li[data-raw]', (lis) => lis.map((li) => li.dataset.raw).reverse());
  const leaked = shown.filter((t) => !benSees.includes(t));
  // The test can fail: Ann's feed has lines Ben's has not.
  check(annSees.some((t) => !benSees.includes(t)), 'Ann\u2019s feed holds lines Ben may not see');
  check(leaked.length === 0, `Ben\u2019s log shows lines of Ann\u2019s feed: ${leaked.slice(0, 5).join(' | ')}`);
  check(JSON.stringify(shown) === JSON.stringify(benSees), `Ben\u2019s log is his feed: ${shown.length} lines shown, ${benSees.length} in his feed`);
  await page.screenshot({ path: path.join(shots, 'game-hot-seat-ben.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** A position with 139 infantry, one per hex, in the movement phase: 756 choices. */
function crowdedSetup() {
  const n = 7;
  const tiles = [];
  const units = [];
  let id = 1;
  for (let q = -n; q <= n; q += 1) {
    for (let r = Math.max(-n, -q - n); r <= Math.min(n, -q + n); r += 1) {
      tiles.push({ hex: [q, r], terrain: 'plains' });
      if (Math.abs(q) + Math.abs(r) > 2 && !(q >= 4 && Math.abs(r) <= 2)) units.push({ id: id++, owner: 0, kind: 'infantry', hex: [q, r], mp: 1 });
    }
  }
  return {
    rules: { preset: 'classic', players: 2, board_side: n + 2 },
    tiles,
    bank: { plains: 0, grassland: 0, forest: 0, mountain: 0, water: 0 },
    towns: [{ hex: [0, 0], owner: 0, city: true, capital_of: 0 }, { hex: [6, 0], owner: 1, city: true, capital_of: 1 }],
    units,
    players: [{}, {}],
    turn: { number: 2, active: 0, first: 0, stage: 'move', started_here: units.map((u) => u.hex) },
    reveals: [],
    units_as_given: true, // a hand-made position: no economy behind its units (8.0)
  };
}

/** Bug: the list of choices stopped at 400 buttons. Every legal action is listed, and
 *  a filter narrows the list. */
export async function manyChoices(browser, base) {
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', setup: crowdedSetup(), seats: [{ name: 'Ann' }, { kind: 'bot' }] });
  const state = await api(base, 'GET', `/api/games/${created.id}`, null, created.seats[0].token);
  check(state.legal && state.legal.length > 400, `the position has over 400 choices (${state.legal && state.legal.length})`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'many choices');
  await page.goto(created.seats[0].invite);
  await ready(page);
  const listed = await page.locator('.action-list button').count();
  check(listed === state.legal.length, `every choice is listed: ${listed} of ${state.legal.length}`);
  await page.locator('.actions > details > summary').click();
  await page.fill('.action-filter', 'infantry #139');
  const narrowed = await page.locator('.action-list button').allTextContents();
  check(narrowed.length > 0 && narrowed.length < 10 && narrowed.every((t) => t.includes('#139')), `the filter narrows the list: ${narrowed.length} left`);
  await page.screenshot({ path: path.join(shots, 'game-many-choices.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** Bug: "Saved" for an e-mail address on a server that sends no e-mail. */
export async function emailOff(browser, base) {
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', seats: [{ name: 'Ann' }, { kind: 'bot' }] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'e-mail off');
  await page.goto(created.seats[0].invite);
  await ready(page);
  await page.click('summary:has-text("Tell me when it is my move")');
  const text = await page.locator('.notify').textContent();
  check(/E-mail is off on this server/.test(text), `the page says e-mail is off: ${text}`);
  check(await page.locator('.notify input[type="email"]').isDisabled(), 'the e-mail field is disabled');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** On a phone: the map first and whole, the panel a drawer opened by its button, and
 *  a move played from it. */
export async function phone(browser, base) {
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', setup: battleSetup(), seats: [{ name: 'Ann' }, { kind: 'bot' }] });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const problems = watch(page, 'phone');
  await page.goto(created.seats[0].invite);
  await ready(page);
  const map = await page.locator('svg.map').boundingBox();
  check(map && map.y < 300 && map.height > 400 && map.width >= 360, `the map comes first and fills the screen: ${JSON.stringify(map)}`);
  check(await page.locator('.panel').isHidden(), 'the panel starts folded away');
  check(await page.locator('.zoom-controls').isVisible(), 'the zoom buttons are on the map');
  const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
  check(width <= 390, `nothing is wider than the phone (${width} px)`);
  await page.screenshot({ path: path.join(shots, 'game-phone.png') });
  const toggle = page.locator('.drawer-toggle');
  check(/Your move: \d+ choices? · show the panel/.test(await toggle.textContent()), `the drawer's button says it is your move: ${await toggle.textContent()}`);
  await toggle.tap();
  check(await page.locator('.panel').isVisible(), 'the button opens the drawer');
  check((await toggle.getAttribute('aria-expanded')) === 'true', 'the button says the drawer is open');
  await page.screenshot({ path: path.join(shots, 'game-phone-drawer.png') });
  const version = await page.locator('.status').getAttribute('data-version');
  await page.locator('.general button', { hasText: /end/i }).first().tap();
  await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v, version);
  await axe(page, 'game on a phone');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** The reserve tray: a kind chosen in the tray outlines where it may go, one click on
 *  the map places it; pointing at a choice outlines its hexes. */
export async function trayPlacement(browser, base) {
  const setup = battleSetup();
  setup.players = [{ reserve: { infantry: 2, cavalry: 1, artillery: 0, frigate: 0 } }, {}];
  setup.turn = { number: 2, active: 0, first: 0, stage: 'place' };
  setup.units = setup.units.filter((u) => u.owner === 1);
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', setup, seats: [{ name: 'Ann' }, { kind: 'bot' }] });
  check(created.id, `a game in the placement phase: ${JSON.stringify(created).slice(0, 300)}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = watch(page, 'tray');
  await page.goto(created.seats[0].invite);
  await ready(page);
  const tray = await page.locator('.tray-box').textContent();
  check(/2 × infantry/.test(tray) && /1 × cavalry/.test(tray), `the tray shows the reserve: ${tray}`);
  // Pointing at a choice outlines its hexes.
  await page.locator('.actions > details').evaluate((d) => { d.open = true; });
  const choice = page.locator('.action-list button', { hasText: /place/ }).first();
  await choice.hover();
  const lit = await page.locator('svg.map .ring-highlight').count();
  check(lit > 0, `pointing at "${await choice.textContent()}" outlines its hexes (${lit})`);
  await page.mouse.move(5, 5);
  await page.locator('.tray-unit', { hasText: 'infantry' }).click();
  check((await page.locator('.tray-unit.chosen').count()) === 1, 'the chosen kind is marked');
  const targets = await page.locator('g.hex:has(polygon.target)').evaluateAll((gs) => gs.map((g) => g.dataset.hex));
  check(targets.length === 1 && targets[0] === '-2,0', `placing infantry outlines Ann's capital only: ${targets.join(' ')}`);
  await page.screenshot({ path: path.join(shots, 'game-tray.png') });
  const version = await page.locator('.status').getAttribute('data-version');
  await page.click('g.hex[data-hex="-2,0"]');
  await page.waitForFunction((v) => document.querySelector('.status')?.dataset.version !== v, version);
  await page.waitForFunction(() => /1 × infantry/.test(document.querySelector('.tray-box')?.textContent || ''));
  check(/Ann places infantry/.test(await page.locator('.log').textContent()), 'one click on the map placed the infantry');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}
