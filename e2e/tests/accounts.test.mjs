// Accounts in the browser (issue 11): sign up, out and in; a wrong password
// refused in French; two players with accounts meet through a rated seek in
// the lobby, chat (HTML shown as text, a mute switch, the spectators' own
// room), finish the game, and both profiles show their ratings moved; the
// account's games reach another device; the new pages on a 360×640 phone;
// a new password and the account's deletion.
//
// The server allows 5 sign-ups an hour from one address (this file makes 3,
// the French layout test 1) and 5 password tries in a burst per account
// (A: 3, B: 4).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, shot, until, watchErrors } from '../lib.mjs';

const suffix = Math.random().toString(36).slice(2, 8);
const A = { name: `Ama_${suffix}`, password: 'seeds and houses' };
const B = { name: `Kofi_${suffix}`, password: 'forty-eight seeds' };
const C = { name: `Esi_${suffix}`, password: 'watching from the stands' };
let gameId = null;

async function signUp(page, who) {
  await page.goto(`${BASE}/account`);
  const form = page.locator('.signup-form');
  await form.locator('[name=username]').fill(who.name);
  await form.locator('[name=password]').fill(who.password);
  await form.locator('button[type=submit]').click();
  await until(async () => (await page.locator('.nav-account').textContent()) === who.name, `${who.name} signed up`);
}

async function signIn(page, who, { lang = 'en' } = {}) {
  await page.goto(`${BASE}/account?lang=${lang}`);
  const form = page.locator('.signin-form');
  await form.locator('[name=username]').fill(who.name);
  await form.locator('[name=password]').fill(who.password);
  await form.locator('button[type=submit]').click();
}

/** The rating shown in a profile's row for a class ("1662?"). */
async function profileRating(page, name, cls = 'slow') {
  await page.goto(`${BASE}/player/${name}`);
  const cell = page.locator(`.ratings-table tr[data-class="${cls}"] .rating-cell strong`);
  await cell.waitFor();
  return cell.textContent();
}

