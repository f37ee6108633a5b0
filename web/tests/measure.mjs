// Page weight and time to interactive of the lobby and a game page, measured in
// headless Chromium against a real `hexwar serve` (docs/web.md, "Page weight").
//
//   node tests/measure.mjs [runs]      (from web/, after `cargo build -p hexwar`)
//
// Each run opens the page in a fresh browser context (an empty cache) and counts:
// - the bytes over the wire (the encoded length of every response, gzip included);
// - the time from the start of navigation until the page can be used: the lobby's
//   ruleset cards drawn, or the game's board drawn with the moves the player may make
//   (`.banner.mine` and a clickable hex), measured with the page's own clock.
// The figures are the median and the spread (least, most) of the runs.

import { chromium } from 'playwright-core';
import { api, startServer } from './lib.mjs';

const runs = Number(process.argv[2] || 7);
const { base, child } = await startServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });

/** Opens `url` in a fresh context; waits for `ready` (a selector); returns {bytes, ms, requests}. */
async function load(url, ready) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    requests += 1;
  });
  await page.goto(url);
  await page.waitForSelector(ready, { timeout: 30000 });
  const ms = await page.evaluate(() => performance.now());
  // Let what the page asked for meanwhile finish (the counts include it).
  await page.waitForLoadState('networkidle').catch(() => {});
  await context.close();
  return { bytes, ms, requests };
}

function summary(name, samples) {
  const pick = (f) => samples.map(f).sort((a, b) => a - b);
  const median = (xs) => xs[Math.floor(xs.length / 2)];
  const kb = pick((s) => s.bytes / 1024);
  const ms = pick((s) => s.ms);
  const requests = pick((s) => s.requests);
  console.log(`${name}: ${median(kb).toFixed(1)} KiB over the wire (${kb[0].toFixed(1)}-${kb[kb.length - 1].toFixed(1)}), ${median(requests)} requests; interactive after ${Math.round(median(ms))} ms (${Math.round(ms[0])}-${Math.round(ms[ms.length - 1])}), ${samples.length} runs`);
}

try {
  const lobby = [];
  const game = [];
  for (let i = 0; i < runs; i += 1) {
    lobby.push(await load(base, 'button.ruleset'));
    // A classic game against a bot, at its start, as a player who follows the link.
    const created = await api(base, 'POST', '/api/games', { game: 'viktory', seats: [{ name: 'Ann' }, { kind: 'bot' }] });
    for (let n = 0; n < 50; n += 1) {
      const state = await api(base, 'GET', `/api/games/${created.id}`, null, created.seats[0].token);
      if (state.to_move.seat === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    game.push(await load(created.seats[0].invite, 'svg.map [role="button"]'));
  }
  summary('lobby', lobby);
  summary('game page', game);
} finally {
  await browser.close();
  child.kill();
}
