// The computer's moves in untimed computer games come from the browser's
// engine (the WebAssembly module in a Web Worker): the server's engine stays
// idle. Measured by the server's own counter of engine searches
// (`oware_engine_searches_total` in /metrics), for the same scripted session
// played twice: once in a browser with WebAssembly, once in one without it
// (the server's engine is then the fallback and plays every reply).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, until, watchErrors } from '../lib.mjs';

const OUR_MOVES = 6;

async function searches() {
  const text = await (await fetch(`${BASE}/metrics`)).text();
  const read = (lane) => Number(text.match(new RegExp(`^oware_engine_searches_total\\{lane="${lane}"\\} (\\d+)$`, 'm'))[1]);
  return { game: read('game'), study: read('study') };
}

/** Starts a level-10 game as South from /play and plays OUR_MOVES moves by
 * clicks (the leftmost playable house), each answered by the computer.
 * Returns the game's id and the computer's replies seen. */
async function session(page) {
  await page.goto(`${BASE}/play`);
  await page.getByLabel('The computer').check();
  await page.locator('[name=level]').selectOption('10');
  await page.getByLabel('South (bottom)').check();
  await page.getByRole('button', { name: 'Start the game' }).click();
  await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
  const id = new URL(page.url()).pathname.split('/').pop();
  let replies = 0;
  for (let i = 0; i < OUR_MOVES; i += 1) {
    const house = page.locator('.house.playable').first();
    await house.waitFor({ timeout: 30000 });
    const ply = 2 * i;
    await house.click();
    // The coach may ask for a second click on a move it warns about.
    const warned = await until(async () => {
      if (await page.locator('.move-msg.warn').count()) return 'warned';
      const r = await (await fetch(`${BASE}/api/v1/games/${id}`)).json();
      return r.ply > ply ? 'played' : null;
    }, `our move ${i + 1}`, 30000);
    if (warned === 'warned') await house.click();
    // Our move, then the computer's reply, both stored by the server.
    const g = await until(async () => {
      const r = await (await fetch(`${BASE}/api/v1/games/${id}`)).json();
      return r.ply >= ply + 2 || r.status === 'over' ? r : null;
    }, `the computer's reply to move ${i + 1}`, 30000);
    if (g.status === 'over') break;
    replies += 1;
  }
  const game = await (await fetch(`${BASE}/api/v1/games/${id}`)).json();
  return { id, replies, game };
}

test("the browser's engine plays the computer's moves; the server's engine stays idle", async () => {
  const b = await launch();
  try {
    // With the browser's engine.
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    const before = await searches();
    const t0 = Date.now();
    const withWasm = await session(page);
    const after = await searches();
    assert.equal(withWasm.game.engine, 'browser');
    assert.ok(withWasm.replies >= OUR_MOVES - 1, `the computer replied ${withWasm.replies} times`);
    assert.equal(after.game - before.game, 0, 'no game search ran on the server');
    console.log(`# browser engine: ${withWasm.replies} computer moves in ${Date.now() - t0} ms; server searches: game +${after.game - before.game}, study +${after.study - before.study}`);
    assert.deepEqual(errors, []);

    // Without WebAssembly: the server's engine is the fallback.
    const ctx = await b.newContext();
    await ctx.addInitScript(() => { delete globalThis.WebAssembly; });
    const page2 = await ctx.newPage();
    const before2 = await searches();
    const t1 = Date.now();
    const withoutWasm = await session(page2);
    const after2 = await searches();
    assert.equal(withoutWasm.game.engine, 'server');
    assert.ok(after2.game - before2.game >= withoutWasm.replies, 'the server searched every reply');
    console.log(`# server engine: ${withoutWasm.replies} computer moves in ${Date.now() - t1} ms; server searches: game +${after2.game - before2.game}, study +${after2.study - before2.study}`);
  } finally {
    await b.close();
  }
});
