// Puzzles and reviews with the network cut (docs/WEB.md, "Offline and
// installable"), on a 360×640 phone once the service worker keeps the app:
// - puzzles come from the browser's module (the shipped set): one solved,
//   one failed in French, the streak kept on this device, the page saying
//   they are not rated; back online, the server words the same attempt
//   with the same text, and its daily puzzle is the one shown offline;
// - a game played offline is reviewed by the browser's engine: the review
//   page lists every move with the same wording as an online review;
// - the lessons answer every move offline, in the rules service's words
//   (the module runs the same oware_session::lessons::explain): a capture,
//   a refusal, an agreement to stop and a lost turn, in French; and as
//   well when the browser thinks it is online but the server cannot be
//   reached (stopped), as games, puzzles and reviews do.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, BASE, shot, until, watchErrors, installed, startComputerGame, playToEnd, readBoard, freePort, startServer } from '../lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SOLUTIONS = new Map();
for (const line of readFileSync(join(here, '../../crates/oware-session/data/puzzles.txt'), 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [id, , moves] = line.split(/\s+/);
  SOLUTIONS.set(Number(id), moves[0]);
}

const offlineErrors = (errors) => errors.filter((e) => !/net::|Failed to fetch|NetworkError|ERR_INTERNET_DISCONNECTED/.test(e));

/** A 360×640 phone with the app installed: the service worker in control. */
async function installedPhone(b) {
  const ctx = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await installed(page);
  return { ctx, page, errors };
}

async function shownPuzzle(page) {
  await page.locator('.puz-board .house.playable').first().waitFor();
  const id = Number(await page.locator('.puz-board').getAttribute('data-puzzle'));
  assert.ok(SOLUTIONS.has(id), `puzzle ${id} is in the shipped file`);
  return { id, solution: SOLUTIONS.get(id) };
}

test('offline: puzzles from the module, solved and failed, unrated, worded as the server words them', async () => {
  const b = await launch();
  try {
    const { ctx, page, errors } = await installedPhone(b);
    await page.evaluate(() => localStorage.removeItem('oware.puzzles'));
    await ctx.setOffline(true);

    // Solved, in English.
    await page.goto(`${BASE}/puzzles?lang=en`);
    const p = await shownPuzzle(page);
    assert.match(await page.locator('.puz-offline').textContent(), /not rated/);
    assert.ok(await page.locator('.puz-offline').isVisible());
    await page.locator(`.puz-board .house[data-house="${p.solution}"]`).click();
    await page.locator('.puz-msg.puz-solved').waitFor();
    const solvedText = await page.locator('.puz-msg').textContent();
    assert.match(solvedText, /^Solved! /);
    assert.match(await page.locator('.puz-streak').textContent(), /Streak: 1 solved/);
    const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(width[0] <= width[1], `no sideways scroll (${width})`);
    await shot(page, 'phone-offline-puzzle');
    // The solution's line plays on the board, from the core's traces.
    await page.locator('.puz-show').click();

    // Failed, in French: the next puzzle, another legal move.
    await page.evaluate(() => localStorage.setItem('oware.lang', 'fr'));
    await page.goto(`${BASE}/puzzles`);
    let q = await shownPuzzle(page);
    if (q.id === p.id) { await page.locator('.puz-next').click(); q = await shownPuzzle(page); }
    assert.match(await page.locator('.puz-offline').textContent(), /pas classés/);
    const playable = await page.locator('.puz-board .house.playable').evaluateAll((hs) => hs.map((h) => h.dataset.house));
    const wrong = playable.find((l) => l !== q.solution);
    assert.ok(wrong, 'a wrong move to play');
    await page.locator(`.puz-board .house[data-house="${wrong}"]`).click();
    await page.locator('.puz-msg.puz-failed').waitFor();
    const failedText = await page.locator('.puz-msg').textContent();
    assert.ok(failedText.startsWith(`Pas ${wrong}\u00a0: le coup était ${q.solution}.`), failedText);
    assert.match(await page.locator('.puz-streak').textContent(), /Série\u00a0: 0 /);
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('oware.puzzles')));
    assert.equal(kept.best, 1, 'the best streak kept on this device');
    assert.ok(kept.seen.includes(p.id) && kept.seen.includes(q.id));

    // The day's puzzle offline.
    await page.goto(`${BASE}/puzzles/daily`);
    const daily = await shownPuzzle(page);

    // Back online: the server words the same attempts with the same text,
    // and its daily puzzle is the one shown offline.
    await ctx.setOffline(false);
    const server = await page.evaluate(async ([a, b]) => {
      const post = async (id, move, lang) => (await fetch(`/api/v1/puzzles/${id}/attempt`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves: [move], lang }),
      })).json();
      return {
        solved: await post(a.id, a.move, 'en'),
        failed: await post(b.id, b.move, 'fr'),
        daily: await (await fetch('/api/v1/puzzles/daily')).json(),
      };
    }, [{ id: p.id, move: p.solution }, { id: q.id, move: wrong }]);
    assert.equal(server.solved.text, solvedText);
    assert.equal(server.failed.text, failedText);
    assert.equal(server.daily.id, daily.id, 'the same daily puzzle');
    // Online, the page asks the server again (no offline note).
    await page.goto(`${BASE}/puzzles`);
    await shownPuzzle(page);
    assert.equal(await page.locator('.puz-offline').isVisible(), false);
    console.log(`# offline puzzles: ${p.id} solved, ${q.id} failed, daily ${daily.id}`);
    assert.deepEqual(offlineErrors(errors), []);
  } finally {
    await b.close();
  }
});

