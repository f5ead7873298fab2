// The signed-in player's notifications and challenges on every page: the
// account socket (GET /api/v1/account/ws) brings them live; the unread
// count shows on the bell in the header, in the tab's title ("(1) …") and
// on the installed app's icon (navigator.setAppBadge, where the browser
// has it); a challenge received opens a prompt to accept or decline; a
// challenge of ours accepted takes us to its game.

import { api } from './api.js';
import { t, errorText, sideName } from './i18n.js';
import { esc, navigate, announce } from './ui.js';
import { currentUser } from './account.js';

let unread = 0;
let socket = null;
let retryTimer = null;
let pinger = null;
let delay = 1000;
const listeners = new Set();

/** Unread notifications. */
export const unreadCount = () => unread;

/** Calls f(msg) for each account event (`notification`, `unread`,
 * `challenge`); returns the function that stops it. */
export function onInbox(f) { listeners.add(f); return () => listeners.delete(f); }

const same = (a, b) => String(a || '').toLowerCase() === String(b || '').toLowerCase();

/** "5 min + 3 s", "3 days per move", "untimed". */
export function tcWords(tc) {
  if (!tc) return t('play.none');
  if (tc.per_move_ms) return t('tc.permove', { s: Math.round(tc.per_move_ms / 1000) });
  if (tc.days_per_move) return t(tc.days_per_move === 1 ? 'tc.days1' : 'tc.days', { n: tc.days_per_move });
  return t('tc.clock', { m: Math.round(tc.initial_ms / 60000), i: Math.round((tc.increment_ms || 0) / 1000) });
}

// ---- the count: bell, title, app badge -----------------------------------

// The title a page set, and the one this module made of it: a title that
// is not ours is a page's new one. A page that counts in its title itself
// ("(2) Your move", My games) keeps its own count.
let pageTitle = null;
let ourTitle = null;
function applyTitle() {
  const cur = document.title;
  if (cur !== ourTitle) pageTitle = cur;
  const own = /^\(\d+\+?\) /.test(pageTitle);
  const want = unread > 0 && !own ? `(${unread > 99 ? '99+' : unread}) ${pageTitle}` : pageTitle;
  ourTitle = want;
  if (cur !== want) document.title = want;
}

/** Draws the count again (after a change of language or account). */
export function paintInbox() { showCount(); }

function showCount() {
  const bell = document.querySelector('.bell');
  if (bell) {
    bell.hidden = !currentUser();
    const c = bell.querySelector('.bell-count');
    c.textContent = unread > 99 ? '99+' : String(unread);
    c.hidden = unread === 0;
    bell.setAttribute('aria-label', unread ? t('inbox.labelN', { n: unread }) : t('inbox.label'));
    bell.title = bell.getAttribute('aria-label');
  }
  applyTitle();
  try {
    if (unread > 0 && navigator.setAppBadge) navigator.setAppBadge(unread).catch(() => {});
    else if (navigator.clearAppBadge) navigator.clearAppBadge().catch(() => {});
  } catch (_) { /* no badge here */ }
}

function setUnread(n) {
  unread = Math.max(0, Number(n) || 0);
  showCount();
}

/** The count after marking notifications read here. */
export function readDone(n) { setUnread(n); }

// ---- challenge prompts ----------------------------------------------------

function prompts() {
  let box = document.querySelector('.challenge-prompts');
  if (!box) {
    box = document.createElement('div');
    box.className = 'challenge-prompts';
    document.body.append(box);
  }
  return box;
}

function challengeLine(c) {
  const parts = [tcWords(c.time_control), t(c.rated ? 'challenge.rated' : 'challenge.casual')];
  // Their side is the challenger's; ours the other.
  if (c.side) parts.push(t('challenge.youPlay', { side: sideName(c.side === 'S' ? 'N' : 'S') }));
  return parts.join(' · ');
}

function showPrompt(c) {
  const box = prompts();
  if (box.querySelector(`[data-challenge="${CSS.escape(c.id)}"]`)) return;
  const el = document.createElement('section');
  el.className = 'challenge-prompt';
  el.dataset.challenge = c.id;
  el.setAttribute('role', 'alertdialog');
  el.setAttribute('aria-labelledby', `chl-${c.id}`);
  el.innerHTML = `<p id="chl-${esc(c.id)}"><strong class="chl-from"></strong> ${esc(t('challenge.challengesYou'))}</p>
    <p class="muted chl-terms">${esc(challengeLine(c))}</p>
    <p class="row"><button type="button" class="btn primary chl-accept">${esc(t('challenge.accept'))}</button>
    <button type="button" class="btn chl-decline">${esc(t('challenge.decline'))}</button></p>
    <p class="msg chl-msg" role="status"></p>`;
  el.querySelector('.chl-from').textContent = c.from;
  const msg = el.querySelector('.chl-msg');
  const act = async (accept) => {
    for (const b of el.querySelectorAll('button')) b.disabled = true;
    try {
      const r = accept ? await api.acceptChallenge(c.id) : await api.declineChallenge(c.id);
      el.remove();
      if (accept && r.game) navigate(`/game/${encodeURIComponent(r.game)}`);
    } catch (e) {
      msg.textContent = errorText(e);
      msg.className = 'msg chl-msg bad';
      for (const b of el.querySelectorAll('button')) b.disabled = false;
      if (e.reason === 'challenge_closed' || e.code === 'not_found') setTimeout(() => el.remove(), 4000);
    }
  };
  el.querySelector('.chl-accept').addEventListener('click', () => act(true));
  el.querySelector('.chl-decline').addEventListener('click', () => act(false));
  box.append(el);
  // Unanswered, it lapses on the server after ten minutes: the prompt goes
  // then too (an answer after that is refused in words anyway).
  const left = Date.parse(c.expires_at) - Date.now();
  if (left > 0 && left <= 15 * 60000) setTimeout(() => el.remove(), left);
  announce(`${c.from} ${t('challenge.challengesYou')}`);
}

