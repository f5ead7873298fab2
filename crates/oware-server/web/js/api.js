// Thin client for the /api/v1 protocol (docs/PROTOCOL.md).

export class ApiError extends Error {
  constructor(status, code, message, rule, reason) {
    super(message);
    this.status = status;
    this.code = code;
    this.rule = rule || null;
    this.reason = reason || null;
  }
}

/** A refusal as an ApiError: the server's `error` object (with the HTTP
 * status) or the browser module's `{ok: false}` answer (status 0). Both
 * come from one definition (oware_session::wire::Refusal): the same
 * `code`, `reason`, `rule`, and `line`/`column` for a record's error. */
export function refusal(err, status = 0) {
  const e = new ApiError(status, err.code, err.message || err.code, err.rule, err.reason);
  if (err.line) { e.line = err.line; e.column = err.column || null; }
  return e;
}

// The signed-in session's CSRF token: every state-changing request carries
// it (X-CSRF-Token) once it is known; the session cookie itself is HttpOnly.
let csrf = null;
export function setCsrf(token) { csrf = token || null; }
let onCsrfStale = null;
/** fn() re-reads the session (GET /account) after a `bad_csrf` refusal:
 * another tab may have signed in again, which changes the token. */
export function setCsrfRefresh(fn) { onCsrfStale = fn; }

async function call(method, path, body, opts = {}) {
  try {
    return await call1(method, path, body, opts);
  } catch (e) {
    if (e.code === 'bad_csrf' && onCsrfStale && !opts.retried) {
      await onCsrfStale();
      return call1(method, path, body, { ...opts, retried: true });
    }
    throw e;
  }
}

async function call1(method, path, body, { text = false, empty = false } = {}) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (method !== 'GET' && csrf) init.headers['X-CSRF-Token'] = csrf;
  if (body !== undefined) {
    if (typeof body === 'string') {
      init.headers['Content-Type'] = 'text/plain';
      init.body = body;
    } else {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
  }
  let res;
  try {
    res = await fetch(`/api/v1${path}`, init);
  } catch (e) {
    throw new ApiError(0, 'network', 'network');
  }
  if (!res.ok) {
    let err = null;
    try { err = (await res.json()).error; } catch (_) { /* not JSON */ }
    const e = refusal(err || { code: 'http', message: `HTTP ${res.status}` }, res.status);
    // How long a rate limit lasts (seconds), to say it in words.
    const wait = Number(res.headers.get('Retry-After'));
    if (Number.isFinite(wait) && wait > 0) e.retryAfter = wait;
    throw e;
  }
  if (empty || res.status === 204) return null;
  return text ? res.text() : res.json();
}

/** Moves as the protocol writes them ("FfB"), with lost turns dropped. */
export const movesString = (plies) => (plies || []).filter((m) => m !== '-').join('');

/** Chat messages asked for at a time. */
export const CHAT_PAGE = 50;

