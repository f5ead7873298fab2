// Whole games with the network cut (docs/WEB.md, "Offline and
// installable"): once the service worker keeps the app, a player starts a
// game against the computer and a two-players game on this device, plays
// each to its end refereed by the rules core in the browser (the
// WebAssembly module), takes a move back, sees the result card, and finds
// an unfinished game again after a reload. The pages that need the server
// say so, in English and French, and come back by themselves when the
// network returns.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, BASE, readBoard, shot, until, watchErrors, freePort, startServer, ENDGAME, installed, plies, startComputerGame, playFirst, playToEnd } from '../lib.mjs';

test('offline: a game against the computer and one on this device, to their end', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 } });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await installed(page);
    await ctx.setOffline(true);

    // Against the computer (level 1), from a short endgame.
    await page.goto(`${BASE}/play`);
    await page.locator('.offline-note').waitFor();
    await startComputerGame(page);
    assert.match(await page.locator('.mode-line').textContent(), /kept on this device/);
    const before = await readBoard(page);
    assert.equal(before.F, 2, 'the chosen position');
    // A refused move, in words, from the core's code.
    await page.locator('.house[data-house="A"]').click();
    await until(async () => /empty/i.test(await page.locator('.move-msg').textContent()), 'the refusal');
    assert.deepEqual(await readBoard(page), before);
    // One move, the computer's reply (its engine is the browser's), then take-back.
    await playFirst(page);
    await until(async () => (await plies(page)) >= 2 || page.locator('.result-card').isVisible(), "the computer's reply");
    if (!(await page.locator('.result-card').isVisible())) {
      await until(async () => !(await page.locator('.undo-btn').isDisabled()), 'take-back enabled');
      await page.locator('.undo-btn').click();
      await until(async () => (await plies(page)) === 0, 'our move and the reply taken back');
      assert.deepEqual(await readBoard(page), before, 'the board as it was');
    }
    const ours = await playToEnd(page);
    const result = await page.locator('.result-text').textContent();
    assert.match(result, /^(You won|You lost|Draw), \d+–\d+$/);
    const end = await readBoard(page);
    assert.equal(Object.values(end).reduce((a, n) => a + n, 0), 48, 'seeds are conserved');
    console.log(`# offline computer game: ${ours} of our moves, "${result}"`);
    await shot(page, 'phone-offline-game');
    // Kept: a reload (offline) shows the same finished game.
    const url = page.url();
    await page.reload();
    await page.locator('.result-card').waitFor();
    assert.equal(await page.locator('.result-text').textContent(), result);
    assert.equal(page.url(), url);
    // Its record, written on the device by the module: downloaded as the
    // server's games are, and read back by the server once online (below).
    const link = page.locator('.result-card a.ogn-local');
    await until(async () => (await link.getAttribute('href')).startsWith('blob:'), 'the OGN record written');
    assert.match(await link.getAttribute('download'), /^oware-local-[0-9a-f]+\.ogn$/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.match(download.suggestedFilename(), /^oware-local-[0-9a-f]+\.ogn$/);
    const ogn = readFileSync(await download.path(), 'utf8');
    assert.match(ogn, /\[Event "oware, computer game"\]/);
    assert.match(ogn, /\[Date "\d{4}\.\d{2}\.\d{2}"\]/);
    assert.match(ogn, /\[North "Computer 1"\]|\[South "Computer 1"\]/);
    const [south, north] = result.match(/(\d+)–(\d+)$/).slice(1);
    assert.ok(ogn.includes(`[Result "${south}-${north}"]`) || ogn.includes(`[Result "${north}-${south}"]`), 'the final score');
    assert.match(ogn, /\[FEN "/, 'the game started from a set position');
    // The review page shows the same record.
    await page.goto(`${BASE}/review/${url.split('/game/')[1]}`);
    await until(async () => (await page.locator('.ogn-text').inputValue()) === ogn, 'the record on the review page');
    await page.goBack();

    // Two players on this device: one move, a reload, the game goes on.
    await page.goto(`${BASE}/play?mode=hotseat`);
    await page.locator('[name=position]').fill(ENDGAME);
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/game\/local-[0-9a-f]+$/);
    await page.locator('.house.playable').first().waitFor();
    await playFirst(page);
    await page.reload();
    await page.locator('.house.playable').first().waitFor();
    assert.equal(await plies(page), 1, 'the unfinished game resumes after a reload');
    // Take-back in a hot-seat game is one ply.
    await page.locator('.undo-btn').click();
    await until(async () => (await plies(page)) === 0, 'one ply taken back');
    const moves = await playToEnd(page);
    assert.match(await page.locator('.result-text').textContent(), /(South|North) won|Draw/);
    console.log(`# offline hot-seat game: ${moves} moves, "${await page.locator('.result-text').textContent()}"`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= 360), true, 'no sideways scroll at 360 px');
    assert.deepEqual(errors.filter((e) => !/net::|Failed to fetch|NetworkError|ERR_INTERNET_DISCONNECTED/.test(e)), []);
    await ctx.setOffline(false);
    // Back online, the server reads the record written offline: the same game.
    const imported = await page.evaluate(async (text) => {
      const r = await fetch('/api/v1/games/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ogn: text }) });
      return { status: r.status, body: await r.json() };
    }, ogn);
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const houses = imported.body.game.position.split('-').slice(0, 12).map(Number);
    const letters = 'ABCDEFabcdef';
    for (let i = 0; i < 12; i += 1) assert.equal(houses[i], end[letters[i]], `house ${letters[i]} as the game ended on the device`);
    assert.equal(imported.body.game.status, 'over');
  } finally {
    await b.close();
  }
});

