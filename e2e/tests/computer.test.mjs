// A complete game against the computer, played by clicks, from a short
// endgame position. We always play our leftmost playable house; from this
// position every game then ends within 4 to 6 of our moves whatever the
// computer plays (checked by simulating 100,000 games against random replies
// with the rules core). The first position used here allowed long cycles and
// made the test flaky.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, readBoard, shot, until, watchErrors } from '../lib.mjs';

const ENDGAME = '0-0-0-0-0-2-2-2-0-1-2-0-17-22-S';

test('a full game against the computer, by clicks', async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    // Count the tones the page makes (WebAudio oscillators).
    await page.addInitScript(() => {
      window.tones = 0;
      const make = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function createOscillator() { window.tones += 1; return make.call(this); };
    });
    await page.goto(`${BASE}/play`);
    await page.getByLabel('The computer').check();
    await page.locator('[name=level]').selectOption('1');
    await page.getByLabel('South (bottom)').check();
    await page.locator('[name=position]').fill(ENDGAME);
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.locator('.house.playable').first().waitFor();

    const before = await readBoard(page);
    assert.equal(before.F, 2, 'the board shows the chosen position');
    assert.equal(before.S, 17);

    // A refused move: A is empty; the page says why and the board is unchanged.
    await page.locator('.house[data-house="A"]').click();
    await until(async () => /empty/i.test(await page.locator('.move-msg').textContent()), 'refusal message');
    assert.match(await page.locator('.move-msg').textContent(), /R3/);
    assert.deepEqual(await readBoard(page), before);

    // Hover preview: where the last seed of F lands.
    await page.locator('.house[data-house="F"]').hover();
    await until(async () => /last seed in/i.test(await page.locator('.preview-line').textContent()), 'hover preview');
    await shot(page, 'game-vs-computer');

    // Sounds are off until switched on, and the choice is remembered.
    assert.equal(await page.getByLabel('Sounds').isChecked(), false);
    await page.getByLabel('Sounds').check();
    assert.equal(await page.evaluate(() => localStorage.getItem('oware.set.sound')), '1');

    // Play until the game is over: the first highlighted house each turn.
    let clicks = 0;
    const deadline = Date.now() + 120000;
    while (!(await page.locator('.result-card').isVisible())) {
      assert.ok(clicks < 20 && Date.now() < deadline, 'the game should end within 20 of our moves and two minutes');
      const playable = page.locator('.house.playable');
      if (await playable.count() === 0) { await page.waitForTimeout(150); continue; }
      const plies = await page.locator('.moves-list .mv').count();
      const house = playable.first();
      await house.click();
      // The coach may ask for a second click to confirm a risky move.
      await until(async () => (await page.locator('.moves-list .mv').count()) > plies || /again/.test(await page.locator('.move-msg').textContent()) || await page.locator('.result-card').isVisible(), 'our move or the coach');
      if (/again/.test(await page.locator('.move-msg').textContent())) await house.click();
      await until(async () => (await page.locator('.moves-list .mv').count()) > plies || page.locator('.result-card').isVisible(), 'our move to be played');
      clicks += 1;
    }
    const result = await page.locator('.result-text').textContent();
    assert.ok(await page.evaluate(() => window.tones) > clicks, 'a sound for each move and for the end');
    assert.match(result, /^(You won|You lost|Draw), \d+–\d+$/);
    const end = await readBoard(page);
    assert.equal(Object.values(end).reduce((a, n) => a + n, 0), 48, 'seeds are conserved on screen');
    await shot(page, 'game-over');

    // The finished game is in the past games list and can be reviewed.
    const id = page.url().split('/').pop();
    await page.getByRole('link', { name: 'Review this game' }).click();
    await page.waitForURL(new RegExp(`/review/${id}$`));
    await until(async () => (await page.locator('.review-moves button').count()) > 0, 'review move list');
    await until(async () => (await page.locator('.eval-status').textContent()) === '', 'engine review', 60000);
    await page.locator('.review-moves button').first().click();
    await until(async () => /^1\. [A-F] \(South\)/.test(await page.locator('.ply-info').textContent()), 'first ply evaluation');
    await shot(page, 'review');
    await page.goto(`${BASE}/review`);
    // In "My games" (this browser holds its seat), not in the public list
    // of finished online games.
    await page.locator(`.mine-list a[href="/review/${id}"]`).waitFor();
    await page.locator('.games-list *').first().waitFor();
    assert.equal(await page.locator(`.games-list a[href="/review/${id}"]`).count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
