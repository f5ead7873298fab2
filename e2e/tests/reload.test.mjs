// A reload in the middle of a game keeps the game: same board, same moves,
// and play goes on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, readBoard, until, watchErrors } from '../lib.mjs';

test('reloading mid-game keeps the game (hot-seat, keyboard play)', async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/play?mode=hotseat`);
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/game\//);
    // Keyboard: focus the first playable house and press Enter, three times
    // (the board turns to each player in turn).
    for (let i = 0; i < 3; i++) {
      const first = page.locator('.house.playable').first();
      const letter = await first.getAttribute('data-house');
      await first.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.house), letter, 'arrow keys move between houses');
      await page.keyboard.press('Enter');
      // The coach may ask for a second press to confirm a risky move.
      await until(async () => (await page.locator('.moves-list .mv').count()) === i + 1 || /again/.test(await page.locator('.move-msg').textContent()), `move ${i + 1} or the coach`);
      if (/again/.test(await page.locator('.move-msg').textContent())) await page.keyboard.press('Enter');
      await until(async () => (await page.locator('.moves-list .mv').count()) === i + 1, `move ${i + 1}`);
      await until(async () => (await page.locator('.house.playable').count()) > 0, 'board ready');
    }
    // The aria-live region announced the last move.
    await until(async () => /plays/.test(await page.locator('#announcer').textContent()), 'announcement');
    const board = await readBoard(page);
    const moves = await page.locator('.moves-list').innerText();
    await page.reload();
    await page.locator('.house.playable').first().waitFor();
    assert.deepEqual(await readBoard(page), board);
    assert.equal(await page.locator('.moves-list').innerText(), moves);
    await page.locator('.house.playable').first().click();
    await until(async () => (await page.locator('.moves-list .mv').count()) === 4 || /again/.test(await page.locator('.move-msg').textContent()), 'the move or the coach');
    if (/again/.test(await page.locator('.move-msg').textContent())) await page.locator('.house.playable').first().click();
    await until(async () => (await page.locator('.moves-list .mv').count()) === 4, 'a move after the reload');
    // The home page offers to take the unfinished game up again.
    const url = page.url();
    await page.goto(`${BASE}/`);
    await page.locator('.resume a').waitFor();
    await page.locator('.resume a').click();
    await page.waitForURL(url);
    await until(async () => (await page.locator('.moves-list .mv').count()) === 4, 'the game taken up again');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
