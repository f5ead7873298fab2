// Nodes per second of the browser's engine in Chromium against the native
// engine, alternating on the same machine (docs/WEB.md, "Measured"; not a
// test). Each round runs `oware bench --depth D --hash 16` natively, then
// the module's `bench` request at the same depth in the page's Web Worker
// (the study page, cross-origin isolated), and prints both; the signature
// (node count) must be the same number.
//
//   OWARE_URL=http://127.0.0.1:8080 node bench-chromium.mjs /path/to/oware [depth] [rounds]

import { execFileSync } from 'node:child_process';
import { launch, BASE } from './lib.mjs';

const [bin, depthArg, roundsArg] = process.argv.slice(2);
if (!bin) { console.error('usage: node bench-chromium.mjs /path/to/oware [depth] [rounds]'); process.exit(2); }
const depth = Number(depthArg || 12);
const rounds = Number(roundsArg || 3);

const b = await launch();
try {
  const page = await b.context.newPage();
  await page.goto(`${BASE}/study`);
  await page.evaluate(async () => { const { readyEngine } = await import('/js/engine/client.js'); await readyEngine(); });
  const rows = [];
  for (let i = 0; i < rounds; i += 1) {
    const out = execFileSync(bin, ['bench', '--depth', String(depth), '--hash', '16'], { encoding: 'utf8' });
    const native = { nodes: Number(out.match(/signature (\d+)/)[1]), nps: Number(out.match(/(\d+) nodes\/s/)[1]) };
    const r = await page.evaluate(async (d) => {
      const { readyEngine } = await import('/js/engine/client.js');
      return (await readyEngine()).request({ op: 'bench', depth: d, hash_mb: 16 });
    }, depth);
    const nps = Math.round(r.nodes / (r.elapsed_ms / 1000));
    if (r.nodes !== native.nodes) throw new Error(`signatures differ: ${r.nodes} against ${native.nodes}`);
    rows.push({ native: native.nps, chromium: nps });
    console.log(`round ${i + 1}: signature ${r.nodes}; native ${native.nps} nodes/s; Chromium ${nps} nodes/s (${r.elapsed_ms.toFixed(0)} ms); ratio ${(nps / native.nps).toFixed(2)}`);
  }
  const med = (xs) => xs.sort((a, c) => a - c)[Math.floor(xs.length / 2)];
  console.log(`median: native ${med(rows.map((r) => r.native))} nodes/s, Chromium ${med(rows.map((r) => r.chromium))} nodes/s`);
} finally {
  await b.close();
}
