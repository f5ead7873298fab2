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

    // OGN import: a bad record is refused with a message, a good one opens in review.
    await page.goto(`${BASE}/review`);
    await page.locator('.import-form textarea').fill('[Variant "Abapa"]\n\n1. F Z *');
    await page.getByRole('button', { name: 'Import' }).click();
    await until(async () => (await page.locator('.import-form .msg').textContent()).length > 0, 'import error');
    const ogn = ['[Variant "Abapa"]', '[Event "e2e import"]', '[Site "?"]', '[Date "2026.11.30"]', '[Round "?"]',
      '[South "Ama"]', '[North "Kofi"]', '[Result "*"]', '', '1. F f 2. B e *', ''].join('\n');
    await page.locator('.import-form textarea').fill(ogn);
    await page.getByRole('button', { name: 'Import' }).click();
    await page.waitForURL(/\/review\/[A-Za-z0-9_-]+$/);
    await until(async () => (await page.locator('.review-moves button').count()) === 4, 'imported moves');
    assert.match(await page.locator('main > p.muted').textContent(), /Ama – Kofi/);
    await until(async () => /South "Ama"/.test(await page.locator('.ogn-text').inputValue()), 'OGN export of the imported game');
    await page.locator('.first').click();
    await until(async () => /Move 0 of 4/.test(await page.locator('.ply-label').textContent()), 'replay to the start');
    await page.keyboard.press('ArrowRight');
    await until(async () => /Move 1 of 4/.test(await page.locator('.ply-label').textContent()), 'step forward with the keyboard');
    // After a click on ▶ the arrow keys go on stepping, even when pressed
    // during the animation (issue 10).
    await page.locator('.next').click();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await until(async () => /Move 4 of 4/.test(await page.locator('.ply-label').textContent()), 'arrow keys after ▶');
    await page.keyboard.press('ArrowLeft');
    await until(async () => /Move 3 of 4/.test(await page.locator('.ply-label').textContent()), 'back with the keyboard');
    // The same numbering as the game: "1. F f 2. B e".
    assert.equal((await page.locator('.review-moves').innerText()).replace(/[?!]/g, '').replace(/\s+/g, ' ').trim(), '1. F f 2. B e');

    // The engine coach: D hands North a capture of 5 (f takes 3 + 2), a
    // mistake at least; it says why and asks for a second click. With the
    // coach switched off, a risky move goes at once.
    await page.goto(`${BASE}/play?mode=hotseat&position=1-2-0-1-0-0-0-0-0-0-0-2-21-21-S`);
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/game\//);
    await page.locator('.house.playable').first().waitFor();
    await page.waitForTimeout(300);
    await page.locator('.house[data-house="D"]').click();
    await until(async () => /^D is a (mistake|blunder) .*North (replies f and captures|can reply f and capture) 5\..*Click D again/.test(await page.locator('.move-msg').textContent()), 'coach warning');
    assert.equal(await page.locator('.moves-list .mv').count(), 0, 'the warned move waits for confirmation');
    await page.locator('.house[data-house="D"]').click();
    await until(async () => (await page.locator('.moves-list .mv').count()) === 1, 'confirmed move');
    await page.getByRole('button', { name: 'Undo' }).click();
    await until(async () => (await page.locator('.moves-list .mv').count()) === 0, 'undo');
    await page.getByLabel('Coach: warn about risky moves').uncheck();
    await page.locator('.house.playable').first().waitFor();
    await page.waitForTimeout(300);
    await page.locator('.house[data-house="D"]').click();
    await until(async () => (await page.locator('.moves-list .mv').count()) === 1, 'move without the coach');
    await page.getByLabel('Coach: warn about risky moves').check();

    // Phone-sized screen: the board fits the width.
    const phone = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    errors.push(...[]);
    const perr = watchErrors(p);
    await p.goto(`${BASE}/play?mode=hotseat`);
    await p.getByRole('button', { name: 'Start the game' }).click();
    await p.waitForURL(/\/game\//);
    // F, the coach's best at the start (the coach is on here, and would
    // first warn about a weaker move such as A).
    await p.locator('.house.playable[data-house="F"]').tap();
    await until(async () => (await p.locator('.moves-list .mv').count()) === 1, 'tap plays a move');
    const width = await p.evaluate(() => document.querySelector('.board').getBoundingClientRect().width);
    assert.ok(width <= 390, `board fits a phone (${width}px)`);
    await shot(p, 'phone-game-390');
    assert.deepEqual(errors, []);
    assert.deepEqual(perr, []);
  } finally {
    await b.close();
  }
});

