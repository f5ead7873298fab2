// The engine in WebAssembly against the native one: the bench signature
// (the node count of fixed-depth searches) must be the same number; tables
// read from bytes are used, and a damaged one is refused; a stop raised
// during a search (a flag in shared memory, as in the browser's worker)
// ends it at once.
//
// OWARE_BIN names the native `oware` binary (scripts/test-wasm.sh sets it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { engine, modulePath, moduleBytes, plainModulePath, root, threadsModulePath } from './common.mjs';
import { SIMD_PROBE, THREADS_PROBE, hasSimd, moduleUrl } from '../../crates/oware-server/web/js/engine/wasm.js';

const bin = process.env.OWARE_BIN;
const native = (...args) => execFileSync(bin, args, { encoding: 'utf8' });

test('the bench signature is the native one, in both builds', { skip: !bin && 'OWARE_BIN is not set' }, async () => {
  const depth = 10;
  const hash = 16;
  const out = native('bench', '--depth', String(depth), '--hash', String(hash));
  const nativeNodes = Number(out.match(/signature (\d+)/)[1]);
  const nativeNps = Number(out.match(/(\d+) nodes\/s/)[1]);
  for (const [name, path] of [['SIMD', modulePath], ['plain', plainModulePath]]) {
    const e = await engine({}, path);
    const r = e.call({ op: 'bench', depth, hash_mb: hash });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.positions, 16);
    assert.equal(r.nodes, nativeNodes, `the same searches, node for node (${name})`);
    const nps = Math.round(r.nodes / (r.elapsed_ms / 1000));
    console.log(`# bench depth ${depth}: signature ${r.nodes}; WebAssembly (${name}) in Node ${process.version} ${nps} nodes/s (${r.elapsed_ms.toFixed(0)} ms), native ${nativeNps} nodes/s: ${(nps / nativeNps).toFixed(2)}x`);
  }
});

// The target features a module was linked with (wasm-ld's
// `target_features` custom section: a prefix byte, `+` for used, and a
// name per feature).
function targetFeatures(bytes) {
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
  const text = (n) => new TextDecoder().decode(bytes.subarray(at, (at += n)));
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 0 && text(leb()) === 'target_features') {
      const features = [];
      for (let n = leb(); n > 0; n -= 1) {
        const prefix = String.fromCharCode(bytes[at++]);
        features.push(prefix + text(leb()));
      }
      return features;
    }
    at = end;
  }
  return null;
}

test('the SIMD build uses SIMD, the plain one does not, and each gives the same values', async () => {
  const simd = targetFeatures(moduleBytes(modulePath));
  const plain = targetFeatures(moduleBytes(plainModulePath));
  const threads = targetFeatures(moduleBytes(threadsModulePath));
  assert.ok(simd.includes('+simd128'), `${simd}`);
  assert.ok(!plain.some((f) => f.includes('simd')), `${plain}`);
  assert.deepEqual(simd.filter((f) => f !== '+simd128'), plain, 'otherwise the same features');
  assert.deepEqual(threads.filter((f) => f !== '+atomics'), simd, 'the threads build: SIMD and atomics');
  assert.ok(threads.includes('+atomics'), `${threads}`);
  // The network's value of each position (its score at depth 1, before
  // any search) is the same in the builds (the threads one on one thread).
  const [a, b, c] = [await engine({}, modulePath), await engine({}, plainModulePath), await engine({}, threadsModulePath)];
  const positions = ['start', '6-6-1-6-6-1-0-7-7-1-1-6-0-0-S', '3-0-7-7-2-1-0-8-8-1-1-6-2-2-N', '0-9-0-2-3-2-0-1-5-4-1-0-11-10-S'];
  for (const start of positions) {
    for (const depth of [1, 2, 7]) {
      const ra = a.call({ op: 'search', game: { start }, depth, new_game: true });
      const rb = b.call({ op: 'search', game: { start }, depth, new_game: true });
      assert.equal(ra.ok, true, JSON.stringify(ra));
      assert.deepEqual({ ...ra, elapsed_ms: 0 }, { ...rb, elapsed_ms: 0 }, `${start} depth ${depth}`);
      const rc = c.call({ op: 'search', game: { start }, depth, new_game: true });
      assert.deepEqual({ ...ra, elapsed_ms: 0 }, { ...rc, elapsed_ms: 0 }, `${start} depth ${depth}, threads build`);
    }
  }
});

