#!/usr/bin/env node
// The WebAssembly engine as a UCI engine (docs/INTEROP.md's dialect), so
// `oware match` can play it against the native one (docs/WEB.md, "Measured"):
//
//   oware match --engine1 "node e2e/wasm/uci.mjs --tables tablebases" \
//     --engine2 "oware uci --hash 16 --tablebases tablebases" --option2 OwnBook=true \
//     --games 100 --movetime 100
//
// The module is the checked-in `web/wasm/oware.wasm`, run by Node as the
// browser's worker runs it (`js/engine/wasm.js`): the same 16 MiB table,
// the built-in book, and the table files of 0..N seeds from `--tables DIR`
// (or `setoption name TablebaseDir value DIR`), as `oware tablebase build`
// writes them. Only what a match needs: `uci`, `isready`, `ucinewgame`,
// `setoption` (Hash, TablebaseDir, Level), `position`, `go` (movetime, depth,
// nodes), `quit`. A search runs to its limit: `stop` is not read during it.
// `--threads N` runs the threads build (`oware-threads.wasm`) on N threads,
// its helpers in workers of their own, as the browser runs it.

import { createInterface } from 'node:readline';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { engine, nodeHelpers, threadsModulePath } from './common.mjs';
import { parsePosition, POSITION_ERROR, parseOption, searchRequest } from '../uci-words.mjs';

const say = (line) => process.stdout.write(`${line}\n`);

const args = process.argv.slice(2);
const th = args.indexOf('--threads');
const threads = th >= 0 ? Number(args[th + 1]) : 1;
const eng = threads > 1 ? await engine({}, threadsModulePath) : await engine();
if (threads > 1 && (await eng.startHelpers(threads - 1, nodeHelpers([]))) !== threads) {
  say(`info string error: ${threads} threads did not start`);
}
let start = 'start';
let moves = '';
let newGame = true;
let level = null;

function loadTables(dir) {
  let n = 0;
  while (existsSync(join(dir, `oware-tb-${String(n).padStart(2, '0')}.otb`))) {
    eng.addTable(readFileSync(join(dir, `oware-tb-${String(n).padStart(2, '0')}.otb`)));
    n += 1;
  }
  if (!n) { say(`info string error: no table files in ${dir}`); return; }
  const r = eng.call({ op: 'tables' });
  say(r.ok ? `info string tables up to ${r.max_seeds} seeds` : `info string error: ${r.message}`);
}

const t = args.indexOf('--tables');
if (t >= 0 && args[t + 1]) loadTables(args[t + 1]);

function go(words) {
  const request = searchRequest(words, { start, moves }, newGame, level);
  newGame = false;
  const r = eng.call(request);
  if (!r.ok) {
    if (r.code !== 'game_over') say(`info string error: ${r.message}`);
    say('bestmove 0000');
    return;
  }
  const score = r.score.win_in != null ? `win ${r.score.win_in}` : r.score.loss_in != null ? `loss ${r.score.loss_in}` : `cp ${r.score.cp}`;
  say(`info depth ${r.depth} score ${score} nodes ${r.nodes} time ${Math.round(r.elapsed_ms)} pv ${r.pv.split('').join(' ')}`);
  say(`bestmove ${r.best}`);
}

function position(words) {
  const game = parsePosition(words);
  if (!game) { say(POSITION_ERROR); return; }
  ({ start, moves } = game);
}

function setoption(words) {
  const { name, value } = parseOption(words);
  if (name === 'hash') {
    const r = eng.call({ op: 'hash', mb: Number(value) });
    if (!r.ok) say(`info string error: setoption Hash: ${r.message}`);
  } else if (name === 'tablebasedir') loadTables(value);
  else if (name === 'level') level = Number(value) || null;
  else say(`info string setoption ${name}: not an option of the WebAssembly engine (ignored)`);
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (raw) => {
  const words = raw.trim().split(/\s+/);
  switch (words[0]) {
    case 'uci':
      say(`id name Oware ${eng.call({ op: 'version' }).version} (WebAssembly)`);
      say('id author the Oware authors');
      say('option name Hash type spin default 16 min 1 max 256');
      say('option name TablebaseDir type string default <empty>');
      say('option name Level type spin default 0 min 0 max 10');
      say('uciok');
      break;
    case 'isready': say('readyok'); break;
    case 'ucinewgame': newGame = true; break;
    case 'setoption': setoption(words); break;
    case 'position': position(words.slice(1)); break;
    case 'go': go(words.slice(1)); break;
    case 'stop': break;
    case 'quit': process.exit(0); break;
    case '': break;
    default: say(`info string error: unknown command '${words[0]}'`);
  }
});
rl.on('close', () => process.exit(0));
