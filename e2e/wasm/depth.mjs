// Time to a fixed depth: the positions and the native side, shared by
// e2e/wasm/time-to-depth.mjs (the modules in Node) and
// e2e/bench-chromium.mjs (in Chromium). Measurements, not tests.
import { spawn } from 'node:child_process';

// Fixed positions where a deep search takes a while: two of the bench's
// set positions, and middlegames (two after bench openings, two set).
// None is in the opening book.
export const POSITIONS = [
  '5-1-0-13-2-0-3-0-6-1-1-2-7-7-N',
  '1-0-9-0-2-3-2-0-1-5-4-1-10-10-N',
  '6-6-1-6-6-1-0-7-7-1-1-6-0-0-S',
  '3-0-7-7-2-1-0-8-8-1-1-6-2-2-N',
  '10-3-2-4-1-4-3-0-6-9-4-2-0-0-S',
  '4-2-1-8-7-6-2-0-4-3-3-3-5-0-S',
];

/** The native engine to `depth` from `position` in a fresh
 * `oware uci --hash 16 --no-tablebases` (one thread unless `threads`, a
 * 16 MiB table, as the module): {ms from `go` to `bestmove`, nodes, depth}. */
export function nativeToDepth(bin, position, depth, threads = 1) {
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
    p.stdin.write(`uci\nsetoption name Threads value ${threads}\nposition fen ${position}\nisready\n`);
  });
}

/** The module's search to `depth` (a request of its API, sent by `call`,
 * which answers it), checked against the native one: the same nodes (on
 * one thread; with `threads` the count depends on timing, so only the
 * depth). */
export async function moduleToDepth(call, name, position, depth, native, threads = 1) {
  const t0 = performance.now();
  const r = await call({ op: 'search', game: { start: position }, depth, new_game: true });
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r)}`);
  if ((threads === 1 && r.nodes !== native.nodes) || r.depth !== native.depth) {
    throw new Error(`${name} searched ${r.nodes} nodes to depth ${r.depth}, native ${native.nodes} to ${native.depth}`);
  }
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Runs `rounds` rounds over POSITIONS, the native engine then each
 * module (`engines`: [{name, call, threads}], or {name, native: threads}
 * for the native engine on more threads), their order turned round every
 * other round, and prints each search, then the medians and ratios
 * (native one-thread time / module time: 1 is native speed). */
export async function timeToDepth({ bin, depth, rounds, engines, label = '' }) {
  const times = new Map();
  const add = (k, v) => times.set(k, [...(times.get(k) || []), v]);
  for (let round = 0; round < rounds; round += 1) {
    for (const position of POSITIONS) {
      const n = await nativeToDepth(bin, position, depth);
      add(`native ${position}`, n.ms);
      const order = round % 2 ? [...engines].reverse() : engines;
      const line = [`round ${round + 1} ${position} depth ${depth}: native ${n.ms.toFixed(0)} ms (${n.nodes} nodes)`];
      for (const { name, call, threads, native } of order) {
        const ms = native
          ? (await nativeToDepth(bin, position, depth, native)).ms
          : await moduleToDepth(call, name, position, depth, n, threads);
        add(`${name} ${position}`, ms);
        line.push(`${name} ${ms.toFixed(0)} ms`);
      }
      console.log(line.join('; '));
    }
  }
  console.log(`\nmedian ms to depth ${depth}${label} (ratio = native / module):`);
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
  for (const { name } of engines) {
    const perRound = [];
    for (let round = 0; round < rounds; round += 1) {
      perRound.push(sum(POSITIONS.map((p) => times.get(`native ${p}`)[round])) / sum(POSITIONS.map((p) => times.get(`${name} ${p}`)[round])));
    }
    console.log(`${name}: ratio per round (all positions) ${perRound.map((r) => r.toFixed(2)).join(', ')}`);
  }
}
