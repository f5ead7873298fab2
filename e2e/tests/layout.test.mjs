// Phone-first layout, measured rather than only pictured: at 360×640 every
// house is a touch target of at least 44 px with a count of at least 16 px,
// the menu is folded behind a button, and no page scrolls sideways; at
// 1280×800 the menu is open and nothing scrolls sideways either. Then the
// French pages hold none of the English interface strings.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, shot, until, watchErrors } from '../lib.mjs';

const PAGES = [
  ['/', '.home-board .house'],
  ['/play', 'form.new-game'],
  ['/lobby', '.lobby-list *'],
  ['/learn', '#r13 .house'],
  ['/rules', '.rules-board .house'],
  ['/review', '.mine-list *'],
  ['/study', '.edit-host .house'],
  ['/puzzles', '.puz-board .house'],
  ['/account', '.signup-form'],
  ['/ratings', '.board-list *'],
];

/** Sizes on the page: visible houses, their counts, and the scroll width. */
function measure(page) {
  return page.evaluate(() => {
    const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
    const houses = [...document.querySelectorAll('.house')].filter(visible);
    const rects = houses.map((h) => h.getBoundingClientRect());
    const fonts = houses.map((h) => parseFloat(getComputedStyle(h.querySelector('.count')).fontSize));
    return {
      houses: houses.length,
      minW: houses.length ? Math.min(...rects.map((r) => r.width)) : null,
      minH: houses.length ? Math.min(...rects.map((r) => r.height)) : null,
      minFont: houses.length ? Math.min(...fonts) : null,
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
      smallButtons: [...document.querySelectorAll('main .btn')].filter(visible)
        .filter((x) => x.getBoundingClientRect().height < 44).map((x) => x.textContent.trim()).slice(0, 5),
      navShown: visible(document.querySelector('.nav')),
      menuBtn: visible(document.querySelector('.menu-btn')),
      // Boards that stick out of the space they are given (a lesson card).
      outside: [...document.querySelectorAll('.board')].filter(visible)
        .filter((bd) => bd.getBoundingClientRect().right > bd.closest('.board-wrap').parentElement.getBoundingClientRect().right + 0.5).length,
    };
  });
}