test('offline: a game played offline, reviewed by the browser engine', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 } });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await installed(page);
    await ctx.setOffline(true);
    await startComputerGame(page);
    await playToEnd(page);
    const id = page.url().split('/game/')[1];
    // The result card's review link, as for a game on the server.
    await page.locator('.result-card a', { hasText: 'Review this game' }).click();
    await page.waitForURL(new RegExp(`/review/${id}$`));
    await until(async () => (await page.locator('.eval-status').textContent()) === '', 'the review by the browser engine', 60000);
    assert.equal(await page.locator('.review-moves').getAttribute('data-engine'), 'browser');
    const n = await page.locator('.review-moves button').count();
    assert.ok(n >= 2, `${n} moves listed`);
    // Every move judged in the online review's words: the value, then
    // "best move", or the coach's verdict and the best move with its value
    // and what was lost.
    const wording = /^\d+[.…] [A-Fa-f] \((South|North)\): .+ · (best move|(good|inaccuracy|mistake|blunder) · best [A-Fa-f] \(.+\)(, [\d.]+ seeds worse)?)( · line .+)?$/;
    for (let k = 0; k < n; k += 1) {
      // eslint-disable-next-line no-await-in-loop
      await page.locator('.review-moves button').nth(k).click();
      // eslint-disable-next-line no-await-in-loop
      await until(async () => wording.test(await page.locator('.ply-info').textContent()), `move ${k + 1} judged: ${await page.locator('.ply-info').textContent()}`);
    }
    // The evaluation graph is drawn.
    assert.ok(await page.locator('.eval-graph polygon').count() === 1);
    await shot(page, 'phone-offline-review');
    // A reload, offline: the same review.
    await page.reload();
    await until(async () => (await page.locator('.eval-status').textContent()) === '', 'the review after a reload', 60000);
    assert.equal(await page.locator('.review-moves button').count(), n);
    // My games links the kept game to its review.
    await page.goto(`${BASE}/review`);
    await page.locator(`.mine-list a[href="/review/${id}"]`).waitFor();
    assert.deepEqual(offlineErrors(errors), []);
  } finally {
    await b.close();
  }
});