test('study: the engine lines are readable on a desktop and a 360-px phone, in English and French, from either engine', async () => {
  // The server's tables first, so the browser's engine answers as the server would.
  await until(async () => (await (await fetch(`${BASE}/api/v1/tables`)).json()).server_max_seeds === 12, 'the server has its tables', 60000);
  const b = await launch();
  try {
    const VERDICTS = { en: ['best', 'good', 'inaccuracy', 'mistake', 'blunder'], fr: ['meilleur', 'bon', 'imprécision', 'erreur', 'faute grave'] };
    for (const [device, opts] of [
      ['desktop', { viewport: { width: 1280, height: 800 } }],
      ['phone', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }],
    ]) {
      for (const [lang, engine] of [['en', 'browser'], ['fr', 'server']]) {
        const ctx = await b.newContext(opts);
        // No Web Worker: the server's engine answers.
        if (engine === 'server') await ctx.addInitScript(() => { window.Worker = undefined; });
        const page = await ctx.newPage();
        const errors = watchErrors(page);
        await page.goto(`${BASE}/study?lang=${lang}`);
        await page.locator('.ask-btn:not([disabled])').waitFor();
        await page.locator('.ask-btn').click();
        await until(async () => (await page.locator('.analysis tbody tr').count()) > 0, 'engine analysis', 60000);
        assert.equal(await page.locator('.analysis').getAttribute('data-engine'), engine);
        const m = await page.evaluate(() => {
          const table = document.querySelector('.analysis table').getBoundingClientRect();
          const lines = [...document.querySelectorAll('.analysis .pv')].map((el) => {
            const r = el.getBoundingClientRect();
            return { text: el.textContent, height: r.height, lineHeight: parseFloat(getComputedStyle(el).lineHeight) || 20 };
          });
          return {
            width: table.width,
            height: table.height,
            moves: document.querySelectorAll('.analysis [data-verdict]').length,
            verdicts: [...document.querySelectorAll('.analysis [data-verdict] .an-verdict')].map((el) => el.textContent),
            lines,
            scrollWidth: document.documentElement.scrollWidth,
            innerWidth: window.innerWidth,
          };
        });
        const what = `${device}, ${lang}, ${engine} engine`;
        console.log(`# study analysis (${what}): ${m.moves} moves, table ${Math.round(m.width)}×${Math.round(m.height)} px; ${m.lines.map((l) => `"${l.text}" ${Math.round(l.height)} px`).join(', ')}`);
        assert.ok(m.moves >= 2, `${what}: moves listed`);
        assert.ok(m.scrollWidth <= m.innerWidth, `${what}: no sideways scroll (${m.scrollWidth} > ${m.innerWidth})`);
        assert.ok(m.width >= 240, `${what}: the table is ${m.width} px wide`);
        assert.ok(m.height <= m.moves * 120, `${what}: the table is ${m.height} px tall for ${m.moves} moves`);
        for (const l of m.lines) {
          // Moves in pairs: "F f · E e".
          assert.match(l.text, /^([A-Fa-f]( [A-Fa-f])?( · [A-Fa-f]( [A-Fa-f])?)*)?$/, `${what}: the line reads as moves`);
          assert.ok(l.height <= 2.5 * l.lineHeight, `${what}: "${l.text}" on ${Math.round(l.height)} px (at most two lines)`);
        }
        for (const v of m.verdicts) assert.ok(VERDICTS[lang].includes(v), `${what}: verdict "${v}" in ${lang}`);
        await shot(page, `study-analysis-${device}-${lang}`);
        assert.deepEqual(errors, []);
        await ctx.close();
      }
    }
  } finally {
    await b.close();
  }
});
