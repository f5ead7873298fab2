// Premoves (issue 35): in an online game, a player chooses their next
// house while the opponent thinks; it is played as soon as the turn comes,
// can be cancelled (the same house again, the button, Escape), and is
// dropped with a word when it is no longer legal. One player on a desktop
// in English, the other on a 360-px phone in French.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, until, watchErrors } from '../lib.mjs';

const moves = (page) => page.locator('.moves-list .mv').allInnerTexts();
const msg = (page) => page.locator('.move-msg').textContent();
const house = (page, letter) => page.locator(`.house[data-house="${letter}"]`);
const isPremove = async (page, letter) => /\bpremove\b/.test(await house(page, letter).getAttribute('class'));

test('premoves: chosen while the opponent thinks, played at once, cancelled, dropped when illegal', async () => {
  const b = await launch();
  try {
    const a = await (await b.newContext()).newPage();
    const phone = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, locale: 'fr-FR' });
    const pb = await phone.newPage();
    const errors = [watchErrors(a), watchErrors(pb)];

    // Ama (South, desktop) creates a private game; Kofi (North, phone,
    // French) takes the seat from the invitation.
    await a.goto(`${BASE}/lobby`);
    await a.locator('form.create-online [name=name]').fill('Ama');
    await a.getByLabel('South (bottom)').check();
    await a.getByLabel('List it in the lobby').uncheck();
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const invite = await a.locator('.invite-url').inputValue();
    await pb.goto(`${invite}&lang=fr`);
    await pb.locator('.join-name').fill('Kofi');
    await pb.locator('.join-card button').first().click();
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'Ama to move');

    // Kofi taps a while Ama thinks: a premove, marked and said.
    await house(pb, 'a').tap();
    await until(() => isPremove(pb, 'a'), 'a marked as the premove');
    assert.match(await msg(pb), /Coup anticipé\s*: a/);
    assert.match(await house(pb, 'a').getAttribute('aria-label'), /choisie pour le coup suivant/);
    const cancel = pb.locator('.premove-cancel');
    assert.equal(await cancel.isVisible(), true);
    // The page still fits the phone, the cancel button too.
    const fit = await pb.evaluate(() => {
      const r = document.querySelector('.premove-cancel').getBoundingClientRect();
      return { scroll: document.documentElement.scrollWidth, left: r.left, right: r.right, height: r.height };
    });
    assert.ok(fit.scroll <= 360, `no sideways scroll (${fit.scroll} px)`);
    assert.ok(fit.left >= 0 && fit.right <= 360 && fit.height >= 32, `the cancel button is on screen and tappable: ${JSON.stringify(fit)}`);
    // The same house again cancels it; another one replaces it.
    await house(pb, 'a').tap();
    await until(async () => !(await isPremove(pb, 'a')), 'the premove cancelled');
    assert.match(await msg(pb), /Coup anticipé a annulé/);
    assert.equal(await cancel.isVisible(), false);
    await house(pb, 'b').tap();
    await until(() => isPremove(pb, 'b'), 'b chosen');

    // Ama plays F: Kofi's b is played at once, on both pages.
    await house(a, 'F').click();
    await until(async () => (await moves(a)).length === 2 && (await moves(pb)).length === 2, 'the premove played');
    assert.deepEqual((await moves(a)).map((m) => m.trim()[0]), ['F', 'b']);
    assert.equal(await isPremove(pb, 'b'), false);
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'Ama to move again');

    // A premove cancelled with the button is not played.
    await house(pb, 'c').tap();
    await until(() => isPremove(pb, 'c'), 'c chosen');
    await cancel.tap();
    await until(async () => !(await isPremove(pb, 'c')), 'c cancelled by the button');

    // Kofi's b is empty now; chosen anyway, it cannot be played after
    // Ama's A (which sows only South's row): dropped, with a word.
    await house(pb, 'b').tap();
    await until(() => isPremove(pb, 'b'), 'b chosen again');
    await house(a, 'A').click();
    await until(async () => (await moves(pb)).length === 3, 'Ama’s A reaches Kofi');
    await until(async () => /n’est pas jouable/.test(await msg(pb)), 'the illegal premove dropped with a word');
    assert.equal(await isPremove(pb, 'b'), false);
    await pb.waitForTimeout(300);
    assert.equal((await moves(pb)).length, 3, 'nothing played for Kofi');
    await until(async () => /À vous de jouer/.test(await pb.locator('.status').textContent()), 'Kofi to move');

    // On the desktop, while Kofi thinks, Escape cancels a premove.
    await house(a, 'B').click();
    await until(() => isPremove(a, 'B'), 'Ama chose B in advance');
    assert.match(await msg(a), /Premove: B/);
    await a.keyboard.press('Escape');
    await until(async () => !(await isPremove(a, 'B')), 'Escape cancels it');
    assert.match(await msg(a), /Premove B cancelled/);

    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
  }
});
