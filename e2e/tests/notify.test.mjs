// A player who switched notifications on and whose tab is in the background
// is told when the opponent moves; in a visible tab, or with the switch
// off, nothing is shown. Notification is stubbed to record what the page
// asks for (headless Chromium shows none), and the tab is made hidden.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, until, watchErrors } from '../lib.mjs';

const STUB = () => {
  window.__notes = [];
  window.__hidden = false;
  class FakeNotification {
    constructor(title, opts) { window.__notes.push({ title, body: opts?.body || '' }); }
    close() {}
    static requestPermission() { return Promise.resolve('granted'); }
  }
  FakeNotification.permission = 'granted';
  window.Notification = FakeNotification;
  Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
  Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
};

async function playFirst(page) {
  const house = page.locator('.house.playable').first();
  await house.waitFor();
  await house.click();
  await page.waitForTimeout(100);
  if (/again/.test(await page.locator('.move-msg').textContent())) await house.click();
}

test('a move in a background tab brings a notification, if switched on', async () => {
  const b = await launch();
  try {
    const ctxA = await b.newContext();
    const ctxB = await b.newContext();
    await ctxA.addInitScript(STUB);
    const a = await ctxA.newPage();
    const pb = await ctxB.newPage();
    const errors = [watchErrors(a), watchErrors(pb)];
    await a.goto(`${BASE}/lobby`);
    await a.getByLabel('South (bottom)').check();
    await a.getByLabel('List it in the lobby').uncheck();
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const invite = await a.locator('.invite-url').inputValue();
    await pb.goto(invite);
    await pb.getByRole('button', { name: 'Take the seat' }).click();
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'A to move');

    // The switch is off: a move in the background brings nothing.
    await playFirst(a);
    await a.evaluate(() => { window.__hidden = true; });
    await playFirst(pb);
    await until(async () => (await a.locator('.moves-list .mv').count()) === 2, 'B’s move reaches A');
    assert.deepEqual(await a.evaluate(() => window.__notes), []);

    // Switched on, in the background: one notification for B's next move.
    await a.evaluate(() => { window.__hidden = false; });
    await a.locator('[data-set=notify]').check();
    await playFirst(a);
    await a.evaluate(() => { window.__hidden = true; });
    await playFirst(pb);
    await until(async () => (await a.evaluate(() => window.__notes.length)) === 1, 'a notification');
    const [note] = await a.evaluate(() => window.__notes);
    assert.match(note.title, /Your move/);
    assert.ok(note.body.length > 0, 'it says what was played');

    // Visible again: the next move brings none.
    await a.evaluate(() => { window.__hidden = false; });
    await playFirst(a);
    await playFirst(pb);
    await until(async () => (await a.locator('.moves-list .mv').count()) === 6, 'six moves');
    assert.equal(await a.evaluate(() => window.__notes.length), 1);
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
  }
});
