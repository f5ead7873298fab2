// A correspondence game on phones (360×640): days for each move, "your
// move" in My games and in the tab's title, and a move after the server
// was killed and started again on the same database; the same words in
// the My games of two signed-in players (their list comes from the
// account, GET /api/v1/account/games).

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

    // Ama moves, then prepares a reply to each move Kofi may play: the
    // server plays hers the moment his comes (conditional moves).
    await playFirst(a);
    await until(async () => (await moveCount(pb)) === 3, 'Ama’s third move reaches Kofi');
    const card = a.locator('.cond-card');
    await until(() => card.isVisible(), 'the prepared replies card');
    const selects = card.locator('select');
    const n = await selects.count();
    assert.ok(n >= 1, 'one choice per move Kofi may play');
    for (let i = 0; i < n; i += 1) {
      const values = await selects.nth(i).locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
      await selects.nth(i).selectOption(values[0]);
    }
    await card.getByRole('button', { name: 'Save the replies' }).click();
    await until(async () => new RegExp(`Replies saved \\(${n}\\)`).test(await card.locator('.cond-msg').textContent()), 'the replies saved');
    const fits = await a.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(fits <= 360, `the card fits the phone (${fits} px)`);
    await playFirst(pb);
    await until(async () => (await moveCount(a)) === 5 && (await moveCount(pb)) === 5, 'Kofi’s move and Ama’s prepared reply on both pages');
    await until(async () => /Your turn/.test(await pb.locator('.status').textContent()), 'Kofi to move after the reply');
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function signUp(page, base, name) {
  await page.goto(`${base}/account`);
  const form = page.locator('.signup-form');
  await form.locator('[name=username]').fill(name);
  await form.locator('[name=password]').fill('seeds-and-houses');
  await form.locator('button[type=submit]').click();
  await until(async () => (await page.locator('.nav-account').textContent()) === name, `${name} signed up`);
}

test('phone: signed-in players’ My games say whose move it is, and the tab counts it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oware-corr-'));
  const server = await startServer({ port: await freePort(), db: join(dir, 'games.sqlite3') });
  const BASE = server.url;
  const b = await launch();
  try {
    const a = await (await b.newContext(phone)).newPage();
    const pb = await (await b.newContext(phone)).newPage();
    const errors = [watchErrors(a), watchErrors(pb)];
    const stamp = Date.now().toString(36).slice(-4);
    await signUp(a, BASE, `Ama_${stamp}`);
    await signUp(pb, BASE, `Kofi_${stamp}`);
    await a.goto(`${BASE}/lobby`);
    await a.getByLabel('South (bottom)').check();
    await a.getByLabel('Correspondence (days per move)').check();
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const id = a.url().split('/game/')[1];
    await pb.goto(`${BASE}/lobby`);
    const row = pb.locator(`.seeks tr[data-id="${id}"]`);
    await row.waitFor();
    await row.locator('.join').click();
    await pb.waitForURL(new RegExp(`/game/${id}`));
    // Three moves: Kofi (North) to move at ply 3.
    for (const [page, other, n] of [[a, pb, 1], [pb, a, 2], [a, pb, 3]]) {
      await until(async () => /Your turn/.test(await page.locator('.status').textContent()), `move ${n}: the mover's turn`);
      await playFirst(page);
      await until(async () => (await moveCount(other)) === n, `move ${n} reaches the other`);
    }
    for (const [page, words, title] of [[pb, /Your move/, /^\(1\) Your move/], [a, /Their move/, null]]) {
      await page.goto(`${BASE}/review`);
      const mine = page.locator('.mine-list tr').first();
      await mine.waitFor();
      const text = await mine.innerText();
      assert.match(text, words, text);
      assert.match(text, /\(3\)/, `the game at ply 3: ${text}`);
      if (title) assert.match(await page.title(), title);
      else assert.doesNotMatch(await page.title(), /Your move/);
    }
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
