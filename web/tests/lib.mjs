// What every browser test module shares: the server, the checks, playing a decision
// through the page, and the accessibility checks (labels, keyboard reach, axe-core).
// HEXWAR_WEB serves another copy of the client (to run a test against older code).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '..');
/** The repository's root. */
export const root = path.resolve(web, '..');
export { web };
/** Where screenshots go. */
export const shots = path.join(web, 'test-results');
mkdirSync(shots, { recursive: true });

let failures = 0;
/** How many checks have failed so far. */
export const failed = () => failures;

/** Counts a failure (and says it) unless `condition` holds. */
export function check(condition, message) {
  if (!condition) {
    failures += 1;
    console.error(`FAIL: ${message}`);
  }
}

/** Starts `hexwar serve` and resolves with its base URL and process. */
export function startServer() {
  const bin = process.env.HEXWAR_BIN || path.join(root, 'target', 'debug', 'hexwar');
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'hexwar-e2e-')), 'e2e.db');
  const child = spawn(bin, ['serve', '--listen', '127.0.0.1:0', '--rate', '0', '--database', `sqlite://${db}`, '--web', process.env.HEXWAR_WEB || path.join(web, 'app')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      const match = String(chunk).match(/http:\/\/(\S+)/);
      if (match) resolve({ base: `http://${match[1]}`, child });
    });
  });
}

export async function api(base, method, url, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${url}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return response.json();
}

/** Watches a page for console errors and failed requests. */
export function watch(page, name) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${name} console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${name} page error: ${e.message}`));
  return problems;
}

/** Waits until the page has rendered the game's status line. */
export async function ready(page) {
  await page.waitForSelector('.status strong', { timeout: 15000 });
}

/** Plays one decision through the UI if it is this page's move; returns false if not.
 *  `prefer`: patterns of action texts to play first when the page offers one. */
export async function playOne(page, n, prefer) {
  await ready(page);
  const mine = await page.locator('.banner.mine').count();
  if (!mine) return false;
  const targets = page.locator('g.hex:has(polygon.target)');
  const sources = page.locator('g.hex:has(polygon.source)');
  const general = page.locator('.general button');
  const before = await page.locator('.status').getAttribute('data-version');
  // A kind of action the test still wants to see played, when the page offers one.
  let wanted = null;
  for (const re of prefer || []) {
    const found = page.locator('.action-list button', { hasText: re });
    if (await found.count()) {
      wanted = found;
      break;
    }
  }
  // The page re-renders when a live step arrives, which can take a button or hex away
  // under the pointer: a click that cannot happen within 5 s is given up (the loop
  // plays on from the new state).
  const tap = (locator) => locator.click({ timeout: 5000 }).catch(() => {});
  const openList = () => page.locator('.action-list').first().evaluate((el) => { const d = el.closest('details'); if (d) d.open = true; }).catch(() => {});
  if (wanted) {
    await openList();
    await tap(wanted.first());
  } else if (n % 3 === 0 && (await targets.count())) {
    await tap(targets.nth(n % (await targets.count())));
  } else if (n % 3 === 1 && (await sources.count())) {
    await tap(sources.nth(n % (await sources.count())));
    const t = page.locator('g.hex:has(polygon.target)');
    if (await t.count()) await tap(t.nth(0));
    else await page.keyboard.press('Escape');
  } else {
    const list = page.locator('.action-list button');
    // One snapshot of the texts: reading them one by one races a re-render.
    const texts = await list.allTextContents();
    const notEnd = texts.flatMap((text, i) => (/end (the )?(phase|turn)/i.test(text) ? [] : [i]));
    if (notEnd.length && n % 5 !== 0) {
      await openList();
      await tap(list.nth(notEnd[n % notEnd.length]));
    } else if (await general.count()) {
      await tap(general.first());
    } else if (texts.length) {
      await openList();
      await tap(list.first());
    }
  }
  await page.waitForFunction((b) => document.querySelector('.status')?.dataset.version !== b || document.querySelector('.error')?.textContent || !document.querySelector('.banner.mine'), before, { timeout: 5000 }).catch(() => {});
  const error = (await page.locator('.error').first().textContent()) || '';
  check(!error.startsWith('Refused'), `the server refused a move the UI offered: ${error}`);
  return true;
}

export async function turnNumber(page) {
  const text = await page.locator('.status').textContent();
  const match = text.match(/turn (\d+)/);
  return match ? Number(match[1]) : 0;
}

/** Every button has a name, and the board's clickable hexes are focusable. */
export async function accessible(page, name) {
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, a, input, select')]
    .filter((el) => !(el.textContent.trim() || el.getAttribute('aria-label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.getAttribute('placeholder')))
    .map((el) => el.outerHTML.slice(0, 80)));
  check(unnamed.length === 0, `${name}: controls without a label: ${unnamed.join(' | ')}`);
}

/** Tab alone reaches every visible control: buttons, links, fields, summaries and the
 *  hexes that can be acted on. Call it when the page holds still. */
export async function keyboardReach(page, name) {
  const total = await page.evaluate(() => {
    const controls = [...document.querySelectorAll('button, a[href], input, select, textarea, summary, svg.map [tabindex="0"]')]
      // What a closed <details> holds is reached by opening it (its summary is counted).
      .filter((el) => el.checkVisibility({ visibilityProperty: true }) && !el.disabled);
    controls.forEach((el, i) => el.setAttribute('data-reach', String(i)));
    return controls.length;
  });
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const reached = new Set();
  // Until every control is reached: the focus starts after the last one clicked, and
  // wraps round through stops not counted (a list the page refreshed since, the
  // browser's own), so a fixed number of presses could stop short.
  for (let i = 0; i < 3 * total + 20 && reached.size < total; i += 1) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('data-reach'));
    if (at !== null) reached.add(at);
  }
  const missed = await page.evaluate((seen) => [...document.querySelectorAll('[data-reach]')]
    .filter((el) => !seen.includes(el.getAttribute('data-reach')))
    .map((el) => el.outerHTML.slice(0, 100)), [...reached]);
  check(total > 0 && reached.size === total, `${name}: Tab reached ${reached.size} of ${total} controls; not ${missed.join(' | ')}`);
}


/** The path of screenshot `name` (a .png in web/test-results/). */
export const shot = (name) => path.join(shots, `${name}.png`);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page as it is (WCAG 2.x A and AA rules) and fails on every
 * serious or critical violation. Evaluated through the DevTools protocol, so the
 * page's Content-Security-Policy does not stop it.
 */
export async function axe(page, name) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} node(s), e.g. ${v.nodes[0].html.slice(0, 120)} — ${v.nodes[0].failureSummary.replaceAll('\n', ' ').slice(0, 200)}`);
  });
  check(violations.length === 0, `${name}: axe-core finds serious or critical violations:\n  ${violations.join('\n  ')}`);
  return violations;
}

