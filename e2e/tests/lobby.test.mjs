// The lobby stays true, on phones (360×640): a seek leaves the lobby when
// its creator's page closes, and when its creator cancels it; times are
// relative, in English and French. (test-web.sh starts the server with
// --seek-grace 4.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, shot, until, watchErrors } from '../lib.mjs';

const phone = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };

async function createSeek(page, name) {
  await page.goto(`${BASE}/lobby`);
  await page.locator('form.create-online [name=name]').fill(name);
  await page.getByRole('button', { name: 'Create a game' }).click();
  await page.waitForURL(/\/game\//);
  return page.url().split('/game/')[1];
}

test('phone: a seek leaves the lobby when its creator leaves or cancels', async () => {
  const b = await launch();
  try {
    const a = await (await b.newContext(phone)).newPage();
    const viewer = await (await b.newContext(phone)).newPage();
    const errors = [watchErrors(a), watchErrors(viewer)];

    // A's seek is listed, with a relative time, while A's page is open.
    const first = await createSeek(a, 'Ama');
    assert.match(await a.locator('.links-card').innerText(), /stays in the lobby while this page is open/);
    await viewer.goto(`${BASE}/lobby`);
    const row = viewer.locator(`.seeks tr[data-id="${first}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), /now|seconds? ago/);
    await shot(viewer, 'phone-lobby-live');
    // Still there after several rounds of the server's check.
    await viewer.waitForTimeout(7000);
    assert.equal(await row.count(), 1, 'listed while its creator is there');

    // A closes the page: the seek goes by itself (grace 4 s, a check every
    // 2 s, the lobby refreshed every 4 s).
    const closed = Date.now();
    await a.close();
    await until(async () => (await row.count()) === 0, 'the seek left the lobby', 20000);
    console.log(`seek gone from the viewer's lobby ${Date.now() - closed} ms after its page closed`);

    // Preset clocks fill the clock's fields.
    await viewer.getByRole('button', { name: '3 minutes plus 2 seconds a move' }).click();
    assert.equal(await viewer.locator('form.create-online [name=omin]').inputValue(), '3');
    assert.equal(await viewer.locator('form.create-online [name=oinc]').inputValue(), '2');
    assert.equal(await viewer.locator('form.create-online [name=otc][value=clock]').isChecked(), true);

    // B creates one and cancels it from the waiting page.
    const pb = await (await b.newContext(phone)).newPage();
    errors.push(watchErrors(pb));
    const second = await createSeek(pb, 'Kofi');
    const row2 = viewer.locator(`.seeks tr[data-id="${second}"]`);
    await row2.waitFor({ timeout: 10000 });
    await pb.getByRole('button', { name: 'Cancel this game' }).click();
    await until(async () => /cancelled before anyone joined/.test(await pb.locator('.status').textContent()), 'B sees it cancelled');
    const width = await pb.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `the cancelled page fits the phone (${width} px)`);
    await shot(pb, 'phone-seek-cancelled');
    await until(async () => (await row2.count()) === 0, 'the cancelled seek left the lobby', 10000);
    await pb.getByRole('link', { name: 'Back to the lobby' }).click();
    await pb.waitForURL(/\/lobby/);

    // A game taken from the lobby can be called off before each side has
    // moved: Abort instead of Resign, and both players read it.
    const taken = await createSeek(pb, 'Kofi');
    await viewer.locator(`.seeks tr[data-id="${taken}"] .join`).click({ timeout: 10000 });
    await viewer.waitForURL(new RegExp(`/game/${taken}`));
    await viewer.getByRole('button', { name: 'Abort' }).waitFor();
    assert.equal(await viewer.getByRole('button', { name: 'Resign' }).isVisible(), false, 'no Resign before the first moves');
    await viewer.getByRole('button', { name: 'Abort' }).click();
    for (const p of [viewer, pb]) await until(async () => /called off before each player had moved/.test(await p.locator('.status').textContent()), 'the game called off');
    await viewer.goto(`${BASE}/lobby`);

    // A take-back between the two: the mover asks, the other accepts, and
    // the move is gone on both pages.
    const tb = await createSeek(pb, 'Kofi');
    await viewer.locator(`.seeks tr[data-id="${tb}"] .join`).click({ timeout: 10000 });
    await viewer.waitForURL(new RegExp(`/game/${tb}`));
    const turn = async (p) => /Your turn/.test(await p.locator('.status').textContent());
    await until(async () => (await turn(viewer)) || (await turn(pb)), 'someone to move');
    const [mover, other] = (await turn(viewer)) ? [viewer, pb] : [pb, viewer];
    const house = mover.locator('.house.playable').first();
    await house.click();
    await mover.waitForTimeout(100);
    if (/again/.test(await mover.locator('.move-msg').textContent())) await house.click();
    await until(async () => (await other.locator('.moves-list .mv').count()) === 1, 'the move reached the other');
    await mover.getByRole('button', { name: 'Ask to take back' }).click();
    await until(async () => /asks to take their last move back/.test(await other.locator('.takeback-box').textContent()), 'the request reached the other');
    await shot(other, 'phone-takeback-asked');
    await other.locator('.tb-accept').click();
    for (const p of [mover, other]) await until(async () => (await p.locator('.moves-list .mv').count()) === 0, 'the move taken back');
    await until(async () => turn(mover), 'the mover to play again');
    await viewer.goto(`${BASE}/lobby`);

    // In French, times are relative too.
    const third = await createSeek(pb, 'Kofi');
    await viewer.getByRole('button', { name: 'FR' }).click();
    const row3 = viewer.locator(`.seeks tr[data-id="${third}"]`);
    await row3.waitFor({ timeout: 10000 });
    await until(async () => /maintenant|il y a/.test(await row3.innerText()), 'a French relative time');
    const fr = await viewer.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(fr <= 360, `the French lobby fits the phone (${fr} px)`);
    await shot(viewer, 'phone-lobby-fr');
    for (const e of errors) assert.deepEqual(e, [], 'no page errors');
  } finally {
    await b.close();
  }
});
