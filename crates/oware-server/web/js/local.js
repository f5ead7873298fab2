// Games played on this device without the server: untimed games against
// the computer and two players on one device, when the network is cut
// (docs/WEB.md, "Offline and installable").
//
// The referee is the rules core itself, in the WebAssembly module (its
// `replay` and `take_back` requests): nothing here knows a rule. The page
// (pages/game.js) talks to `localApi` as it talks to the server's API, and
// gets games in the shape of the server's game view (`GameView`), so the
// board, the move list, take-back and the result card are the same code.
//
// A game is kept in IndexedDB (database `oware`, store `games`) after every
// change, finished or not, so an unfinished one resumes after a reload. Its
// record: {id, mode, level, human, names, start, moves, action, offer,
// created_at, updated_at, finished_at, uploaded, refused}, where `moves` is the plies played
// ("FfA") and `action` what ended the game off the board (`agree`,
// `resign S`), as the module's `replay` takes them.

import { api, ApiError, refusal } from './api.js';
import { readyEngine } from './engine/client.js';

const PREFIX = 'local-';
const DB = 'oware';
const STORE = 'games';

/** A game played on this device (its id starts with `local-`). */
export const isLocal = (id) => typeof id === 'string' && id.startsWith(PREFIX);

/** The browser is offline (as far as it knows). */
export const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** The server's answer (`server()`), or this device's (`here()`) when the
 * browser is offline or the server cannot be reached (an `ApiError` with
 * the code `network`: the browser may believe it is online). */
export async function serverOrHere(server, here) {
  if (offline()) return here();
  try {
    return await server();
  } catch (e) {
    if (e?.code !== 'network') throw e;
    return here();
  }
}

let dbPromise = null;
function db() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => {
        const d = req.result;
        if (!d.objectStoreNames.contains(STORE)) d.createObjectStore(STORE, { keyPath: 'id' });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    dbPromise.catch(() => { dbPromise = null; });
  }
  return dbPromise;
}

function tx(mode, f) {
  return db().then((d) => new Promise((resolve, reject) => {
    const t = d.transaction(STORE, mode);
    const req = f(t.objectStore(STORE));
    t.oncomplete = () => resolve(req?.result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error);
  }));
}

/** The kept games: get one, put one, list them (newest first). */
export const localStore = {
  get: (id) => tx('readonly', (s) => s.get(id)),
  put: (record) => tx('readwrite', (s) => s.put(record)),
  async all() {
    const list = (await tx('readonly', (s) => s.getAll())) || [];
    return list.sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1));
  },
};

async function engine() {
  const eng = await readyEngine();
  if (!eng) throw new ApiError(0, 'no_engine', 'the browser engine cannot run here');
  return eng;
}

async function ask(request) {
  const r = await (await engine()).request(request);
  if (!r.ok) throw refusal(r);
  return r;
}

const now = () => new Date().toISOString();

/** A new id: random, so two devices never make the same one (it is also
 * the key that keeps an uploaded game from being stored twice). */
