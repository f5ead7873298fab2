// A challenge between two players, live: Abena (desktop, English)
// challenges Kojo (a 360-px phone, in French) from his profile; the prompt
// reaches Kojo on the page he is on, he accepts, and the game starts for
// both. The unread count shows on the bell and in the tab's title, and
// goes once the notifications are seen. Away from the live game, Kojo is
// told when it is his move. The phone's prompt and notifications page are
// measured: in the width, no horizontal scroll.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, shot, until, watchErrors, freePort, startServer, playFirst } from '../lib.mjs';

const phone = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };
const stamp = Date.now().toString(36).slice(-5);
const AMA = { name: `Abena_${stamp}`, password: 'seeds-and-houses' };
const KOFI = { name: `Kojo_${stamp}`, password: 'houses-and-seeds' };

let BASE;

// The Badging API, recorded: headless Chromium shows no app icon.
const BADGE = () => {
  window.__badge = [];
  navigator.setAppBadge = (n) => { window.__badge.push(n); return Promise.resolve(); };
  navigator.clearAppBadge = () => { window.__badge.push(0); return Promise.resolve(); };
};
const badge = (page) => page.evaluate(() => window.__badge.at(-1));

async function signUp(page, who) {
  await page.goto(`${BASE}/account`);
  const form = page.locator('.signup-form');
  await form.locator('[name=username]').fill(who.name);
  await form.locator('[name=password]').fill(who.password);
  await form.locator('button[type=submit]').click();
  await until(async () => (await page.locator('.nav-account').textContent()) === who.name, `${who.name} signed up`);
}

const count = (page) => page.locator('.bell .bell-count');
const noScroll = async (page, what) => {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `${what} fits the phone (${width} px)`);
};

