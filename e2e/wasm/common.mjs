// Shared by the Node tests of the WebAssembly module (scripts/test-wasm.sh).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';

export const root = fileURLToPath(new URL('../../', import.meta.url));
// The three builds (scripts/build-wasm.sh): with SIMD, which Node runs,
// the plain one for browsers without SIMD, and the threads build (SIMD,
// shared memory, atomics).
export const modulePath = `${root}crates/oware-server/web/wasm/oware.wasm`;
export const plainModulePath = `${root}crates/oware-server/web/wasm/oware-plain.wasm`;
export const threadsModulePath = `${root}crates/oware-server/web/wasm/oware-threads.wasm`;
export const moduleBytes = (path = modulePath) => readFileSync(path);

/** A fresh instance of the checked-in module (the SIMD build unless `path`). */
export function engine(options, path = modulePath) {
  return OwareWasm.instantiate(moduleBytes(path), options);
}

/** The core's data files: blocks of `key value` lines, `#` comments. */
export function readCases(path) {
  const cases = [];
  let cur = null;
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    if (!line) { cur = null; continue; }
    const sp = line.indexOf(' ');
    const [key, value] = sp < 0 ? [line, ''] : [line.slice(0, sp), line.slice(sp + 1)];
    if (!cur) { cur = []; cases.push(cur); }
    cur.push([key, value]);
  }
  return cases.map((pairs) => ({
    pairs,
    get: (k) => pairs.find(([x]) => x === k)?.[1],
    all: (k) => pairs.filter(([x]) => x === k).map(([, v]) => v),
  }));
}

/** What a test's `hook` (nodeHelpers) makes a helper do in its search:
 * trap, or end its worker without a word (helper-worker.mjs). */
export const TRAP = 1;
export const EXIT = 2;

/** Starts a helper thread of the threads build in a Node worker
 * (helper-worker.mjs), as worker.js does in the browser: the `spawn` of
 * `OwareWasm.startHelpers`. The workers are pushed onto `started`, to be
 * terminated by the caller. With `hook`, each helper can be made to fail
 * (helper-worker.mjs). */
export function nodeHelpers(started, hook) {
  return (message) => new Promise((resolve, reject) => {
    const w = new Worker(new URL('./helper-worker.mjs', import.meta.url));
    w.unref();
    started.push(w);
    w.once('message', (m) => (m.type === 'running' ? resolve(w) : reject(new Error(m.message))));
    w.once('error', reject);
    w.postMessage(hook ? { ...message, hook } : message);
  });
}
