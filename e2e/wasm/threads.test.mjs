// The threads build (oware-threads.wasm: SIMD, shared memory, atomics):
// the engine's parallel search with one helper thread in a worker of its
// own, as the browser runs it (js/engine/worker.js and helper.js), and the
// choice of build: threads only where the page may share memory.
//
// OWARE_BIN names the native `oware` binary (scripts/test-wasm.sh sets it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { EXIT, TRAP, engine, moduleBytes, modulePath, nodeHelpers, threadsModulePath } from './common.mjs';
import { THREADS_MEMORY, THREADS_PROBE, hasThreads, moduleUrl } from '../../crates/oware-server/web/js/engine/wasm.js';

const bin = process.env.OWARE_BIN;

// The module's sections: [{id, body}] (body: the bytes after the size).
function sections(bytes) {
  const out = [];
  let at = 8;
  const leb = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[at++];
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return v;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    out.push({ id, body: bytes.subarray(at, at + size) });
    at += size;
  }
  return out;
}

// The limits of the memory a module imports: {shared, initial, maximum}.
function importedMemory(bytes) {
  const body = sections(bytes).find((s) => s.id === 2).body;
  let at = 0;
  const leb = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = body[at++];
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return v;
    }
  };
  const name = () => {
    const len = leb();
    return new TextDecoder().decode(body.subarray(at, (at += len)));
  };
  for (let n = leb(); n > 0; n -= 1) {
    const field = `${name()}.${name()}`;
    const kind = body[at++];
    if (kind === 0) leb(); // a function's type
    else if (kind === 2) {
      const flags = body[at++];
      const initial = leb();
      const maximum = flags & 1 ? leb() : null;
      return { field, shared: (flags & 2) !== 0, initial, maximum };
    } else throw new Error(`import kind ${kind}`);
  }
  return null;
}

/** The threads build with `threads` threads in all (helpers in Node
 * workers), and a function that ends the helpers. */
async function threaded(threads, options = {}) {
  const e = await engine(options, threadsModulePath);
  const helpers = [];
  const n = await e.startHelpers(threads - 1, nodeHelpers(helpers));
  return { e, n, end: () => Promise.all(helpers.map((w) => w.terminate())) };
}

test('the threads build imports the shared memory the page makes', () => {
  assert.deepEqual(importedMemory(moduleBytes(threadsModulePath)), { field: 'env.memory', shared: true, ...THREADS_MEMORY });
  assert.equal(importedMemory(moduleBytes(modulePath)), null, 'the SIMD build has its own memory');
});

test('two threads answer a legal move, the bench signature stays the native one', { skip: !bin && 'OWARE_BIN is not set' }, async () => {
  const { e, n, end } = await threaded(2);
  try {
    assert.equal(n, 2, 'one helper started');
    assert.equal(e.call({ op: 'version' }).threads, 2);
    // A fixed-depth search on one thread is the same every time; with the
    // helper filling the shared table the main thread searches other
    // nodes (and the count adds the helper's), so a count equal to the
    // one-thread one would mean the helper never ran.
    const game = { start: '6-6-1-6-6-1-0-7-7-1-1-6-0-0-S' };
    const one = await engine({}, modulePath);
    const single = one.call({ op: 'search', game, depth: 14, new_game: true });
    const legal = one.call({ op: 'replay', game }).legal;
    const r = e.call({ op: 'search', game, depth: 14, new_game: true });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.depth, 14);
    assert.ok(legal.includes(r.best), `${r.best} is one of ${legal}`);
    assert.notEqual(r.nodes, single.nodes, 'the helper searched too');
    console.log(`# depth 14 on 2 threads: ${r.nodes} nodes (1 thread: ${single.nodes}), best ${r.best} (1 thread: ${single.best})`);
    // The bench runs on one thread, helpers or not: the native signature.
    const depth = 10;
    const out = execFileSync(bin, ['bench', '--depth', String(depth), '--hash', '16'], { encoding: 'utf8' });
    const b = e.call({ op: 'bench', depth, hash_mb: 16 });
    assert.equal(b.nodes, Number(out.match(/signature (\d+)/)[1]));
    // Back to one thread: the one-thread search, node for node.
    assert.equal(e.call({ op: 'threads', threads: 1 }).threads, 1);
    const again = e.call({ op: 'search', game, depth: 14, new_game: true });
    assert.deepEqual({ ...again, elapsed_ms: 0 }, { ...single, elapsed_ms: 0 });
  } finally {
    await end();
  }
});

test('a stop during a 2-thread search ends it within 50 ms', async () => {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./stop-worker.mjs', import.meta.url), { workerData: { flag, modulePath: threadsModulePath, threads: 2 } });
  try {
    const messages = [];
    const waiters = [];
    worker.on('message', (m) => (waiters.length ? waiters.shift()(m) : messages.push(m)));
    const next = () => (messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiters.push(r)));
    assert.deepEqual(await next(), { threads: 2 });
    const started = next();
    worker.postMessage({ op: 'search', game: { moves: 'FfAaBb' }, movetime_ms: 60_000 });
    const info = await started; // the first completed iteration
    assert.equal(info.info, true);
    await new Promise((r) => setTimeout(r, 300));
    const t = performance.now();
    Atomics.store(flag, 0, 1);
    const r = await next();
    const ms = performance.now() - t;
    console.log(`# 2 threads: stop answered in ${ms.toFixed(1)} ms, after depth ${r.depth}, ${r.nodes} nodes`);
    assert.equal(r.ok, true);
    assert.ok(r.best, 'a stopped search still answers with a move');
    assert.ok(ms < 50, `the stop took ${ms} ms`);
  } finally {
    await worker.terminate();
  }
});

