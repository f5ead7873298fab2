#!/usr/bin/env node
// The browser's engine, running in Chromium, as a UCI engine (the dialect of
// /work/shared/INTEROP.md, as `oware uci` speaks it), so `oware match` can
// play it against the native one (docs/WEB.md, "Matches in Chromium"). A
// tool, not part of the app:
//
//   OWARE_URL=http://127.0.0.1:PORT node e2e/chromium-uci.mjs [--threads N] [--module threads|simd|plain] [--no-tables]
//
// It launches Debian's Chromium (playwright-core, lib.mjs), opens the app's
// study page on the running server OWARE_URL (cross-origin isolated) and
// starts the engine's Web Worker there as the app does (js/engine/worker.js:
// the build the browser runs best, its helper workers, the stop flag in
// shared memory), then the server's endgame tables (as the app loads them
// before it plays). `--threads N` asks for N threads (the threads build;
// the app's own choice is min(cores, 4)), `--module` names a build (its
// address under /wasm/), `--no-tables` leaves the tables out.
//
// Commands: `uci`, `isready`, `ucinewgame` (the next search clears the
// table), `setoption name Hash|Level value V`, `position startpos|fen POS
// [moves M]`, `go` with `movetime`, `depth`, `nodes`, `infinite`, or
// `wtime`/`btime` [`winc`/`binc`] (a fifteenth of the mover's time left
// plus its increment, as the server gives its computer), `stop` (read while
// a search runs: the page writes the flag the search reads every 1,024
// nodes), `quit`. Each of the search's iterations is an `info` line, then
// `bestmove`. Other commands wait for a running search to end. `uci`
// answers at once; the browser and the engine start meanwhile, and say
// what they are (`info string`) before the first `readyok`.
import { createInterface } from 'node:readline';
import { launch, BASE } from './lib.mjs';
import { parsePosition, POSITION_ERROR, parseOption, goNumber, searchRequest } from './uci-words.mjs';

const say = (line) => process.stdout.write(`${line}\n`);

const args = process.argv.slice(2);
const arg = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const threads = arg('--threads') ? Number(arg('--threads')) : null;
const MODULES = { threads: '/wasm/oware-threads.wasm', simd: '/wasm/oware.wasm', plain: '/wasm/oware-plain.wasm' };
const module = arg('--module') ? MODULES[arg('--module')] : (threads ? MODULES.threads : null);
if (arg('--module') && !module) {
  console.error(`chromium-uci: --module is one of ${Object.keys(MODULES).join(', ')}`);
  process.exit(2);
}
const withTables = !args.includes('--no-tables');

// Each search's info lines, printed as the page hands them over; `bestmove`
// waits for all of them (`infosPrinted`).
const infos = new Map();
function printInfo(id, info) {
  say(`info depth ${info.depth} score cp ${info.score.cp} nodes ${info.nodes} time ${Math.round(info.elapsed_ms)} pv ${info.pv}`);
  const w = infos.get(id) || { printed: 0, wanted: Infinity, done: null };
  w.printed += 1;
  infos.set(id, w);
  if (w.printed >= w.wanted) w.done?.();
}
// Resolves once `wanted` infos of search `id` are printed, or after a
// second (one lost on the way).
function infosPrinted(id, wanted) {
  let timer;
  return new Promise((resolve) => {
    const w = infos.get(id) || { printed: 0 };
    infos.set(id, { ...w, wanted, done: resolve });
    if (w.printed >= wanted) resolve();
    timer = setTimeout(resolve, 1000);
  }).then(() => {
    clearTimeout(timer);
    infos.delete(id);
  });
}

