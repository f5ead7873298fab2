// An online game between two browser contexts, watched by a third; one
// player drops off the network and comes back in sync.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, readBoard, shot, until, watchErrors } from '../lib.mjs';

const movesText = (page) => page.locator('.moves-list').innerText();
const moveCount = (page) => page.locator('.moves-list .mv').count();

async function playFirst(page) {
  const house = page.locator('.house.playable').first();
  await house.waitFor();
  const letter = await house.getAttribute('data-house');
  await house.click();
  await page.waitForTimeout(100);
  if (/again/.test(await page.locator('.move-msg').textContent())) await house.click();
  return letter;
}

test('two players online: invite, live moves, reconnect, spectator, resignation', async () => {
  const b = await launch();
  try {
    const ctxA = await b.newContext();
    const ctxB = await b.newContext();
    const ctxC = await b.newContext();
    const a = await ctxA.newPage();
    const pb = await ctxB.newPage();
    const c = await ctxC.newPage();
    const errors = [watchErrors(a), watchErrors(pb), watchErrors(c)];

    await a.goto(`${BASE}/lobby`);
    await a.locator('form.create-online [name=name]').fill('Ama');
    await a.getByLabel('South (bottom)').check();
    await a.getByLabel('List it in the lobby').uncheck();
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const invite = await a.locator('.invite-url').inputValue();
    const spectator = await a.locator('.spectator-url').inputValue();
    assert.match(invite, /invite=/);
    await shot(a, 'online-waiting');

    // B follows the invite link and takes the free seat.
    await pb.goto(invite);
    await pb.locator('.join-name').fill('Kofi');
    await pb.getByRole('button', { name: 'Take the seat' }).click();
    await until(async () => /Waiting for your opponent/.test(await pb.locator('.status').textContent()), 'B seated');
    // The socket B had as a spectator closes after the seat is taken: its
    // late close must not leave "Connection lost" on the page (issue 10).
    await pb.waitForTimeout(1500);
    assert.equal(await pb.locator('.conn').textContent(), '', 'no connection banner after taking the seat');
    // Seated, B has the players' chat with its mute switch.
    assert.equal(await pb.getByLabel('Hide my opponent’s messages').count(), 1, 'the chat is a player’s after taking the seat');
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'A to move');
    // B sees the board from North's side.
    assert.equal(await pb.locator('.row-bottom .house').first().getAttribute('data-house'), 'a');

    // The spectator watches; clicking a house is refused.
    await c.goto(spectator);
    await c.locator('.house').first().waitFor();
    await c.locator('.house[data-house="C"]').click();
    await until(async () => /watching/.test(await c.locator('.move-msg').textContent()), 'spectator refusal');
    // The spectator turns the board round (North at the bottom) and back.
    assert.equal(await c.locator('.row-bottom .house').first().getAttribute('data-house'), 'A');
    await c.getByRole('button', { name: 'Turn the board round' }).click();
    assert.equal(await c.locator('.row-bottom .house').first().getAttribute('data-house'), 'a');
    await c.getByRole('button', { name: 'Turn the board round' }).click();
    assert.equal(await a.getByRole('button', { name: 'Turn the board round' }).isVisible(), false, 'players keep their own side');

    // Six moves, alternately; each side sees the other's moves live.
    for (let i = 0; i < 6; i++) {
      const [mover, watcher] = i % 2 === 0 ? [a, pb] : [pb, a];
      const letter = await playFirst(mover);
      await until(async () => (await moveCount(mover)) === i + 1 && (await moveCount(watcher)) === i + 1, `move ${i + 1} (${letter}) to reach the other player`);
      assert.equal(await movesText(watcher), await movesText(mover));
    }
    await until(async () => (await movesText(c)) === (await movesText(a)), 'spectator in sync');
    assert.deepEqual(await readBoard(pb), await readBoard(a));
    await shot(a, 'online-game');

    // B loses the connection; A moves; B comes back and catches up.
    await ctxB.setOffline(true);
    await until(async () => /Connection lost/.test(await pb.locator('.conn').textContent()), 'B notices the lost connection');
    await playFirst(a);
    await until(async () => (await moveCount(a)) === 7, 'A moved while B was offline');
    assert.equal(await moveCount(pb), 6);
    await ctxB.setOffline(false);
    await until(async () => (await moveCount(pb)) === 7, 'B resynced after reconnecting');
    assert.equal(await movesText(pb), await movesText(a));
    assert.deepEqual(await readBoard(pb), await readBoard(a));

    // A reloads in mid-game and keeps the seat.
    await a.reload();
    await a.locator('.house').first().waitFor();
    await until(async () => (await movesText(a)) === (await movesText(pb)), 'A back after reload');
    assert.deepEqual(await readBoard(a), await readBoard(pb));
    await playFirst(pb);
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'A can move after reload');

    // A offers to stop; B declines. Then B resigns.
    await a.getByRole('button', { name: 'Offer to stop' }).click();
    await pb.getByRole('button', { name: 'Decline' }).waitFor();
    await pb.getByRole('button', { name: 'Decline' }).click();
    await until(async () => !(await a.locator('.offer-box').textContent()).includes('Waiting for an answer'), 'offer declined');
    pb.once('dialog', (d) => d.accept());
    await pb.getByRole('button', { name: 'Resign' }).click();
    for (const p of [a, pb, c]) {
      await p.locator('.result-card').waitFor();
      assert.equal(await p.locator('.result-text').textContent(), p === a ? 'You won' : p === pb ? 'You lost' : 'Ama won', 'a spectator reads the winner’s name');
    }
    await shot(c, 'online-spectator-end');

    // A long chat opens on its latest page; earlier messages come on
    // demand, above, in order (the server's answers stubbed: 70 messages).
    const lines = Array.from({ length: 70 }, (_, i) => ({ id: i + 1, room: 'players', side: i % 2 ? 'N' : 'S', name: i % 2 ? 'Kofi' : 'Ama', text: `line ${i + 1}`, at: '2026-12-01T12:00:00Z' }));
    const asked = [];
    await c.route('**/api/v1/games/*/chat?*', (route) => {
      const u = new URL(route.request().url());
      asked.push(u.search);
      const before = Number(u.searchParams.get('before') || 71);
      const limit = Number(u.searchParams.get('limit') || 50);
      route.fulfill({ json: { messages: lines.filter((m) => m.id < before).slice(-limit) } });
    });
    await c.reload();
    await until(async () => (await c.locator('.chat-log li').count()) === 50, 'the latest 50 messages');
    assert.match(await c.locator('.chat-log li').first().innerText(), /line 21$/);
    await c.getByRole('button', { name: 'Earlier messages' }).click();
    await until(async () => (await c.locator('.chat-log li').count()) === 70, 'the 20 earlier messages above');
    assert.match(await c.locator('.chat-log li').first().innerText(), /line 1$/);
    assert.equal(await c.locator('.chat-earlier').isHidden(), true, 'nothing earlier left');
    assert.ok(asked.some((q) => q.includes('before=21')), `paged from the first shown: ${asked}`);
    await c.unroute('**/api/v1/games/*/chat?*');

    // Rematch: A asks, B is told and joins the new game.
    await a.getByRole('button', { name: 'Rematch' }).click();
    await a.waitForURL((u) => !u.href.includes(spectator.split('/').pop()));
    await pb.getByRole('button', { name: 'Play the rematch' }).waitFor();
    await pb.getByRole('button', { name: 'Play the rematch' }).click();
    await pb.waitForURL(a.url());
    await until(async () => /Your turn/.test(await pb.locator('.status').textContent()), 'rematch with sides swapped: B (now South) to move');

    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
  }
});
