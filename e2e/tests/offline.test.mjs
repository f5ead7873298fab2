// The installable app offline (docs/WEB.md, "Offline and installable"):
// a first visit is measured (the bytes downloaded before the board of a
// computer game is playable), the service worker takes over and keeps the
// app and the tables, then with the network cut (Playwright's offline mode)
// the app's pages load from it. The service worker keeps only the app's
// own pages as pages: an API answer or a download opened in the browser
// never becomes the kept page (security finding, docs/SECURITY.md).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, BASE, until, shot, freePort, startServer, installed, startComputerGame, playFirst, watchErrors } from '../lib.mjs';

const BUDGET = 1.5 * 1024 * 1024;

test('first visit within 1.5 MB, then the app loads from the service worker offline', async () => {
  // The server's tables first: a first visit must not spend its bytes on
  // them before the board is playable (they come after, when the engine is
  // first asked, and the service worker keeps them).
  await until(async () => (await (await fetch(`${BASE}/api/v1/tables`)).json()).browser_max_seeds === 12, "the server's 12-seed tables", 120000);
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 } });
    const page = await ctx.newPage();
    // A phone's pace: the page's thread four times slower (the engine's
    // worker is not slowed), so the worker's downloads race the board as
    // they do on a phone or a busy machine.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // Every response body and header block, page and engine worker alike,
    // with the browser's own time its last byte arrived.
    const finished = [];
    // Chromium 156 reports a body of 0 bytes for the engine worker's
    // requests (the module among them; seen on 4 December 2026, on main
    // too), so a body's size is at least its Content-Length.
    page.on('requestfinished', async (req) => {
      const s = await req.sizes().catch(() => null);
      const length = Number((await req.response().catch(() => null))?.headers()['content-length'] || 0);
      const t = req.timing();
      if (s) finished.push({ url: req.url(), bytes: Math.max(s.responseBodySize, length) + s.responseHeadersSize, at: t.startTime + t.responseEnd });
    });
    // The moment the board becomes playable, taken in the page itself (a
    // poll from the test comes later on a slow page, and would count what
    // the page fetched after that moment).
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (!window.__playableAt && document.querySelector('.house.playable')) window.__playableAt = Date.now();
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.goto(`${BASE}/play`);
    await page.getByLabel('The computer').check();
    await page.locator('[name=level]').selectOption('10');
    await page.getByLabel('South (bottom)').check();
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
    await page.locator('.house.playable').first().waitFor();
    const playable = await page.evaluate(() => window.__playableAt);
    assert.ok(playable > 0, 'the page saw its board become playable');
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
      return keys.includes('/tables/oware-tb-12.otb') && keys.some((k) => k.startsWith('/wasm/')) ? keys : null;
    }), 'the shell and the 12-seed tables kept', 60000);
    console.log(`# kept by the service worker: ${kept.length} files`);
    // Of the module's three builds, only the one this browser loads (the
    // threads build: the page is cross-origin isolated).
    const loads = await page.evaluate(async () => (await (await import('/js/engine/client.js')).readyEngine()).module);
    assert.equal(loads, '/wasm/oware-threads.wasm');
    assert.deepEqual(kept.filter((k) => k.startsWith('/wasm/')), [loads], 'only the build this browser loads is kept');

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

test('service worker never caches an API answer or download as a page', async () => {
  // A server of its own: the shared one limits sign-ups per address.
  const dir = mkdtempSync(join(tmpdir(), 'oware-sw-'));
  const server = await startServer({ port: await freePort(), db: join(dir, 'games.sqlite3') });
  const base = server.url;
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 }, acceptDownloads: true });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const name = `Yaw_${Date.now().toString(36).slice(-5)}`;
    await page.goto(`${base}/account`);
    const form = page.locator('.signup-form');
    await form.locator('[name=username]').fill(name);
    await form.locator('[name=password]').fill('seeds-and-houses');
    await form.locator('button[type=submit]').click();
    await until(async () => (await page.locator('.nav-account').textContent()) === name, 'signed up');
    await installed(page, base);
    // A game on the server with a move in it: its record has text.
    await startComputerGame(page, base, { local: false });
    const id = page.url().split('/game/')[1];
    await playFirst(page);

    /** The kept page (`/`) and every kept address. */
    const kept = () => page.evaluate(async () => {
      const c = await caches.open('oware-v1');
      const r = await c.match('/');
      return {
        type: r?.headers.get('content-type') || null,
        disposition: r?.headers.get('content-disposition') || null,
        text: r ? await r.text() : '',
        keys: (await c.keys()).map((k) => new URL(k.url).pathname),
      };
    });
    const stillTheApp = async (after) => {
      const k = await kept();
      assert.match(k.type || '', /^text\/html/, `the kept page after ${after} is the app's page`);
      assert.equal(k.disposition, null, `the kept page after ${after} is no download`);
      assert.ok(k.text.startsWith('<!doctype html>'), `the kept page after ${after}: ${k.text.slice(0, 80)}`);
      assert.deepEqual(k.keys.filter((p) => p.startsWith('/api/') && p !== '/api/v1/tables'), [], `no API answer kept after ${after}`);
    };

    // The game's record opened in the browser (shown as text).
    await page.goto(`${base}/api/v1/games/${id}/ogn`);
    assert.match(await page.locator('body').innerText(), /\[/, 'the record is shown');
    await stillTheApp('the OGN record');
    // The account's export opened in the browser (a download).
    await page.goto(`${base}/play`);
    await page.locator('main h1').first().waitFor();
    const download = page.waitForEvent('download');
    await page.goto(`${base}/api/v1/account/export`).catch(() => {}); // a download aborts the navigation
    assert.equal((await download).suggestedFilename(), 'oware-account.json');
    await stillTheApp('the export');

    // Signed out and offline, the app's pages are the app, never the export.
    await ctx.clearCookies();
    await ctx.setOffline(true);
    let downloaded = null;
    page.on('download', (d) => { downloaded = d.suggestedFilename(); });
    for (const path of ['/play', '/']) {
      await page.goto(`${base}${path}`);
      await page.locator('main h1').first().waitFor();
    }
    assert.equal(downloaded, null, 'nothing downloaded offline');
    // An API address opened offline is no page of the app.
    const r = await page.goto(`${base}/api/v1/account/export`).catch((e) => e);
    assert.ok(r instanceof Error || !r.ok(), 'the export is not answered offline');
    assert.equal(downloaded, null, 'nothing downloaded offline');
    await ctx.setOffline(false);
    assert.deepEqual(errors.filter((e) => !/net::|Failed to fetch|NetworkError|ERR_INTERNET_DISCONNECTED/.test(e)), []);
  } finally {
    await b.close();
    await server.stop();
  }
});
