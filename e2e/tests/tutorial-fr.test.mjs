// The tutorial in French: language switch, lesson boards played by clicks,
// refusals explained in French.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, readBoard, shot, until, watchErrors } from '../lib.mjs';

test('the French tutorial', async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/learn`);
    await page.getByRole('button', { name: 'FR' }).click();
    await until(async () => (await page.locator('h1').textContent()) === 'Apprendre l’awalé', 'French heading');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    assert.equal(await page.getByRole('link', { name: 'Apprendre' }).count(), 1, 'menu in French');
    for (const rule of ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'R9', 'R10', 'R11', 'R12', 'R13']) {
      assert.equal(await page.locator(`.lesson .rule-id:text-is("${rule}")`).count(), 1, `lesson ${rule}`);
    }
    assert.equal(await page.locator('.lesson .board').count(), 13, 'each lesson has a board');

    // R5: play D and capture 3 + 2.
    const r5 = page.locator('#r5');
    await r5.locator('.house.playable').first().waitFor();
    await r5.locator('.house[data-house="D"]').click();
    await until(async () => (await readBoard(page, '#r5')).S === 22, 'capture in lesson R5');
    const after = await readBoard(page, '#r5');
    assert.equal(after.c, 0);
    assert.equal(after.b, 0);
    assert.equal(after.a, 4);

    // R8: A does not feed North: refused, with the reason in French.
    const r8 = page.locator('#r8');
    await r8.scrollIntoViewIfNeeded();
    await r8.locator('.house[data-house="A"]').click();
    await until(async () => /nourrit pas/.test(await r8.locator('.msg').textContent()), 'French refusal');
    assert.match(await r8.locator('.msg').textContent(), /R8/);
    await r8.locator('.house[data-house="F"]').click();
    await until(async () => (await readBoard(page, '#r8')).a === 1, 'feeding move');

    // R9: the lesson position is already over.
    await until(async () => /Partie terminée/.test(await page.locator('#r9 .msg').textContent()), 'R9 game over');

    // Worked example: Alice and Bob, step 2, "Montrez-moi".
    const ex = page.locator('[data-example="alice"]');
    await ex.locator('.step[data-step="1"]').click();
    await until(async () => /quarante graines/.test(await ex.locator('.step-text').textContent()), 'step text');
    await ex.getByRole('button', { name: 'Montrez-moi' }).click();
    await until(async () => (await readBoard(page, '[data-example="alice"]')).S === 24, 'Alice captures four');

    // R11: "Montrez-moi" plays the 25 plies; the start position is on the
    // board for the third time after 24 of them, yet the game ends only
    // after the 25th, 24–24 (animation off to keep the test short).
    await page.evaluate(() => localStorage.setItem('oware.set.animate', '0'));
    await page.reload();
    const r11 = page.locator('#r11');
    await r11.locator('.house').first().waitFor();
    await r11.getByRole('button', { name: 'Montrez-moi' }).click();
    await until(async () => /Partie nulle, 24–24/.test(await r11.locator('.msg').textContent()), 'R11 ends 24–24', 30000);
    assert.match(await r11.locator('.msg').textContent(), /troisième fois/);
    // R13 has its lesson and board.
    assert.match(await page.locator('#r13').textContent(), /perd son tour/);
    await page.evaluate(() => localStorage.removeItem('oware.set.animate'));

    // The rules page keeps the language.
    await page.getByRole('link', { name: 'Règles', exact: true }).click();
    await until(async () => /Les règles/.test(await page.locator('h1').textContent()), 'rules page in French');
    await shot(page, 'rules-fr');
    await page.goto(`${BASE}/learn`);
    await page.locator('#r5 .house').first().waitFor();
    await shot(page, 'learn-fr');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