export const api = {
  rulesState: (position, moves) => call('POST', '/rules/state', { position: position || undefined, moves: moves || undefined }),
  rulesAgreement: (position, moves) => call('POST', '/rules/agreement', { position: position || undefined, moves: moves || undefined }),
  createGame: (opts) => call('POST', '/games', opts),
  getGame: (id) => call('GET', `/games/${encodeURIComponent(id)}`),
  listGames: (limit = 30, offset = 0) => call('GET', `/games?limit=${limit}&offset=${offset}`),
  lobby: () => call('GET', '/lobby'),
  watch: () => call('GET', '/watch'),
  tournaments: () => call('GET', '/tournaments'),
  tournament: (id) => call('GET', `/tournaments/${encodeURIComponent(id)}`),
  createTournament: (body) => call('POST', '/tournaments', body),
  /** 'join' (or come back), 'pause' or 'leave'. */
  tournamentAction: (id, action) => call('POST', `/tournaments/${encodeURIComponent(id)}/${action}`, {}),
  join: (id, invite, name) => call('POST', `/games/${encodeURIComponent(id)}/join`, { invite: invite || undefined, name: name || undefined }),
  move: (id, token, move, ply) => call('POST', `/games/${encodeURIComponent(id)}/moves`, { token, move, ply }),
  /** The computer's move, found by this browser's engine (untimed computer games). */
  computerMove: (id, token, move, ply) => call('POST', `/games/${encodeURIComponent(id)}/moves`, { token, move, ply, computer: true }),
  /** Which engine plays the computer's moves: 'browser' or 'server'. */
  chooseEngine: (id, token, engine) => call('POST', `/games/${encodeURIComponent(id)}/engine`, { token, engine }),
  undo: (id, token) => call('POST', `/games/${encodeURIComponent(id)}/undo`, { token }),
  resign: (id, token) => call('POST', `/games/${encodeURIComponent(id)}/resign`, { token }),
  takeback: (id, token, action) => call('POST', `/games/${encodeURIComponent(id)}/takeback`, { token, action }),
  conditional: (id, token, ply, replies) => call('POST', `/games/${encodeURIComponent(id)}/conditional`, { token, ply, replies }),
  prepared: (id, token) => call('GET', `/games/${encodeURIComponent(id)}/conditional?token=${encodeURIComponent(token)}`),
  abort: (id, token) => call('POST', `/games/${encodeURIComponent(id)}/abort`, { token }),
  cancel: (id, token) => call('POST', `/games/${encodeURIComponent(id)}/cancel`, { token }),
  agreement: (id, token, action) => call('POST', `/games/${encodeURIComponent(id)}/agreement`, { token, action }),
  hint: (id, token, movetime_ms = 500) => call('POST', `/games/${encodeURIComponent(id)}/hint`, { token, movetime_ms }),
  rematch: (id, token) => call('POST', `/games/${encodeURIComponent(id)}/rematch`, { token }),
  /** A signed-in player's seats in their game, with tokens for this device. */
  claimSeats: (id) => call('POST', `/games/${encodeURIComponent(id)}/seat`, {}),
  ognUrl: (id) => `/api/v1/games/${encodeURIComponent(id)}/ogn`,
  ogn: (id) => call('GET', `/games/${encodeURIComponent(id)}/ogn`, undefined, { text: true }),
  importOgn: (text) => call('POST', '/games/import', { ogn: text }),
  review: (id, movetime_ms = 100, token) => call('GET', `/games/${encodeURIComponent(id)}/review?movetime_ms=${movetime_ms}${token ? `&token=${encodeURIComponent(token)}` : ''}`),
  puzzleNext: (rating, skip, lang) => call('GET', `/puzzles/next?rating=${encodeURIComponent(rating)}&skip=${(skip || []).join(',')}&lang=${lang}`),
  mistakes: (position, moves, side, lang, computer) => call('POST', '/mistakes', { position, moves, side, lang, computer: computer || undefined }),
  puzzleDaily: (lang) => call('GET', `/puzzles/daily?lang=${lang}`),
  puzzle: (id, lang) => call('GET', `/puzzles/${encodeURIComponent(id)}?lang=${lang}`),
  puzzleAttempt: (id, moves, lang) => call('POST', `/puzzles/${encodeURIComponent(id)}/attempt`, { moves, lang }),
  coach: (position, moves, move, lang, computer) => call('POST', '/coach', { position: position || undefined, moves: moves || undefined, move: move || undefined, lang, computer: computer || undefined }),
  analyze: (position, moves, movetime_ms = 1000) => call('POST', '/analyze', { position, moves: moves || undefined, movetime_ms }),
  gamesByIds: (ids) => call('GET', `/games?ids=${ids.map(encodeURIComponent).join(',')}`),
  /** A page of the chat: the latest `limit` messages, or those before the message `before`. */
  chat: (id, token, before = null, limit = CHAT_PAGE) => {
    const q = new URLSearchParams({ limit: String(limit) });
    if (token) q.set('token', token);
    if (before != null) q.set('before', String(before));
    return call('GET', `/games/${encodeURIComponent(id)}/chat?${q}`);
  },
  // Accounts (the session is the HttpOnly cookie the server sets).
  me: () => call('GET', '/account'),
  signUp: (username, password) => call('POST', '/account/signup', { username, password }),
  signIn: (username, password) => call('POST', '/account/signin', { username, password }),
  signOut: () => call('POST', '/account/signout', {}),
  changePassword: (old_password, new_password) => call('POST', '/account/password', { old_password, new_password }),
  /** The account's e-mail: {available, email?, verified, subscribed, lang?}. */
  email: () => call('GET', '/account/email'),
  setEmail: (email, password, lang) => call('POST', '/account/email', { email, password, lang }),
  removeEmail: () => call('POST', '/account/email/remove', {}),
  mailSubscription: (subscribed) => call('POST', '/account/email/subscription', { subscribed }),
  /** The links of mails: they work without a session. */
  verifyEmail: (token) => call('POST', '/email/verify', { token }),
  unsubscribe: (token) => call('POST', '/email/unsubscribe', { token }),
  askPasswordReset: (email) => call('POST', '/account/password-reset', { email }),
  resetPassword: (token, new_password) => call('POST', '/account/password-reset/confirm', { token, new_password }),
  deleteAccount: (password) => call('POST', '/account/delete', { password }),
  /** The account's games; `q` searches them ({opponent, result, mode, from, to}). */
  myGames: (q = {}) => {
    const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v));
    const qs = params.toString();
    return call('GET', `/account/games${qs ? `?${qs}` : ''}`);
  },
  /** A finished game played offline on this device, kept in the account (local.js). */
  offlineGame: (body) => call('POST', '/account/offline-games', body),
  player: (name) => call('GET', `/players/${encodeURIComponent(name)}`),
  relations: () => call('GET', '/account/relations'),
  follow: (name, on) => call('POST', `/players/${encodeURIComponent(name)}/follow`, { on }),
  block: (name, on) => call('POST', `/players/${encodeURIComponent(name)}/block`, { on }),
  report: (name, reason, details) => call('POST', `/players/${encodeURIComponent(name)}/report`, { reason, details }),
  notifications: (before, limit = 20) => call('GET', `/account/notifications?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`),
  markRead: (body) => call('POST', '/account/notifications/read', body),
  challenge: (name, body) => call('POST', `/players/${encodeURIComponent(name)}/challenge`, body),
  challenges: () => call('GET', '/challenges'),
  acceptChallenge: (id) => call('POST', `/challenges/${encodeURIComponent(id)}/accept`, {}),
  declineChallenge: (id) => call('POST', `/challenges/${encodeURIComponent(id)}/decline`, {}),
  cancelChallenge: (id) => call('POST', `/challenges/${encodeURIComponent(id)}/cancel`, {}),
  ratings: (cls, limit = 50) => call('GET', `/ratings/${encodeURIComponent(cls)}?limit=${limit}&provisional=true`),
};

