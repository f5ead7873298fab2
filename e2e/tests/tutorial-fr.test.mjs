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
    // The lesson answers: what the move did and why, from the trace.
    await until(async () => /^Bravo\s!\sD\s: la dernière graine tombe en c et y fait 3, elle est donc prise\s: c 3 \+ b 2, 5 graines en tout\.$/.test(await r5.locator('.msg').textContent()), 'R5 feedback in French');

    // R8: A does not feed North: refused, with the reason in French.
    const r8 = page.locator('#r8');
    await r8.scrollIntoViewIfNeeded();
    await r8.locator('.house[data-house="A"]').click();
    await until(async () => /nourrit pas/.test(await r8.locator('.msg').textContent()), 'French refusal');
    assert.match(await r8.locator('.msg').textContent(), /R8/);
    await r8.locator('.house[data-house="F"]').click();
    await until(async () => (await readBoard(page, '#r8')).a === 1, 'feeding move');
    await until(async () => /^Bravo\s!\sF\s: la dernière graine tombe en a et y fait 1\s; on ne prend que deux ou trois\.$/.test(await r8.locator('.msg').textContent()), 'R8 feedback');

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
    // R12 offers the agreement: the core's totals, 24–24.
    const r12 = page.locator('#r12');
    await r12.locator('.house.playable').first().waitFor();
    await r12.getByRole('button', { name: 'Arrêter d’un commun accord' }).click();
    await until(async () => /Partie nulle, 24–24/.test(await r12.locator('.msg').textContent()), 'R12 agreement');
    assert.match(await r12.locator('.msg').textContent(), /convenu d’arrêter/);
    // R13 shows a lost turn: after F, North's time runs out and South plays again.
    const r13 = page.locator('#r13');
    assert.match(await r13.textContent(), /perd son tour/);
    await r13.locator('.house[data-house="F"]').click();
    await until(async () => (await readBoard(page, '#r13')).F === 0, 'R13: F played');
    await r13.getByRole('button', { name: 'Laisser passer le temps' }).click();
    await until(async () => /Nord perd son tour.*Sud rejoue/.test(await r13.locator('.msg').textContent()), 'R13 lost turn');
    assert.ok(await r13.locator('.house.playable[data-house="A"]').count() === 1, 'South plays again');
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
