// End-to-end tests of the browser client: a real `hexwar serve` on a fresh SQLite
// file, driven through headless Chromium (Debian's, with playwright-core). Screenshots
// go to web/test-results/.
//
//   node tests/e2e.mjs          (from web/, after `cargo build -p hexwar`)
//
// HEXWAR_BIN overrides the server binary, CHROMIUM the browser; E2E_ONLY=battle,replay
// runs only the tests of those names (for working on one of them).

import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { check, failed, startServer } from './lib.mjs';
import * as avl from './avl.mjs';
import * as board from './board.mjs';
import * as lobby from './lobby.mjs';
import * as play from './play.mjs';
import * as replay from './replay.mjs';

const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  // Without it the launch waits instead of failing; scripts/test installs it.
  console.error(`no browser at ${executablePath}: install Debian's chromium (scripts/test does) or set CHROMIUM`);
  process.exit(1);
}
const { base, child } = await startServer();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
const only = (process.env.E2E_ONLY || '').split(',').filter(Boolean);
try {
  for (const test of [...lobby.tests, ...board.tests, ...play.tests, ...replay.tests, ...avl.tests]) {
    if (!only.length || only.includes(test.name)) await test(browser, base);
  }
} catch (e) {
  check(false, e.stack || String(e));
} finally {
  await browser.close();
  child.kill();
}
if (failed()) {
  console.error(`${failed()} browser check(s) failed`);
  process.exit(1);
}
console.log('browser tests passed; screenshots in web/test-results/');
