// Shared helpers for the browser tests: launch Debian's Chromium through
// playwright-core, read the board, take screenshots.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE = process.env.OWARE_URL || 'http://127.0.0.1:8080';
const here = dirname(fileURLToPath(import.meta.url));
export const SHOTS = join(here, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Launches headless Chromium; playwright gives each launch a fresh,
 * temporary user-data dir. Returns {browser, context, newContext, close}. */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  browserAtOurPriority();
  const newContext = (opts = {}) => browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'en-GB', ...opts });
  const context = await newContext();
  return { browser, context, newContext, close: () => browser.close() };
}

/** Linux shares the CPU first between sessions (autogroups), and
 * playwright starts the browser in a session of its own, so a measurement
 * started with scripts/timing-run.sh (its session at the highest priority)
 * would leave the browser, its pages and workers at the usual one. This
 * gives the sessions of this process's children (the browser) this
 * process's autogroup priority; nothing changes when that is the usual one
 * (0) or the system has no autogroups. Returns how many were changed. */
export function browserAtOurPriority() {
  let nice;
  try {
    nice = /nice (-?\d+)/.exec(readFileSync('/proc/self/autogroup', 'utf8'))?.[1];
  } catch {
    return 0;
  }
  if (!nice || nice === '0') return 0;
  let changed = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command's closing parenthesis: state, then the parent.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      writeFileSync(`/proc/${pid}/autogroup`, nice);
      changed += 1;
    } catch {
      // A process that ended meanwhile, or no permission: left as it is.
    }
  }
  return changed;
}

/** Collects page errors so a test can assert the console stayed clean. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource|WebSocket connection to/.test(m.text())) errors.push(m.text()); });
  return errors;
}

/** The counts shown on the page's first board: {A..F, a..f, S, N}. */
export async function readBoard(page, scope = '') {
  return page.evaluate((scope) => {
    const root = scope ? document.querySelector(scope) : document;
    const out = {};
    for (const h of root.querySelectorAll('.house')) out[h.dataset.house] = Number(h.querySelector('.count').textContent);
    for (const s of root.querySelectorAll('.store')) out[s.dataset.store] = Number(s.querySelector('.count').textContent);
    return out;
  }, scope);
}

export async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until fn() is truthy (polling), or throws with the label. */
export async function until(fn, label, timeout = 20000) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${label}`);
}

/** A free loopback port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Starts a server of the test's own (`oware serve`, the binary test-web.sh
 * built, OWARE_BIN) on `port` with the database `db` and extra `args`;
 * resolves once it answers. `stop()` kills it (SIGKILL: as a crash would). */
export async function startServer({ port, db, args = [] }) {
  const bin = process.env.OWARE_BIN;
  if (!bin) throw new Error('OWARE_BIN is not set: run the browser tests through scripts/test-web.sh');
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, '--tablebase-seeds', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((r) => child.on('exit', r));
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 20000;
  for (;;) {
    try { if ((await fetch(`${url}/api/v1/lobby`)).ok) break; } catch (_) { /* not yet */ }
    if (child.exitCode != null || Date.now() > end) throw new Error(`the server did not start:\n${log}`);
    await sleep(100);
  }
  return { url, log: () => log, stop: async () => { child.kill('SIGKILL'); await exited; } };
}

// Offline games (offline-game.test.mjs, offline-study.test.mjs).

// From this position South's leftmost playable house ends the game within
// a few moves whatever North plays (e2e/tests/computer.test.mjs).
export const ENDGAME = '0-0-0-0-0-2-2-2-0-1-2-0-17-22-S';

export async function installed(page, base = BASE) {
  await page.goto(`${base}/play`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await until(() => page.evaluate(() => !!navigator.serviceWorker.controller), 'the service worker controls the page', 30000);
  await until(() => page.evaluate(async () => {
    const keys = (await (await caches.open('oware-v1')).keys()).map((r) => new URL(r.url).pathname);
    return keys.some((k) => k.startsWith('/wasm/')) && keys.includes('/js/local.js');
  }), 'the shell kept', 30000);
}

export const plies = (page) => page.locator('.moves-list .mv').count();

/** Starts a level-1 game against the computer from ENDGAME, South (a
 * game on this device when offline, else on the server). */
export async function startComputerGame(page, base = BASE, { local = true } = {}) {
  await page.goto(`${base}/play`);
  await page.getByLabel('The computer').check();
  await page.locator('[name=level]').selectOption('1');
  await page.getByLabel('South (bottom)').check();
  await page.locator('[name=position]').fill(ENDGAME);
  await page.getByRole('button', { name: 'Start the game' }).click();
  await page.waitForURL(local ? /\/game\/local-[0-9a-f]+$/ : /\/game\/[A-Za-z0-9_-]+$/);
  await page.locator('.house.playable').first().waitFor();
}

/** Clicks the first playable house; confirms when the coach asks. */
export async function playFirst(page) {
  const n = await plies(page);
  const house = page.locator('.house.playable').first();
  await house.click();
  await until(async () => (await plies(page)) > n || /again/.test(await page.locator('.move-msg').textContent()), 'the move or the coach');
  if (/again/.test(await page.locator('.move-msg').textContent())) await house.click();
  await until(async () => (await plies(page)) > n, 'the move played');
}

/** Plays the first playable house whenever one is, until the result card. */
export async function playToEnd(page) {
  const deadline = Date.now() + 120000;
  let moves = 0;
  while (!(await page.locator('.result-card').isVisible())) {
    if (moves >= 40 || Date.now() > deadline) throw new Error('the game did not end within 40 moves and two minutes');
    if (await page.locator('.house.playable').count() === 0) { await page.waitForTimeout(100); continue; }
    await playFirst(page);
    moves += 1;
  }
  return moves;
}
