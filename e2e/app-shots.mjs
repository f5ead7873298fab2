// Screenshots of the installed app offline (docs/WEB.md, "Offline and
// installable"; not a test). For each language: a 360×640 phone visits
// the site once (the service worker keeps the app), the app is installed
// from its manifest through Chromium's DevTools protocol (`PWA.install`,
// in a profile on disk: Chromium keeps no web apps in a throwaway one) and
// opened in its own standalone window (`PWA.changeAppUserSettings`,
// `PWA.launch`), then the network is cut
// and the window shows the home page, a puzzle tried and a game against
// the computer, all served by the service worker.
//
//   OWARE_URL=http://127.0.0.1:8080 node app-shots.mjs [out-dir]
//
// Writes app-offline-{home,puzzle,game}-{en,fr}.png (default: docs/img/)
// and prints, for each language, whether the window is the installed
// app (`display-mode: standalone`).

import { join, dirname } from 'node:path';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { BASE, until, installed } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || join(here, '..', 'docs', 'img');
mkdirSync(out, { recursive: true });

for (const lang of ['en', 'fr']) {
  // A profile on disk: Chromium installs web apps only in a real profile.
  const profile = mkdtempSync(join(tmpdir(), 'oware-app-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    viewport: { width: 360, height: 640 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
    locale: 'en-GB',
  });
  try {
    await ctx.addInitScript((l) => localStorage.setItem('oware.lang', l), lang);
    const page = ctx.pages()[0] || await ctx.newPage();
    await installed(page);
    // Install the app from its manifest and open its window.
    const manifestId = new URL('/', BASE).href;
    const cdp = await ctx.newCDPSession(page);
    let app = page;
    let how = 'a tab';
    try {
      await cdp.send('PWA.install', { manifestId });
      // Opened as its manifest asks (standalone), not as a tab.
      await cdp.send('PWA.changeAppUserSettings', { manifestId, displayMode: 'standalone' });
      const opened = ctx.waitForEvent('page', { timeout: 10000 }).catch(() => null);
      await cdp.send('PWA.launch', { manifestId });
      const p = await opened;
      if (p) { app = p; how = 'the installed app window'; }
    } catch (e) {
      how = `a tab (PWA.install: ${e.message.split('\n')[0]})`;
    }
    await app.setViewportSize({ width: 360, height: 640 });
    await ctx.setOffline(true);
    await app.goto(`${BASE}/`);
    await app.locator('main h1').first().waitFor();
    const standalone = await app.evaluate(() => matchMedia('(display-mode: standalone)').matches);
    console.log(`${lang}: ${how}; display-mode standalone: ${standalone}; navigator.onLine: ${await app.evaluate(() => navigator.onLine)}`);
    await app.screenshot({ path: join(out, `app-offline-home-${lang}.png`) });

    // A puzzle from the module, one try.
    await app.goto(`${BASE}/puzzles`);
    await app.locator('.puz-board .house.playable').first().waitFor();
    await app.locator('.puz-board .house.playable').first().click();
    await app.locator('.puz-msg.puz-solved, .puz-msg.puz-failed').waitFor();
    if (!(await app.locator('.puz-offline').isVisible())) throw new Error('the puzzle page is not offline');
    if (!(await app.evaluate(() => matchMedia('(display-mode: standalone)').matches))) throw new Error('not the installed app');
    await app.screenshot({ path: join(out, `app-offline-puzzle-${lang}.png`), fullPage: true });

    // A game against the computer at level 10, two moves in.
    await app.goto(`${BASE}/play`);
    await app.locator('[name=mode][value=computer]').check();
    await app.locator('[name=level]').selectOption('10');
    await app.locator('[name=side][value=S]').check();
    await app.locator('form button[type=submit]').first().click();
    await app.waitForURL(/\/game\/local-[0-9a-f]+$/);
    for (let i = 0; i < 2; i += 1) {
      const n = await app.locator('.moves-list .mv').count();
      const house = app.locator('.house.playable').first();
      await house.waitFor({ timeout: 30000 });
      await house.click();
      await until(async () => (await app.locator('.moves-list .mv').count()) > n || /again|nouveau/i.test(await app.locator('.move-msg').textContent()), 'the move or the coach');
      if ((await app.locator('.moves-list .mv').count()) === n) await house.click();
      await until(async () => (await app.locator('.moves-list .mv').count()) >= n + 2, "the computer's reply", 60000);
    }
    await app.screenshot({ path: join(out, `app-offline-game-${lang}.png`) });
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