function newId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return PREFIX + [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The module's answer to a replay without its own extras: the rules
 * state, as POST /api/v1/rules/state answers it (one definition,
 * oware_session::wire::RulesState; tests/one_vocabulary.rs). */
function rulesStateOf(r) {
  const { ok: _ok, over_at: _overAt, checks: _checks, ...state } = r;
  return state;
}

/** A position after moves, as POST /api/v1/rules/state answers it, from
 * the module: the rules core without the server. */
export async function localRulesState(start, moves = '', action = undefined) {
  return rulesStateOf(await ask({ op: 'replay', game: { start: start || 'start', moves }, action }));
}

/** The engine's review of a game kept here (`GET /games/{id}/review`'s
 * shape): oware-session's review, run by the browser's module: each move
 * judged by the coach's analysis of its position, as the server's. */
export async function localReview(id) {
  const rec = await load(id);
  const r = await ask({ op: 'review', game: { start: rec.start, moves: rec.moves } });
  return { id, depth: r.depth, plies: r.plies, engine: 'browser' };
}

/** A local game's seat `side` ('S' or 'N'), as the server's game view has it. */
function seatOf(rec, side) {
  return rec.mode === 'computer' && rec.human !== side
    ? { kind: 'computer', name: `Computer ${rec.level}`, taken: true, connected: true, account: false }
    : { kind: 'human', name: rec.names?.[side] || 'Player', taken: true, connected: true, account: false };
}

/** The game as an OGN record, written by the module with the core's
 * writer (the server's records come from the same one): the download of
 * a game kept on this device. */
export async function localOgn(id) {
  const rec = await load(id);
  const made = new Date(rec.created_at);
  const date = Number.isNaN(made.getTime()) ? undefined : made.toISOString().slice(0, 10).replace(/-/g, '.');
  const r = await ask({
    op: 'ogn',
    game: { start: rec.start, moves: rec.moves },
    action: rec.action || undefined,
    south: seatOf(rec, 'S').name,
    north: seatOf(rec, 'N').name,
    date,
    event: `oware, ${rec.mode} game`,
  });
  return r.text;
}

/** Makes `link` (an `<a download>`) download the record `makeText()`
 * resolves to, once it is written; until then, and if writing fails, the
 * link stays disabled. */
export function ognDownload(link, makeText) {
  link.setAttribute('aria-disabled', 'true');
  link.addEventListener('click', (e) => { if (link.getAttribute('aria-disabled') === 'true') e.preventDefault(); });
  makeText().then((text) => {
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-ogn;charset=utf-8' }));
    link.removeAttribute('aria-disabled');
  }).catch(() => {});
  return link;
}

/** The game as the server's game view: the module's rules state (the
 * fields the server's view carries, from the same definition) and this
 * device's record of who plays. */
async function view(rec) {
  const state = rulesStateOf(await ask({ op: 'replay', game: { start: rec.start, moves: rec.moves }, action: rec.action || undefined }));
  const { moves: _moves, explained: _explained, ...play } = state;
  return {
    ...play,
    id: rec.id,
    local: true,
    // Why the account refused it, if it did (`code.reason`).
    refused: rec.refused || null,
    // The account's copy once sent (its id: a link others can open).
    uploaded: rec.uploaded || null,
    imported: !!rec.imported,
    mode: rec.mode,
    level: rec.mode === 'computer' ? rec.level : null,
    level_name: null,
    public: false,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
    seats: { S: seatOf(rec, 'S'), N: seatOf(rec, 'N') },
    time_control: null,
    rated: false,
    clock: null,
    offer: state.status === 'over' ? null : rec.offer || null,
    thinking: false,
    engine: 'browser',
    rematch: null,
  };
}

async function load(id) {
  const rec = await localStore.get(id);
  if (!rec) throw new ApiError(404, 'not_found', `no game ${id} on this device`);
  return rec;
}

async function save(rec) {
  rec.updated_at = now();
  const g = await view(rec);
  if (g.status === 'over' && !rec.finished_at) rec.finished_at = rec.updated_at;
  if (g.status !== 'over') rec.finished_at = null;
  await localStore.put(rec);
  return g;
}

/** The seat tokens of a local game: this device holds the human seats. */
export function localTokens(game) {
  const t = {};
  for (const side of ['S', 'N']) if (game.seats[side].kind === 'human') t[side] = `local-${side}`;
  return t;
}

const sideOfToken = (token) => (token === 'local-S' ? 'S' : token === 'local-N' ? 'N' : null);

/** Creates a game on this device: {mode: 'computer'|'hotseat', level,
 * side: 'S'|'N'|'random', name, position}. Answers as POST /games does
 * ({id, you, tokens, game}); timed games need the server. */
export async function createLocalGame(opts) {
  if (opts.time_control) throw new ApiError(400, 'offline_timed', 'timed games need the network');
  const pos = await ask({ op: 'position', text: opts.position || 'start' });
  let human = null;
  if (opts.mode === 'computer') {
    human = opts.side === 'N' ? 'N' : opts.side === 'random' ? (Math.random() < 0.5 ? 'S' : 'N') : 'S';
  }
  const names = {};
  if (opts.name) {
    if (human) names[human] = opts.name; else names.S = opts.name;
  }
  const rec = {
    id: newId(),
    mode: opts.mode === 'hotseat' ? 'hotseat' : 'computer',
    level: opts.mode === 'computer' ? Math.min(10, Math.max(1, Number(opts.level) || 3)) : null,
    human,
    names,
    start: pos.position,
    moves: '',
    action: null,
    offer: null,
    created_at: now(),
    updated_at: now(),
    finished_at: null,
  };
  const game = await save(rec);
  const tokens = localTokens(game);
  return { id: rec.id, you: human || 'S', tokens, game };
}

/** An OGN record kept on this device as a two-player game, when the
 * server cannot take it (POST /games/import offline): read by the module
 * with the core's reader, so it is refused (code, reason, line, column)
 * exactly as the server refuses it. Resolves to {id, tokens, game}. An
 * imported record is not sent to the account: it was not played here. */
export async function importLocalOgn(text) {
  const r = await ask({ op: 'read_ogn', text });
  const names = {};
  if (r.south) names.S = r.south;
  if (r.north) names.N = r.north;
  const rec = {
    id: newId(),
    mode: 'hotseat',
    level: null,
    human: null,
    names,
    start: r.start,
    moves: r.moves,
    action: r.action || null,
    offer: null,
    imported: true,
    created_at: now(),
    updated_at: now(),
    finished_at: null,
  };
  const game = await save(rec);
  return { id: rec.id, tokens: localTokens(game), game };
}

async function play(id, token, move, ply) {
  const rec = await load(id);
  const g = await view(rec);
  if (g.status !== 'playing') throw new ApiError(409, 'game_over', 'the game is over');
  if (ply !== undefined && ply !== g.ply) throw new ApiError(409, 'stale_ply', 'the game moved on');
  // The module judges the move as the server does (code, detail, rule).
  await ask({ op: 'replay', game: { start: rec.start, moves: rec.moves + move } });
  rec.moves += move;
  rec.offer = null;
  return { game: await save(rec) };
}

/** The page's API for local games: the calls of pages/game.js, answered
 * here in the server's shapes. */
export const localApi = {
  getGame: async (id) => view(await load(id)),
  move: play,
  computerMove: play,
  async undo(id) {
    const rec = await load(id);
    const r = await ask({
      op: 'take_back',
      game: { start: rec.start, moves: rec.moves },
      action: rec.action || undefined,
      side: rec.mode === 'computer' ? rec.human : undefined,
    });
    if (r.reopen) rec.action = null;
    else rec.moves = rec.moves.slice(0, rec.moves.length - r.plies);
    rec.offer = null;
    return { game: await save(rec) };
  },
  async resign(id, token) {
    const rec = await load(id);
    const g = await view(rec);
    const side = sideOfToken(token) || g.to_move;
    rec.action = `resign ${side}`;
    return { game: await save(rec) };
  },
  /** An offer to stop (R12): in a hot-seat game the page sends the offer
   * and the acceptance; the computer answers as the server's does (it
   * accepts when its engine judges the position no better than a draw
   * for itself, after a 300 ms search). */
  async agreement(id, token, action) {
    const rec = await load(id);
    const g = await view(rec);
    const side = sideOfToken(token);
    if (action === 'decline') { rec.offer = null; return { game: await save(rec) }; }
    if (action === 'accept') {
      if (!rec.offer || rec.offer === side) throw new ApiError(400, 'not_allowed', 'no offer to accept');
      await ask({ op: 'replay', game: { start: rec.start, moves: rec.moves }, action: 'agree' });
      rec.action = 'agree';
      rec.offer = null;
      return { game: await save(rec) };
    }
    if (rec.mode === 'computer') {
      const computer = rec.human === 'S' ? 'N' : 'S';
      const r = await ask({ op: 'search', game: { start: rec.start, moves: rec.moves }, movetime_ms: 300 });
      const cp = r.score?.cp ?? 0;
      const forComputer = g.to_move === computer ? cp : -cp;
      if (forComputer <= 0) rec.action = 'agree';
      return { game: await save(rec) };
    }
    rec.offer = side || g.to_move;
    return { game: await save(rec) };
  },
  /** A new game with the same settings (hot-seat rematch, computer's play again). */
  async rematch(id) {
    const rec = await load(id);
    const r = await createLocalGame({ mode: rec.mode, level: rec.level, side: rec.human || 'S', name: rec.names?.[rec.human || 'S'] });
    return { id: r.id, you: r.you, token: r.tokens[r.you], tokens: r.tokens };
  },
};

/** The upload of a finished game (POST /api/v1/account/offline-games). */
export function uploadBody(rec) {
  return {
    client_id: rec.id.slice(PREFIX.length),
    mode: rec.mode,
    level: rec.mode === 'computer' ? rec.level : undefined,
    side: rec.mode === 'computer' ? rec.human : undefined,
    position: rec.start,
    moves: rec.moves,
    end: rec.action || undefined,
  };
}

let syncing = null;
/** Sends this device's finished games, not sent yet, to the signed-in
 * player's account as unrated games; the server keeps each once, so a
 * game sent again (another tab, a lost answer) is not stored twice. A
 * game the server refuses is marked with its code and not sent again.
 * Resolves to the number of games the account holds from this device now. */
export function syncOfflineGames(signedIn) {
  if (!signedIn || offline() || typeof indexedDB === 'undefined') return Promise.resolve(0);
  if (syncing) return syncing;
  syncing = (async () => {
    let sent = 0;
    for (const rec of await localStore.all()) {
      if (!rec.finished_at || rec.uploaded || rec.refused || rec.imported) continue;
      try {
        // eslint-disable-next-line no-await-in-loop
        const r = await api.offlineGame(uploadBody(rec));
        rec.uploaded = r.id;
        sent += 1;
      } catch (e) {
        // The network or the server's load: try again later.
        if (e.code === 'network' || e.code === 'rate_limited' || e.code === 'not_signed_in' || e.status >= 500) break;
        rec.refused = e.reason ? `${e.code}.${e.reason}` : e.code;
      }
      // eslint-disable-next-line no-await-in-loop
      await localStore.put(rec);
    }
    return sent;
  })().finally(() => { syncing = null; });
  return syncing;
}
