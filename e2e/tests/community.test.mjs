// Follow, block and report, on phones (360×640): two accounts in two
// browser contexts; a block refuses the join in words; the report is sent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, shot, until, watchErrors, freePort, startServer } from '../lib.mjs';

const phone = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };
const stamp = Date.now().toString(36).slice(-5);
const AMA = { name: `Abena_${stamp}`, password: 'seeds-and-houses' };
const KOFI = { name: `Kojo_${stamp}`, password: 'houses-and-seeds' };

// A server of its own: the shared one counts sign-ups per address, and
// the other tests' accounts use that allowance up.
let BASE;

async function signUp(page, who) {
  await page.goto(`${BASE}/account`);
  const form = page.locator('.signup-form');
  await form.locator('[name=username]').fill(who.name);
  await form.locator('[name=password]').fill(who.password);
  await form.locator('button[type=submit]').click();
  await until(async () => (await page.locator('.nav-account').textContent()) === who.name, `${who.name} signed up`);
}

const fits = async (page, what) => {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `${what} fits the phone (${width} px)`);
};

test('phone: follow, block and report a player', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oware-community-'));
  const server = await startServer({ port: await freePort(), db: join(dir, 'games.sqlite3') });
  BASE = server.url;
  const b = await launch();
  try {
    const a = await (await b.newContext(phone)).newPage();
    const k = await (await b.newContext(phone)).newPage();
    const errors = [watchErrors(a), watchErrors(k)];
    await signUp(a, AMA);
    await signUp(k, KOFI);

    // Abena follows Kojo from his profile.
    await a.goto(`${BASE}/player/${KOFI.name}`);
    const follow = a.getByRole('button', { name: 'Follow' });
    await follow.click();
    await until(async () => /You follow/.test(await a.locator('.relate-msg').textContent()), 'followed');
    assert.equal(await a.locator('.follow-btn').getAttribute('aria-pressed'), 'true');
    await fits(a, 'the profile');
    await shot(a, 'phone-profile-follow');
    // Kojo's public game in play shows in Abena's account.
    await k.goto(`${BASE}/lobby`);
    await k.getByRole('button', { name: 'Create a game' }).click();
    await k.waitForURL(/\/game\//);
    const seek = k.url().split('/game/')[1];
    await a.goto(`${BASE}/account`);
    await until(async () => (await a.locator('.following-list').innerText()).includes(KOFI.name), 'Kojo listed as followed');

    // Abena blocks Kojo (after a confirmation): his seek cannot be joined.
    await a.goto(`${BASE}/player/${KOFI.name}`);
    a.once('dialog', (d) => d.accept());
    await a.getByRole('button', { name: 'Block' }).click();
    await until(async () => /is blocked/.test(await a.locator('.relate-msg').textContent()), 'blocked');
    assert.equal(await a.locator('.follow-btn').isDisabled(), true, 'no following a blocked player');
    await a.goto(`${BASE}/lobby`);
    await a.locator(`.seeks tr[data-id="${seek}"] .join`).click({ timeout: 10000 });
    await until(async () => /blocked the other/.test(await a.locator('.lobby-msg').textContent()), 'the join refused in words');
    assert.match(a.url(), /\/lobby$/);

    // The report, in French this time.
    await a.goto(`${BASE}/player/${KOFI.name}?lang=fr`);
    await a.getByRole('button', { name: 'Signaler' }).click();
    await a.getByLabel('Insultes ou harcèlement').check();
    await a.locator('.report-form textarea').fill('insultes dans la discussion');
    await fits(a, 'the report form');
    await shot(a, 'phone-report-fr');
    await a.getByRole('button', { name: 'Envoyer le signalement' }).click();
    await until(async () => /signalement a été transmis/.test(await a.locator('.relate-msg').textContent()), 'the report sent');
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
