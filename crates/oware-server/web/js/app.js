// Entry point: a tiny router over the pages, the language switch, and the
// static strings of the page shell.

import { engineSettled } from './engine/client.js';
import { lang, setLang, onLangChange, t } from './i18n.js';
import { esc, setRouter } from './ui.js';
import { offline, syncOfflineGames } from './local.js';
import * as home from './pages/home.js';
import * as play from './pages/play.js';
import * as game from './pages/game.js';
import * as lobby from './pages/lobby.js';
import * as learn from './pages/learn.js';
import * as review from './pages/review.js';
import * as study from './pages/study.js';
import * as puzzles from './pages/puzzles.js';
import * as mistakes from './pages/mistakes.js';
import * as accountPage from './pages/account.js';
import * as player from './pages/player.js';
import * as watch from './pages/watch.js';
import * as tournaments from './pages/tournaments.js';
import * as notifications from './pages/notifications.js';
import * as mail from './pages/mail.js';
import { startInbox, watchTitle, paintInbox } from './inbox.js';
import { accountReady, currentUser, onAccountChange, reloadAccount, syncMyGames } from './account.js';

// Pages that need the server (online games, the lobby, accounts, watching,
// the coach's review of mistakes): offline they say so, and come back by
// themselves when the network returns. Puzzles work offline, unrated
// (pages/puzzles.js).
const NET = true;

const routes = [
  [/^\/$/, home.mount, ''],
  [/^\/play\/?$/, play.mount, '/play'],
  [/^\/lobby\/?$/, lobby.mount, '/lobby', NET],
  [/^\/watch\/?$/, watch.mount, '/watch', NET],
  [/^\/tournaments\/?$/, tournaments.mountList, '/tournaments', NET],
  [/^\/tournament\/([A-Za-z0-9_-]+)\/?$/, tournaments.mountOne, '/tournaments', NET],
  [/^\/game\/([A-Za-z0-9_-]+)\/?$/, game.mount, ''],
  [/^\/learn\/?$/, learn.mountTutorial, '/learn'],
  [/^\/rules\/?$/, learn.mountRules, '/rules'],
  [/^\/review\/?$/, review.mountList, '/review'],
  [/^\/review\/([A-Za-z0-9_-]+)\/?$/, review.mountGame, '/review'],
  [/^\/study\/?$/, study.mount, '/study'],
  [/^\/puzzles\/?$/, (m) => puzzles.mount(m, null), '/puzzles'],
  [/^\/puzzles\/(daily|\d+)\/?$/, puzzles.mount, '/puzzles'],
  [/^\/mistakes\/([A-Za-z0-9_-]+)\/?$/, mistakes.mount, '', NET],
  [/^\/account\/?$/, accountPage.mount, '/account', NET],
  [/^\/player\/([^/]+)\/?$/, player.mountProfile, '', NET],
  [/^\/ratings\/?$/, player.mountRatings, '/ratings', NET],
  [/^\/notifications\/?$/, notifications.mount, '/notifications', NET],
  [/^\/reset-password\/?$/, mail.mountReset, '/account', NET],
  [/^\/verify-email\/?$/, mail.mountVerify, '/account', NET],
  [/^\/unsubscribe\/?$/, mail.mountUnsubscribe, '/account', NET],
];

const main = document.getElementById('main');
let cleanup = null;

function translateShell() {
  document.documentElement.lang = lang();
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  document.querySelector('.nav').setAttribute('aria-label', t('nav.menu'));
  document.querySelector('.lang').setAttribute('aria-label', lang() === 'fr' ? 'Langue' : 'Language');
  for (const b of document.querySelectorAll('.lang button')) b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
  showAccount();
}

// The account link at the end of the menu: "Sign in", or the player's name.
function showAccount() {
  const a = document.querySelector('.nav-account');
  const me = currentUser();
  a.textContent = me ? me.username : t('nav.signin');
  a.classList.toggle('signed-in', !!me);
  a.title = me ? t('account.menuTitle', { name: me.username }) : '';
  // On a phone the menu button carries the name, so the folded header
  // still says who is signed in.
  const btn = document.querySelector('.menu-btn');
  btn.querySelector('.menu-user').textContent = me ? me.username : '';
  btn.querySelector('.menu-user').hidden = !me;
  btn.classList.toggle('signed-in', !!me);
  btn.setAttribute('aria-label', me ? `${t('nav.menu')} (${me.username})` : t('nav.menu'));
  paintInbox();
}

// The phone's folded menu: a button opens it; following a link closes it.
const top = document.querySelector('.top');
const menuBtn = document.querySelector('.menu-btn');
function setMenu(open) {
  top.classList.toggle('open', open);
  menuBtn.setAttribute('aria-expanded', String(open));
}
menuBtn.addEventListener('click', () => setMenu(!top.classList.contains('open')));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && top.classList.contains('open')) { setMenu(false); menuBtn.focus(); }
});

