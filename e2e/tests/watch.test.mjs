// Watch, on a phone (360×640) in English and French: a public game being
// played is listed and featured with a live board; a private one is not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, readBoard, shot, until, watchErrors } from '../lib.mjs';

const phone = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };

async function playFirst(page) {
  const house = page.locator('.house.playable').first();
  await house.waitFor();
  await house.click();
  await page.waitForTimeout(100);
  if (/again/.test(await page.locator('.move-msg').textContent())) await house.click();
}

test('phone: watch the games being played now', async () => {
  const b = await launch();
  try {
    const a = await (await b.newContext(phone)).newPage();
    const pb = await (await b.newContext(phone)).newPage();
    const viewer = await (await b.newContext(phone)).newPage();
    const errors = [watchErrors(a), watchErrors(pb), watchErrors(viewer)];

    // Ama's public game, taken from the lobby by Kofi.
    await a.goto(`${BASE}/lobby`);
    await a.locator('form.create-online [name=name]').fill('Ama');
    await a.getByLabel('South (bottom)').check();
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const id = a.url().split('/game/')[1];
    await pb.goto(`${BASE}/lobby`);
    await pb.locator(`.seeks tr[data-id="${id}"] .join`).click({ timeout: 10000 });
    await pb.waitForURL(new RegExp(`/game/${id}`));
    await playFirst(a);
    await until(async () => (await pb.locator('.moves-list .mv').count()) === 1, 'the move reaches Kofi');

    // The viewer finds it from the menu.
    await viewer.goto(`${BASE}/`);
    await viewer.getByRole('button', { name: 'Menu' }).click();
    await viewer.getByRole('link', { name: 'Watch' }).click();
    await viewer.waitForURL(/\/watch$/);
    const row = viewer.locator(`.watch-list tr[data-id="${id}"]`);
    await row.waitFor({ timeout: 15000 });
    assert.match(await row.innerText(), /Ama/);
    assert.match(await row.innerText(), /\b1 ply\b/);
    // Featured when it is the only game, or the best-rated (other tests may
    // leave games in play on this server): the card shows a live board.
    await viewer.locator('.tv-card .board-host .house').first().waitFor();
    const tvHref = await viewer.locator('.tv-open').getAttribute('href');
    if (tvHref === `/game/${id}`) {
      assert.deepEqual(await readBoard(viewer, '.tv-card'), await readBoard(a));
      // Kofi moves: the featured board follows by itself.
      await playFirst(pb);
      // (Key order follows each board's orientation: compare sorted.)
      const same = (x, y) => JSON.stringify(Object.entries(x).sort()) === JSON.stringify(Object.entries(y).sort());
      await until(async () => same(await readBoard(viewer, '.tv-card'), await readBoard(pb)), 'the featured board follows the game', 10000);
    }
    const width = await viewer.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `the watch page fits the phone (${width} px)`);
    await shot(viewer, 'phone-watch');

    // In French.
    await viewer.getByRole('button', { name: 'FR' }).click();
    await until(async () => /Parties en cours/.test(await viewer.locator('h1').textContent()), 'the French title');
    await until(async () => /Regarder/.test(await row.innerText()), 'the French row');

    // Opening it from the list makes the viewer a spectator.
    await row.getByRole('link').click();
    await viewer.waitForURL(new RegExp(`/game/${id}`));
    await viewer.locator('.house').first().waitFor();
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
  }
});
