// Browser tests of A Victory Lost as a wargamer plays it (issue 27): the stack viewer,
// the odds a combat was resolved at, each choice listed once, whole moves along a
// path, and "why not?" for a hex the selected stack cannot enter. The positions are
// reached by playing the demo scenario through the API for both seats (the server
// rolls the dice), then the page is opened as the seat that must act.

import path from 'node:path';
import { api, axe, check, ready, shots, watch } from './lib.mjs';

const key = (hex) => `${hex[0]},${hex[1]}`;
const type = (a) => (typeof a === 'string' ? a : Object.keys(a)[0]);
const neighbours = ([q, r]) => [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]].map(([dq, dr]) => [q + dq, r + dr]);

/** Pieces by hex key, from a view. */
function stacksOf(state) {
  const out = new Map();
  state.view.position.pieces.forEach((p, i) => {
    if (p.location && p.location.map) {
      const k = key(p.location.map);
      out.set(k, [...(out.get(k) || []), i]);
    }
  });
  return out;
}

/** The hexes whose pieces have legal moves, each with the pieces that may move. */
function movers(state) {
  const out = new Map();
  const moves = (state.advice && state.advice.movement && state.advice.movement.moves) || [];
  for (const m of moves) {
    const at = key(state.view.position.pieces[m.piece].location.map);
    out.set(at, new Set([...(out.get(at) || []), m.piece]));
  }
  return out;
}

/**
 * A demo game between Ann and Bob, played through the API (both seats; the server rolls
 * the dice) until `wanted(state, game)` holds for the seat to move. `choose(state)` picks
 * each action (default: random, ending Movement Segments early). Gives up after `limit`
 * actions; tries a few games.
 */
async function reach(base, wanted, choose, limit = 1500) {
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const created = await api(base, 'POST', '/api/games', { game: 'avl', preset: 'demo', seats: [{ name: 'Ann' }, { name: 'Bob' }] });
    const tokens = created.seats.map((s) => s.token);
    const game = { created, tokens, board: (await api(base, 'GET', `/api/games/${created.id}/board`)).board };
    for (let n = 0; n < limit; n += 1) {
      const peek = await api(base, 'GET', `/api/games/${created.id}`, null, tokens[0]);
      if (peek.status === 'finished' || peek.result || (peek.to_move && peek.to_move.over)) break;
      const seat = peek.to_move.seat;
      if (seat === undefined || seat === null) {
        await new Promise((r) => setTimeout(r, 30));
        continue;
      }
      const state = seat === 0 ? peek : await api(base, 'GET', `/api/games/${created.id}`, null, tokens[seat]);
      if (await wanted(state, game)) return { ...game, seat, state };
      const action = (choose && choose(state)) || state.legal[Math.floor(Math.random() * state.legal.length)];
      await api(base, 'POST', `/api/games/${created.id}/actions`, { version: state.version, action }, tokens[seat]);
    }
  }
  return null;
}

/** The default choice: random, but a Movement Segment mostly ends at once. */
function hurry(state) {
  const end = state.legal.find((a) => type(a) === 'end_movement');
  if (end && Math.random() < 0.7) return end;
  return null;
}

async function open(browser, base, found, viewport = { width: 1280, height: 800 }, extra = {}) {
  const context = await browser.newContext({ viewport, ...extra });
  const page = await context.newPage();
  const problems = watch(page, 'avl');
  await page.goto(found.created.seats[found.seat].invite);
  await ready(page);
  await page.waitForSelector('svg.map .counter');
  return { context, page, problems };
}

/** Bug: hovering a "+1" stack showed only "4317 clear"; the piece list sat on a layer
 *  that ignores the mouse. The stack viewer lists every piece by mouse, keyboard and tap. */
