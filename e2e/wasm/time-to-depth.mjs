// Time to a fixed depth, the WebAssembly modules against the native engine
// (docs/WEB.md, "Measured"; a measurement, not a test). For each round and
// each position: the native `oware uci --hash 16 --no-tablebases`
// (`go depth D` in a fresh process), then each module in Node (`search`
// to depth D in a cleared 16 MiB table), the order of the modules turned
// round every other round, so all of them run in the same minutes. The
// node counts must be the native ones (the same search). Prints each
// search, then per position and in all the median times and the ratio
// native time / module time (1 is native speed).
//
//   node e2e/wasm/time-to-depth.mjs /path/to/oware [depth] [rounds] [module.wasm ...]
//
// The modules default to the two checked-in builds (oware.wasm, with SIMD,
// and oware-plain.wasm).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';
import { root } from './common.mjs';

const [bin, depthArg, roundsArg, ...moduleArgs] = process.argv.slice(2);
if (!bin) {
  console.error('usage: node time-to-depth.mjs /path/to/oware [depth] [rounds] [module.wasm ...]');
  process.exit(2);
}
const depth = Number(depthArg || 20);
const rounds = Number(roundsArg || 3);
const modules = moduleArgs.length
  ? moduleArgs
  : ['oware.wasm', 'oware-plain.wasm'].map((m) => `${root}crates/oware-server/web/wasm/${m}`);

// Fixed positions where a deep search takes a while: two of the bench's
// set positions, and middlegames (two after bench openings, two set).
const POSITIONS = [
  '5-1-0-13-2-0-3-0-6-1-1-2-7-7-N',
  '1-0-9-0-2-3-2-0-1-5-4-1-10-10-N',
  '6-6-1-6-6-1-0-7-7-1-1-6-0-0-S',
  '3-0-7-7-2-1-0-8-8-1-1-6-2-2-N',
  '10-3-2-4-1-4-3-0-6-9-4-2-0-0-S',
  '4-2-1-8-7-6-2-0-4-3-3-3-5-0-S',
];

function native(position) {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, ['uci', '--hash', '16', '--no-tablebases'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let buf = '';
    let last = null;
    let t0 = 0;
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line === 'readyok') {
          t0 = performance.now();
          p.stdin.write(`go depth ${depth}\n`);
        } else if (line.startsWith('info depth')) {
          last = line;
        } else if (line.startsWith('bestmove')) {
          const ms = performance.now() - t0;
          p.stdin.end('quit\n');
          resolve({ ms, nodes: Number(last.match(/ nodes (\d+)/)[1]), depth: Number(last.match(/^info depth (\d+)/)[1]) });
        }
      }
    });
    p.on('error', reject);
    p.stdin.write(`uci\nposition fen ${position}\nisready\n`);
  });
}

const engines = [];
for (const path of modules) {
  engines.push({ name: basename(path), engine: await OwareWasm.instantiate(readFileSync(path)) });
}
// Warm up: V8 compiles a module's hot functions with its optimising
// compiler only after they ran a while; a user's first search pays that,
// later ones do not. Measured here: the later ones.
for (const { engine } of engines) engine.call({ op: 'bench', depth: 10, hash_mb: 16 });

const times = new Map(); // `${name} ${position}` -> [ms]
const add = (k, v) => times.set(k, [...(times.get(k) || []), v]);
for (let round = 0; round < rounds; round += 1) {
  for (const position of POSITIONS) {
    const n = await native(position);
    add(`native ${position}`, n.ms);
    const order = round % 2 ? [...engines].reverse() : engines;
    const line = [`round ${round + 1} ${position} depth ${depth}: native ${n.ms.toFixed(0)} ms (${n.nodes} nodes)`];
    for (const { name, engine } of order) {
      const t0 = performance.now();
      const r = engine.call({ op: 'search', game: { start: position }, depth, new_game: true });
      const ms = performance.now() - t0;
      if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r)}`);
      if (r.nodes !== n.nodes || r.depth !== n.depth) {
        throw new Error(`${name} searched ${r.nodes} nodes to depth ${r.depth}, native ${n.nodes} to ${n.depth}`);
      }
      add(`${name} ${position}`, ms);
      line.push(`${name} ${ms.toFixed(0)} ms`);
    }
    console.log(line.join('; '));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
console.log(`\nmedian ms to depth ${depth} (ratio = native / module):`);
const totals = { native: 0 };
for (const position of POSITIONS) {
  const nat = median(times.get(`native ${position}`));
  totals.native += nat;
  const cols = [`native ${nat.toFixed(0)}`];
  for (const { name } of engines) {
    const m = median(times.get(`${name} ${position}`));
    totals[name] = (totals[name] || 0) + m;
    cols.push(`${name} ${m.toFixed(0)} (${(nat / m).toFixed(2)})`);
  }
  console.log(`${position}: ${cols.join(', ')}`);
}
console.log(`all ${POSITIONS.length} positions, sum of medians: native ${totals.native.toFixed(0)} ms, ${engines.map(({ name }) => `${name} ${totals[name].toFixed(0)} ms (${(totals.native / totals[name]).toFixed(2)})`).join(', ')}`);
// Each round's ratio over all positions, to see the spread.
for (const { name } of engines) {
  const perRound = [];
  for (let round = 0; round < rounds; round += 1) {
    perRound.push(sum(POSITIONS.map((p) => times.get(`native ${p}`)[round])) / sum(POSITIONS.map((p) => times.get(`${name} ${p}`)[round])));
  }
  console.log(`${name}: ratio per round ${perRound.map((r) => r.toFixed(2)).join(', ')}`);
}