test('the page loads the SIMD build where SIMD validates, the plain one elsewhere', () => {
  assert.equal(hasSimd(), true, 'Node 20 runs WebAssembly SIMD');
  assert.equal(moduleUrl(), '/wasm/oware.wasm');
  assert.equal(moduleUrl(() => false), '/wasm/oware-plain.wasm');
  assert.equal(moduleUrl(() => { throw new Error('no SIMD opcodes'); }), '/wasm/oware-plain.wasm');
  // The probe is a valid module only with SIMD: its one SIMD instruction
  // changed to an unknown one is refused.
  const broken = SIMD_PROBE.slice();
  broken[SIMD_PROBE.indexOf(0xfd) + 1] = 0x7f;
  assert.equal(WebAssembly.validate(broken), false);
  // The service worker's copy of the probe and of the two addresses (it
  // keeps the build the page loads).
  const sw = readFileSync(`${root}crates/oware-server/web/sw.js`, 'utf8');
  const bytes = (src) => src.match(/SIMD_PROBE = new Uint8Array\(\[([^\]]*)\]/)[1]
    .replace(/\/\/[^\n]*/g, '').split(',').map((x) => x.trim()).filter(Boolean).map(Number);
  const wasmJs = readFileSync(`${root}crates/oware-server/web/js/engine/wasm.js`, 'utf8');
  assert.deepEqual(bytes(sw), [...SIMD_PROBE]);
  assert.deepEqual(bytes(wasmJs), [...SIMD_PROBE]);
  const threadsBytes = (src) => src.match(/THREADS_PROBE = new Uint8Array\(\[([^\]]*)\]/)[1]
    .replace(/\/\/[^\n]*/g, '').split(',').map((x) => x.trim()).filter(Boolean).map(Number);
  assert.deepEqual(threadsBytes(sw), [...THREADS_PROBE]);
  assert.match(sw, /const SIMD_MODULE = '\/wasm\/oware\.wasm';/);
  assert.match(sw, /const PLAIN_MODULE = '\/wasm\/oware-plain\.wasm';/);
  assert.match(sw, /const THREADS_MODULE = '\/wasm\/oware-threads\.wasm';/);
});

test('tables from bytes answer, and a damaged table is refused', { skip: !bin && 'OWARE_BIN is not set' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oware-wasm-tb-'));
  try {
    const seeds = 8;
    native('tablebase', 'build', '--max-seeds', String(seeds), '--dir', dir);
    const files = [];
    for (let n = 0; n <= seeds; n++) files.push(readFileSync(join(dir, `oware-tb-${String(n).padStart(2, '0')}.otb`)));

    const e = await engine();
    for (const f of files) e.addTable(f);
    const r = e.call({ op: 'tables' });
    assert.deepEqual(r, { ok: true, max_seeds: seeds });
    assert.equal(e.call({ op: 'version' }).tables, seeds);
    // An endgame of 8 seeds: the value comes from the tables.
    const end = { start: '0-0-2-0-1-0-0-1-0-3-1-0-20-20-S' };
    const withTables = e.call({ op: 'search', game: end, depth: 6, new_game: true });
    assert.equal(withTables.ok, true, JSON.stringify(withTables));
    const plain = (await engine()).call({ op: 'search', game: end, depth: 6 });
    assert.notEqual(withTables.nodes, plain.nodes, 'the tables cut the search');
    // The native tables' verdict: a win for South, and its best moves.
    const probe = native('tablebase', 'probe', '--dir', dir, end.start);
    assert.match(probe, /result +win for the side to move/);
    const best = probe.match(/^best +(.+)$/m)[1].split(/[ ,]+/);
    assert.equal(withTables.score.kind, 'tablebase_win', JSON.stringify(withTables));
    assert.ok(best.includes(withTables.best), `${withTables.best} is one of the tables' best moves ${best}`);

    // One flipped entry: the checksum refuses the file, by name.
    const damaged = await engine();
    files.forEach((f, n) => {
      const bytes = new Uint8Array(f);
      if (n === 7) bytes[bytes.length - 1] ^= 1;
      damaged.addTable(bytes);
    });
    const refused = damaged.call({ op: 'tables' });
    assert.equal(refused.ok, false);
    assert.equal(`${refused.code}.${refused.reason}`, 'invalid_request.damaged_table');
    assert.match(refused.message, /oware-tb-07\.otb/);
    assert.match(refused.message, /checksum/);
    assert.equal(damaged.call({ op: 'version' }).tables, null, 'nothing installed');
    // A truncated file too.
    const cut = await engine();
    files.forEach((f, n) => cut.addTable(n === 3 ? f.subarray(0, 100) : f));
    assert.equal(cut.call({ op: 'tables' }).reason, 'damaged_table');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stop during a search ends it within 50 ms', async () => {
  // The engine runs in a worker thread, as in the browser; the flag is
  // shared memory the main thread writes while the worker is busy.
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./stop-worker.mjs', import.meta.url), { workerData: { flag, modulePath } });
  try {
    const messages = [];
    const waiters = [];
    worker.on('message', (m) => (waiters.length ? waiters.shift()(m) : messages.push(m)));
    const next = () => (messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiters.push(r)));
    const started = next();
    worker.postMessage({ op: 'search', game: { moves: 'FfAaBb' }, movetime_ms: 60_000 });
    const info = await started; // the first completed iteration
    assert.equal(info.info, true);
    await new Promise((r) => setTimeout(r, 300));
    const t = performance.now();
    Atomics.store(flag, 0, 1);
    const r = await next();
    const ms = performance.now() - t;
    console.log(`# stop answered in ${ms.toFixed(1)} ms, after depth ${r.depth}, ${r.nodes} nodes`);
    assert.equal(r.ok, true);
    assert.ok(r.best, 'a stopped search still answers with a move');
    assert.ok(r.elapsed_ms < 10_000, `stopped long before its 60 s: ${r.elapsed_ms} ms`);
    assert.ok(ms < 50, `the stop took ${ms} ms`);
  } finally {
    await worker.terminate();
  }
});