export async function avlStackViewer(browser, base) {
  const found = await reach(base, (s) => s.view.position.phase === 'movement' && [...movers(s).keys()].some((k) => (stacksOf(s).get(k) || []).length > 1), hurry);
  check(found, 'a Movement Segment with a stack to move was reached');
  if (!found) return;
  const stacks = stacksOf(found.state);
  const [k, list] = [...movers(found.state)].map(([at]) => [at, stacks.get(at)]).find(([, l]) => l.length > 1);
  const names = list.map((p) => found.board.pieces[p].id);
  const { context, page, problems } = await open(browser, base, found);
  // The mouse: pointing at the stack shows every piece in it.
  await page.locator(`g.hex[data-hex="${k}"]`).hover();
  const viewer = page.locator('.avl-stack');
  await viewer.waitFor({ timeout: 3000 }).catch(() => {});
  const text = (await viewer.count()) ? await viewer.textContent() : '';
  check(names.every((n) => text.includes(n)), `pointing at a stack lists all its pieces (${names.join(', ')}): "${text}"`);
  check(await page.locator('.avl-stack .avl-piece').count() === list.length, 'one line per piece of the stack');
  check(/MP left/.test(text) && /(strength|attack) \d/.test(text), `the viewer says strengths and MPs left: "${text}"`);
  await page.screenshot({ path: path.join(shots, 'avl-stack-viewer.png') });
  // The keyboard: a hex with actions, focused, shows its stack.
  await page.mouse.move(5, 5);
  await page.locator(`g.hex[data-hex="${k}"]`).focus();
  check((await page.locator('.avl-stack').getAttribute('data-hex').catch(() => null)) === k, 'focusing a stack shows it in the viewer');
  // The tile's own name lists the pieces too (a tooltip and a screen reader's name).
  const title = await page.locator(`g.hex[data-hex="${k}"] > title`).textContent();
  check(names.every((n) => title.includes(n)), `the hex's title names its pieces: "${title}"`);
  const label = await page.locator(`g.hex[data-hex="${k}"]`).getAttribute('aria-label');
  check(names.every((n) => label.includes(n)), `the hex's accessible name names its pieces: "${label}"`);
  await axe(page, 'avl stack viewer');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
  // A phone: a tap pins the stack in the viewer.
  const phone = await open(browser, base, found, { width: 390, height: 844 }, { isMobile: true, hasTouch: true });
  const enemy = [...stacks].find(([, l]) => l.length > 1 && found.board.pieces[l[0]].side !== found.board.pieces[list[0]].side) || [k, list];
  // Bring the hex into view: zoom in around it, then tap it.
  const tile = phone.page.locator(`g.hex[data-hex="${enemy[0]}"]`);
  await tile.scrollIntoViewIfNeeded();
  const box = await tile.boundingBox();
  await phone.page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await phone.page.waitForTimeout(300);
  const tapped = (await phone.page.locator('.avl-stack').count()) ? await phone.page.locator('.avl-stack').textContent() : '';
  check(enemy[1].every((p) => tapped.includes(found.board.pieces[p].id)), `a tap on a stack shows its pieces on a phone: "${tapped}"`);
  await phone.page.screenshot({ path: path.join(shots, 'avl-stack-viewer-phone.png') });
  check(phone.problems.length === 0, phone.problems.join('\n'));
  await phone.context.close();
}

/** Bug: after the result the panel said "12 against 0: odds 3-1" (the board after the
 *  defender retreated) while the log said "12 against 3". It shows what was rolled. */
