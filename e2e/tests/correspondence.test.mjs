// A correspondence game on phones (360×640): days for each move, "your
// move" in My games and in the tab's title, and a move after the server
// was killed and started again on the same database.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, shot, until, watchErrors, freePort, startServer } from '../lib.mjs';

const phone = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };
const moveCount = (page) => page.locator('.moves-list .mv').count();

async function playFirst(page) {
  const house = page.locator('.house.playable').first();
  await house.waitFor();
  await house.click();
  await page.waitForTimeout(100);
  if (/again/.test(await page.locator('.move-msg').textContent())) await house.click();
}

test('phone: a correspondence game goes on after a server restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oware-corr-'));
  const port = await freePort();
  const db = join(dir, 'games.sqlite3');
  let server = await startServer({ port, db });
  const BASE = server.url;
  const b = await launch();
  try {
    const a = await (await b.newContext(phone)).newPage();
    const pb = await (await b.newContext(phone)).newPage();
    const errors = [watchErrors(a), watchErrors(pb)];

    // Ama offers a game at 3 days a move.
    await a.goto(`${BASE}/lobby`);
    await a.locator('form.create-online [name=name]').fill('Ama');
    await a.getByLabel('South (bottom)').check();
    await a.getByLabel('Correspondence (days per move)').check();
    assert.equal(await a.locator('form.create-online [name=odays]').isVisible(), true, 'the days appear');
    await a.locator('form.create-online [name=odays]').selectOption('3');
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const id = a.url().split('/game/')[1];

    // Kofi takes it from the lobby, which shows the time control.
    await pb.goto(`${BASE}/lobby`);
    const row = pb.locator(`.seeks tr[data-id="${id}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), /3 days per move/);
    await pb.locator('form.create-online [name=name]').fill('Kofi').catch(() => {});
    await row.locator('.join').click();
    await pb.waitForURL(new RegExp(`/game/${id}`));
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'Ama to move');
    assert.match(await a.locator('.mode-line').textContent(), /3 days per move/);
    // The clock counts days and hours.
    const clock = a.locator('[data-clock="S"]');
    await until(async () => /^2 d 23 h$|^3 d 0 h$/.test(await clock.textContent()), `a clock in days (${await clock.textContent()})`);

    await playFirst(a);
    await until(async () => (await moveCount(pb)) === 1, 'the move reaches Kofi');
    await shot(a, 'phone-correspondence');

    // Kofi's games list puts the game first, says it is his move, and the
    // tab's title counts it.
    await pb.goto(`${BASE}/review`);
    const mine = pb.locator('.mine-list tr').first();
    await mine.waitFor();
    assert.match(await mine.innerText(), /Your move/);
    assert.match(await mine.innerText(), /3 days per move/);
    assert.match(await pb.title(), /^\(1\) Your move/);
    const width = await pb.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `My games fits the phone (${width} px)`);
    await shot(pb, 'phone-correspondence-mine');

    // The server is killed and started again on the same database.
    await server.stop();
    server = await startServer({ port, db });
    await pb.goto(`${BASE}/game/${id}`);
    await until(async () => /Your turn/.test(await pb.locator('.status').textContent()), 'Kofi to move after the restart');
    await playFirst(pb);
    // Ama's page reconnects by itself and sees the move.
    await until(async () => (await moveCount(a)) === 2, 'the move after the restart reaches Ama', 30000);
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'Ama to move again');
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
