// Tournaments on phones (360×640): five accounts in five browser contexts.
// An arena of four players runs to its end, each player sent to their
// game when paired and back to the tournament after it; then a 3-round
// Swiss of five, with a bye each round. Games end by South resigning.
// The server runs on a manual clock (--manual-clock): the test moves it
// (POST /api/v1/clock) to each tournament's start and the arena's end, so
// no minute is waited for in real time and no game clock runs out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, shot, until, watchErrors, freePort, startServer, sleep } from '../lib.mjs';

const phone = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };
const stamp = Date.now().toString(36).slice(-4);
const NAMES = ['Ama', 'Kofi', 'Esi', 'Yaw', 'Akua'].map((n) => `${n}_${stamp}`);
let BASE;

async function signUp(page, name) {
  await page.goto(`${BASE}/account`);
  const form = page.locator('.signup-form');
  await form.locator('[name=username]').fill(name);
  await form.locator('[name=password]').fill('seeds-and-houses');
  await form.locator('button[type=submit]').click();
  await until(async () => (await page.locator('.nav-account').textContent()) === name, `${name} signed up`);
}

const fits = async (page, what) => {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `${what} fits the phone (${width} px)`);
};

const tournament = (page, id) => page.evaluate(async (id) => (await fetch(`/api/v1/tournaments/${id}`)).json(), id);

/** One look at each player's page: in a fresh game each side moves once
 * (a game resigned before that counts for nobody), then South resigns; a
 * finished game leads back to the tournament; a game waiting there is
 * opened. */
async function step(page, name) {
  const url = page.url();
  if (/\/game\//.test(url)) {
    const id = url.split('/game/')[1].split(/[?#/]/)[0];
    const g = await page.evaluate(async (id) => (await fetch(`/api/v1/games/${id}`)).json(), id);
    const mine = g.seats.S.name === name ? 'S' : g.seats.N.name === name ? 'N' : null;
    if (g.status === 'over') {
      const back = page.locator('.tournament-back');
      if (await back.isVisible()) await back.click();
    } else if (g.status === 'playing' && mine && g.ply < 2 && g.to_move === mine) {
      const house = page.locator('.house.playable').first();
      if (await house.isVisible()) {
        await house.click();
        await page.waitForTimeout(100);
        if (/again/.test(await page.locator('.move-msg').textContent())) await house.click();
      }
    } else if (g.status === 'playing' && mine === 'S' && g.ply >= 2) {
      const resign = page.locator('.resign-btn');
      if (await resign.isVisible() && await resign.isEnabled()) await resign.click();
    }
  } else if (/\/tournament\//.test(url)) {
    const go = page.locator('.tour-you [data-act=game]');
    if (await go.isVisible()) await go.click();
  }
}

/** Plays the tournament on `pages` until it is over (or until `enough`
 * says of its state), moving the server's manual clock a second per look:
 * the director's rounds run on the server's clock. */
async function playOut(pages, names, id, limitMs, enough = (v) => v.status === 'finished') {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await tournament(pages[0], id);
    if (enough(v)) return v;
    assert.ok(Date.now() < end, `the tournament ended in time: ${JSON.stringify(v).slice(0, 600)}`);
    for (let i = 0; i < pages.length; i += 1) {
      try { await step(pages[i], names[i]); } catch (_) { /* the page moved on meanwhile */ }
    }
    await sleep(250);
    const moved = await fetch(`${BASE}/api/v1/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: 1000 }) });
    // A Swiss break (20 s of the server's time) is waited out on its clock.
    const { now_ms: now } = await moved.json();
    const gap = v.next_at ? Date.parse(v.next_at) - now : 0;
    if (gap > 0) await fetch(`${BASE}/api/v1/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: gap }) });
  }
}

