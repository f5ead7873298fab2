// The signed-in player, if any: read once at page load (GET /account; 401
// means anonymous), kept in step with sign-in, sign-out and deletion. The
// session itself is the server's HttpOnly cookie; this module keeps only the
// name, the ratings and the CSRF token every state-changing request echoes.

import { api, seats, setCsrf, setCsrfRefresh } from './api.js';

let me = null;
const listeners = new Set();

function set(next) {
  const before = me?.username;
  me = next && next.username ? next : null;
  setCsrf(me?.csrf);
  // Only a change of person redraws pages (not a new CSRF token or rating).
  if (before !== me?.username) for (const f of listeners) f(me);
}

/** The signed-in player ({username, ratings}) or null. */
export const currentUser = () => me;

/** Calls f(user|null) whenever someone signs in or out. */
export function onAccountChange(f) { listeners.add(f); return () => listeners.delete(f); }

let loaded = false;
async function load() {
  try { set(await api.me()); } catch (e) {
    // A lost connection does not sign anyone out; the server's 401 does.
    if (e.status === 401 || !loaded) set(null);
  }
  loaded = true;
  return me;
}

/** Resolves once the page knows whether someone is signed in. */
export let accountReady = load();

setCsrfRefresh(() => load());

let synced = null;
/** Lists the account's games (GET /account/games) among this browser's,
 * so a game started on another device resumes here (its page asks for this
 * device's seat tokens). Once per page load unless `force`. */
export function syncMyGames(force = false) {
  if (!me) return Promise.resolve([]);
  if (!synced || force) {
    synced = api.myGames().then((r) => {
      seats.merge(r.games || []);
      return r.games || [];
    }).catch(() => { synced = null; return []; });
  }
  return synced;
}

/** Re-reads the session (after another tab signed in or out, say). */
export function reloadAccount() { accountReady = load(); return accountReady; }

export async function signIn(username, password) {
  set(await api.signIn(username, password));
  syncMyGames(true);
  return me;
}

export async function signUp(username, password) {
  set(await api.signUp(username, password));
  return me;
}

/** Signs out; the account's seats are forgotten on this device too, so
 * the next person at a shared computer cannot play its games. */
export async function signOut() {
  const mine = await api.myGames().then((r) => r.games || []).catch(() => []);
  try { await api.signOut(); } finally {
    seats.forget(mine.map((g) => g.id));
    synced = null;
    set(null);
  }
}

export async function deleteAccount(password) {
  await api.deleteAccount(password);
  synced = null;
  set(null);
}

/** Updates the ratings shown in the header after a rated game. */
export async function refreshRatings() { if (me) await load(); }

// ---- ratings shown beside names ------------------------------------------

/** The rating class of a time control, as the server rates it: a per-move
 * limit; a clock whose initial time plus 40 increments is under ten
 * minutes (fast); anything longer, or no clock (slow). For display only: the
 * server decides. */
export function ratingClass(tc) {
  if (tc?.per_move_ms) return 'per_move';
  if (tc?.days_per_move) return 'correspondence';
  if (tc?.initial_ms != null && tc.initial_ms + 40 * (tc.increment_ms || 0) < 600000) return 'fast';
  return 'slow';
}

/** "1500" or "1500?" (provisional) from {rating, provisional}. */
export function ratingText(r) {
  if (!r || r.rating == null) return '';
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** The signed-in player's rating in a class ({rating, provisional}) or null. */
export function myRating(cls) {
  return me?.ratings?.find((r) => r.class === cls) || null;
}
