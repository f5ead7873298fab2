// The engine in the browser (docs/WEB.md, "The engine in the browser"):
// the study page's analysis comes from the WebAssembly engine in a Web
// Worker, equals the server's coach answer for the same position (the same
// tables, loaded from the server), and asks nothing of the server's
// engine; a stop answers within 50 ms on the threads build's threads; the
// page is cross-origin isolated, and a page that is not gets a one-thread
// build.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, until, watchErrors, shot } from '../lib.mjs';

// 14 seeds on the board: the search reaches the 12-seed tables.
const POSITION = '0-2-0-1-3-0-1-0-2-0-3-2-17-17-S';

test('the study page analyses in the browser, as the server would', async () => {
  // The server's tables first, so the browser loads the same ones.
  await until(async () => (await (await fetch(`${BASE}/api/v1/tables`)).json()).server_max_seeds === 12, 'the server has its tables', 60000);
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    const coachCalls = [];
    page.on('request', (r) => { if (r.url().includes('/api/v1/coach')) coachCalls.push(r.url()); });
    await page.goto(`${BASE}/study`);
    const state = await page.evaluate(async () => {
      const m = await import('/js/engine/client.js');
      const eng = await m.readyEngine();
      eng.wantTables(); // as the engine's first request or the coach would
      const tables = await eng.tables;
      return { isolated: crossOriginIsolated, version: eng.version, tables, coach: !!(await m.coachEngine()) };
    });
    assert.equal(state.isolated, true, 'COOP and COEP make the page cross-origin isolated');
    assert.equal(state.version.ok, true);
    assert.equal(state.tables.seeds, 12, JSON.stringify(state.tables));
    assert.equal(state.coach, true);

    await page.locator('.pos-input').fill(POSITION);
    await page.locator('.set-btn').click();
    await page.locator('.ask-btn').click();
    await until(async () => (await page.locator('.analysis tbody tr').count()) > 0, 'the analysis is shown', 60000);
    assert.equal(await page.locator('.analysis').getAttribute('data-engine'), 'browser');
    assert.deepEqual(coachCalls, [], 'the server was not asked');
    await shot(page, 'study-browser-engine');

    // The server's answer for the same position, row by row.
    const server = await (await fetch(`${BASE}/api/v1/coach`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ position: POSITION }),
    })).json();
    const browser = await page.evaluate(async (position) => {
      const m = await import('/js/engine/client.js');
      return m.browserCoach(position, undefined, 'en');
    }, POSITION);
    assert.equal(browser.engine, 'browser');
    assert.equal(browser.depth, server.depth);
    assert.equal(browser.best, server.best);
    assert.deepEqual(
      browser.moves.map((m) => [m.move, m.verdict, m.score.cp, m.score.kind, m.line.join(''), m.text]),
      server.moves.map((m) => [m.move, m.verdict, m.score.cp, m.score.kind, m.line.join(''), m.text]),
    );
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('a stop answers within 50 ms on the engine\'s threads; the engine\'s speed in Chromium', async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    await page.goto(`${BASE}/play`);
    const r = await page.evaluate(async (position) => {
      const m = await import('/js/engine/client.js');
      const eng = await m.readyEngine();
      const build = { module: eng.module, threads: eng.threads, cores: navigator.hardwareConcurrency };
      const bench = await eng.request({ op: 'bench', depth: 10, hash_mb: 16 });
      const search = eng.request({ op: 'search', game: { moves: 'FfAaBb' }, movetime_ms: 60000 });
      await new Promise((res) => setTimeout(res, 500));
      const t = performance.now();
      eng.stop();
      const answer = await search;
      const ms = performance.now() - t;
      // The next request is not stopped by the last stop.
      // (A position out of the opening book, so it is searched.)
      const next = await eng.request({ op: 'search', game: { start: position }, depth: 6 });
      return { ms, answer, next, bench, build };
    }, POSITION);
    console.log(`# Chromium: ${r.build.module} on ${r.build.threads} threads (${r.build.cores} cores): stop answered in ${r.ms.toFixed(1)} ms (depth ${r.answer.depth}); bench depth 10 signature ${r.bench.nodes}, ${Math.round(r.bench.nodes / (r.bench.elapsed_ms / 1000))} nodes/s`);
    // The page is cross-origin isolated: the threads build, a thread per
    // core up to four (worker.js).
    assert.equal(r.build.module, '/wasm/oware-threads.wasm');
    assert.equal(r.build.threads, Math.min(r.build.cores, 4));
    assert.equal(r.answer.ok, true, JSON.stringify(r.answer));
    assert.ok(r.answer.best);
    assert.ok(r.answer.elapsed_ms < 5000, `${r.answer.elapsed_ms} ms`);
    assert.ok(r.ms < 50, `the stop took ${r.ms} ms`);
    assert.equal(r.next.ok, true);
    assert.equal(r.next.depth, 6, 'a later search runs to its end');
  } finally {
    await b.close();
  }
});

test('a page that is not cross-origin isolated gets the one-thread build', async () => {
  const b = await launch();
  try {
    // Another deployment's headers: no COOP and COEP (and no service
    // worker, which would answer from the server's copy).
    const ctx = await b.newContext({ serviceWorkers: 'block' });
    await ctx.route('**/*', async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/play`);
    const r = await page.evaluate(async () => {
      const m = await import('/js/engine/client.js');
      const eng = await m.readyEngine();
      const answer = await eng.request({ op: 'search', game: { moves: 'FfAaBb' }, depth: 8 });
      return { isolated: crossOriginIsolated, module: eng.module, threads: eng.threads, answer };
    });
    assert.equal(r.isolated, false);
    assert.equal(r.module, '/wasm/oware.wasm');
    assert.equal(r.threads, 1);
    assert.equal(r.answer.ok, true, JSON.stringify(r.answer));
    assert.equal(r.answer.depth, 8);
    // The worker may still be fetching the tables through the route.
    await ctx.unrouteAll({ behavior: 'ignoreErrors' });
  } finally {
    await b.close();
  }
});
