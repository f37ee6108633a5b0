// Browser tests of the lobby: making games, the lists of games, and my games.

import path from 'node:path';
import { accessible, check, keyboardReach, shots } from './lib.mjs';

/**
 * From the lobby at `base`, Ann makes a classic 2-player game against a bot with the
 * option max turns set to 30 (and no other option changed), and opens it: the page is
 * left on the new game. The vs-bot test of play.mjs plays it on.
 */
export async function createVsBotInLobby(page, base) {
  await page.goto(base);
  await page.waitForSelector('form.form');
  await accessible(page, 'lobby');
  await keyboardReach(page, 'lobby');
  await page.selectOption('#preset', 'classic');
  await page.fill('input[name="name-0"]', 'Ann');
  await page.click('details.options > summary');
  // Settings have controls of their kind: a number, a list of victory conditions.
  await page.fill('#option-max_turns', '30');
  check(await page.locator('#option-max_turns[type="number"]').count() === 1, 'max turns is a number field');
  check(await page.locator('#option-victory input[value="standard_conquest"]').isChecked(), 'the preset\'s victory condition is ticked');
  check(await page.locator('select#option-suppression option').count() === 3, 'suppression offers its three choices');
  await page.screenshot({ path: path.join(shots, '01-lobby.png') });
  await page.click('button[type="submit"]');
  await page.waitForSelector('a.button.primary', { timeout: 5000 }).catch(async () => {
    check(false, `the game was not created: ${await page.locator('.error').first().textContent()}`);
  });
  await page.click('a.button.primary');
}

/** The tests of this module, in the order they run. */
export const tests = [];
