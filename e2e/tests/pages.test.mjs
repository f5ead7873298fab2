// Every page loads without script errors; screenshots of the main pages on
// a desktop and a phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, shot, until, watchErrors } from '../lib.mjs';

test('main pages render (desktop and phone) and the study page asks the engine', async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    for (const [path, name, ready] of [
      ['/', 'home', '.home-board .house'],
      ['/play', 'play', 'form.new-game'],
      ['/lobby', 'lobby', '.lobby-list *'],
      ['/learn', 'learn', '#r1 .house.playable'],
      ['/rules', 'rules', '.rules-board .house'],
      ['/review', 'review-list', '.games-list *'],
    ]) {
      await page.goto(`${BASE}${path}`);
      await page.locator(ready).first().waitFor();
      await shot(page, name);
    }
    // Study: an invalid position is refused by the server, a valid one analysed.
    await page.goto(`${BASE}/study`);
    await page.locator('.pos-input').fill('4-4-4-4-4-4-4-4-4-4-4-5-0-0-S');
    await page.getByRole('button', { name: 'Set' }).click();
    await until(async () => /48|seeds/.test(await page.locator('.check-msg').textContent()) && (await page.locator('.check-msg').getAttribute('class')).includes('bad'), 'invalid position refused');
    await page.locator('.pos-input').fill('0-0-0-0-0-2-1-1-0-0-4-0-20-20-S');
    await page.getByRole('button', { name: 'Set' }).click();
    await page.getByRole('button', { name: 'Ask the engine' }).click();
    await until(async () => (await page.locator('.analysis tr').count()) > 0, 'engine analysis');
    assert.match(await page.locator('.analysis tr').first().textContent(), /^F/);
    await shot(page, 'study');

    // Phone-sized screen: the board fits the width.
    const phone = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    errors.push(...[]);
    const perr = watchErrors(p);
    await p.goto(`${BASE}/play?mode=hotseat`);
    await p.getByRole('button', { name: 'Start the game' }).click();
    await p.waitForURL(/\/game\//);
    await p.locator('.house.playable').first().tap();
    await until(async () => (await p.locator('.moves-list .mv').count()) === 1, 'tap plays a move');
    const width = await p.evaluate(() => document.querySelector('.board').getBoundingClientRect().width);
    assert.ok(width <= 390, `board fits a phone (${width}px)`);
    await shot(p, 'phone-game');
    assert.deepEqual(errors, []);
    assert.deepEqual(perr, []);
  } finally {
    await b.close();
  }
});