test('phones: a 4-player arena and a 5-player Swiss with byes, to their ends', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oware-tournaments-'));
  // No rate limits: five sign-ups from one address exceed the hourly allowance.
  const server = await startServer({
    port: await freePort(),
    db: join(dir, 'games.sqlite3'),
    args: ['--no-rate-limits', '--manual-clock', 'now'],
  });
  BASE = server.url;
  const advance = async (ms) => {
    const r = await fetch(`${BASE}/api/v1/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }) });
    assert.equal(r.status, 200, await r.text());
  };
  const b = await launch();
  try {
    const pages = [];
    const errors = [];
    for (const name of NAMES) {
      const p = await (await b.newContext(phone)).newPage();
      p.on('dialog', (d) => d.accept());
      errors.push(watchErrors(p));
      await signUp(p, name);
      pages.push(p);
    }

    // The arena, created from the form by Ama: 1+0, 15 "minutes", starting in one.
    const ama = pages[0];
    await ama.goto(`${BASE}/tournaments`);
    await fits(ama, 'the tournaments page');
    const form = ama.locator('.tour-form');
    await form.locator('[name=name]').fill('Phone arena');
    await form.locator('[name=clock]').selectOption('0');
    await form.locator('[name=minutes]').selectOption('15');
    await form.locator('[name=starts]').selectOption('60');
    await form.locator('button[type=submit]').click();
    await ama.waitForURL(/\/tournament\//);
    const arena = ama.url().split('/tournament/')[1];
    for (const p of pages.slice(1, 4)) {
      await p.goto(`${BASE}/tournament/${arena}`);
      await p.getByRole('button', { name: 'Join' }).click();
      await until(async () => (await p.locator('.tour-you .you-text').textContent()).length > 0, 'joined');
    }
    // Its start, a minute on: paired players are sent to their games.
    await advance(60_000);
    // The director's next ticks (a second each) pair the players.
    await until(async () => { await advance(1000); return /\/game\//.test(pages[1].url()) || /\/game\//.test(pages[0].url()); }, 'a player sent to their game');
    // Two rounds of games, then its fifteen minutes are over.
    await playOut(pages.slice(0, 4), NAMES.slice(0, 4), arena, 90000, (v) => v.games.filter((g) => g.outcome).length >= 4);
    await advance(15 * 60_000);
    const arenaDone = await playOut(pages.slice(0, 4), NAMES.slice(0, 4), arena, 90000);
    const played = arenaDone.games.filter((g) => g.outcome).length;
    assert.ok(played >= 4, `at least two rounds of games (${played})`);
    assert.equal(arenaDone.standings.length, 4);
    const total = arenaDone.standings.reduce((s, x) => s + x.score, 0);
    assert.ok(total >= 2 * played, `points: ${total} for ${played} games`);
    await ama.goto(`${BASE}/tournament/${arena}`);
    await until(async () => (await ama.locator('.standings tbody tr').count()) === 4, 'the arena standings shown');
    assert.match(await ama.locator('.tour-status').textContent(), /Finished/);
    await fits(ama, 'the arena standings');
    await shot(ama, 'phone-arena-standings');

    // The Swiss: three rounds, five players, starting in 15 "minutes".
    await ama.goto(`${BASE}/tournaments`);
    await form.locator('[name=kind]').selectOption('swiss');
    await form.locator('[name=name]').fill('Phone Swiss');
    await form.locator('[name=clock]').selectOption('0');
    await form.locator('[name=rounds]').selectOption('3');
    await form.locator('[name=starts]').selectOption('900');
    await form.locator('button[type=submit]').click();
    await ama.waitForURL(/\/tournament\//);
    const swiss = ama.url().split('/tournament/')[1];
    for (const p of pages.slice(1)) {
      await p.goto(`${BASE}/tournament/${swiss}`);
      await p.getByRole('button', { name: 'Join' }).click();
      await until(async () => /You are in/.test(await p.locator('.tour-you .you-text').textContent()), 'joined the Swiss');
    }
    await advance(15 * 60_000);
    const swissDone = await playOut(pages, NAMES, swiss, 120000);
    assert.equal(swissDone.round, 3);
    const byes = swissDone.games.filter((g) => !g.id).map((g) => g.south);
    assert.equal(byes.length, 3, 'a bye each round');
    assert.equal(new Set(byes).size, 3, 'never twice the same bye');
    const points = swissDone.standings.reduce((s, x) => s + x.score, 0);
    assert.equal(points, 9, 'two games and a bye a round: 9 points');

    // The standings page in French, on the phone.
    await ama.goto(`${BASE}/tournament/${swiss}?lang=fr`);
    await until(async () => (await ama.locator('.standings tbody tr').count()) === 5, 'the Swiss standings shown');
    assert.match(await ama.locator('.tour-status').textContent(), /Terminé/);
    assert.ok((await ama.locator('.tour-games').innerText()).includes('exempt'), 'the byes named in French');
    // Rounds in words (« Ronde 3 », not « R3 »), every heading on one line.
    assert.match(await ama.locator('.tour-games').innerText(), /Ronde 3/);
    assert.doesNotMatch(await ama.locator('.tour-games').innerText(), /\bR\d/);
    const heads = await ama.locator('.standings th').evaluateAll((ths) => ths.map((th) => {
      const r = document.createRange();
      r.selectNodeContents(th);
      return [th.textContent, new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size];
    }));
    assert.deepEqual(heads.filter(([, n]) => n !== 1), [], `headings on one line: ${JSON.stringify(heads)}`);
    // The break before a round counts down to the second (never "now" 20 s ahead).
    assert.deepEqual(await ama.evaluate(async () => {
      const { nextRoundWhen } = await import('/js/pages/tournaments.js');
      const now = Date.now();
      return [20, 90, 1].map((s) => nextRoundWhen(new Date(now + s * 1000).toISOString(), now));
    }), ['dans 20 secondes', 'dans 90 secondes', 'dans 1 seconde']);
    await fits(ama, 'the Swiss standings');
    await shot(ama, 'phone-swiss-standings-fr');

    // Ama searches her games for one opponent (the search in My games).
    const met = swissDone.games.find((g) => g.id && (g.south === NAMES[0] || g.north === NAMES[0]));
    const rival = met.south === NAMES[0] ? met.north : met.south;
    const expected = await ama.evaluate(async (o) => (await (await fetch(`/api/v1/account/games?opponent=${encodeURIComponent(o)}`)).json()).games.length, rival);
    assert.ok(expected >= 1, 'the API finds games against the rival');
    await ama.goto(`${BASE}/review`);
    await ama.locator('.mine-search summary').click();
    await ama.locator('.search-form [name=opponent]').fill(rival.toLowerCase());
    await ama.locator('.search-form button[type=submit]').click();
    await until(async () => /games? found|parties? trouvées?/.test(await ama.locator('.search-msg').textContent()), 'the search answered');
    const rows = await ama.locator('.mine-list tbody tr').allInnerTexts();
    assert.equal(rows.length, expected, 'as many rows as the API found');
    assert.ok(rows.every((r) => r.includes(rival)), `every row is against ${rival}`);
    await fits(ama, 'the game search');
    await shot(ama, 'phone-game-search-fr');
    for (const e of errors) assert.deepEqual(e, [], 'no page error');
  } finally {
    await b.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
