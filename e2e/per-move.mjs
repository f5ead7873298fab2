#!/usr/bin/env node
// What a move's budget buys: the same positions searched by several UCI
// engines (`node e2e/chromium-uci.mjs ...`, `oware uci ...`), each with its
// own `go`, and per engine the mean depth of the last completed iteration,
// its node count and time, and the time from `go` to `bestmove` (docs/WEB.md,
// "What 50 ms buys in the browser"). A measurement, not a test:
//
//   OWARE_URL=http://127.0.0.1:PORT node e2e/per-move.mjs COUNT SEED 'GO|COMMAND[|Option=V;...]' ...
//
// COUNT positions are drawn by a seeded random walk of 14 to 63 plies from
// the start (through the rules of the SIMD module, in Node); GO is what
// follows `go` (`movetime 50`, `depth 15`). Each engine gets `ucinewgame`
// before each position (a cleared table), or, with PER_MOVE_WARM=1, keeps its
// table from one position to the next, as in a game (then one-thread engines
// give the same nodes as the native one for the same depth: a check that they
// search the same tree). The engines run one after another, never together.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { engine as wasmEngine } from './wasm/common.mjs';

const [countArg, seedArg, ...specs] = process.argv.slice(2);
if (!countArg || !seedArg || specs.length === 0) {
  console.error("usage: node e2e/per-move.mjs COUNT SEED 'GO|COMMAND[|Option=V;...]' ...");
  process.exit(2);
}
const warm = process.env.PER_MOVE_WARM === '1';

// The positions: random legal walks, kept when the game is still on.
const rules = await wasmEngine();
let state = Number(seedArg) % 2147483648;
const random = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const games = [];
while (games.length < Number(countArg)) {
  const plies = 14 + Math.floor(random() * 50);
  let moves = '';
  for (let i = 0; ; i++) {
    const r = rules.call({ op: 'replay', game: { start: 'start', moves } });
    if (!r.ok || r.status !== 'playing' || r.legal.length === 0) break;
    if (i === plies) {
      games.push(moves);
      break;
    }
    moves += r.legal[Math.floor(random() * r.legal.length)];
  }
}

function engine(command) {
  const child = spawn('bash', ['-c', command], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let waiter = null;
  let lastInfo = null;
  lines.on('line', (line) => {
    if (line.startsWith('info depth')) lastInfo = line;
    if (waiter && waiter.re.test(line)) {
      const w = waiter;
      waiter = null;
      w.resolve(line);
    }
  });
  const until = (re) => new Promise((resolve) => { waiter = { re, resolve }; });
  const send = (line) => child.stdin.write(`${line}\n`);
  const ready = async () => { const r = until(/^readyok/); send('isready'); await r; };
  return {
    send,
    ready,
    async start(options) {
      const r = until(/^uciok/);
      send('uci');
      await r;
      for (const o of options) {
        const [name, value] = o.split('=');
        send(`setoption name ${name} value ${value}`);
      }
      await ready();
    },
    async search(moves, go) {
      lastInfo = null;
      if (!warm) send('ucinewgame');
      await ready();
      send(`position startpos moves ${moves.split('').join(' ')}`);
      const t0 = performance.now();
      const done = until(/^bestmove/);
      send(`go ${go}`);
      await done;
      const field = (k) => Number(lastInfo?.match(new RegExp(` ${k} (\\d+)`))?.[1] ?? NaN);
      return { depth: field('depth'), nodes: field('nodes'), time: field('time'), wall: performance.now() - t0 };
    },
    quit: () => send('quit'),
  };
}

const engines = specs.map((spec) => {
  const [go, command, options] = spec.split('|');
  return { go, name: `${command}${options ? ` [${options}]` : ''} (go ${go})`, options: options ? options.split(';') : [], e: engine(command), rows: [] };
});
for (const x of engines) await x.e.start(x.options);
for (const moves of games) {
  const cells = [];
  for (const x of engines) {
    const r = await x.e.search(moves, x.go);
    x.rows.push(r);
    cells.push(`depth ${r.depth} nodes ${r.nodes} time ${r.time} wall ${r.wall.toFixed(0)}`);
  }
  console.log(`${moves}: ${cells.join(' | ')}`);
}
console.log(`${games.length} positions, ${warm ? 'the table kept from one to the next' : 'a cleared table each'}`);
for (const x of engines) {
  const mean = (k) => x.rows.reduce((a, r) => a + r[k], 0) / x.rows.length;
  console.log(`${x.name}: mean depth ${mean('depth').toFixed(2)}, last iteration ${mean('nodes').toFixed(0)} nodes at ${mean('time').toFixed(1)} ms, bestmove after ${mean('wall').toFixed(1)} ms`);
  x.e.quit();
}
setTimeout(() => process.exit(0), 1500);