test('offline: online-only pages say so in English and French, and come back with the network', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 } });
    const page = await ctx.newPage();
    await installed(page);
    for (const [lang, words] of [['en', /needs the network/], ['fr', /besoin du réseau/]]) {
      await page.goto(`${BASE}/lobby?lang=${lang}`);
      await page.locator('main h1').first().waitFor();
      await ctx.setOffline(true);
      // The lobby was open when the network went: it says so at once.
      await page.locator('.offline-needs').waitFor();
      assert.match(await page.locator('.offline-needs').textContent(), words);
      for (const path of ['/watch', '/account', '/tournaments', '/ratings']) {
        await page.goto(`${BASE}${path}?lang=${lang}`);
        await page.locator('.offline-needs').waitFor();
        assert.match(await page.locator('.offline-needs').textContent(), words, path);
      }
      if (lang === 'fr') await shot(page, 'phone-offline-needs-fr');
      // The network returns: the page comes back by itself.
      await ctx.setOffline(false);
      await until(async () => (await page.locator('.offline-needs').count()) === 0, `${lang}: the page back online`);
      await page.locator('main h1').first().waitFor();
    }
  } finally {
    await b.close();
  }
});

test('offline games go to the account once the network returns, once however often they are sent', async () => {
  // A server of its own: the shared one limits sign-ups per address.
  const dir = mkdtempSync(join(tmpdir(), 'oware-offline-'));
  const server = await startServer({ port: await freePort(), db: join(dir, 'games.sqlite3') });
  const base = server.url;
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 } });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const name = `Adjoa_${Date.now().toString(36).slice(-5)}`;
    await page.goto(`${base}/account`);
    const form = page.locator('.signup-form');
    await form.locator('[name=username]').fill(name);
    await form.locator('[name=password]').fill('seeds-and-houses');
    await form.locator('button[type=submit]').click();
    await until(async () => (await page.locator('.nav-account').textContent()) === name, 'signed up');
    await installed(page, base);

    await ctx.setOffline(true);
    await startComputerGame(page, base);
    const local = page.url().split('/game/')[1];
    await playToEnd(page);
    const result = await page.locator('.result-text').textContent();
    const kept = () => page.evaluate(async (id) => {
      const { localStore } = await import('/js/local.js');
      return localStore.get(id);
    }, local);
    assert.equal((await kept()).uploaded, undefined, 'not sent while offline');
    // Offline, My games lists it as kept on this device.
    await page.goto(`${base}/review`);
    await until(async () => (await page.locator('.mine-list').innerText()).includes('kept on this device'), 'listed offline');

    // The network returns: the game goes to the account by itself.
    await ctx.setOffline(false);
    const id = await until(async () => (await kept()).uploaded, 'the game uploaded', 30000);
    assert.equal(id, `dev${local.slice('local-'.length)}`);
    // A second attempt (as after a lost answer): the server keeps it once.
    await page.evaluate(async (lid) => {
      const { localStore } = await import('/js/local.js');
      const rec = await localStore.get(lid);
      delete rec.uploaded;
      await localStore.put(rec);
    }, local);
    await page.reload();
    await until(async () => (await kept()).uploaded === id, 'the second sync', 30000);
    const r = await page.evaluate(async () => (await fetch('/api/v1/account/games')).json());
    assert.equal(r.games.filter((g) => g.id === id).length, 1, 'stored once');
    const g = await page.evaluate(async (gid) => (await fetch(`/api/v1/games/${gid}`)).json(), id);
    assert.equal(g.rated, false);
    assert.equal(g.status, 'over');
    // In My games exactly once, from the account (no longer as a local copy).
    await page.goto(`${base}/review`);
    await until(async () => (await page.locator(`.mine-list a[href="/review/${id}"]`).count()) === 1, 'listed from the account');
    assert.equal(await page.locator('.mine-list').getByText('kept on this device').count(), 0);
    assert.equal(await page.locator('.mine-list tr').count(), 1, 'one game in My games');
    // The copy on this device links to the account's, whose link can be shared.
    await page.goto(`${base}/review/${local}`);
    await page.locator(`.local-note a[href="/review/${id}"]`).click();
    await page.waitForURL(new RegExp(`/review/${id}$`));
    await until(async () => /Move \d+ of \d+/.test(await page.locator('.ply-label').textContent()), 'the account copy reviewed');
    console.log(`# uploaded ${local} as ${id}: "${result}"`);
    assert.deepEqual(errors.filter((e) => !/net::|Failed to fetch|NetworkError|ERR_INTERNET_DISCONNECTED/.test(e)), []);
  } finally {
    await b.close();
    await server.stop();
  }
});