// Seat tokens live in localStorage under the game id, so a reload keeps the seat.
const KEY = (id) => `oware.seats.${id}`;
export const seats = {
  get(id) {
    try { return JSON.parse(localStorage.getItem(KEY(id))) || {}; } catch (_) { return {}; }
  },
  add(id, tokens) {
    const cur = seats.get(id);
    localStorage.setItem(KEY(id), JSON.stringify({ ...cur, ...tokens }));
    const mine = seats.ids().filter((x) => x !== id);
    localStorage.setItem('oware.mine', JSON.stringify([id, ...mine].slice(0, 100)));
  },
  /** Games from the account (GET /account/games, which lists the seats
   * the account holds but no token: the server keeps only their hashes, and
   * the game page asks for this device's own with claimSeats). Games new to
   * this browser go first, in the server's order (ongoing first); the order
   * of the games it already knows is kept. */
  merge(list) {
    const known = seats.ids();
    const fresh = [];
    for (const { id, mine } of list) {
      if (!mine || !mine.length) continue;
      if (!known.includes(id)) fresh.push(id);
    }
    localStorage.setItem('oware.mine', JSON.stringify([...fresh, ...known].slice(0, 100)));
  },
  forget(list) {
    for (const id of list) localStorage.removeItem(KEY(id));
    localStorage.setItem('oware.mine', JSON.stringify(seats.ids().filter((x) => !list.includes(x))));
  },
  /** The games this browser holds a seat in, most recently joined first. */
  ids() {
    let ids = [];
    try { ids = JSON.parse(localStorage.getItem('oware.mine')) || []; } catch (_) { /* start afresh */ }
    // Seats stored before the index existed.
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k.startsWith('oware.seats.') && !ids.includes(k.slice(12))) ids.push(k.slice(12));
    }
    return ids;
  },
};

/**
 * One game's WebSocket, reconnecting with backoff. Calls onEvent(msg) for
 * each server event and onStatus('open'|'closed') on changes. sinceFn()
 * gives the last ply the page has seen, sent as `hello` after a reconnect.
 */
export class GameSocket {
  constructor(id, token, { onEvent, onStatus, sinceFn }) {
    this.id = id;
    this.token = token;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.sinceFn = sinceFn;
    this.closedByUs = false;
    this.delay = 500;
    this.opens = 0;
    this.connect();
    this.pinger = setInterval(() => this.send({ type: 'ping' }), 25000);
    // The browser knows when the network goes (a phone leaving Wi-Fi) long
    // before a dead TCP connection times out: drop the socket at once, and
    // retry as soon as the network is back.
    this.onOffline = () => { try { this.ws?.close(); } catch (_) { /* closing */ } };
    this.onOnline = () => {
      if (this.closedByUs || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
      this.delay = 500;
      this.connect();
    };
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
  }
  connect() {
    clearTimeout(this.retry);
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    const ws = new WebSocket(`${proto}://${location.host}/api/v1/games/${encodeURIComponent(this.id)}/ws${q}`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.opens += 1;
      this.onStatus?.('open');
      this.send({ type: 'hello', since: this.sinceFn() });
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (_) { return; }
      this.onEvent(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.onStatus?.('closed');
      if (this.closedByUs) return;
      // 1012: the server node is restarting; another node takes us at once
      // (spread over a quarter second so that its clients do not all
      // arrive together).
      const wait = e.code === 1012 ? Math.random() * 250 : this.delay;
      this.retry = setTimeout(() => { if (!this.closedByUs) this.connect(); }, wait);
      if (e.code !== 1012) this.delay = Math.min(this.delay * 2, 8000);
    };
  }
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }
  close() {
    this.closedByUs = true;
    clearInterval(this.pinger);
    clearTimeout(this.retry);
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    // A closed socket says nothing more: its late close event must not
    // reach a page that has moved on to a new socket.
    const ws = this.ws;
    ws.onopen = ws.onmessage = ws.onclose = null;
    this.onEvent = () => {};
    this.onStatus = null;
    try { ws.close(); } catch (_) { /* already closed */ }
  }
}
