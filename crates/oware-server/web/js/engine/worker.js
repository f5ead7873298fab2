// The engine's Web Worker: the WebAssembly module (wasm.js) off the page's
// thread, so the board never freezes while it thinks.
//
// In:  {type: 'init', flag}        flag: Int32Array over a SharedArrayBuffer, or null
//                                  (and `module`, a build's address, to load that one;
//                                  `threads`, how many the threads build runs)
//      {type: 'tables'}            load the server's endgame tables (once)
//      {type: 'call', id, request} one request of the module's API (docs/WEB.md)
// Out: {type: 'ready', version, module, threads} | {type: 'failed', message}
//                                  (module: the build's address; threads:
//                                  how many its searches run on)
//      {type: 'tables', seeds, server}  the endgame tables loaded (after
//                                  ready, once the page asked; seeds: null
//                                  when none), and how far the server's go
//      {type: 'info', id, info}    each completed iteration of a search
//      {type: 'answer', id, answer}
//
// Stopping: the page writes the id of the request to stop into flag[0];
// the search reads it every 1,024 nodes (`should_stop`), so it stops within
// a few milliseconds. Without shared memory (a page that is not
// cross-origin isolated) the page terminates the worker instead (client.js).
//
// Threads: where the page is cross-origin isolated and WebAssembly runs
// threads (`hasThreads`), the worker loads the threads build and starts
// helper workers (helper.js) over its shared memory, one per extra thread:
// up to `navigator.hardwareConcurrency`, at most MAX_THREADS in all (or
// `threads` in the init message). A build that fails to load gives way to
// the next one (threads, SIMD, plain), so a page still gets an engine.
import { OwareWasm, moduleUrl, hasSimd, THREADS_MODULE, SIMD_MODULE, PLAIN_MODULE } from './wasm.js';

const HELPER_URL = '/js/engine/helper.js';
const MAX_THREADS = 4;

let engine = null;
let flag = null;
let current = 0;

// The server's endgame tables, 0..=n seeds (n at most 12, 2.7 MB), loaded
// when the page first needs the engine (its first request, or the coach),
// never while the page is still loading: a first visit spends its bytes on
// a playable board (e2e/tests/offline.test.mjs measures it). Requests that
// arrive meanwhile are answered without them; the page waits for this
// message before it asks for the coach (client.js), whose answers must
// equal the server's.
async function loadTables() {
  let server = null;
  let index;
  try {
    index = await (await fetch('/api/v1/tables')).json();
  } catch (e) {
    return { seeds: null, server: null, reachable: false };
  }
  try {
    server = index.server_max_seeds ?? null;
    const n = index.browser_max_seeds;
    if (n === null || n === undefined) return { seeds: null, server, reachable: true };
    const files = await Promise.all(Array.from({ length: n + 1 }, async (_, i) => {
      const r = await fetch(`/tables/oware-tb-${String(i).padStart(2, '0')}.otb`);
      if (!r.ok) throw new Error(`table ${i}: HTTP ${r.status}`);
      return new Uint8Array(await r.arrayBuffer());
    }));
    for (const f of files) engine.addTable(f);
    const r = engine.call({ op: 'tables' });
    if (!r.ok) return { seeds: null, server, reachable: true, message: r.message };
    return { seeds: r.max_seeds, server, reachable: true };
  } catch (e) {
    return { seeds: null, server, reachable: true, message: String(e?.message || e) };
  }
}

// One helper worker, resolved once it runs the engine's helper loop.
function startHelper(message) {
  return new Promise((resolve, reject) => {
    const w = new Worker(HELPER_URL, { type: 'module' });
    w.onmessage = (e) => (e.data?.type === 'running' ? resolve(w) : reject(new Error(e.data?.message)));
    w.onerror = (e) => reject(new Error(e.message || 'the helper worker failed'));
    w.postMessage(message);
  });
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'init') {
    flag = msg.flag || null;
    // The build this browser runs best, then the ones after it, or the one
    // `msg.module` names (the measurements of e2e/bench-chromium.mjs).
    const first = msg.module || moduleUrl();
    const order = msg.module ? [first] : [...new Set([first, hasSimd() ? SIMD_MODULE : PLAIN_MODULE, PLAIN_MODULE])];
    let failure = null;
    for (const url of order) {
      try {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        const bytes = await response.arrayBuffer();
        engine = await OwareWasm.instantiate(bytes, {
          // The flag holds the id of the request to stop, so a stop meant
          // for a finished request never stops the next one.
          shouldStop: () => flag !== null && Atomics.load(flag, 0) === current,
          onInfo: (info) => self.postMessage({ type: 'info', id: current, info }),
        });
        let threads = 1;
        if (url === THREADS_MODULE) {
          const want = msg.threads || Math.min(navigator.hardwareConcurrency || 1, MAX_THREADS);
          threads = await engine.startHelpers(want - 1, startHelper);
        }
        self.postMessage({ type: 'ready', version: engine.call({ op: 'version' }), module: url, threads });
        return;
      } catch (e) {
        engine = null;
        failure = failure || String(e?.message || e);
      }
    }
    self.postMessage({ type: 'failed', message: failure });
    return;
  }
  if (msg.type === 'tables') {
    // The page sends this once, after 'ready' (client.js).
    if (engine) self.postMessage({ type: 'tables', ...(await loadTables()) });
    return;
  }
  if (msg.type === 'call') {
    current = msg.id;
    let answer;
    try {
      answer = engine ? engine.call(msg.request) : { ok: false, code: 'not_ready', message: 'the engine is not loaded' };
    } catch (e) {
      // A trap (a bug in the module): the module's state is lost, so the
      // page starts a new worker.
      answer = { ok: false, code: 'crashed', message: String(e?.message || e) };
    }
    self.postMessage({ type: 'answer', id: msg.id, answer });
  }
};
