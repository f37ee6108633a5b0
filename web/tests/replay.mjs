// Browser tests of the replay page.

import path from 'node:path';
import { accessible, api, check, shots, watch } from './lib.mjs';

export async function replay(browser, base) {
  // Bots play a short game to its end; the replay page steps through it.
  const created = await api(base, 'POST', '/api/games', {
    game: 'viktory', options: { max_turns: 4 }, seats: [{ kind: 'bot' }, { kind: 'bot' }],
  });
  let state;
  for (let i = 0; i < 200; i += 1) {
    state = await api(base, 'GET', `/api/games/${created.id}`);
    if (state.status === 'over') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  check(state.status === 'over', 'the bot game ended');
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = watch(page, 'replay');
  await page.goto(`${base}/`);
  await page.waitForSelector(`a[href="/replay/${created.id}"]`);
  await page.click(`a[href="/replay/${created.id}"]`);
  await page.waitForSelector('.chart polyline');
  const end = await page.locator('.step-label').textContent();
  check(/step \d+ of \d+/.test(end), `the replay shows its step (${end})`);
  check((await page.locator('.chart polyline').count()) === 2, 'the chart has a line per player');
  await page.screenshot({ path: path.join(shots, '07-replay-end.png') });
  const endTiles = await page.locator('polygon.tile:not(.face-down)').count();
  await page.click('text=Start');
  await page.waitForFunction(() => /step 0 of/.test(document.querySelector('.step-label')?.textContent || ''));
  const startTiles = await page.locator('polygon.tile:not(.face-down)').count();
  check(startTiles < endTiles, `the map at step 0 shows fewer explored tiles (${startTiles} < ${endTiles})`);
  await page.locator('#step').fill('40');
  await page.waitForFunction(() => /step 40 of/.test(document.querySelector('.step-label')?.textContent || ''));
  await page.screenshot({ path: path.join(shots, '08-replay-step-40.png') });
  await accessible(page, 'replay');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}


/** The tests of this module, in the order they run. */
export const tests = [replay];