// The browser and the engine, started at once; every command but `uci`
// and `stop` waits for them (`isready` answers once they are ready, as UCI
// wants: the match runner allows 10 s for `uciok`, 30 s for `readyok`).
let browser = null;
let page = null;
let ready = null;
const started = (async () => {
  browser = await launch();
  page = await browser.context.newPage();
  await page.exposeFunction('owareUciInfo', printInfo);
  await page.goto(`${BASE}/study`);
  ready = await page.evaluate(async ({ module, threads, withTables }) => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker('/js/engine/worker.js', { type: 'module' });
    const pending = new Map();
    const counts = new Map();
    const wait = {};
    worker.onmessage = ({ data }) => {
      if (data.type === 'info') {
        counts.set(data.id, (counts.get(data.id) || 0) + 1);
        window.owareUciInfo(data.id, data.info);
      } else if (data.type === 'answer') {
        pending.get(data.id)({ answer: data.answer, infos: counts.get(data.id) || 0 });
        pending.delete(data.id);
        counts.delete(data.id);
      } else if (wait[data.type]) wait[data.type](data);
      if (data.type === 'failed' && wait.ready) wait.ready(data);
    };
    const message = (type) => new Promise((resolve) => { wait[type] = resolve; });
    const init = { type: 'init', flag };
    if (module) init.module = module;
    if (threads) init.threads = threads;
    const readyP = message('ready');
    worker.postMessage(init);
    const r = await readyP;
    if (r.type !== 'ready') throw new Error(`the engine did not load: ${r.message}`);
    let tables = null;
    if (withTables) {
      const t = message('tables');
      worker.postMessage({ type: 'tables' });
      tables = (await t).seeds;
    }
    let next = 1;
    window.owareUci = {
      call: (request) => new Promise((resolve) => {
        const id = next++;
        pending.set(id, (a) => resolve({ id, ...a }));
        worker.postMessage({ type: 'call', id, request });
      }),
      // The flag holds the id of the request to stop (worker.js).
      stop: () => Atomics.store(flag, 0, next - 1),
    };
    return { version: r.version.version, module: r.module, threads: r.threads, tables, browser: navigator.userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] };
  }, { module, threads, withTables });
  say(`info string Oware ${ready.version}, WebAssembly in ${ready.browser}: ${ready.module}, ${ready.threads} threads, ${ready.tables != null ? `tables to ${ready.tables} seeds` : 'no tables'}`);
  if (threads && ready.threads !== threads) say(`info string error: ${ready.threads} threads, not ${threads}`);
})();
started.catch(async (e) => {
  say(`info string error: the engine did not start: ${e?.message || e}`);
  await quit(1);
});

const call = (request) => page.evaluate((r) => window.owareUci.call(r), request);

let start = 'start';
let moves = '';
let newGame = true;
let level = null;

function position(words) {
  const game = parsePosition(words);
  if (!game) { say(POSITION_ERROR); return; }
  ({ start, moves } = game);
}

// The side to move of the current position: S or N.
async function mover() {
  const r = (await call({ op: 'replay', game: { start, moves } })).answer;
  return r.ok ? r.to_move : 'S';
}

async function go(words) {
  const num = (k) => goNumber(words, k);
  const request = searchRequest(words, { start, moves }, newGame, level);
  if (num('wtime') !== undefined || num('btime') !== undefined) {
    const south = (await mover()) === 'S';
    const left = (south ? num('wtime') : num('btime')) ?? 0;
    const inc = (south ? num('winc') : num('binc')) ?? 0;
    request.movetime_ms = Math.max(1, Math.floor(left / 15 + inc));
  }
  newGame = false;
  const { id, answer: r, infos: reported } = await call(request);
  await infosPrinted(id, reported);
  if (!r.ok) {
    if (r.code !== 'game_over') say(`info string error: ${r.message}`);
    say('bestmove 0000');
    return;
  }
  say(`bestmove ${r.best || '0000'}`);
}

async function setoption(words) {
  const { name, value } = parseOption(words);
  if (name === 'hash') {
    const r = (await call({ op: 'hash', mb: Number(value) })).answer;
    if (!r.ok) say(`info string error: setoption Hash: ${r.message}`);
  } else if (name === 'level') level = Number(value) || null;
  else say(`info string setoption ${name}: not an option of this engine (ignored)`);
}

// Ends the tool: the browser closes with it (its pipe to this process
// closes), so do not wait long for a tidy close.
async function quit(status = 0) {
  if (browser) await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 300))]);
  process.exit(status);
}

async function command(words) {
  switch (words[0]) {
    case 'uci':
      say('id name Oware (WebAssembly in Chromium)');
      say('id author the Oware authors');
      say('option name Hash type spin default 16 min 1 max 256');
      say('option name Level type spin default 0 min 0 max 10');
      say('uciok');
      break;
    case 'isready': say('readyok'); break;
    case 'ucinewgame': newGame = true; break;
    case 'setoption': await setoption(words); break;
    case 'position': position(words.slice(1)); break;
    case 'go': await go(words.slice(1)); break;
    case 'quit': await quit(); break;
    case '': break;
    default: say(`info string error: unknown command '${words[0]}'`);
  }
}

// Commands run one after another; `stop` at once (the search is running).
let queue = Promise.resolve();
const rl = createInterface({ input: process.stdin });
rl.on('line', (raw) => {
  const words = raw.trim().split(/\s+/);
  if (words[0] === 'stop') {
    page?.evaluate(() => window.owareUci?.stop()).catch(() => {});
    return;
  }
  const after = words[0] === 'uci' ? queue : queue.then(() => started);
  queue = after.then(() => command(words)).catch((e) => say(`info string error: ${e?.message || e}`));
});
rl.on('close', () => { queue.then(quit); });