function dropPrompt(id) {
  document.querySelector(`.challenge-prompts [data-challenge="${CSS.escape(id)}"]`)?.remove();
}

function onChallenge(c) {
  const me = currentUser()?.username;
  if (same(c.to, me)) {
    if (c.status === 'open') showPrompt(c); else dropPrompt(c.id);
  } else if (same(c.from, me) && c.status === 'accepted' && c.game) {
    navigate(`/game/${encodeURIComponent(c.game)}`);
  }
}

// ---- the socket -----------------------------------------------------------

function handle(m) {
  if (m.type === 'unread' || m.type === 'notification') setUnread(m.unread);
  if (m.type === 'challenge' && m.challenge) onChallenge(m.challenge);
  for (const f of listeners) f(m);
}

function stop() {
  clearTimeout(retryTimer);
  clearInterval(pinger);
  const ws = socket;
  socket = null;
  if (ws) { ws.onclose = ws.onmessage = ws.onopen = null; try { ws.close(); } catch (_) { /* closed */ } }
}

function connect() {
  stop();
  if (!currentUser() || !('WebSocket' in window)) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/v1/account/ws`);
  socket = ws;
  ws.onopen = () => {
    delay = 1000;
    // Challenges received while this page was closed.
    api.challenges().then((r) => { for (const c of r.challenges || []) onChallenge(c); }).catch(() => {});
  };
  ws.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (_) { return; }
    handle(m);
  };
  ws.onclose = (e) => {
    if (socket !== ws) return;
    socket = null;
    clearInterval(pinger);
    if (!currentUser()) return;
    const wait = e.code === 1012 ? Math.random() * 250 : delay;
    delay = Math.min(delay * 2, 30000);
    retryTimer = setTimeout(connect, wait);
  };
  pinger = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, 25000);
}

/** Follows the signed-in player: the count from their account, the socket
 * open while signed in. */
export function startInbox(me) {
  setUnread(me?.unread || 0);
  if (!me) {
    stop();
    document.querySelector('.challenge-prompts')?.replaceChildren();
    return;
  }
  connect();
}

/** The tab's title changed (a page set it): the count goes back in front. */
export function watchTitle() {
  const el = document.querySelector('title');
  if (el) new MutationObserver(applyTitle).observe(el, { childList: true, characterData: true, subtree: true });
  window.addEventListener('online', () => { if (currentUser() && !socket) connect(); });
}

/** Words for a notification, and where it leads (or null). */
export function notificationText(n) {
  const from = n.from || '';
  switch (n.kind) {
    case 'your_turn': return { text: t('inbox.yourTurn', { name: from }), href: n.game ? `/game/${encodeURIComponent(n.game)}` : null };
    case 'challenge':
      if (n.detail === 'accepted') return { text: t('inbox.challengeAccepted', { name: from }), href: n.game ? `/game/${encodeURIComponent(n.game)}` : null };
      if (n.detail === 'declined') return { text: t('inbox.challengeDeclined', { name: from }), href: null };
      return { text: t('inbox.challengeReceived', { name: from }), href: from ? `/player/${encodeURIComponent(from)}` : null };
    case 'tournament_starting':
      if (n.detail === 'paired' && n.game) return { text: t('inbox.tournamentPaired', { name: from }), href: `/game/${encodeURIComponent(n.game)}` };
      return { text: t(n.detail === 'soon' ? 'inbox.tournamentSoon' : 'inbox.tournament'), href: n.tournament ? `/tournament/${encodeURIComponent(n.tournament)}` : null };
    case 'rematch': return { text: t('inbox.rematch', { name: from }), href: n.game ? `/game/${encodeURIComponent(n.game)}` : null };
    case 'takeback': return { text: t('inbox.takeback', { name: from }), href: n.game ? `/game/${encodeURIComponent(n.game)}` : null };
    case 'followed_playing': return { text: t('inbox.followedPlaying', { name: from }), href: n.game ? `/game/${encodeURIComponent(n.game)}` : null };
    default: return { text: n.kind, href: null };
  }
}