test('offline: the lessons answer every move from the module, in French', async () => {
  const b = await launch();
  try {
    const { ctx, page, errors } = await installedPhone(b);
    await page.evaluate(() => { localStorage.setItem('oware.lang', 'fr'); localStorage.setItem('oware.set.animate', '0'); });
    await ctx.setOffline(true);
    await page.goto(`${BASE}/learn`);

    // R5: D captures 3 + 2; the same words as the rules service online.
    const r5 = page.locator('#r5');
    await r5.locator('.house.playable').first().waitFor();
    await r5.locator('.house[data-house="D"]').click();
    await until(async () => (await readBoard(page, '#r5')).S === 22, 'capture in lesson R5, offline');
    await until(async () => /^Bravo\s!\sD\s: la dernière graine tombe en c et y fait 3, elle est donc prise\s: c 3 \+ b 2, 5 graines en tout\.$/.test(await r5.locator('.msg').textContent()), 'R5 feedback offline');

    // R8: A does not feed North: refused with the reason; F feeds.
    const r8 = page.locator('#r8');
    await r8.scrollIntoViewIfNeeded();
    await r8.locator('.house[data-house="A"]').click();
    await until(async () => /nourrit pas/.test(await r8.locator('.msg').textContent()), 'the French refusal, offline');
    await r8.locator('.house[data-house="F"]').click();
    await until(async () => /^Bravo\s!\sF\s: la dernière graine tombe en a et y fait 1\s; on ne prend que deux ou trois\.$/.test(await r8.locator('.msg').textContent()), 'R8 feedback offline');

    // R12: the agreement to stop, 24–24, from the module's core.
    const r12 = page.locator('#r12');
    await r12.scrollIntoViewIfNeeded();
    await r12.locator('.house.playable').first().waitFor();
    await r12.getByRole('button', { name: 'Arrêter d’un commun accord' }).click();
    await until(async () => /Partie nulle, 24–24/.test(await r12.locator('.msg').textContent()), 'R12 agreement offline');

    // R13: a lost turn, then South plays again.
    const r13 = page.locator('#r13');
    await r13.scrollIntoViewIfNeeded();
    await r13.locator('.house[data-house="F"]').click();
    await until(async () => (await readBoard(page, '#r13')).F === 0, 'R13: F played offline');
    await r13.getByRole('button', { name: 'Laisser passer le temps' }).click();
    await until(async () => /Nord perd son tour.*Sud rejoue/.test(await r13.locator('.msg').textContent()), 'R13 lost turn offline');
    await shot(page, 'phone-offline-lesson-fr');
    assert.deepEqual(offlineErrors(errors), []);
  } finally {
    await b.close();
  }
});

test('the lessons answer every move from the module when the server cannot be reached', async () => {
  // A server of its own, stopped once the app is installed: the browser
  // still believes it is online.
  const dir = mkdtempSync(join(tmpdir(), 'oware-lessons-'));
  const server = await startServer({ port: await freePort(), db: join(dir, 'games.sqlite3') });
  const b = await launch();
  try {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await installed(page, server.url);
    await page.evaluate(() => { localStorage.setItem('oware.lang', 'en'); localStorage.setItem('oware.set.animate', '0'); });
    await server.stop();
    await page.goto(`${server.url}/learn`);
    assert.equal(await page.evaluate(() => navigator.onLine), true, 'the browser believes it is online');

    // Every lesson's board is drawn: playable, or a game already over.
    await until(async () => (await page.locator('.lesson-board').count()) > 0, 'the lessons drawn');
    const boards = () => page.locator('.lesson-board').evaluateAll((hs) => hs.map((h) => ({
      playable: !!h.querySelector('.house.playable'), msg: h.querySelector('.msg').textContent,
    })));
    await until(async () => (await boards()).every((x) => x.playable || x.msg), 'every lesson board drawn');
    const drawn = await boards();
    assert.deepEqual(drawn.filter((x) => !x.playable && !/^Game over/.test(x.msg)), [], 'every board playable or over');
    assert.ok(drawn.filter((x) => x.playable).length >= drawn.length - 1, `${drawn.length} boards`);
    assert.equal(await page.getByText('The server cannot be reached').count(), 0);
    // R5: D captures 3 + 2, in the rules service's words.
    const r5 = page.locator('#r5');
    await r5.locator('.house[data-house="D"]').click();
    await until(async () => (await readBoard(page, '#r5')).S === 22, 'capture in lesson R5');
    await until(async () => /^Well done! D: /.test(await r5.locator('.msg').textContent()), `R5 feedback: ${await r5.locator('.msg').textContent()}`);
    // R8: A does not feed North, refused with the reason.
    const r8 = page.locator('#r8');
    await r8.scrollIntoViewIfNeeded();
    await r8.locator('.house[data-house="A"]').click();
    await until(async () => /feed/.test(await r8.locator('.msg').textContent()), 'the refusal');
    await shot(page, 'phone-lessons-server-unreachable');
    assert.deepEqual(offlineErrors(errors), []);
  } finally {
    await b.close();
    await server.stop();
  }
});

