// The service worker: the app offline (docs/WEB.md, "Offline and
// installable").
//
// - At install it keeps the app shell (SHELL: the page, its style sheet,
//   every script, the WebAssembly module this browser runs (of the
//   threads, the SIMD and the plain build), the lessons, the icons), and then,
//   without holding the install up, the endgame tables the server offers the
//   browser (GET /api/v1/tables: up to 12 seeds, 2.7 MB).
// - The shell and the tables' index: network first (so a new version
//   arrives at once when online; the files are revalidated by their ETag),
//   the kept copy when the network fails. A page of the app (/game/…,
//   /learn, …) falls back to the kept page, which draws it. Only the app's
//   own page is kept as that page: a navigation to anything else (an API
//   answer such as a game's record or the account's export, a download, a
//   file) goes to the network untouched, and an answer that is not the
//   app's HTML page is never kept (docs/SECURITY.md).
// - The tables: kept copy first (they change only with their format,
//   which changes VERSION).
// - Everything else (the API, the WebSocket) goes to the network untouched:
//   games, accounts and tokens are never kept here.
//
// Budget: the shell is about 1.25 MB (the module 0.87 MB of it) and the
// tables 2.7 MB, so a device keeps about 4 MB. `tests/server/pwa.rs` checks that
// SHELL names every file of web/ the app needs and nothing the server lacks.

const VERSION = 'oware-v1';

const SHELL = [
  '/',
  '/css/style.css',
  '/favicon.svg',
  '/manifest.webmanifest',
  '/icons/icon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/data/lessons.json',
  '/wasm/oware.wasm',
  '/wasm/oware-plain.wasm',
  '/wasm/oware-threads.wasm',
  '/js/account.js',
  '/js/aids.js',
  '/js/api.js',
  '/js/app.js',
  '/js/board.js',
  '/js/engine/client.js',
  '/js/engine/helper.js',
  '/js/engine/wasm.js',
  '/js/engine/worker.js',
  '/js/i18n.js',
  '/js/inbox.js',
  '/js/learn-content.js',
  '/js/local.js',
  '/js/moves.js',
  '/js/pages/account.js',
  '/js/pages/game.js',
  '/js/pages/home.js',
  '/js/pages/learn.js',
  '/js/pages/lobby.js',
  '/js/pages/mail.js',
  '/js/pages/mistakes.js',
  '/js/pages/notifications.js',
  '/js/pages/play.js',
  '/js/pages/player.js',
  '/js/pages/puzzles.js',
  '/js/pages/review.js',
  '/js/pages/study.js',
  '/js/pages/watch.js',
  '/js/pages/tournaments.js',
  '/js/rulesboard.js',
  '/js/sound.js',
  '/js/ui.js',
];

// The engine's three builds (js/engine/wasm.js): the install keeps only the
// one this browser loads: the threads build where this worker may share
// memory (cross-origin isolated, as the server's headers make the app) and
// `WebAssembly.validate` accepts THREADS_PROBE, else the SIMD one where it
// accepts SIMD_PROBE, else the plain one (copies of wasm.js's probes: a
// service worker is not a module here; e2e/wasm/engine.test.mjs checks the
// copies are equal).
const SIMD_MODULE = '/wasm/oware.wasm';
const PLAIN_MODULE = '/wasm/oware-plain.wasm';
const THREADS_MODULE = '/wasm/oware-threads.wasm';
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,
  0x03, 0x02, 0x01, 0x00,
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b,
]);
const THREADS_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f,
  0x03, 0x02, 0x01, 0x00,
  0x05, 0x04, 0x01, 0x03, 0x01, 0x01,
  0x0a, 0x0a, 0x01, 0x08, 0x00,
  0x41, 0x00, 0xfe, 0x10, 0x02, 0x00, 0x0b,
]);
function moduleUrl() {
  try {
    if (!WebAssembly.validate(SIMD_PROBE)) return PLAIN_MODULE;
    const shared = typeof SharedArrayBuffer === 'function' && self.crossOriginIsolated !== false;
    return shared && WebAssembly.validate(THREADS_PROBE) ? THREADS_MODULE : SIMD_MODULE;
  } catch (e) {
    return PLAIN_MODULE;
  }
}
// Whether the install keeps this file of SHELL: of the builds, only the
// one this browser loads (none without WebAssembly).
const BUILDS = [SIMD_MODULE, PLAIN_MODULE, THREADS_MODULE];
const keepAtInstall = (path) => !BUILDS.includes(path)
  || (typeof WebAssembly === 'object' && path === moduleUrl());

const TABLES_INDEX = '/api/v1/tables';
const TABLE = /^\/tables\/oware-tb-\d\d\.otb$/;

async function keepTables(cache) {
  const index = await fetch(TABLES_INDEX, { cache: 'no-store' });
  if (!index.ok) return;
  await cache.put(TABLES_INDEX, index.clone());
  const n = (await index.json()).browser_max_seeds;
  if (n === null || n === undefined) return;
  for (let i = 0; i <= n; i += 1) {
    const url = `/tables/oware-tb-${String(i).padStart(2, '0')}.otb`;
    if (!(await cache.match(url))) {
      const r = await fetch(url);
      if (r.ok) await cache.put(url, r);
    }
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    // From the HTTP cache when the page has just fetched a file.
    await cache.addAll(SHELL.filter(keepAtInstall));
    // The tables after the shell, without holding the install up.
    keepTables(cache).catch(() => {});
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== VERSION) await caches.delete(key);
    await self.clients.claim();
  })());
});

/** Whether a path may be one of the app's pages (`/`, `/play`,
 * `/game/{id}`, …; docs/WEB.md): never the API, the tables or a file
 * (the app's ids and page names hold no dot). */
const pagePath = (path) => !path.startsWith('/api/') && !path.startsWith('/tables/') && !path.includes('.');

/** Whether a response is the app's own page: HTML, shown, not downloaded. */
const isAppPage = (response) => response.ok
  && /^text\/html(;|$)/.test(response.headers.get('content-type') || '')
  && !response.headers.has('content-disposition');

/** Network first; the kept copy (or `fallback`'s) when the network fails.
 * With a `fallback` (the app's page), only the app's page is kept. */
async function networkFirst(request, fallback) {
  const cache = await caches.open(VERSION);
  try {
    const response = await fetch(request);
    const keep = fallback ? isAppPage(response) : response.ok;
    if (keep) await cache.put(fallback || request, response.clone());
    return response;
  } catch (e) {
    const kept = await cache.match(fallback || request, { ignoreSearch: true });
    if (kept) return kept;
    throw e;
  }
}

async function keptFirst(request) {
  const cache = await caches.open(VERSION);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // Every page of the app is the one page, which draws it; anything
    // else opened in the browser (an API answer, a download) is not.
    if (pagePath(url.pathname)) event.respondWith(networkFirst(request, '/'));
    return;
  }
  if (TABLE.test(url.pathname)) { event.respondWith(keptFirst(request)); return; }
  if (url.pathname === TABLES_INDEX) {
    // The engine's worker asks on every page: a good time to keep the
    // tables not kept yet (the server may have been building them at install).
    event.respondWith(networkFirst(request));
    event.waitUntil(caches.open(VERSION).then(keepTables).catch(() => {}));
    return;
  }
  if (SHELL.includes(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});