/** A position in the movement phase: Ann's three units (infantry, infantry, cavalry)
 *  next to Bob's capital city, held by three infantry. All tiles are plains. */
export function battleSetup() {
  const tiles = [];
  for (let q = -4; q <= 4; q += 1) {
    for (let r = Math.max(-4, -q - 4); r <= Math.min(4, -q + 4); r += 1) {
      if (Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) < 4) tiles.push({ hex: [q, r], terrain: 'plains' });
    }
  }
  const unit = (id, owner, kind, hex, mp = 0) => ({ id, owner, kind, hex, mp });
  return {
    rules: { preset: 'classic', players: 2, board_side: 5 },
    tiles,
    bank: { plains: 0, grassland: 0, forest: 0, mountain: 0, water: 0 },
    towns: [
      { hex: [-2, 0], owner: 0, city: true, capital_of: 0 },
      { hex: [2, 0], owner: 1, city: true, capital_of: 1 },
    ],
    units: [
      unit(1, 0, 'infantry', [1, 0], 1), unit(2, 0, 'infantry', [1, 0], 1), unit(3, 0, 'cavalry', [1, 0], 2),
      unit(4, 1, 'infantry', [2, 0]), unit(5, 1, 'infantry', [2, 0]), unit(6, 1, 'infantry', [2, 0]),
    ],
    players: [{}, {}],
    turn: { number: 2, active: 0, first: 0, stage: 'move', started_here: [[1, 0]] },
    reveals: [],
    units_as_given: true, // a hand-made position: no economy behind its units (8.0)
  };
}

