// Puzzles on a phone (360×640), measured: the page fits without sideways
// scrolling, every house is a touch target of at least 44 px; one puzzle
// solved (its solution read from the shipped file) and one failed, in
// English and French, the streak kept in the browser; the daily puzzle.
// "Next puzzle" pressed while the solution is being shown stops it: the
// board is the new puzzle's, and a tap is judged as the new puzzle. A
// signed-in player's puzzle rating shows on their account page and their
// profile, in English and French.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, BASE, shot, until, watchErrors, readBoard, freePort, startServer } from '../lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// id -> {solution, legal-looking letters of the side to move}
const PUZZLES = new Map();
for (const line of readFileSync(join(here, '../../crates/oware-session/data/puzzles.txt'), 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [id, position, moves] = line.split(/\s+/);
  PUZZLES.set(Number(id), { position, solution: moves[0] });
}

async function current(page) {
  await page.locator('.puz-board .house.playable').first().waitFor();
  const id = Number(await page.locator('.puz-board').getAttribute('data-puzzle'));
  assert.ok(PUZZLES.has(id), `puzzle ${id} is in the shipped file`);
  return { id, ...PUZZLES.get(id) };
}

function measure(page) {
  return page.evaluate(() => {
    const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
    const houses = [...document.querySelectorAll('.puz-board .house')].filter(visible).map((h) => h.getBoundingClientRect());
    const msg = document.querySelector('.puz-msg').getBoundingClientRect();
    return {
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
      houses: houses.length,
      minW: Math.min(...houses.map((r) => r.width)),
      minH: Math.min(...houses.map((r) => r.height)),
      msgRight: msg.right,
      msgWidth: msg.width,
    };
  });
}

test('phone: solve one puzzle, fail one, in English and French', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    // The home page links to the puzzles.
    await page.goto(`${BASE}/`);
    await page.locator('main a[href="/puzzles"]').first().click();
    await page.waitForURL(/\/puzzles$/);

    // Solve.
    let p = await current(page);
    let m = await measure(page);
    assert.equal(m.houses, 12);
    assert.ok(m.scrollWidth <= m.width, `no sideways scroll (${m.scrollWidth} > ${m.width})`);
    assert.ok(m.minW >= 44 && m.minH >= 44, `houses at least 44 px (${m.minW}×${m.minH})`);
    await page.locator(`.puz-board .house[data-house="${p.solution}"]`).click();
    await page.locator('.puz-msg.puz-solved').waitFor();
    const solved = await page.locator('.puz-msg').textContent();
    assert.match(solved, /^Solved! /);
    assert.match(await page.locator('.puz-streak').textContent(), /Streak: 1 solved/);
    m = await measure(page);
    assert.ok(m.scrollWidth <= m.width && m.msgRight <= m.width, `the answer fits (${m.msgRight} > ${m.width})`);
    await shot(page, 'puzzle-solved-phone');

    // The next one, in French, failed.
    await page.evaluate(() => localStorage.setItem('oware.lang', 'fr'));
    await page.reload();
    await until(async () => (await page.locator('.puz-task').textContent()).startsWith('Problème'), 'the French page');
    let q = await current(page);
    if (q.id === p.id) { await page.locator('.puz-next').click(); q = await current(page); }
    const playable = await page.locator('.puz-board .house.playable').evaluateAll((hs) => hs.map((h) => h.dataset.house));
    const wrong = playable.find((l) => l !== q.solution);
    assert.ok(wrong, 'a wrong move to play');
    await page.locator(`.puz-board .house[data-house="${wrong}"]`).click();
    await page.locator('.puz-msg.puz-failed').waitFor();
    const failed = await page.locator('.puz-msg').textContent();
    assert.ok(failed.startsWith(`Pas ${wrong}\u00a0: le coup était ${q.solution}.`), failed);
    assert.match(await page.locator('.puz-streak').textContent(), /Série\s:\s0 résolu/);
    m = await measure(page);
    assert.ok(m.scrollWidth <= m.width && m.msgRight <= m.width, 'the French answer fits');
    await shot(page, 'puzzle-failed-phone-fr');

    // The solution can be shown on the board.
    await page.locator('.puz-show').click();
    await until(async () => (await page.locator(`.puz-board .house.last-move`).count()) > 0, 'the solution played');

    // The daily puzzle: the same for everyone.
    await page.goto(`${BASE}/puzzles/daily`);
    const d = await current(page);
    const api = await (await page.request.get(`${BASE}/api/v1/puzzles/daily`)).json();
    assert.equal(d.id, api.id);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

/** A position string's counts as readBoard gives them. */
function counts(position) {
  const f = position.split('-').map(Number);
  const out = {};
  [...'ABCDEFabcdef'].forEach((l, i) => { out[l] = f[i]; });
  out.S = f[12];
  out.N = f[13];
  return out;
}

test('Next puzzle pressed while the solution is shown stops the old line', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/puzzles?lang=en`);
    await page.evaluate(() => localStorage.setItem('oware.set.animate', '1'));
    const p = await current(page);
    await page.locator(`.puz-board .house[data-house="${p.solution}"]`).click();
    await page.locator('.puz-msg.puz-solved').waitFor();
    // The solution's line starts to play, seed by seed...
    await page.locator('.puz-show').click();
    await until(() => page.evaluate(() => document.querySelectorAll('.flying-seed').length > 0), 'the solution being shown');
    // ... and the player moves on.
    await page.locator('.puz-next').click();
    await until(async () => Number(await page.locator('.puz-board').getAttribute('data-puzzle')) !== p.id, 'the next puzzle');
    const q = await current(page);
    assert.match(await page.locator('.puz-task').textContent(), new RegExp(`Puzzle ${q.id}\\b`));
    // The board is the new puzzle's, no seed of the old line in flight,
    // and every highlighted house holds seeds.
    assert.deepEqual(await readBoard(page, '.puz-board'), counts(q.position));
    assert.equal(await page.evaluate(() => document.querySelectorAll('.flying-seed').length), 0, 'the old line stopped');
    const empty = await page.locator('.puz-board .house.playable').evaluateAll((hs) => hs.filter((h) => h.querySelector('.count').textContent === '0').map((h) => h.dataset.house));
    assert.deepEqual(empty, [], 'no empty house playable');
    // A tap is judged as the new puzzle.
    await page.locator(`.puz-board .house[data-house="${q.solution}"]`).click();
    await page.locator('.puz-msg.puz-solved').waitFor();
    assert.match(await page.locator('.puz-streak').textContent(), /Streak: 2 solved/);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('the puzzle rating shows on the account page and the profile, in English and French', async () => {
  // A server of its own: the shared one limits sign-ups per address.
  const dir = mkdtempSync(join(tmpdir(), 'oware-puz-'));
  const server = await startServer({ port: await freePort(), db: join(dir, 'games.sqlite3') });
  const base = server.url;
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const name = `Efua_${Date.now().toString(36).slice(-5)}`;
    await page.goto(`${base}/account?lang=en`);
    const form = page.locator('.signup-form');
    await form.locator('[name=username]').fill(name);
    await form.locator('[name=password]').fill('seeds-and-houses');
    await form.locator('button[type=submit]').click();
    await until(async () => (await page.locator('.nav-account').textContent()) === name, 'signed up');
    // Before any puzzle: a dash.
    await page.goto(`${base}/account`);
    assert.match(await page.locator('.puzzle-rating').innerText(), /^Puzzles\s+—$/);
    // One puzzle solved, rated by the server.
    await page.goto(`${base}/puzzles`);
    const p = await current(page);
    await page.locator(`.puz-board .house[data-house="${p.solution}"]`).tap();
    await page.locator('.puz-msg.puz-solved').waitFor();
    const mine = (await page.locator('.puz-rating').textContent()).match(/your rating (\d+)/)?.[1];
    assert.ok(mine, `the page gives the player's rating: ${await page.locator('.puz-rating').textContent()}`);
    for (const lang of ['en', 'fr']) {
      await page.evaluate((l) => localStorage.setItem('oware.lang', l), lang);
      await page.goto(`${base}/account`);
      const card = await page.locator('.puzzle-rating').innerText();
      assert.match(card, new RegExp(`^${lang === 'en' ? 'Puzzles' : 'Problèmes'}\\s+${mine}\\?$`), `${lang} account: ${card}`);
      await page.goto(`${base}/player/${name}`);
      const row = await page.locator('.ratings-table .puzzle-rating').innerText();
      assert.match(row, new RegExp(`^${lang === 'en' ? 'Puzzles' : 'Problèmes'}\\s+${mine}\\?`), `${lang} profile: ${row}`);
      assert.match(row, lang === 'en' ? /tried: 1, solved: 1$/ : /essayés\s: 1, résolus\s: 1$/, `${lang} profile: ${row}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, `${lang}: the profile fits the phone`);
    }
    await shot(page, 'phone-profile-puzzles-fr');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
    await server.stop();
  }
});
