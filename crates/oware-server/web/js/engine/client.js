// The page's handle on the browser engine: one Web Worker (worker.js)
// running the WebAssembly module, requests answered in order, and a stop
// that answers within 50 ms.
//
//   import { browserEngine } from './engine/client.js';
//   const eng = browserEngine();            // null when this browser cannot
//   const a = await eng.request({ op: 'analyse', game: { start, moves } });
//   eng.stop();                              // the running request answers now
//
// The stop: on a cross-origin isolated page (the server sends COOP and
// COEP, security.rs) the worker shares an Int32Array with the page, whose
// value the search reads every 1,024 nodes; the search ends with its best
// move so far. Elsewhere the worker is terminated and a new one started,
// and the request answers {ok: false, code: 'stopped', last} with the last
// completed iteration. docs/WEB.md, "The engine in the browser".

import { ApiError } from '../api.js';

const WORKER_URL = '/js/engine/worker.js';

class BrowserEngine {
  constructor() {
    this.nextId = 1;
    this.pending = new Map();
    this.shared = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true;
    this.flag = this.shared ? new Int32Array(new SharedArrayBuffer(4)) : null;
    this.start();
  }

  start() {
    this.worker = new Worker(WORKER_URL, { type: 'module' });
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.ready.catch(() => {});
    this.tables = new Promise((resolve) => { this.tablesResolve = resolve; });
    this.tablesAsked = false;
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => this.fail(e.message || 'the engine worker failed');
    this.worker.postMessage({ type: 'init', flag: this.flag });
  }

  /** Asks the worker for the endgame tables, once per worker, after its
   * module is in: at the engine's first request or the coach's first
   * question, never while a page is still loading (worker.js). */
  wantTables() {
    if (this.tablesAsked) return;
    this.tablesAsked = true;
    this.ready.then(() => this.worker.postMessage({ type: 'tables' }), () => {});
  }

  receive(msg) {
    if (msg.type === 'ready') { this.version = msg.version; this.module = msg.module; this.threads = msg.threads; this.readyResolve(msg.version); return; }
    if (msg.type === 'failed') { this.fail(msg.message); this.tablesResolve({ seeds: null, server: null, reachable: true }); return; }
    if (msg.type === 'tables') { this.tablesResolve(msg); return; }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'info') { p.last = msg.info; p.onInfo?.(msg.info); return; }
    if (msg.type === 'answer') {
      this.pending.delete(msg.id);
      if (msg.answer?.code === 'crashed') this.restart();
      p.resolve(msg.answer);
    }
  }

  fail(message) {
    this.broken = message;
    this.readyReject(new Error(message));
    for (const [, p] of this.pending) p.resolve({ ok: false, code: 'unavailable', message });
    this.pending.clear();
  }

  restart() {
    const asked = this.tablesAsked;
    this.worker.terminate();
    this.start();
    if (asked) this.wantTables();
  }

  /** Sends a request; resolves to the module's answer. */
  async request(request, { onInfo } = {}) {
    this.wantTables();
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onInfo, last: null });
      this.worker.postMessage({ type: 'call', id, request });
    });
  }

  /** Stops every request sent so far: the running one answers at once. */
  stop() {
    if (!this.pending.size) return;
    if (this.flag) {
      // The running request is the oldest pending one.
      Atomics.store(this.flag, 0, Math.min(...this.pending.keys()));
      return;
    }
    const stopped = [...this.pending.values()];
    this.pending.clear();
    this.restart();
    for (const p of stopped) p.resolve({ ok: false, code: 'stopped', message: 'stopped', last: p.last });
  }
}

let instance;

/** The browser engine, started at the first call; null when this browser
 * has no WebAssembly or no module workers (the server's engine is then the
 * only one). */
export function browserEngine() {
  if (instance !== undefined) return instance;
  const ok = typeof WebAssembly === 'object' && typeof Worker === 'function';
  instance = ok ? new BrowserEngine() : null;
  return instance;
}

/** Resolves to the browser engine when its coach answers exactly as the
 * server's would: the module loaded and the same endgame tables as the
 * server's (the same depth and a cleared table of the same size do the
 * rest). With `anyTables` (the server cannot be reached, so the browser is
 * the only coach there is) it answers with the tables it has. Otherwise
 * null: ask the server. */
export async function coachEngine({ anyTables = false } = {}) {
  const eng = await readyEngine();
  if (!eng) return null;
  eng.wantTables();
  const t = await eng.tables;
  if (anyTables || !t.reachable) return eng;
  return t.seeds === t.server ? eng : null;
}

/** The coach's analysis of a game (start position or null, moves) from
 * the browser engine, in the shape of the server's POST /api/v1/coach
 * answer plus `engine: 'browser'`; null when the browser cannot give the
 * server's answer (then ask the server). */
export async function browserCoach(position, moves, lang, computer, { anyTables = false } = {}) {
  const eng = await coachEngine({ anyTables });
  if (!eng) return null;
  const r = await eng.request({
    op: 'analyse',
    game: { start: position || undefined, moves: moves || '' },
    lang,
    computer: computer || undefined,
  });
  if (!r.ok) return null;
  const { ok, ...analysis } = r;
  return { ...analysis, engine: 'browser' };
}

/** The coach's analysis, from the one place that decides who gives it:
 * the browser's engine when it answers as the server would; else the
 * server (`askServer()`, a promise of its POST /coach answer); and when the
 * server cannot be reached (offline: the service worker may still answer
 * the tables' index from its copy, so the tables check alone cannot tell),
 * the browser's engine with the tables it has. */
export async function coachAnywhere(position, moves, lang, computer, askServer) {
  const exact = await browserCoach(position, moves, lang, computer).catch(() => null);
  if (exact) return exact;
  let unreachable = new ApiError(0, 'network', 'network');
  if (typeof navigator === 'undefined' || navigator.onLine !== false) {
    try {
      return await askServer();
    } catch (e) {
      if (e?.code !== 'network') throw e;
      unreachable = e;
    }
  }
  const any = await browserCoach(position, moves, lang, computer, { anyTables: true }).catch(() => null);
  if (any) return any;
  throw unreachable;
}

/** Resolves to the browser engine once it is loaded, or null when it
 * cannot run here (no WebAssembly, the module failed to load). */
export async function readyEngine() {
  const eng = browserEngine();
  if (!eng) return null;
  try {
    await eng.ready;
    return eng;
  } catch {
    return null;
  }
}

/** Resolves once the browser engine, if this page started it, has its
 * module (or failed to load it); at once when it was never started. */
export async function engineSettled() {
  if (!instance) return;
  try { await instance.ready; } catch { /* the page falls back to the server */ }
}