function render() {
  setMenu(false);
  if (typeof cleanup === 'function') cleanup();
  cleanup = null;
  const path = location.pathname;
  let found = false;
  needsNet = false;
  for (const [re, mount, nav, net] of routes) {
    const m = path.match(re);
    if (!m) continue;
    found = true;
    needsNet = !!net;
    for (const a of document.querySelectorAll('.nav a')) {
      if (a.getAttribute('href') === nav) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    main.replaceChildren();
    document.title = titleFor(nav);
    if (net && offline()) noNetwork(main);
    else cleanup = mount(main, ...m.slice(1).map(decodeURIComponent));
    break;
  }
  if (!found) {
    // No page here (the server answers 404 with this page, so the reader
    // is told in their language, on a page laid out for their screen).
    for (const a of document.querySelectorAll('.nav a')) a.removeAttribute('aria-current');
    document.title = `${t('notFound.title')} · Oware`;
    main.innerHTML = `<h1>${esc(t('notFound.title'))}</h1><p class="lead not-found">${esc(t('notFound.text'))}</p>
      <p class="row"><a class="btn primary" href="/" data-link>${esc(t('notFound.home'))}</a> <a class="btn" href="/play" data-link>${esc(t('nav.play'))}</a></p>`;
  }
}

/** The tab's title for a page: its menu link's words, but "Your account"
 * for the account page once signed in (its link then shows the name). */
function titleFor(nav) {
  if (nav === '/notifications') return `${t('inbox.title')} · Oware`;
  if (nav === '/account') return `${t(currentUser() ? 'account.title' : 'nav.signin')} · Oware`;
  const navLink = nav && document.querySelector(`.nav a[href="${nav}"]`);
  return navLink ? `${navLink.textContent} · Oware` : 'Oware Abapa';
}

/** An online-only page with the network cut: says so, and what works. */
function noNetwork(host) {
  host.innerHTML = `<h1>${esc(t('offline.title'))}</h1><p class="msg warn offline-needs" role="status">${esc(t('offline.needs'))}</p>
    <p>${esc(t('offline.whatWorks'))}</p>
    <p class="row"><a class="btn primary" href="/play" data-link>${esc(t('nav.play'))}</a> <a class="btn" href="/learn" data-link>${esc(t('nav.learn'))}</a></p>`;
}

// The page on show needs the network: drawn again when it goes or returns.
let needsNet = false;
window.addEventListener('online', () => { if (needsNet) render(); });
window.addEventListener('offline', () => { if (needsNet) render(); });

function go(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  render();
  window.scrollTo(0, 0);
}
setRouter(go);

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  go(a.getAttribute('href'));
  main.focus({ preventScroll: true });
});
window.addEventListener('popstate', render);
for (const b of document.querySelectorAll('.lang button')) {
  b.addEventListener('click', () => setLang(b.dataset.lang));
}
onLangChange(() => { translateShell(); render(); });
// Signing in or out changes what pages show (names, ratings, seats): the
// header follows at once; the page is drawn again unless it is the one
// that did it (the account page draws itself).
let started = false;
onAccountChange((me) => {
  showAccount();
  startInbox(me);
  if (me) syncOfflineGames(true);
  if (started && !/^\/account\/?$/.test(location.pathname)) render();
  else if (started) document.title = titleFor('/account');
});

translateShell();
watchTitle();
accountReady.then((me) => startInbox(me)).catch(() => {});
// The first page waits (briefly) to know who is signed in, so it shows the
// right seats and names; a signed-in player's seats come from the account.
Promise.race([accountReady.then((me) => (me ? syncMyGames() : null)), new Promise((r) => setTimeout(r, 1500))])
  .finally(() => { started = true; showAccount(); render(); });
// Games finished offline go to the signed-in player's account when the
// network is there (local.js): at load, and each time the network returns.
accountReady.then((me) => syncOfflineGames(!!me)).catch(() => {});
window.addEventListener('online', () => { reloadAccount().then((me) => syncOfflineGames(!!me)).catch(() => {}); });

// Offline and installable: the service worker keeps the app and the
// engine's files (sw.js; docs/WEB.md, "Offline and installable"). It is
// registered once the page has loaded and its engine module (when the page
// uses one) is in, after a short pause, so a first visit spends its bytes
// on a playable board first; the worker's copies then mostly come from the
// browser's HTTP cache.
if ('serviceWorker' in navigator) {
  const register = () => navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((e) => console.warn('service worker:', e));
  const settle = () => setTimeout(() => engineSettled().then(register), 2000);
  if (document.readyState === 'complete') settle(); else window.addEventListener('load', settle, { once: true });
}