/** The threads build on `threads` threads in a worker of its own
 * (stop-worker.mjs), its helpers failing on `hook`'s word: `send` a
 * request, `next` message (a first report or an answer) within `ms`. */
async function inWorker(threads, hook) {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./stop-worker.mjs', import.meta.url), { workerData: { flag, modulePath: threadsModulePath, threads, hook } });
  const messages = [];
  const waiters = [];
  worker.on('message', (m) => (waiters.length ? waiters.shift()(m) : messages.push(m)));
  const next = (ms = 30_000) => (messages.length ? Promise.resolve(messages.shift()) : new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no message within ${ms} ms`)), ms);
    waiters.push((m) => { clearTimeout(timer); resolve(m); });
  }));
  assert.deepEqual(await next(), { threads });
  return { flag, next, send: (r) => worker.postMessage(r), end: () => worker.terminate() };
}

/** Waits until `cell` of `array` is nonzero, at most `ms`. */
async function waitFor(array, cell, ms) {
  const r = Atomics.waitAsync(array, cell, 0, ms);
  const outcome = r.async ? await r.value : r.value;
  assert.notEqual(outcome, 'timed-out', `nothing in ${ms} ms`);
}

test('a helper that traps: the search still answers, a stop within 50 ms, then one thread', async () => {
  const hook = new Int32Array(new SharedArrayBuffer(8));
  const w = await inWorker(2, hook);
  try {
    const game = { moves: 'FfAaBb' };
    w.send({ op: 'search', game, movetime_ms: 60_000 });
    assert.equal((await w.next()).info, true, 'the first iteration');
    Atomics.store(hook, 0, TRAP);
    // The helper's next time reading traps; its worker tells the module.
    await waitFor(hook, 1, 20_000);
    const t = performance.now();
    Atomics.store(w.flag, 0, 1);
    const r = await w.next(5_000);
    const ms = performance.now() - t;
    console.log(`# a helper trapped: stop answered in ${ms.toFixed(1)} ms, after depth ${r.depth}`);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.ok(r.best, 'a move');
    assert.ok(ms < 50, `the stop took ${ms} ms`);
    // The engine now has one thread, and searches on it as before.
    Atomics.store(w.flag, 0, 0);
    w.send({ op: 'version' });
    assert.equal((await w.next()).threads, 1);
    w.send({ op: 'search', game, movetime_ms: 300 });
    assert.equal((await w.next()).info, true);
    const again = await w.next(5_000);
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.ok(again.best);
  } finally {
    await w.end();
  }
});

test('a helper whose worker ends: the search still answers, and the next one waits for nobody', async () => {
  const hook = new Int32Array(new SharedArrayBuffer(8));
  const w = await inWorker(2, hook);
  try {
    const game = { moves: 'FfAaBb' };
    w.send({ op: 'search', game, movetime_ms: 1_000 });
    assert.equal((await w.next()).info, true);
    const t = performance.now();
    Atomics.store(hook, 0, EXIT);
    const r = await w.next(10_000);
    const ms = performance.now() - t;
    console.log(`# a helper's worker ended: a 1,000 ms search answered ${ms.toFixed(0)} ms after, depth ${r.depth}`);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.ok(r.best);
    // Nobody said the helper is gone: the engine gave it up after a grace
    // of 250 ms (oware_engine::threads), well within the second.
    assert.ok(ms < 1_000 + 1_000, `${ms} ms`);
    assert.equal(hook[1], 0, 'the helper said nothing');
    // The next search's job for that helper is never taken: dropped when
    // the search ends, so nothing waits for it. A shallow search takes a
    // few milliseconds; one that waited would take the grace.
    const t2 = performance.now();
    w.send({ op: 'search', game, depth: 4, new_game: true });
    assert.equal((await w.next()).info, true);
    const again = await w.next(5_000);
    const ms2 = performance.now() - t2;
    console.log(`# the next search (depth 4) answered in ${ms2.toFixed(1)} ms`);
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(again.depth, 4);
    assert.ok(ms2 < 200, `${ms2} ms: it waited for the lost helper`);
  } finally {
    await w.end();
  }
});

test('the threads build loads only where the page may share memory', () => {
  const isolated = { crossOriginIsolated: true, SharedArrayBuffer, Atomics, Worker: class {} };
  assert.equal(WebAssembly.validate(THREADS_PROBE), true, 'Node 20 runs WebAssembly threads');
  assert.equal(hasThreads(undefined, isolated), true);
  assert.equal(moduleUrl(undefined, isolated), '/wasm/oware-threads.wasm');
  // Not cross-origin isolated, no SharedArrayBuffer, no workers from a
  // worker, or WebAssembly without threads or SIMD: a one-thread build.
  assert.equal(moduleUrl(undefined, { ...isolated, crossOriginIsolated: false }), '/wasm/oware.wasm');
  assert.equal(moduleUrl(undefined, { ...isolated, SharedArrayBuffer: undefined }), '/wasm/oware.wasm');
  assert.equal(moduleUrl(undefined, { ...isolated, Worker: undefined }), '/wasm/oware.wasm');
  assert.equal(moduleUrl((bytes) => bytes !== THREADS_PROBE && WebAssembly.validate(bytes), isolated), '/wasm/oware.wasm');
  assert.equal(moduleUrl(() => false, isolated), '/wasm/oware-plain.wasm');
  // The probe's atomic load changed to an unknown instruction is refused.
  const broken = THREADS_PROBE.slice();
  broken[THREADS_PROBE.indexOf(0xfe) + 1] = 0x7f;
  assert.equal(WebAssembly.validate(broken), false);
});
