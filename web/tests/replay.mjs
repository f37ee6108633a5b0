// Browser tests of the replay page: the slider and the chart, what happened at each step
// (its lines and dice), the result, autoplay and the keys, on VIKTORY and A Victory Lost.

import { accessible, api, axe, battleSetup, check, keyboardReach, shot, watch } from './lib.mjs';

/** Waits until the game is over (bots playing), and returns its state. */
async function finished(base, id, tries = 300) {
  let state;
  for (let i = 0; i < tries; i += 1) {
    state = await api(base, 'GET', `/api/games/${id}`);
    if (state.status === 'over') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return state;
}

/** The replay's step label ("step 40 of 65 · turn 3, move phase"). */
const label = (page) => page.locator('.step-label').textContent();

/** Waits until the label says `step V of`. */
async function atStep(page, version, timeout = 5000) {
  await page.waitForFunction((v) => (document.querySelector('.step-label')?.textContent || '').startsWith(`step ${v} of`), version, { timeout })
    .catch(() => {});
  const text = await label(page);
  check(text.startsWith(`step ${version} of`), `the replay is at step ${version} (${text})`);
}

/** The step versions the page's label shows over a few tenths of a second. */
async function versionNow(page) {
  const m = (await label(page)).match(/^step (\d+) of/);
  return m ? Number(m[1]) : -1;
}

export async function replay(browser, base) {
  // Bots play a short game to its end; the replay page steps through it.
  const created = await api(base, 'POST', '/api/games', {
    game: 'viktory', options: { max_turns: 4 }, seats: [{ kind: 'bot' }, { kind: 'bot' }],
  });
  const state = await finished(base, created.id, 200);
  check(state.status === 'over', 'the bot game ended');
  const feed = await api(base, 'GET', `/api/games/${created.id}/steps?since=0`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'replay');
  await page.goto(`${base}/`);
  await page.waitForSelector(`a[href="/replay/${created.id}"]`);
  await page.click(`a[href="/replay/${created.id}"]`);
  await page.waitForSelector('.chart polyline');
  await page.waitForSelector('.step-label:not(:empty)');
  const end = await label(page);
  check(end.startsWith(`step ${feed.version} of ${feed.version}`), `the replay opens at its last step (${end}; the feed's version is ${feed.version})`);
  check((await page.locator('.chart polyline').count()) === 2, 'the chart has a line per player');
  check((await page.locator('h1').count()) === 1, 'the replay page has one h1');
  // One option per step, and the start.
  check((await page.locator('.step-list [role="option"]').count()) === feed.steps.length + 1, 'the list holds every step of the feed and the start');
  // The winner, the reason and the final scores, once the game is over.
  const over = state.to_move.over || state.result;
  const result = await page.locator('.replay-result').textContent();
  const winners = over.winners.map((w) => state.seats[w].name).join(' and ');
  check(result.includes(`${winners} won`) && result.includes(`(${over.reason})`), `the result names the winner and the reason: ${result}`);
  check(over.scores.every((s, i) => result.includes(`${state.seats[i].name} ${s}`)), `the result gives the final scores ${JSON.stringify(over.scores)}: ${result}`);
  await page.screenshot({ path: shot('replay-end') });
  const endTiles = await page.locator('polygon.tile:not(.face-down)').count();
  await page.click('text=Start');
  await atStep(page, 0);
  check((await page.locator('.step-now').textContent()).includes('nothing has happened'), 'the start says nothing has happened yet');
  const startTiles = await page.locator('polygon.tile:not(.face-down)').count();
  check(startTiles < endTiles, `the map at step 0 shows fewer explored tiles (${startTiles} < ${endTiles})`);
  await page.locator('#step').fill('40');
  await atStep(page, 40);
  // Step 40 is the 40th step of the feed: its lines, the seats by their names.
  const step40 = feed.steps.find((s) => s.index === 39);
  const now = await page.locator('.step-now').textContent();
  const named = (t) => t.replace(/\bSeat (\d+)\b/g, (m, n) => state.seats[Number(n) - 1].name);
  check(step40.text.every((t) => named(t).split(/#\d+/).every((part) => now.includes(part))), `"This step" shows step 40's lines (${JSON.stringify(step40.text)}): ${now}`);
  check(!/\bSeat \d\b/.test(await page.locator('.step-list').textContent()), 'the list names the players, not "Seat N"');
  check((await page.locator('.step-list [aria-selected="true"]').textContent()).startsWith('40'), 'the list marks step 40');
  await page.screenshot({ path: shot('replay-step-40') });
  await accessible(page, 'replay');
  // On a phone: every control can be reached by a tap (nothing covers it) and nothing
  // is wider than the window.
  await page.setViewportSize({ width: 390, height: 844 });
  const covered = await page.evaluate(() => [...document.querySelectorAll('.replay-controls button, .replay-controls input, .replay-controls select')]
    .filter((el) => {
      el.scrollIntoView({ block: 'center' });
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !(top === el || el.contains(top));
    }).map((el) => el.outerHTML.slice(0, 60)));
  check(covered.length === 0, `replay on a phone: controls covered by something else: ${covered.join(' | ')}`);
  const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
  check(width <= 390, `replay on a phone: the page is ${width} px wide in a 390 px window`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot('replay-phone'), fullPage: true });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/**
 * Ann moves, takes the move back, attacks Bob's capital and resigns once dice have
 * been rolled. Bob holds it with five infantry: Ann's three attack dice cannot hit them
 * all in the first round (the server rolls a round's dice in the request that starts
 * it), so the battle is still on when she resigns (with three, she took the capital in
 * 4 of 60 tries, and the game was over before the resignation). The replay, watched as a spectator, shows the dice of each step with
 * who rolled them and for what, the players' names in the lines, the winner; its
 * list jumps to a step when clicked; the keys and autoplay drive it.
 */
export async function replayDice(browser, base) {
  const setup = battleSetup();
  for (const id of [7, 8]) setup.units.push({ id, owner: 1, kind: 'infantry', hex: [2, 0], mp: 0 });
  const created = await api(base, 'POST', '/api/games', { game: 'viktory', setup, seats: [{ name: 'Ann' }, { kind: 'bot' }] });
  const id = created.id;
  const token = created.seats[0].token;
  const annState = () => api(base, 'GET', `/api/games/${id}`, null, token);
  let s = await annState();
  await api(base, 'POST', `/api/games/${id}/actions`, { version: s.version, action: s.legal.find((a) => a.type === 'move' && a.to[0] === 1 && a.to[1] === -1) }, token);
  s = await annState();
  const undone = await api(base, 'POST', `/api/games/${id}/undo`, { version: s.version }, token);
  check(undone.steps && undone.steps[0].undo, `the move was taken back: ${JSON.stringify(undone).slice(0, 200)}`);
  let rolled = false;
  for (let n = 0; n < 40 && !rolled; n += 1) {
    s = await annState();
    if (!s.legal || !s.legal.length) break;
    const action = s.legal.find((a) => a.type === 'move' && a.to[0] === 2 && a.to[1] === 0) || s.legal.find((a) => a.type === 'fight') || s.legal[0];
    await api(base, 'POST', `/api/games/${id}/actions`, { version: s.version, action }, token);
    const steps = (await api(base, 'GET', `/api/games/${id}/steps?since=0`)).steps;
    rolled = steps.some((st) => st.events.some((e) => e.type === 'die_rolled'));
  }
  check(rolled, 'the battle rolled dice');
  check((await annState()).status !== 'over', 'the battle is still on when Ann resigns');
  await api(base, 'POST', `/api/games/${id}/resign`, {}, token);
  const state = await finished(base, id, 50);
  check(state.status === 'over', 'the game is over once Ann resigned');
  const bob = state.seats[1].name;
  const feed = await api(base, 'GET', `/api/games/${id}/steps?since=0`);
  const k = feed.steps.findIndex((st) => st.events.some((e) => e.type === 'die_rolled'));
  const dice = feed.steps[k].events.filter((e) => e.type === 'die_rolled');
  // The version after step k, as the server numbers it: the index of the next step.
  const after = feed.steps[k + 1] && !feed.steps[k + 1].undo ? feed.steps[k + 1].index : feed.version;

  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'replay dice');
  await page.goto(`${base}/replay/${id}`);
  await page.waitForSelector('.step-label:not(:empty)');
  const result = await page.locator('.replay-result').textContent();
  check(result.includes(`${bob} won`) && result.includes('(resignation)'), `the result says ${bob} won by resignation: ${result}`);
  // The taken-back move is struck through, and the take-back says who took it back.
  check((await page.locator('.step-list .step-item.undone').count()) === 1, 'the move taken back is marked in the list');
  check((await page.locator('.step-list').textContent()).includes('Ann took back a move'), 'the list says Ann took back a move');
  // Clicking a step in the list goes there.
  await page.locator(`#step-${k + 1}`).click();
  await atStep(page, after);
  check((await page.locator('.step-list [aria-selected="true"]').getAttribute('id')) === `step-${k + 1}`, 'the clicked step is the marked one');
  const now = await page.locator('.step-now').textContent();
  for (const d of dice) {
    const who = state.seats[d.seat].name;
    check(now.includes(`${who} rolled ${d.value} for`), `"This step" says ${who} rolled ${d.value} (${d.purpose}): ${now}`);
  }
  check(await page.locator('.step-now .die').count() === dice.length, `"This step" shows ${dice.length} dice`);
  check(!/\bSeat \d\b/.test(now), `"This step" names the players: ${now}`);
  await page.screenshot({ path: shot('replay-dice') });

  // The keys, with the focus on the page (not in a field): ←/→, Home/End.
  await page.locator('h1').click();
  await page.keyboard.press('ArrowLeft');
  await atStep(page, after - 1);
  await page.keyboard.press('ArrowRight');
  await atStep(page, after);
  await page.keyboard.press('Home');
  await atStep(page, feed.from);
  await page.keyboard.press('End');
  await atStep(page, feed.version);
  // In the list, ↑/↓ move a step.
  await page.locator('.step-list').focus();
  await page.keyboard.press('ArrowUp');
  await atStep(page, feed.version - 1);
  // Space plays (here from the start) and pauses.
  await page.selectOption('#replay-speed', '5');
  await page.locator('h1').click();
  await page.keyboard.press('Home');
  await atStep(page, feed.from);
  await page.keyboard.press(' ');
  await page.waitForFunction(() => Number((document.querySelector('.step-label')?.textContent || '').match(/^step (\d+)/)?.[1]) >= 3, null, { timeout: 5000 }).catch(() => {});
  check((await versionNow(page)) >= 3, `autoplay moves on (${await label(page)})`);
  check((await page.locator('button.play').textContent()) === 'Pause', 'while playing, the button pauses');
  await page.keyboard.press(' ');
  const paused = await versionNow(page);
  await page.waitForTimeout(700);
  check((await versionNow(page)) === paused && (await page.locator('button.play').textContent()) === 'Play', `space paused autoplay at ${paused} (${await label(page)})`);
  // Played from near the end, it stops at the end.
  await page.locator(`#step-${feed.steps.length - 3}`).click();
  await page.click('button.play');
  await page.waitForFunction(() => document.querySelector('button.play')?.textContent === 'Play', null, { timeout: 5000 }).catch(() => {});
  await atStep(page, feed.version);
  check((await page.locator('button.play').textContent()) === 'Play', 'autoplay stopped at the end');
  await page.waitForTimeout(500);
  check((await versionNow(page)) === feed.version, 'and stays there');

  await accessible(page, 'replay dice');
  await keyboardReach(page, 'replay');
  await axe(page, 'replay');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** An A Victory Lost game between random bots: its map, the winning side, the combat
 *  dice with their odds and result. */
export async function replayAvl(browser, base) {
  let id = null;
  let feed = null;
  let k = -1;
  // Random bots nearly always fight on the demo map; a game without combat is replaced.
  for (let attempt = 0; attempt < 3 && k < 0; attempt += 1) {
    const created = await api(base, 'POST', '/api/games', { game: 'avl', preset: 'demo', seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }] });
    id = created.id;
    const over = await finished(base, id, 600);
    check(over.status === 'over', 'the A Victory Lost bot game ended');
    feed = await api(base, 'GET', `/api/games/${id}/steps?since=0`);
    k = feed.steps.findIndex((st) => st.events.some((e) => e && e.combat_result));
  }
  check(k >= 0, 'the bots fought a combat');
  const state = await api(base, 'GET', `/api/games/${id}`);
  const board = (await api(base, 'GET', `/api/games/${id}/board`)).board;
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'replay avl');
  await page.goto(`${base}/replay/${id}`);
  await page.waitForSelector('.step-label:not(:empty)');
  check((await page.locator('svg.map g.hex').count()) === board.hexes.length, 'the replay draws the map sheet');
  check((await page.locator('svg.map .counter').count()) > 0, 'counters stand on the map');
  const over = state.to_move.over || state.result;
  const side = over.winners[0] === 0 ? 'Axis' : 'Soviet';
  const result = await page.locator('.replay-result').textContent();
  check(result.includes(`${state.seats[over.winners[0]].name} (${side}) won`) && result.includes('Final victory points'), `the result names the winning side and the victory points: ${result}`);
  await page.locator(`#step-${k + 1}`).click();
  const die = feed.steps[k].events.find((e) => e && e.combat_result).combat_result.die;
  await page.waitForFunction((d) => (document.querySelector('.step-now')?.textContent || '').includes(`rolled ${d} for combat at`), die, { timeout: 5000 }).catch(() => {});
  const now = await page.locator('.step-now').textContent();
  check(now.includes(`rolled ${die} for combat at`), `"This step" shows the combat die ${die} and its odds: ${now}`);
  check(feed.steps[k].text.every((t) => now.includes(t)), `"This step" shows the step's lines ${JSON.stringify(feed.steps[k].text)}`);
  await page.screenshot({ path: shot('replay-avl-combat') });
  await axe(page, 'replay avl');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/**
 * Ann plays an `online` game with Dark fog against a bot to its end. Her replay (her
 * seat held by the browser, from her invite link) counts her own steps, which are not
 * the spectator's; the page asks for views only at the versions her feed gave.
 */
export async function replaySeat(browser, base) {
  const created = await api(base, 'POST', '/api/games', {
    game: 'viktory', preset: 'online', options: { dark: true, max_turns: 3 }, seats: [{ name: 'Ann' }, { kind: 'bot' }],
  });
  const { id } = created;
  const token = created.seats[0].token;
  for (let n = 0; n < 400; n += 1) {
    const s = await api(base, 'GET', `/api/games/${id}`, null, token);
    if (s.status === 'over') break;
    if (!s.legal || !s.legal.length) {
      await new Promise((r) => setTimeout(r, 50));
    } else {
      // Mostly something other than ending the phase, so that the game has moves.
      const other = s.legal.filter((a) => a.type !== 'end_phase');
      const action = other.length && n % 3 ? other[n % other.length] : s.legal[s.legal.length - 1];
      await api(base, 'POST', `/api/games/${id}/actions`, { version: s.version, action }, token);
    }
  }
  const state = await api(base, 'GET', `/api/games/${id}`);
  check(state.status === 'over', `Ann's Dark game ended (${state.status})`);
  const mine = await api(base, 'GET', `/api/games/${id}/steps?since=0`, null, token);
  const public_ = await api(base, 'GET', `/api/games/${id}/steps?since=0`);
  check(mine.version !== public_.version, `Ann is told other steps than a spectator (${mine.version} and ${public_.version})`);
  const versions = new Set([mine.from, ...mine.steps.filter((x) => !x.undo).map((x) => x.index), mine.version]);

  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'replay seat');
  // The invite link: the browser holds Ann's seat from then on.
  await page.goto(created.seats[0].invite);
  await page.waitForSelector('.status strong', { timeout: 15000 });
  const asked = [];
  page.on('request', (r) => {
    const m = r.url().match(/\/api\/games\/[0-9a-f]+\/at\/(\d+)$/);
    if (m) asked.push(Number(m[1]));
  });
  await page.goto(`${base}/replay/${id}`);
  await page.waitForSelector('.step-label:not(:empty)');
  check((await label(page)).startsWith(`step ${mine.version} of ${mine.version}`), `Ann's replay counts her steps: ${await label(page)} (hers: ${mine.version}, a spectator's: ${public_.version})`);
  check((await page.locator('.step-list [role="option"]').count()) === mine.steps.length + 1, "the list holds Ann's steps");
  // Walk a little: the slider's middle, then autoplay at 10 steps a second.
  await page.locator('#step').fill(String(Math.floor(mine.steps.length / 2)));
  await page.waitForTimeout(300);
  await page.selectOption('#replay-speed', '10');
  await page.click('button.play');
  await page.waitForTimeout(1200);
  await page.click('button.play');
  check(asked.length > 5 && asked.every((v) => versions.has(v)), `every view asked for is at a version of Ann's feed: ${asked.filter((v) => !versions.has(v)).join(', ') || `all ${asked.length}`}`);
  await page.screenshot({ path: shot('replay-seat-dark') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** The tests of this module, in the order they run. */
export const tests = [replay, replayDice, replayAvl, replaySeat];
