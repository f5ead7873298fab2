// Learn from your mistakes, on a 360×640 phone: a game against the
// computer where the player blunders (D hands over 5 seeds: the coach
// calls it a blunder, and the computer's reply ends the game); the game's result card links to the
// exercises; the blunder comes back as one; playing it again is "Not yet",
// the coach's best move is "Better!"; measured: no sideways scroll.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, shot, watchErrors } from '../lib.mjs';

const START = '1-2-0-1-0-0-0-0-0-0-0-2-21-21-S';

test('phone: a blunder comes back as an exercise, tried again and solved', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const post = async (path, data) => {
      const r = await page.request.post(`${BASE}/api/v1${path}`, { data });
      assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
      return r.json();
    };
    const g = await post('/games', { mode: 'computer', level: 1, side: 'S', position: START });
    const token = g.tokens.S;
    await post(`/games/${g.id}/moves`, { token, move: 'D', ply: 0 });
    // The computer's reply (f takes 5) ends the game (R10); resign if not.
    let state = null;
    for (let i = 0; i < 100; i++) {
      state = await (await page.request.get(`${BASE}/api/v1/games/${g.id}`)).json();
      if (state.status === 'over' || (state.to_move === 'S' && !state.thinking)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (state.status !== 'over') await post(`/games/${g.id}/resign`, { token });
    const coach = await post('/coach', { position: START, move: 'D' });
    assert.equal(coach.verdict, 'blunder');

    await page.goto(`${BASE}/`);
    await page.evaluate(([id, tokens]) => localStorage.setItem(`oware.seats.${id}`, JSON.stringify(tokens)), [g.id, g.tokens]);
    await page.goto(`${BASE}/game/${g.id}`);
    await page.locator('.mistakes-link').click();
    await page.waitForURL(new RegExp(`/mistakes/${g.id}`));
    await page.locator('.mis-board .house.playable').first().waitFor();
    assert.match(await page.locator('.mis-task').textContent(), /^Move 1: you played D, a blunder\. Find a better move\.$/);
    assert.match(await page.locator('.mis-count').textContent(), /Mistake 1 of 1/);

    // The same move again: not yet.
    await page.locator('.mis-board .house[data-house="D"]').click();
    await page.locator('.mis-msg.mis-failed').waitFor();
    assert.match(await page.locator('.mis-msg').textContent(), /^Not yet: D is a blunder/);
    await page.locator('.mis-next').click();
    await page.locator('.mis-board .house.playable').first().waitFor();

    // The coach's best: better.
    await page.locator(`.mis-board .house[data-house="${coach.best}"]`).click();
    await page.locator('.mis-msg.mis-solved').waitFor();
    assert.match(await page.locator('.mis-msg').textContent(), new RegExp(`^Better! ${coach.best} is the best move`));
    const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth, right: document.querySelector('.mis-msg').getBoundingClientRect().right }));
    assert.ok(m.sw <= m.w && m.right <= m.w, `fits the phone (${JSON.stringify(m)})`);
    await shot(page, 'mistakes-phone');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
