// The keyboard and the touch screen: a game started from the form puts
// the focus on the player's board (their first playable house), the
// opponent's six houses are no tab stops, ↓ on the bottom row stays there
// (↑ reaches the opponent's row to read it, ↓ comes back); the coach asks
// to "tap" a house again on a touch screen and to "click" it with a mouse,
// in English and French.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, until, watchErrors } from '../lib.mjs';

const active = (page) => page.evaluate(() => document.activeElement?.dataset?.house || document.activeElement?.tagName || null);

test('keyboard: the game starts on the board, the opponent’s row is no tab stop, ↓ stays on the bottom row', async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/play?lang=en`);
    await page.getByLabel('The computer').check();
    await page.locator('[name=level]').selectOption('1');
    await page.getByLabel('South (bottom)').check();
    await page.getByRole('button', { name: 'Start the game' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.locator('.house.playable').first().waitFor();
    // The focus is on the player's first playable house, not the page's body.
    await until(() => page.evaluate(() => document.activeElement?.matches('.row-bottom .house.playable')), `the focus on a playable house (${await active(page)})`);
    const first = await active(page);
    assert.equal(first, await page.locator('.row-bottom .house.playable').first().getAttribute('data-house'));
    // ↓ on the bottom row stays there; ↑ reads the opponent's row; ↓ comes back.
    await page.keyboard.press('ArrowDown');
    assert.equal(await active(page), first, '↓ on the bottom row stays');
    await page.keyboard.press('ArrowUp');
    assert.match(await active(page), /^[a-f]$/, '↑ reaches the opponent’s row');
    await page.keyboard.press('ArrowUp');
    assert.match(await active(page), /^[a-f]$/, '↑ on the top row stays');
    await page.keyboard.press('ArrowDown');
    assert.equal(await active(page), first, '↓ comes back');
    // Tab walks the player's houses and leaves the board without the opponent's.
    const walked = [];
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      walked.push(await active(page));
    }
    assert.deepEqual(walked.filter((x) => /^[a-f]$/.test(x)), [], `no tab stop on the opponent’s houses: ${walked.join(' ')}`);
    assert.deepEqual(walked.slice(0, 5 - 'ABCDEF'.indexOf(first)), [...'ABCDEF'.slice('ABCDEF'.indexOf(first) + 1)], 'Tab goes through the player’s houses');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

// D hands North a capture of 5: the coach warns and asks for a second press.
const RISKY = '/play?mode=hotseat&position=1-2-0-1-0-0-0-0-0-0-0-2-21-21-S';

test('the coach says "tap" on a touch screen and "click" with a mouse, in English and French', async () => {
  const b = await launch();
  try {
    for (const [lang, tap, click] of [['en', /Tap D again/, /Click D again/], ['fr', /Touchez encore D/, /Cliquez encore sur D/]]) {
      for (const touch of [true, false]) {
        const ctx = await b.newContext(touch ? { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } : {});
        const page = await ctx.newPage();
        const errors = watchErrors(page);
        await page.goto(`${BASE}${RISKY}&lang=${lang}`);
        await page.locator('form.new-game button[type=submit]').click();
        await page.waitForURL(/\/game\//);
        const d = page.locator('.house[data-house="D"].playable');
        await d.waitFor();
        if (touch) await d.tap(); else await d.click();
        await until(async () => /again|encore/.test(await page.locator('.move-msg').textContent()), 'the coach’s warning');
        const said = await page.locator('.move-msg').textContent();
        assert.match(said, touch ? tap : click, `${lang}, ${touch ? 'touch' : 'mouse'}: ${said}`);
        assert.doesNotMatch(said, touch ? click : tap);
        assert.deepEqual(errors, []);
        await ctx.close();
      }
    }
  } finally {
    await b.close();
  }
});