test('offline: a position studied and played from, on this device', async () => {
  const b = await launch();
  try {
    const { ctx, page, errors } = await installedPhone(b);
    await page.evaluate(() => { localStorage.setItem('oware.lang', 'en'); localStorage.setItem('oware.level', '2'); });
    await ctx.setOffline(true);
    const position = '0-0-0-0-0-2-2-2-0-1-2-0-17-22-S';
    await page.goto(`${BASE}/study?position=${position}`);
    // The module checks the position: who moves and the legal moves.
    await until(async () => /^South to move: F$/.test(await page.locator('.check-msg').textContent()), `the position checked offline: ${await page.locator('.check-msg').textContent()}`, 60000);
    // The browser's engine analyses it.
    await page.locator('.ask-btn').click();
    await until(async () => (await page.locator('.analysis tbody tr').count()) > 0, 'the analysis offline', 60000);
    assert.equal(await page.locator('.analysis').getAttribute('data-engine'), 'browser');
    // A game against the computer from it, kept on this device.
    await page.locator('.as-computer').click();
    await page.waitForURL(/\/game\/local-/);
    await page.locator('.house.playable').first().waitFor();
    assert.deepEqual(offlineErrors(errors), []);
  } finally {
    await b.close();
  }
});

test('offline: an OGN record imported and reviewed on this device, refused as the server refuses it', async () => {
  const b = await launch();
  try {
    const { ctx, page, errors } = await installedPhone(b);
    await page.evaluate(() => localStorage.setItem('oware.lang', 'en'));
    // Online first: the server's refusal of a bad record, word for word.
    const bad = '1. F f\n2. F';
    await page.goto(`${BASE}/review`);
    await page.locator('textarea[name="ogn"]').fill(bad);
    await page.locator('.import-form button[type="submit"]').click();
    await until(async () => /line 2, column 4/.test(await page.locator('.import-form .msg').textContent()), 'the server refuses the record');
    const online = await page.locator('.import-form .msg').textContent();

    await ctx.setOffline(true);
    await page.goto(`${BASE}/review`);
    // The same record refused by the browser's module, in the same words.
    await page.locator('textarea[name="ogn"]').fill(bad);
    await page.locator('.import-form button[type="submit"]').click();
    await until(async () => (await page.locator('.import-form .msg').textContent()) === online, `the same refusal offline: ${await page.locator('.import-form .msg').textContent()}`, 60000);
    // A good record: North loses a turn (R13), South resigns after 2. A.
    const ogn = '[Variant "Abapa"]\n[South "Ama"]\n[North "Kofi"]\n[Result "0-0"]\n[Termination "resignation"]\n[Winner "N"]\n\n1. F -- 2. A f 3. B 0-0\n';
    await page.locator('textarea[name="ogn"]').fill(ogn);
    await page.locator('.import-form button[type="submit"]').click();
    await page.waitForURL(/\/review\/local-/);
    await until(async () => /Move 5 of 5/.test(await page.locator('.ply-label').textContent()), `the replay reaches the last ply: ${await page.locator('.ply-label').textContent()}`, 60000);
    const head = await page.locator('main .muted').first().textContent();
    assert.match(head, /Ama/);
    assert.match(head, /Kofi/);
    assert.match(head, /resign/i, head);
    assert.match(await page.locator('.local-note').textContent(), /kept on this device only/);
    // Reviewed by the browser's engine, every move judged.
    await until(async () => (await page.locator('.eval-status').textContent()) === '', 'the review by the browser engine', 60000);
    assert.equal(await page.locator('.review-moves').getAttribute('data-engine'), 'browser');
    // Its record reads back: written by the module from the game kept here.
    await until(async () => /1\. F --/.test(await page.locator('.ogn-text').inputValue()), 'the OGN of the kept game');
    assert.match(await page.locator('.ogn-text').inputValue(), /\[Termination "resignation"\]/);
    // Listed among the games kept here, and not sent to an account.
    await page.goto(`${BASE}/review`);
    await until(async () => /kept on this device/.test(await page.locator('.mine-list').textContent()), 'listed on this device');
    const kept = await page.evaluate(async () => {
      const { localStore } = await import('/js/local.js');
      return (await localStore.all()).map((r) => ({ imported: !!r.imported, uploaded: r.uploaded || null, moves: r.moves, action: r.action }));
    });
    assert.deepEqual(kept, [{ imported: true, uploaded: null, moves: 'F-AfB', action: 'resign S' }].concat(kept.slice(1)));
    const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(width[0] <= width[1], `no sideways scroll (${width})`);
    assert.deepEqual(offlineErrors(errors), []);
  } finally {
    await b.close();
  }
});