test('sign up, sign out, sign in; a wrong password in French', async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = watchErrors(page);
    await signUp(page, A);
    assert.equal(await page.locator('h1').textContent(), `Signed in as ${A.name}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await until(async () => (await page.locator('.nav-account').textContent()) === 'Sign in', 'signed out');
    await page.locator('.signin-form').waitFor();

    // A name the server refuses (it starts with a digit), by its reason code.
    const up = page.locator('.signup-form');
    await up.locator('[name=username]').fill('9lives');
    await up.locator('[name=password]').fill('long enough');
    await up.locator('button[type=submit]').click();
    await until(async () => /starts with a letter/.test(await up.locator('.msg').textContent()), 'username refused');

    await signIn(page, A);
    await until(async () => (await page.locator('.nav-account').textContent()) === A.name, 'signed in');
    // The session is a cookie script cannot read.
    assert.equal(await page.evaluate(() => document.cookie.includes('oware_session')), false, 'HttpOnly session cookie');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await until(async () => (await page.locator('.nav-account').textContent()) === 'Sign in', 'signed out again');

    // In French, a wrong password reads in French (from its code).
    await signIn(page, { name: A.name, password: 'not the password' }, { lang: 'fr' });
    const msg = page.locator('.signin-form .msg');
    await until(async () => (await msg.textContent()).length > 0, 'refusal shown');
    assert.equal(await msg.textContent(), 'Nom d’utilisateur ou mot de passe incorrect.');
    assert.equal(await page.locator('.nav-account').textContent(), 'Connexion');
    await shot(page, 'account-fr-refused');
    await page.evaluate(() => localStorage.setItem('oware.lang', 'en'));
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('a rated seek between two accounts: chat, the end, both ratings move', async () => {
  const b = await launch();
  try {
    const a = await (await b.newContext()).newPage();
    const pb = await (await b.newContext()).newPage();
    const errors = [watchErrors(a), watchErrors(pb)];
    for (const p of [a, pb]) p.on('dialog', (d) => d.accept());
    await signIn(a, A);
    await until(async () => (await a.locator('.nav-account').textContent()) === A.name, 'A signed in');
    await signUp(pb, B);

    // A seeks a rated game (no clock: the slow class), listed in the lobby.
    await a.goto(`${BASE}/lobby`);
    assert.match(await a.locator('.playing-as').textContent(), new RegExp(A.name));
    await a.getByLabel('South (bottom)').check();
    await a.getByLabel('Rated', { exact: true }).check();
    assert.match(await a.locator('.rated-class').textContent(), /Slow clock/);
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    gameId = a.url().split('/game/')[1];

    // An anonymous player's casual seek, under a name made of HTML.
    const e = await (await b.newContext()).newPage();
    errors.push(watchErrors(e));
    await e.goto(`${BASE}/lobby`);
    assert.equal(await e.getByLabel('Rated', { exact: true }).isDisabled(), true, 'rated games need an account');
    await e.locator('form.create-online [name=name]').fill('<b>Eve</b>');
    await e.getByRole('button', { name: 'Create a game' }).click();
    await e.waitForURL(/\/game\//);
    const eveGame = e.url().split('/game/')[1];
    // (Eve's page stays open: a seek leaves the lobby when its page closes.)

    // B sees the seek with A's provisional rating, and accepts it.
    await pb.goto(`${BASE}/lobby`);
    const eve = pb.locator(`.seeks tr[data-id="${eveGame}"]`);
    await eve.waitFor();
    assert.match(await eve.locator('.seek-name').textContent(), /^by <b>Eve<\/b>$/);
    assert.match(await eve.innerText(), /Casual/);
    assert.equal(await pb.locator('.lobby-list b').count(), 0, 'no markup from a name');
    await e.close();
    const row = pb.locator(`.seeks tr[data-id="${gameId}"]`);
    await row.waitFor();
    const rowText = await row.innerText();
    assert.match(rowText, new RegExp(`${A.name}`));
    assert.match(rowText, /Rated \(Slow clock\)/);
    assert.match(rowText, new RegExp(`${A.name} \\(1500\\?\\)`), 'the seek shows its creator’s rating');
    await shot(pb, 'lobby-seek');
    await row.getByRole('button', { name: 'Join' }).click();
    await pb.waitForURL(new RegExp(`/game/${gameId}`));
    await until(async () => /Your turn/.test(await a.locator('.status').textContent()), 'A to move');
    assert.match(await a.locator('.mode-line').textContent(), /online · Rated/);
    // Ratings beside both names, each name a link to its profile.
    await until(async () => (await a.locator('.player .rating').allTextContents()).join(' ') === '1500? 1500?', 'ratings beside names');
    assert.equal(await a.locator(`.player a.seat-name[href="/player/${B.name}"]`).count(), 1);

    // Chat: HTML arrives as text; B mutes A; a spectator's room of its own.
    {
      await a.locator('.chat-form input').fill('<b>html</b> & <img src=x onerror=alert(1)>');
      await a.locator('.chat-form button').click();
      const line = pb.locator('.chat-line').first();
      await line.waitFor();
      assert.equal(await line.locator('.chat-text').textContent(), '<b>html</b> & <img src=x onerror=alert(1)>');
      assert.equal(await pb.locator('.chat-log b, .chat-log img').count(), 0, 'no markup from a message');
      assert.match(await line.locator('.chat-who').textContent(), new RegExp(A.name));
      await pb.locator('.chat-form input').fill('good luck');
      await pb.locator('.chat-form button').click();
      await until(async () => (await a.locator('.chat-line .chat-text').allTextContents()).includes('good luck'), 'B’s message reaches A');
      await pb.getByLabel('Hide my opponent’s messages').check();
      assert.equal(await line.isVisible(), false, 'muted');
      await pb.reload();
      await pb.locator('.chat-line').first().waitFor({ state: 'attached' });
      assert.equal(await pb.getByLabel('Hide my opponent’s messages').isChecked(), true, 'the mute is remembered');
      assert.equal(await pb.locator('.chat-line.from-opponent').first().isVisible(), false, 'still muted after a reload');
      // While the game is played, the spectators' room is for signed-in
      // spectators who hold no seat (a player cannot read it by leaving
      // out the seat token): an anonymous spectator is told to sign in.
      const anon = await (await b.newContext()).newPage();
      errors.push(watchErrors(anon));
      await anon.goto(`${BASE}/game/${gameId}`);
      await until(async () => (await anon.locator('.chat-line .chat-text').allTextContents()).includes('good luck'), 'an anonymous spectator reads the players');
      await anon.locator('.chat-form input').fill('psst');
      await anon.locator('.chat-form button').click();
      await until(async () => /Sign in to chat with the other spectators/.test(await anon.locator('body').innerText()), 'anonymous spectators are asked to sign in');
      await anon.close();
      const c = await (await b.newContext()).newPage();
      errors.push(watchErrors(c));
      await signUp(c, C);
      await c.goto(`${BASE}/game/${gameId}`);
      await until(async () => (await c.locator('.chat-line .chat-text').allTextContents()).includes('good luck'), 'the spectator reads the players');
      await c.locator('.chat-form input').fill('hello from the stands');
      await c.locator('.chat-form button').click();
      const mine = c.locator('.chat-line.spectators');
      await mine.waitFor();
      assert.match(await mine.innerText(), new RegExp(`${C.name} · spectators: hello from the stands`));
      await a.waitForTimeout(500);
      assert.equal((await a.locator('.chat-line .chat-text').allTextContents()).includes('hello from the stands'), false, 'players do not read the spectators');
      await shot(a, 'online-chat');
      await c.close();
    }

    // Two moves, then A resigns: B wins the rated game.
    for (const [mover, watcher, n] of [[a, pb, 1], [pb, a, 2]]) {
      const house = mover.locator('.house.playable').first();
      await house.waitFor();
      await house.click();
      await mover.waitForTimeout(100);
      if (/again/.test(await mover.locator('.move-msg').textContent())) await house.click();
      await until(async () => (await watcher.locator('.moves-list .mv').count()) === n, `move ${n}`);
    }
    await a.getByRole('button', { name: 'Resign' }).click();
    await pb.locator('.result-card').waitFor();
    assert.match(await pb.locator('.result-text').textContent(), /You won/);
    await until(async () => /^Your rating \(Slow clock\): 1500\? → 1[5-9][0-9]{2}\?$/.test(await pb.locator('.rating-change').textContent()), 'the winner’s new rating');

    // Both profiles: B above 1500, A below, each with a graph line.
    const rb = await profileRating(pb, B.name);
    const ra = await profileRating(pb, A.name);
    assert.ok(parseInt(rb, 10) > 1500, `winner's rating ${rb}`);
    assert.ok(parseInt(ra, 10) < 1500, `loser's rating ${ra}`);
    assert.match(ra, /\?$/, 'one game: still provisional');
    assert.equal(await pb.locator('svg.history polyline').count(), 1);
    assert.match(await pb.locator('.player-games').innerText(), new RegExp(`Won|Lost`));
    await shot(pb, 'profile');
    await profileRating(pb, B.name);
    assert.match(await pb.locator('.player-games').innerText(), /Won · by resignation/);
    await pb.locator('.player-games a', { hasText: 'Replay' }).first().click();
    await pb.waitForURL(new RegExp(`/review/${gameId}`));

    // A seek with a rating range that B's new rating is outside of.
    await a.goto(`${BASE}/lobby`);
    await a.getByLabel('Rated', { exact: true }).check();
    await a.locator('[name=rmin]').fill('2000');
    await a.locator('[name=rmax]').fill('1700');
    await a.getByRole('button', { name: 'Create a game' }).click();
    await until(async () => /from a lower to a higher rating/.test(await a.locator('form.create-online .msg').textContent()), 'a range upside down refused');
    await a.locator('[name=rmin]').fill('1700');
    await a.locator('[name=rmax]').fill('');
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const narrow = a.url().split('/game/')[1];
    await pb.goto(`${BASE}/lobby`);
    const row2 = pb.locator(`.seeks tr[data-id="${narrow}"]`);
    await row2.waitFor();
    assert.match(await row2.innerText(), /rating 1700 or more/);
    // B's rating is outside it: the row says why instead of offering Join.
    assert.equal(await row2.getByRole('button', { name: 'Join' }).count(), 0, 'no Join out of range');
    assert.match(await row2.locator('.why-not').textContent(), /^Open to rating 1700 or more; your rating is 1[0-9]{3}\??\.$/);

    // A rated game by invite link: an anonymous visitor is asked to sign
    // in, comes back to the invite and takes the seat.
    await a.goto(`${BASE}/lobby`);
    await a.getByLabel('Rated', { exact: true }).check();
    await a.getByLabel('List it in the lobby').uncheck();
    await a.getByRole('button', { name: 'Create a game' }).click();
    await a.waitForURL(/\/game\//);
    const invite = await a.locator('.invite-url').inputValue();
    const f = await (await b.newContext()).newPage();
    errors.push(watchErrors(f));
    await f.goto(invite);
    await f.locator('.join-card').getByRole('link', { name: 'Sign in' }).click();
    await f.waitForURL(/\/account\?next=/);
    await f.locator('.signin-form [name=username]').fill(B.name);
    await f.locator('.signin-form [name=password]').fill(B.password);
    await f.locator('.signin-form button[type=submit]').click();
    await until(async () => f.url() === invite, 'back at the invite after signing in');
    await f.getByRole('button', { name: 'Take the seat' }).click();
    // The creator's side is drawn by lot: whoever is South moves first.
    await until(async () => /Your turn/.test(await a.locator('.status').textContent())
      || /Your turn/.test(await f.locator('.status').textContent()), 'the invited player is seated');
    assert.match(await f.locator('.mode-line').textContent(), /Rated/);
    await f.close();

    // The leaderboard's four classes.
    await pb.goto(`${BASE}/ratings`);
    await pb.locator('.board-list table, .board-list p:not(:empty)').first().waitFor();
    assert.deepEqual(await pb.locator('.class-btn').allTextContents(), ['Fast clock', 'Slow clock', 'Per move', 'Correspondence']);
    // The first players see themselves at once: provisional ratings are
    // listed after the established ones, without a rank, with their ?.
    await pb.getByRole('button', { name: 'Slow clock' }).click();
    await until(async () => (await pb.locator('.leaderboard').innerText()).includes(B.name), 'B on the leaderboard');
    assert.match(await pb.locator('.leaderboard').innerText(), new RegExp(`–\\s+${B.name}\\s+1[5-9][0-9]{2}\\?`));
    assert.match(await pb.locator('.board-list').innerText(), /listed after the others, without a rank/);
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
  }
});

