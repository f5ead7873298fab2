// The installable app offline (docs/WEB.md, "Offline and installable"):
// a first visit is measured (the bytes downloaded before the board of a
// computer game is playable), the service worker takes over and keeps the
// app and the tables, then with the network cut (Playwright's offline mode)
// the app's pages load from it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, until, shot } from '../lib.mjs';

const BUDGET = 1.5 * 1024 * 1024;

test('first visit within 1.5 MB, then the app loads from the service worker offline', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 } });
    const page = await ctx.newPage();
    // Every response body and header block, page and engine worker alike.
    const finished = [];
    page.on('requestfinished', async (req) => {
      const s = await req.sizes().catch(() => null);
      if (s) finished.push({ url: req.url(), bytes: s.responseBodySize + s.responseHeadersSize, at: Date.now() });
    });
    await page.goto(`${BASE}/play`);
    await page.getByLabel('The computer').check();
    await page.locator('[name=level]').selectOption('10');
    await page.getByLabel('South (bottom)').check();
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.locator('.house.playable').first().waitFor();
    const playable = Date.now();
    await new Promise((r) => setTimeout(r, 300)); // sizes() of the last responses
    const before = finished.filter((f) => f.at <= playable);
    const bytes = before.reduce((n, f) => n + f.bytes, 0);
    for (const f of before) console.log(`#   ${f.bytes}\t${new URL(f.url).pathname}`);
    console.log(`# first visit: ${before.length} responses, ${bytes} bytes before the board was playable (budget ${BUDGET})`);
    assert.ok(bytes <= BUDGET, `${bytes} bytes before the board was playable`);

    // The service worker controls the page and has kept the shell and the tables.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await until(() => page.evaluate(() => !!navigator.serviceWorker.controller), 'the service worker controls the page', 30000);
    // The server builds its tables at its first start: wait for them, then
    // the page's engine asks for them through the service worker.
    await until(async () => (await (await fetch(`${BASE}/api/v1/tables`)).json()).browser_max_seeds === 12, "the server's 12-seed tables", 120000);
    await page.reload();
    const kept = await until(() => page.evaluate(async () => {
      const c = await caches.open('oware-v1');
      const keys = (await c.keys()).map((r) => new URL(r.url).pathname);
      return keys.includes('/tables/oware-tb-12.otb') && keys.includes('/wasm/oware.wasm') ? keys : null;
    }), 'the shell and the 12-seed tables kept', 60000);
    console.log(`# kept by the service worker: ${kept.length} files`);

    // Offline: the pages load from the service worker, still cross-origin isolated.
    await ctx.setOffline(true);
    for (const path of ['/', '/play', '/learn', '/rules', '/study']) {
      await page.goto(`${BASE}${path}`);
      await page.locator('main h1').first().waitFor();
      assert.equal(await page.evaluate(() => crossOriginIsolated), true, `${path} offline is isolated`);
    }
    // The lessons' boards come from the kept lessons file.
    await page.goto(`${BASE}/learn`);
    await page.locator('.house').first().waitFor();
    await shot(page, 'phone-offline-learn');
    // The engine loads offline: the study page asks it.
    assert.equal(await page.evaluate(async () => {
      const { readyEngine } = await import('/js/engine/client.js');
      const eng = await readyEngine();
      const r = await eng.request({ op: 'search', game: { moves: '' }, depth: 6 });
      return r.ok && typeof r.best === 'string';
    }), true, 'the browser engine answers offline');
    await ctx.setOffline(false);
  } finally {
    await b.close();
  }
});
