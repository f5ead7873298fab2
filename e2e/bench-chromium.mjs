// The browser's engine in Chromium against the native engine, alternating
// on the same machine (docs/WEB.md, "Measured"; not a test). Both builds
// of the module run, each in a Web Worker of the study page (cross-origin
// isolated), started as the app starts its engine (worker.js) but told
// which build to load.
//
//   OWARE_URL=http://127.0.0.1:8080 node bench-chromium.mjs /path/to/oware [depth] [rounds] [bench|positions]
//
// bench (the default): each round runs `oware bench --depth D --hash 16`
// natively, then the module's `bench` request at the same depth in each
// build, and prints the nodes per second; the signature (node count) must
// be the same number.
// positions: time to depth D on the fixed positions of
// wasm/depth.mjs, native against each build (as wasm/time-to-depth.mjs
// does in Node).
// BENCH_MODULE=/path/to/other.wasm adds a third build, served to the page
// by the browser context (an older module, to compare in the same minutes).
// BENCH_BUILDS picks the engines (default `simd,plain`): `simd`, `plain`,
// `threads1` and `threads2` (the threads build on one and two threads, its
// helpers in workers of their own as the app runs them), `native2` (the
// native engine on two threads; positions only). With more than one
// thread only the depth is checked.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { launch, BASE } from './lib.mjs';
import { timeToDepth } from './wasm/depth.mjs';

const [bin, depthArg, roundsArg, modeArg] = process.argv.slice(2);
if (!bin) { console.error('usage: node bench-chromium.mjs /path/to/oware [depth] [rounds] [bench|positions]'); process.exit(2); }
const depth = Number(depthArg || 12);
const rounds = Number(roundsArg || 3);
const mode = modeArg || 'bench';
const KNOWN = {
  simd: ['simd', '/wasm/oware.wasm', 1],
  plain: ['plain', '/wasm/oware-plain.wasm', 1],
  threads1: ['threads1', '/wasm/oware-threads.wasm', 1],
  threads2: ['threads2', '/wasm/oware-threads.wasm', 2],
};
const picked = (process.env.BENCH_BUILDS || 'simd,plain').split(',');
const BUILDS = picked.filter((n) => KNOWN[n]).map((n) => KNOWN[n]);
const natives = picked.filter((n) => /^native\d+$/.test(n)).map((n) => ({ name: n, native: Number(n.slice(6)) }));
const extra = process.env.BENCH_MODULE;
if (extra) BUILDS.push(['other', '/wasm/bench-other.wasm', 1]);

const b = await launch();
try {
  if (extra) {
    const body = readFileSync(extra);
    await b.context.route('**/wasm/bench-other.wasm', (route) => route.fulfill({ body, contentType: 'application/wasm' }));
  }
  const page = await b.context.newPage();
  await page.goto(`${BASE}/study`);
  const info = await page.evaluate(async (builds) => {
    const { moduleUrl } = await import('/js/engine/wasm.js');
    const workers = {};
    for (const [name, module, threads] of builds) {
      const worker = new Worker('/js/engine/worker.js', { type: 'module' });
      const pending = new Map();
      let ready;
      const readyP = new Promise((r) => { ready = r; });
      worker.onmessage = ({ data }) => {
        if (data.type === 'ready' || data.type === 'failed') ready(data);
        if (data.type === 'ready' && data.threads !== threads) ready({ type: 'failed', message: `${data.threads} threads` });
        if (data.type === 'answer') { pending.get(data.id)(data.answer); pending.delete(data.id); }
      };
      worker.postMessage({ type: 'init', flag: null, module, threads });
      const r = await readyP;
      if (r.type !== 'ready') throw new Error(`${module}: ${r.message}`);
      let next = 1;
      workers[name] = (request) => new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        worker.postMessage({ type: 'call', id, request });
      });
      // Warm up, as a user's engine has by its second search (V8 tiers
      // hot functions up to its optimising compiler).
      await workers[name]({ op: 'bench', depth: 12, hash_mb: 16 });
    }
    window.benchWorkers = workers;
    return { app: moduleUrl(), userAgent: navigator.userAgent, isolated: crossOriginIsolated };
  }, BUILDS);
  console.log(`${info.userAgent}; the app loads ${info.app} here; cross-origin isolated: ${info.isolated}`);
  const engines = BUILDS.map(([name, , threads]) => ({
    name,
    threads,
    call: (request) => page.evaluate(([n, r]) => window.benchWorkers[n](r), [name, request]),
  }));

  if (mode === 'positions') {
    await timeToDepth({ bin, depth, rounds, engines: [...engines, ...natives], label: ' in Chromium' });
  } else {
    const rows = [];
    for (let i = 0; i < rounds; i += 1) {
      const out = execFileSync(bin, ['bench', '--depth', String(depth), '--hash', '16'], { encoding: 'utf8' });
      const native = { nodes: Number(out.match(/signature (\d+)/)[1]), nps: Number(out.match(/(\d+) nodes\/s/)[1]) };
      const row = { native: native.nps };
      const line = [`round ${i + 1}: signature ${native.nodes}; native ${native.nps} nodes/s`];
      for (const { name, call } of i % 2 ? [...engines].reverse() : engines) {
        const r = await call({ op: 'bench', depth, hash_mb: 16 });
        if (r.nodes !== native.nodes) throw new Error(`signatures differ: ${name} ${r.nodes} against ${native.nodes}`);
        row[name] = Math.round(r.nodes / (r.elapsed_ms / 1000));
        line.push(`${name} ${row[name]} nodes/s (${r.elapsed_ms.toFixed(0)} ms, ratio ${(row[name] / native.nps).toFixed(2)})`);
      }
      rows.push(row);
      console.log(line.join('; '));
    }
    const med = (xs) => xs.sort((a, c) => a - c)[Math.floor(xs.length / 2)];
    console.log(`median: native ${med(rows.map((r) => r.native))} nodes/s, ${engines.map(({ name }) => `${name} ${med(rows.map((r) => r[name]))} nodes/s`).join(', ')}`);
  }
} finally {
  await b.close();
}