test('the account’s games reach a new device; the new pages on a 360×640 phone', async () => {
  const b = await launch();
  try {
    const phone = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    const errors = watchErrors(p);
    const measure = () => p.evaluate(() => {
      const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
      const small = (sel, px) => [...document.querySelectorAll(sel)].filter(visible).filter((x) => x.getBoundingClientRect().height < px)
        .map((x) => x.textContent.trim() || x.name || x.className).slice(0, 5);
      const texts = [...document.querySelectorAll('main p, main td, main th, main label, main li, main a, main .chat-text, main input:not([type=checkbox]):not([type=radio]), main button')].filter(visible)
        .filter((x) => !x.closest('.board-wrap'));
      return {
        scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth,
        // What sticks out, to name it when the page is too wide.
        wide: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 361)
          .slice(-3).map((e) => `${e.tagName}.${e.className}: ${e.textContent.trim().slice(0, 40)} (${Math.round(e.getBoundingClientRect().right)})`),
        smallButtons: small('main .btn, main button, main td a', 44), smallInputs: small('main input:not([type=checkbox]):not([type=radio]):not([hidden])', 44),
        minFont: Math.min(...texts.map((x) => parseFloat(getComputedStyle(x).fontSize))),
        smallText: texts.filter((x) => parseFloat(getComputedStyle(x).fontSize) < 16).map((x) => `${x.tagName}.${x.className}: ${x.textContent.trim().slice(0, 30)}`).slice(0, 4), inputFont: Math.min(...[...document.querySelectorAll('main input:not([type=checkbox]):not([type=radio])')].filter(visible).map((x) => parseFloat(getComputedStyle(x).fontSize)), 99),
      };
    });
    const report = [];
    const check = async (what) => {
      const m = await measure();
      report.push(`phone ${what}: ${JSON.stringify(m)}`);
      // (A phone widens its layout viewport when a page is too wide.)
      assert.ok(m.scrollWidth <= 360 && m.width === 360, `${what} scrolls sideways (${m.scrollWidth}, viewport ${m.width}): ${JSON.stringify(m.wide)}`);
      assert.deepEqual(m.smallButtons, [], `${what}: buttons under 44 px`);
      assert.deepEqual(m.smallInputs, [], `${what}: inputs under 44 px`);
      assert.ok(m.inputFont >= 16, `${what}: inputs with ${m.inputFont} px text`);
      assert.ok(m.minFont >= 16, `${what}: text of ${m.minFont} px: ${m.smallText.join(' | ')}`);
    };
    await p.goto(`${BASE}/account`);
    await p.locator('.signup-form').waitFor();
    await check('/account (signed out)');
    await shot(p, 'phone-account');
    // B this time: each account may try its password 5 times in a burst.
    await signIn(p, B);
    await until(async () => (await p.locator('.nav-account').textContent()) === B.name, 'signed in on the phone');
    // The folded header says who is signed in, on one line.
    assert.equal(await p.locator('.menu-btn .menu-user').textContent(), B.name);
    const head = await p.locator('.top').boundingBox();
    assert.ok(head.height < 70, `the phone's header stays on one line (${head.height} px)`);
    await p.locator('.password-form').waitFor();
    await check('/account (signed in)');

    // My games on this new device: the rated game, from the account.
    await p.goto(`${BASE}/review`);
    await until(async () => (await p.locator('.mine-list').innerText()).includes(A.name), 'the account’s game in My games');
    await check('/review');
    // The server keeps only hashes of seat tokens: the game's page asks
    // for this device's own token, from the account.
    await p.goto(`${BASE}/game/${gameId}`);
    await until(async () => /"N":/.test(await p.evaluate((id) => localStorage.getItem(`oware.seats.${id}`) || '', gameId)),
      'this device got a seat token of its own');

    await p.goto(`${BASE}/player/${B.name}`);
    await p.locator('svg.history').waitFor();
    await check('/player');
    const graph = await p.locator('svg.history').boundingBox();
    assert.ok(graph.width <= 360 && graph.width >= 300, `the graph fits the phone (${graph.width} px)`);
    await shot(p, 'phone-profile');
    // The leaderboard filled (an answer stubbed in the browser, since one
    // game leaves both ratings provisional): rows, ranks, the ? mark.
    await p.route('**/api/v1/ratings/*', (route) => route.fulfill({ json: { class: 'slow', players: [
      { rank: 1, username: 'Abena_long_name_20', class: 'slow', rating: 1834, deviation: 60, provisional: false, games: 131 },
      { rank: 2, username: B.name, class: 'slow', rating: 1662, deviation: 290, provisional: true, games: 1 },
    ] } }));
    await p.goto(`${BASE}/ratings`);
    await p.locator('.leaderboard').waitFor();
    assert.deepEqual(await p.locator('.leaderboard tbody tr').evaluateAll((rows) => rows.map((r) => r.innerText.replace(/\s+/g, ' ').trim())),
      ['1 Abena_long_name_20 1834 131', `– ${B.name} 1662? 1`]);
    await check('/ratings');
    await shot(p, 'phone-ratings');
    await p.unroute('**/api/v1/ratings/*');
    await p.goto(`${BASE}/lobby`);
    await p.locator('.lobby-list *').first().waitFor();
    await p.getByLabel('Rated', { exact: true }).check();
    await check('/lobby (signed in)');
    await shot(p, 'phone-lobby');
    await p.goto(`${BASE}/game/${gameId}`);
    await p.locator('.chat-card, .result-card').first().waitFor();
    await check('a finished online game with its chat');
    await shot(p, 'phone-game-chat');
    console.log(report.join('\n'));

    // A new password (a short one refused first), then the account deleted:
    // its profile is gone, its games stay with the seat anonymised.
    p.on('dialog', (d) => d.accept());
    await p.goto(`${BASE}/account`);
    const pw = p.locator('.password-form');
    await pw.locator('[name=old]').fill(B.password);
    await pw.locator('[name=new]').fill('short');
    await pw.locator('button[type=submit]').tap();
    await until(async () => (await pw.locator('.msg').textContent()) === 'A password has 8 to 128 characters.', 'short password refused');
    await pw.locator('[name=old]').fill(B.password);
    await pw.locator('[name=new]').fill('a brand new password');
    await pw.locator('button[type=submit]').tap();
    await until(async () => /Password changed/.test(await pw.locator('.msg').textContent()), 'password changed');
    const del = p.locator('.delete-form');
    await del.locator('[name=password]').fill('a brand new password');
    await del.locator('button[type=submit]').tap();
    await until(async () => p.url() === `${BASE}/`, 'home after the deletion');
    await until(async () => (await p.locator('.nav-account').textContent()) === 'Sign in', 'signed out by the deletion');
    await p.goto(`${BASE}/player/${B.name}`);
    await until(async () => /no player of that name/.test(await p.locator('main').innerText()), 'the profile is gone');
    const g = await (await fetch(`${BASE}/api/v1/games/${gameId}`)).json();
    assert.equal(g.seats.N.name, 'Deleted player');
    await p.goto(`${BASE}/game/${gameId}?lang=fr`);
    await until(async () => /Joueur supprimé/.test(await p.locator('.game').innerText()), 'the seat reads “Joueur supprimé” in French');
    await p.evaluate(() => localStorage.setItem('oware.lang', 'en'));
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
