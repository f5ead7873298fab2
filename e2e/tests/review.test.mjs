// The review of an imported game: a game with a turn lost on time (R13,
// `--` in OGN) is replayed to its last move; a record that cannot be read is
// refused with where and why, in the page's language.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, until, watchErrors } from '../lib.mjs';

test('review replays lost turns; a bad record says where, in French too', async () => {
  const b = await launch();
  try {
    // North loses its turn after F; South plays A.
    const res = await fetch(`${BASE}/api/v1/games/import`, {
      method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '1. F -- 2. A *',
    });
    assert.equal(res.status, 201);
    const { id } = await res.json();
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/review/${id}`);
    await until(async () => /Move 3 of 3/.test(await page.locator('.ply-label').textContent()), 'the review reaches the last ply');
    // The board after the last ply: South emptied F then A.
    const a = await page.locator('.house[data-house="A"]').textContent();
    assert.equal(a.replace(/\D/g, ''), '0', `house A reads ${a}`);

    // A record with an illegal move: the line, the column and the rule.
    await page.goto(`${BASE}/review`);
    await page.locator('textarea[name="ogn"]').fill('1. F f\n2. F');
    await page.locator('.import-form button[type="submit"]').click();
    await until(async () => /line 2, column 4/.test(await page.locator('.import-form .msg').textContent()), 'error with its place');
    assert.match(await page.locator('.import-form .msg').textContent(), /R3/);
    const fr = await b.newContext({ locale: 'fr-FR' });
    const p2 = await fr.newPage();
    await p2.goto(`${BASE}/review?lang=fr`);
    await p2.evaluate(() => localStorage.setItem('oware.lang', 'fr'));
    await p2.reload();
    await p2.locator('textarea[name="ogn"]').fill('1. F f\n2. F');
    await p2.locator('.import-form button[type="submit"]').click();
    await until(async () => /ligne 2, colonne 4/.test(await p2.locator('.import-form .msg').textContent()), 'French error with its place');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