async function hotseatGame(page) {
  await page.goto(`${BASE}/play?mode=hotseat`);
  await page.locator('form.new-game button[type=submit]').click();
  await page.waitForURL(/\/game\//);
  await page.locator('.house.playable').first().waitFor();
}

test('phone (360×640) and desktop (1280×800): sizes, menu, no sideways scroll', async () => {
  const b = await launch();
  try {
    const phone = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const desk = await b.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await phone.newPage();
    const d = await desk.newPage();
    const errors = [watchErrors(p), watchErrors(d)];
    const report = [];
    for (const [path, ready] of PAGES) {
      for (const [page, kind] of [[p, 'phone'], [d, 'desktop']]) {
        await page.goto(`${BASE}${path}`);
        await page.locator(ready).first().waitFor();
        const m = await measure(page);
        report.push(`${kind} ${path}: ${JSON.stringify(m)}`);
        assert.ok(m.scrollWidth <= m.width, `${kind} ${path} scrolls sideways (${m.scrollWidth} > ${m.width})`);
        // A phone widens its layout viewport when a page is too wide.
        if (kind === 'phone') assert.equal(m.width, 360, `${path}: the phone's viewport was widened to ${m.width} px`);
        assert.equal(m.outside, 0, `${kind} ${path}: a board sticks out of its box`);
        if (kind === 'phone') {
          if (m.houses) {
            assert.ok(m.minW >= 44 && m.minH >= 44, `${path}: houses of ${m.minW}×${m.minH} px, under 44`);
            assert.ok(m.minFont >= 16, `${path}: counts of ${m.minFont} px, under 16`);
          }
          assert.deepEqual(m.smallButtons, [], `${path}: buttons under 44 px on a phone`);
          assert.equal(m.navShown, false, `${path}: the menu is folded on a phone`);
          assert.equal(m.menuBtn, true, `${path}: the menu button shows on a phone`);
        } else {
          if (m.houses) assert.ok(m.minFont >= 16, `desktop ${path}: counts of ${m.minFont} px, under 16`);
          assert.equal(m.navShown, true, `${path}: the menu is open on a desktop`);
          assert.equal(m.menuBtn, false, `${path}: no menu button on a desktop`);
        }
      }
    }
    // The game page, and the folded menu opening with a tap.
    for (const [page, kind] of [[p, 'phone'], [d, 'desktop']]) {
      await hotseatGame(page);
      const m = await measure(page);
      report.push(`${kind} game: ${JSON.stringify(m)}`);
      assert.ok(m.scrollWidth <= m.width, `${kind} game page scrolls sideways`);
      if (kind === 'phone') {
        assert.ok(m.minW >= 44 && m.minH >= 44 && m.minFont >= 16, `game page on a phone: ${JSON.stringify(m)}`);
        const board = await page.locator('.board').boundingBox();
        assert.ok(board.width >= 0.8 * 360, `the board fills the phone's width (${board.width} px)`);
        await shot(page, 'phone-game');
      } else await shot(page, 'desktop-game');
    }
    // An online game waiting for its opponent (invite and spectator links).
    await p.goto(`${BASE}/lobby`);
    await p.locator('form.create-online button[type=submit]').tap();
    await p.waitForURL(/\/game\//);
    await p.locator('.invite-url').waitFor();
    const online = await measure(p);
    assert.ok(online.scrollWidth <= online.width, `online game page scrolls sideways (${online.scrollWidth})`);
    await shot(p, 'phone-online-waiting');
    await p.locator('.menu-btn').tap();
    await until(async () => (await measure(p)).navShown, 'the menu opens');
    assert.equal(await p.locator('.menu-btn').getAttribute('aria-expanded'), 'true');
    const links = await p.locator('.nav a').evaluateAll((as) => as.map((a) => a.getBoundingClientRect().height));
    assert.ok(links.every((h) => h >= 44), `menu links are touch targets (${links})`);
    await shot(p, 'phone-menu');
    await p.getByRole('link', { name: 'Learn' }).tap();
    await p.waitForURL(/\/learn$/);
    assert.equal((await measure(p)).navShown, false, 'following a link folds the menu');
    await p.locator('#r5 .house').first().waitFor();
    await p.locator('#r5').scrollIntoViewIfNeeded();
    await shot(p, 'phone-learn');
    console.log(report.join('\n'));
    for (const e of errors) assert.deepEqual(e, []);
  } finally {
    await b.close();
  }
});

test('the French pages hold no English interface string', async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext({ locale: 'fr-FR' });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(`${BASE}/?lang=fr`);
    await page.locator('.home-board .house').first().waitFor();
    // The English strings that French replaces, read from the app itself.
    const english = await page.evaluate(async () => {
      const { STRINGS } = await import('/js/i18n.js');
      const fr = Object.values(STRINGS.fr).join('\n');
      return Object.entries(STRINGS.en)
        .filter(([k, v]) => STRINGS.fr[k] !== v && v.length >= 4 && !fr.includes(v))
        .flatMap(([, v]) => v.split(/\{\w+\}/))
        .map((s) => s.trim().replace(/^[,.:;()…\s]+|[,.:;()…\s]+$/g, ''))
        .filter((s) => s.length >= 4 && !new RegExp(`(^|[^\\p{L}])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(fr));
    });
    assert.ok(english.length > 150, `English strings found: ${english.length}`);
    // Every English string has its French (a missing one would show in English).
    assert.deepEqual(await page.evaluate(async () => {
      const { STRINGS } = await import('/js/i18n.js');
      return Object.keys(STRINGS.en).filter((k) => !(k in STRINGS.fr));
    }), [], 'English keys without French');
    // Whole words only: "Import" must not match "Importer".
    const re = english.map((s) => [s, new RegExp(`(^|[^\\p{L}])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u')]);
    const check = async (what) => {
      const text = await page.locator('body').innerText();
      const found = re.filter(([, r]) => r.test(text)).map(([s]) => s);
      assert.deepEqual(found, [], `English on the French ${what}`);
    };
    for (const [path, ready] of PAGES) {
      await page.goto(`${BASE}${path}`);
      await page.locator(ready).first().waitFor();
      await check(path);
    }
    // An online game waiting for an opponent.
    await page.goto(`${BASE}/lobby`);
    await page.locator('form.create-online button[type=submit]').click();
    await page.waitForURL(/\/game\//);
    await page.locator('.invite-url').waitFor();
    await check('online game waiting for an opponent');
    assert.match(await page.locator('.top-player').textContent(), /Place libre/);
    // Refusals by code, in French: a move the rules forbid (R8 lesson), a
    // position the editor checks itself, an OGN record the server refuses.
    await page.goto(`${BASE}/learn`);
    const r8 = page.locator('#r8');
    await r8.locator('.house.playable').first().waitFor();
    await r8.locator('.house[data-house="A"]').click();
    await until(async () => /nourrit pas/.test(await r8.locator('.msg').textContent()), 'French refusal');
    await page.goto(`${BASE}/study?position=4-4-4-4-4-4-4-4-4-4-4-5-0-0-S`);
    await until(async () => /exactement 48/.test(await page.locator('.check-msg').textContent()), 'seed total in French');
    await page.goto(`${BASE}/review`);
    await page.locator('.import-form textarea').fill('[Variant "Abapa"]\n\n1. F Z *');
    await page.locator('.import-form button[type=submit]').click();
    await until(async () => (await page.locator('.import-form .msg').textContent()).length > 0, 'import refused');
    await check('review page after a refused import');
    // A game against the computer, in French, won at once (example E6:
    // F captures 13 and South reaches 26), with its result card.
    await page.goto(`${BASE}/play?position=0-0-0-0-0-17-2-1-1-0-0-1-13-13-S`);
    await page.locator('[name=level]').selectOption('1');
    await page.getByLabel('Sud (en bas)').check();
    await page.locator('form.new-game button[type=submit]').click();
    await page.waitForURL(/\/game\//);
    await page.locator('.house.playable').first().waitFor();
    assert.match(await page.title(), /À vous de jouer/);
    await check('game page');
    await page.locator('.house[data-house="F"]').click();
    await page.locator('.result-card').waitFor();
    assert.equal(await page.locator('.result-text').textContent(), 'Vous avez gagné, 26–13');
    assert.match(await page.locator('.result-card .why').textContent(), /^vous avez capturé 25 graines ou plus\.$/);
    assert.match(await page.locator('.moves-list').innerText(), /^1\. F\+13$/);
    assert.doesNotMatch(await page.title(), /À vous de jouer/);
    assert.equal(await page.getByRole('button', { name: 'Rejouer au même niveau' }).count(), 1);
    await check('game page after the end');
    await shot(page, 'game-won-fr');
    // Signed in, in French: a refused name, then the account, the profile,
    // the lobby's seek form and the leaderboard.
    const name = `Awa_${Math.random().toString(36).slice(2, 8)}`;
    await page.goto(`${BASE}/account`);
    const up = page.locator('.signup-form');
    await up.locator('[name=username]').fill('admin');
    await up.locator('[name=password]').fill('un mot de passe');
    await up.locator('button[type=submit]').click();
    await until(async () => /réservé/.test(await up.locator('.msg').textContent()), 'reserved name refused in French');
    await up.locator('[name=username]').fill(name);
    await up.locator('[name=password]').fill('un mot de passe');
    await up.locator('button[type=submit]').click();
    await until(async () => (await page.locator('.nav-account').textContent()) === name, 'signed up in French');
    // The tab no longer says « Connexion ».
    assert.equal(await page.title(), 'Votre compte · Oware');
    await check('account page, signed in');
    await page.goto(`${BASE}/player/${name}`);
    await page.locator('.ratings-table').waitFor();
    await check('profile');
    await page.goto(`${BASE}/lobby`);
    await page.locator('.lobby-list *').first().waitFor();
    await page.getByLabel('Classée', { exact: true }).check();
    await check('lobby with a rated seek form');
    await page.goto(`${BASE}/ratings?class=per_move`);
    await page.locator('.board-list *').first().waitFor();
    await check('leaderboard');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

/** How many lines an element's text takes (one rectangle a line). */
const lines = (locator) => locator.evaluate((el) => {
  const r = document.createRange();
  r.selectNodeContents(el);
  return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
});

/** A finished public online game between two long names, with a move. */
async function finishedPublicGame() {
  const post = async (path, body) => (await fetch(`${BASE}/api/v1${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  })).json();
  const c = await post('/games', { mode: 'online', side: 'S', public: true, name: 'Nana Akosua Serwaa Boatemaa-Mensah' });
  const invite = new URL(c.invite_url, BASE).searchParams.get('invite');
  const j = await post(`/games/${c.id}/join`, { invite, name: 'Kwabena Oteng-Darko Asante-Frimpong' });
  await post(`/games/${c.id}/moves`, { token: c.tokens.S, move: 'F', ply: 0 });
  await post(`/games/${c.id}/resign`, { token: j.token });
  return c.id;
}

test('phone (360×740): the open games near the top of the lobby, Replay and clocks on one line, presets and the 404 page in words, in English and French', async () => {
  const b = await launch();
  try {
    for (const lang of ['en', 'fr']) {
      const ctx = await b.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
      const page = await ctx.newPage();
      const errors = watchErrors(page);
      await page.goto(`${BASE}/lobby?lang=${lang}`);
      await page.evaluate((l) => localStorage.setItem('oware.lang', l), lang);
      await page.locator('.lobby-list *').first().waitFor();
      // The open games start within the first screen, above the form.
      const lobby = await page.locator('.lobby-list').evaluate((el) => el.closest('.card').getBoundingClientRect().top + window.scrollY);
      const form = await page.locator('form.create-online').evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      console.log(`# ${lang} lobby: the open games at y = ${Math.round(lobby)}, the form at y = ${Math.round(form)}`);
      assert.ok(lobby < 740 / 2, `${lang}: the open games start at y = ${lobby}, on a 740-px screen`);
      assert.ok(lobby < form, `${lang}: the open games come before the form`);

      // A correspondence game waiting for its opponent: the clocks in days on one line.
      await page.locator('form.create-online [name=otc][value=corr]').check();
      await page.locator('form.create-online button[type=submit]').tap();
      await page.waitForURL(/\/game\//);
      const clock = page.locator('[data-clock="S"]');
      await until(async () => /\d/.test(await clock.textContent()), 'the clock shown');
      for (const side of ['S', 'N']) {
        // (The player lines are drawn again when the game's state comes,
        // their clocks filled at the next tick.)
        const c = page.locator(`[data-clock="${side}"]`);
        const n = await until(async () => (/\d/.test(await c.textContent()) ? lines(c) : 0), `the ${side} clock drawn`);
        assert.equal(n, 1, `${lang}: the clock "${await c.textContent()}" on one line`);
      }
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, `${lang}: the game page fits`);

      // A finished game in My games: "Replay" on one line, a touch target.
      await page.goto(`${BASE}/play?mode=hotseat&position=0-0-0-0-0-17-2-1-1-0-0-1-13-13-S`);
      await page.locator('form.new-game button[type=submit]').tap();
      await page.waitForURL(/\/game\//);
      await page.locator('.house[data-house="F"].playable').tap();
      await page.locator('.result-card').waitFor();
      await page.goto(`${BASE}/review`);
      const replay = page.locator('.mine-list a[href^="/review/"]').first();
      await replay.waitFor();
      const box = await replay.boundingBox();
      console.log(`# ${lang} My games: "${await replay.textContent()}" ${Math.round(box.width)}×${Math.round(box.height)} px`);
      assert.equal(await lines(replay), 1, `${lang}: "${await replay.textContent()}" on one line`);
      assert.ok(box.width >= 44 && box.height >= 44, `${lang}: the link is ${box.width}×${box.height} px`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, `${lang}: My games fits`);
      // The same in the list of past games, beside two long names.
      const id = await finishedPublicGame();
      await page.goto(`${BASE}/review`);
      const pub = page.locator(`.games-list a[href="/review/${id}"]`);
      await pub.waitFor();
      const pbox = await pub.boundingBox();
      console.log(`# ${lang} past games: "${await pub.textContent()}" ${Math.round(pbox.width)}×${Math.round(pbox.height)} px`);
      assert.equal(await lines(pub), 1, `${lang}: "${await pub.textContent()}" on one line beside long names`);
      assert.ok(pbox.width >= 44 && pbox.height >= 44, `${lang}: the link is ${pbox.width}×${pbox.height} px`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, `${lang}: the past games fit`);

      // The clock presets in words for screen readers: "1 minute", not "1 minutes".
      await page.goto(`${BASE}/play`);
      const label = (m) => page.locator(`.preset[data-min="${m}"]`).getAttribute('aria-label');
      assert.equal(await label(1), lang === 'en' ? '1 minute, no increment' : '1 minute, sans incrément');
      assert.equal(await label(3), lang === 'en' ? '3 minutes plus 2 seconds a move' : '3 minutes plus 2 secondes par coup');

      // A page that does not exist: a 404, in the reader's language, laid out for the phone.
      const r = await page.goto(`${BASE}/no/such/page`);
      assert.equal(r.status(), 404);
      await page.locator('main h1').waitFor();
      assert.equal(await page.locator('main h1').textContent(), lang === 'en' ? 'Page not found' : 'Page introuvable');
      assert.equal(await page.title(), lang === 'en' ? 'Page not found · Oware' : 'Page introuvable · Oware');
      assert.equal(await page.evaluate(() => window.innerWidth), 360, 'the phone keeps its width');
      assert.equal((await measure(page)).menuBtn, true, 'the phone menu');
      await shot(page, `phone-404-${lang}`);
      assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
      await ctx.close();
    }
  } finally {
    await b.close();
  }
});