export async function avlResolvedOdds(browser, base) {
  let rolled = null;
  const found = await reach(base, async (s, game) => {
    const b = s.view.position.battle;
    if (!b || !b.die || !s.advice || !s.advice.combat) return false;
    const steps = await api(base, 'GET', `/api/games/${game.created.id}/steps?since=${Math.max(0, s.version - 30)}`, null, game.tokens[s.you]);
    const odds = steps.steps.flatMap((st) => st.events).filter((e) => e.odds).map((e) => e.odds).pop();
    rolled = odds;
    // The bug's condition: the board now counts other strengths than the roll did.
    return odds && (odds.attack !== s.advice.combat.attack || odds.defense !== s.advice.combat.defense);
  }, (s) => {
    const pick = (t) => s.legal.find((a) => type(a) === t);
    if (s.view.position.phase === 'combat') return pick('resolve') || (Math.random() < 0.8 ? pick('attack') : null);
    return Math.random() < 0.5 ? null : pick('end_movement');
  }, 2500);
  check(found, 'a combat whose board changed after its roll was reached');
  if (!found) return;
  const { context, page, problems } = await open(browser, base, found);
  const box = page.locator('[aria-label="combat"]');
  await box.waitFor();
  const text = await box.textContent();
  const want = `${rolled.attack} against ${rolled.defense}: odds ${rolled.column}`;
  check(text.includes(`Resolved at ${want}`), `the combat panel shows the odds it was resolved at (${want}): "${text}"`);
  const now = `${found.state.advice.combat.attack} against ${found.state.advice.combat.defense}`;
  check(!text.includes(now), `and not the strengths left on the board (${now})`);
  await page.screenshot({ path: path.join(shots, 'avl-resolved-odds.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** Bug: each chit was listed twice (as a button and under "All 5 choices"). */
export async function avlChoicesOnce(browser, base) {
  const found = await reach(base, (s) => s.legal.length > 1 && s.legal.every((a) => ['select_chit', 'choose_chit'].includes(type(a))));
  check(found, 'a chit choice was reached');
  if (!found) return;
  const { context, page, problems } = await open(browser, base, found);
  const texts = await page.locator('.actions button').allTextContents();
  for (const t of found.state.legal_text) {
    const n = texts.filter((x) => x.startsWith(t)).length;
    check(n === 1, `"${t}" is offered once, not ${n} times`);
  }
  await page.screenshot({ path: path.join(shots, 'avl-chits-once.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** A hex two steps from `from` that the group can surely reach: the first step one the
 *  engine offers at 1 MP out of any ZOC, the second clear, empty, out of any ZOC, with
 *  no river between. */
function twoSteps(state, board, from, group) {
  const zoc = new Set(state.advice.movement.enemy_zoc.map(key));
  const hexes = new Map(board.hexes.map((x) => [key(x.hex), x]));
  const sides = new Map(board.sides.map((s) => [[key(s.hexes[0]), key(s.hexes[1])].sort().join('|'), s]));
  const stacks = stacksOf(state);
  const moves = state.advice.movement.moves.filter((m) => group.includes(m.piece) && !m.road);
  const firsts = [...new Set(moves.map((m) => key(m.to)))].filter((t) => group.every((p) => moves.some((m) => m.piece === p && key(m.to) === t && m.cost <= 2 && !m.zoc && m.left >= 2)));
  for (const t of firsts) {
    if (stacks.has(t)) continue;
    for (const n of neighbours(t.split(',').map(Number))) {
      const nk = key(n);
      const x = hexes.get(nk);
      const side = sides.get([t, nk].sort().join('|')) || {};
      if (!x || x.water || x.terrain !== 'clear' || x.pocket || zoc.has(nk) || stacks.has(nk) || side.barrier || nk === from) continue;
      if (neighbours(from.split(',').map(Number)).some((m) => key(m) === nk)) continue;
      return { via: t, to: nk, label: x.label };
    }
  }
  return null;
}

/** Bug: a piece moved one hex per action (an 8-MP panzer took up to 16 clicks) and a
 *  stack asked "Jul or Cun?" at every step. Now: pick the stack, click the destination,
 *  see the path, confirm; every piece goes along it, one engine step at a time. */
export async function avlWholeMove(browser, base) {
  let plan = null;
  const found = await reach(base, (s, game) => {
    if (s.view.position.phase !== 'movement') return false;
    const stacks = stacksOf(s);
    for (const [at, pieces] of movers(s)) {
      const group = [...pieces];
      if (group.length < 2 || group.length !== (stacks.get(at) || []).length) continue;
      const two = twoSteps(s, game.board, at, group);
      if (two) {
        plan = { from: at, group, ...two };
        return true;
      }
    }
    return false;
  }, hurry, 3000);
  check(found, 'a Movement Segment with a whole stack free to move two hexes was reached');
  if (!found) return;
  const { context, page, problems } = await open(browser, base, found);
  const version = async () => Number(await page.locator('.status').getAttribute('data-version'));
  const v0 = await version();
  await page.locator(`g.hex[data-hex="${plan.from}"]`).click();
  await page.locator(`g.hex[data-hex="${plan.to}"]`).click();
  const path0 = await page.locator('.avl-path').textContent().catch(() => '');
  check(path0.includes(plan.label), `the path to ${plan.label} is shown before it is played: "${path0}"`);
  check(await page.locator('svg.map .avl-route').count() === 1, 'the path is drawn on the map');
  await page.screenshot({ path: path.join(shots, 'avl-path.png') });
  const names = plan.group.map((p) => found.board.pieces[p].id);
  const steps = (path0.match(/\u2192/g) || []).length;
  await page.locator('.avl-go').click();
  await page.waitForFunction((n) => Number(document.querySelector('.status')?.dataset.version) >= n, v0 + steps * plan.group.length, { timeout: 15000 }).catch(() => {});
  await page.waitForTimeout(300);
  const after = await api(base, 'GET', `/api/games/${found.created.id}`, null, found.tokens[found.seat]);
  const there = plan.group.filter((p) => key(after.view.position.pieces[p].location.map) === plan.to);
  check(there.length === plan.group.length, `the whole stack (${names.join(', ')}) went to ${plan.label}: ${there.length} of ${plan.group.length}`);
  check(after.version === v0 + steps * plan.group.length, `one engine Move per hex and piece: version ${v0} -> ${after.version}`);
  const note = await page.locator('.avl-note').textContent().catch(() => '');
  check(note.includes('moved to'), `the page says the move was made: "${note}"`);
  // Take-back works as before: one step back.
  if (after.can_undo) {
    await page.locator('button.undo').click();
    await page.waitForFunction((n) => Number(document.querySelector('.status')?.dataset.version) > n, after.version, { timeout: 5000 }).catch(() => {});
    check(await version() === after.version + 1, 'the last step can be taken back');
  }
  await page.screenshot({ path: path.join(shots, 'avl-moved.png') });
  await axe(page, 'avl whole move');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
}

/** A move the engine refuses midway stops there and says why: a destination farther
 *  than the stack's MPs. Hovering a hex it cannot enter says why not. */
export async function avlMoveRefused(browser, base) {
  let plan = null;
  const found = await reach(base, (s, game) => {
    if (s.view.position.phase !== 'movement') return false;
    const hexes = new Map(game.board.hexes.map((x) => [key(x.hex), x]));
    for (const [at, pieces] of movers(s)) {
      const group = [...pieces];
      const moves = s.advice.movement.moves.filter((m) => m.piece === group[0]);
      // A neighbour the engine does not offer, to ask "why not?".
      const offered = new Set(s.advice.movement.moves.filter((m) => pieces.has(m.piece)).map((m) => key(m.to)));
      if (!neighbours(at.split(',').map(Number)).some((n) => hexes.has(key(n)) && !offered.has(key(n)))) continue;
      const left = (moves[0].left + moves[0].cost) / 2;
      // A land hex in line, farther than the MPs left allow.
      const [q, r] = at.split(',').map(Number);
      for (const [dq, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]]) {
        const d = Math.ceil(left) + 2;
        const far = `${q + dq * d},${r + dr * d}`;
        if (hexes.has(far) && !hexes.get(far).water) {
          plan = { from: at, far, label: hexes.get(far).label };
          return true;
        }
      }
    }
    return false;
  }, hurry, 3000);
  check(found, 'a Movement Segment was reached');
  if (!found) return;
  const { context, page, problems } = await open(browser, base, found);
  await page.locator(`g.hex[data-hex="${plan.from}"]`).click();
  // "Why not?": a neighbour the engine does not offer, if there is one.
  const offered = new Set(found.state.advice.movement.moves.filter((m) => key(found.state.view.position.pieces[m.piece].location.map) === plan.from).map((m) => key(m.to)));
  const hexes = new Set(found.board.hexes.map((x) => key(x.hex)));
  const refusedHex = neighbours(plan.from.split(',').map(Number)).map(key).find((n) => hexes.has(n) && !offered.has(n));
  if (refusedHex) {
    await page.locator(`g.hex[data-hex="${refusedHex}"]`).hover({ force: true });
    const why = await page.locator('.avl-why').textContent().catch(() => '');
    check(/not a step the engine offers/.test(why) && why.length > 45, `hovering a hex the stack cannot enter says why: "${why}"`);
    await page.screenshot({ path: path.join(shots, 'avl-why-not.png') });
  } else {
    console.log('  avl: every neighbour was open; "why not" not tried');
  }
  await page.fill('input[aria-label="move to hex (XXYY)"]', plan.label);
  await page.locator('.avl-goto button').click();
  const shown = await page.locator('.avl-path').textContent().catch(() => '');
  if (!shown) {
    // No route on the map (water, enemies): the page says so.
    const note = await page.locator('.avl-move').textContent();
    check(/No route/.test(note), `no path, and the page says why: "${note}"`);
  } else {
    await page.locator('.avl-go').click();
    await page.waitForSelector('.avl-note', { timeout: 20000 }).catch(() => {});
    const note = await page.locator('.avl-note').textContent().catch(() => '');
    check(/stopped at \d{4}: the step into \d{4} was refused: .+/.test(note), `a refused step stops the move and says why: "${note}"`);
  }
  await page.screenshot({ path: path.join(shots, 'avl-move-refused.png') });
  // The refused step's 422 is the engine saying no, as it should.
  const others = problems.filter((x) => !/status of 422/.test(x));
  check(others.length === 0, others.join('\n'));
  await context.close();
}

export const tests = [avlStackViewer, avlResolvedOdds, avlChoicesOnce, avlWholeMove, avlMoveRefused];