test('a challenge sent, received live in French on a phone, accepted: the game starts for both', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oware-challenge-'));
  const server = await startServer({ port: await freePort(), db: join(dir, 'games.sqlite3') });
  BASE = server.url;
  const b = await launch();
  try {
    const a = await (await b.newContext()).newPage();
    const kctx = await b.newContext(phone);
    await kctx.addInitScript(BADGE);
    const k = await kctx.newPage();
    const errors = [watchErrors(a), watchErrors(k)];
    await signUp(a, AMA);
    await signUp(k, KOFI);
    // Kojo reads French, on the lobby, which counts who is online.
    await k.locator('.lang button[data-lang=fr]').click();
    await k.goto(`${BASE}/lobby`);
    await until(async () => /2 joueurs en ligne/.test(await k.locator('.online-count').textContent()), 'two players online, in French');
    assert.equal(await k.locator('.bell').isVisible(), true, 'the bell shows in the folded phone header');
    assert.equal(await count(k).isHidden(), true, 'nothing unread yet');
    // The header stays one line on the phone, the bell in it.
    const header = await k.locator('.top').boundingBox();
    assert.ok(header.height <= 64, `the phone header is one line (${header.height} px)`);
    const bell = await k.locator('.bell').boundingBox();
    assert.ok(bell.width >= 44 && bell.height >= 44 && bell.x + bell.width <= 360, `the bell: ${bell.x}+${bell.width}×${bell.height}`);

    // Abena challenges Kojo from his profile: he is online.
    await a.goto(`${BASE}/player/${KOFI.name}`);
    await until(async () => /Online/.test(await a.locator('.presence').textContent()), 'Kojo shown online');
    await a.getByRole('button', { name: 'Challenge' }).click();
    await a.locator('.challenge-form [name=side]').selectOption('S');
    await a.getByRole('button', { name: 'Send the challenge' }).click();
    await until(async () => /Challenge sent/.test(await a.locator('.relate-msg').textContent()), 'the challenge sent');

    // Kojo is asked at once, in French, on the page he is on; his count
    // shows on the bell and in the title.
    const prompt = k.locator('.challenge-prompt');
    await prompt.waitFor({ timeout: 10000 });
    assert.match(await prompt.innerText(), new RegExp(`${AMA.name}\\s+vous défie`));
    assert.match(await prompt.innerText(), /5 min \+ 3 s/);
    assert.match(await prompt.innerText(), /vous jouez Nord/);
    await until(async () => (await count(k).textContent()) === '1', 'Kojo’s count: 1');
    await until(async () => /^\(1\) /.test(await k.title()), 'Kojo’s title: (1) …');
    await until(async () => (await badge(k)) === 1, 'the app’s badge: 1');
    // Measured on the phone: the prompt inside the screen, its buttons big
    // enough to tap, no horizontal scroll.
    const box = await prompt.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 360, `the prompt in the width (${box.x}+${box.width})`);
    assert.ok(box.y + box.height <= 640, 'the prompt on the screen');
    for (const name of ['Accepter', 'Refuser']) {
      const bb = await prompt.getByRole('button', { name }).boundingBox();
      assert.ok(bb.height >= 40 && bb.width >= 44, `${name}: ${bb.width}×${bb.height}`);
    }
    await noScroll(k, 'the lobby with the prompt');
    await shot(k, 'phone-challenge-received-fr');

    // He accepts: both are taken to the game, Abena South to move.
    await prompt.getByRole('button', { name: 'Accepter' }).click();
    await k.waitForURL(/\/game\//, { timeout: 10000 });
    await a.waitForURL(/\/game\//, { timeout: 10000 });
    const game = k.url().split('/game/')[1];
    assert.equal(a.url().split('/game/')[1], game, 'the same game for both');
    await until(async () => (await a.locator('.house.playable').count()) > 0, 'Abena can play');
    await until(async () => (await k.locator('.house').count()) === 12 && (await k.locator('.status').count()) > 0, 'Kojo sees the board');
    // Kojo holds North (his account's seat): the status speaks to him.
    await until(async () => /En attente de votre adversaire/.test(await k.locator('.status').textContent()), 'Kojo’s status, in French');
    assert.equal(await k.locator('.challenge-prompt').count(), 0, 'the prompt is gone');

    // Abena is told it was accepted: her count and title, until she looks.
    await until(async () => (await count(a).textContent()) === '1', 'Abena’s count: 1');
    await until(async () => /^\(1\) /.test(await a.title()), 'Abena’s title: (1) …');
    await a.locator('.bell').click();
    await a.waitForURL(/\/notifications/);
    await until(async () => /accepted your challenge/.test(await a.locator('.inbox-list').innerText()), 'the notification listed');
    await until(async () => await count(a).isHidden(), 'Abena’s count gone once seen');
    assert.doesNotMatch(await a.title(), /^\(\d+\)/);

    // Kojo, on the phone, in French: the challenge received is listed and
    // read when seen.
    assert.match(await k.title(), /^\(1\) /);
    await k.locator('.bell').click();
    await k.waitForURL(/\/notifications/);
    await until(async () => new RegExp(`${AMA.name} vous a défié`).test(await k.locator('.inbox-list').innerText()), 'the French notification');
    assert.equal(await k.locator('h1').textContent(), 'Notifications');
    await until(async () => await count(k).isHidden(), 'Kojo’s count gone once seen');
    await until(async () => (await badge(k)) === 0, 'the app’s badge cleared');
    assert.doesNotMatch(await k.title(), /^\(\d+\)/);
    await noScroll(k, 'the notifications page');
    const item = await k.locator('.inbox-item').first().boundingBox();
    assert.ok(item.width <= 360 && item.height >= 30, `a notification's row: ${item.width}×${item.height}`);
    await shot(k, 'phone-notifications-fr');
    // Every kind the server sends has words, in French here, and a link.
    const said = await k.evaluate(async () => {
      const { notificationText } = await import('/js/inbox.js');
      return [
        { kind: 'tournament_starting', detail: 'soon', tournament: 't1' },
        { kind: 'tournament_starting', tournament: 't1' },
        { kind: 'tournament_starting', detail: 'paired', tournament: 't1', game: 'g1', from: 'Esi' },
        { kind: 'rematch', game: 'g2', from: 'Esi' },
        { kind: 'takeback', game: 'g3', from: 'Esi' },
      ].map(notificationText);
    });
    assert.deepEqual(said, [
      { text: 'Un tournoi où vous êtes inscrit commence dans quelques minutes', href: '/tournament/t1' },
      { text: 'Un tournoi où vous êtes inscrit commence', href: '/tournament/t1' },
      { text: 'Votre prochaine partie de tournoi, contre Esi, a commencé', href: '/game/g1' },
      { text: 'Esi vous propose une revanche', href: '/game/g2' },
      { text: 'Esi demande à reprendre un coup', href: '/game/g3' },
    ]);

    // Kojo is away from the live game (in the lobby) when Abena moves: he
    // is told it is his move, on the bell and in the title, in French, and
    // it is read once he is back at the game.
    await k.goto(`${BASE}/lobby`);
    await until(async () => await count(k).isHidden(), 'nothing unread in the lobby');
    await a.goto(`${BASE}/game/${game}`);
    await until(async () => (await a.locator('.house.playable').count()) > 0, 'Abena back at the board');
    await playFirst(a);
    await until(async () => (await count(k).textContent()) === '1', 'Kojo told of his move');
    await until(async () => /^\(1\) /.test(await k.title()), 'his title: (1) …');
    const told = await k.evaluate(async () => {
      const r = await fetch('/api/v1/account/notifications');
      return (await r.json()).items[0];
    });
    assert.equal(told.kind, 'your_turn');
    assert.equal(told.detail, 'live');
    const words = await k.evaluate(async (n) => (await import('/js/inbox.js')).notificationText(n), told);
    assert.deepEqual(words, { text: `À vous de jouer contre ${AMA.name}`, href: `/game/${game}` });
    await k.goto(`${BASE}${words.href}`);
    await until(async () => (await k.locator('.house.playable').count()) > 0, 'Kojo can play');
    await until(async () => await count(k).isHidden(), 'read once back at the game');
    assert.doesNotMatch(await k.title(), /^\(\d+\)/);
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
