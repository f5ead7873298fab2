// The browser's engine in Chromium as a UCI engine (e2e/chromium-uci.mjs,
// the tool docs/WEB.md's matches in Chromium are played with): it speaks
// the dialect (the handshake, info lines, a legal bestmove, bestmove 0000
// when the game is over, a stop while it searches), and `oware match`
// plays it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BASE } from '../lib.mjs';
import { engine } from '../wasm/common.mjs';

const tool = fileURLToPath(new URL('../chromium-uci.mjs', import.meta.url));

/** The tool in a process of its own: `send` a line, `line(re, ms)` the next
 * line matching `re` (the others are kept in `seen`). */
function start(args) {
  const p = spawn(process.execPath, [tool, ...args], { env: { ...process.env, OWARE_URL: BASE }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  const seen = [];
  let waiter = null;
  let buf = '';
  p.stdout.setEncoding('utf8');
  p.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
    waiter?.();
  });
  const exited = new Promise((r) => p.on('exit', r));
  const line = (re, ms = 60_000) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => { waiter = null; reject(new Error(`no line like ${re} within ${ms} ms; seen:\n${seen.join('\n')}`)); }, ms);
    waiter = () => {
      while (lines.length) {
        const l = lines.shift();
        seen.push(l);
        if (re.test(l)) {
          clearTimeout(timer);
          waiter = null;
          resolve(l);
          return;
        }
      }
    };
    waiter();
  });
  return { p, seen, line, exited, send: (l) => p.stdin.write(`${l}\n`) };
}

test('the engine in Chromium speaks the UCI dialect', async () => {
  const u = start(['--threads', '2']);
  try {
    u.send('uci');
    assert.equal(await u.line(/^id name /), 'id name Oware (WebAssembly in Chromium)');
    await u.line(/^uciok$/);
    assert.ok(u.seen.includes('option name Hash type spin default 16 min 1 max 256'), u.seen.join('\n'));
    u.send('setoption name Hash value 32');
    u.send('isready');
    await u.line(/^readyok$/);
    // Before it: what runs, once the browser and the engine are ready.
    assert.ok(u.seen.some((l) => /^info string Oware \S+, WebAssembly in Chrom\S+: \/wasm\/oware-threads\.wasm, 2 threads, tables to 12 seeds$/.test(l)), u.seen.join('\n'));

    // A search to a depth: its iterations, then a legal move.
    u.send('ucinewgame');
    u.send('position startpos moves FfAaBb');
    u.send('go depth 8');
    const best = await u.line(/^bestmove /);
    const infos = u.seen.filter((l) => l.startsWith('info depth '));
    assert.ok(infos.length >= 1, u.seen.join('\n'));
    for (const l of infos) assert.match(l, /^info depth \d+ score cp -?\d+ nodes \d+ time \d+ pv [A-Fa-f]+$/);
    assert.match(infos.at(-1), /^info depth 8 /);
    const legal = (await engine()).call({ op: 'replay', game: { moves: 'FfAaBb' } }).legal;
    assert.ok(legal.includes(best.slice('bestmove '.length)), `${best}: legal are ${legal}`);

    // A stop while it searches a minute: the best move so far, at once.
    u.send('position fen 6-6-1-6-6-1-0-7-7-1-1-6-0-0-S');
    u.send('go movetime 60000');
    await u.line(/^info depth /);
    const t = performance.now();
    u.send('stop');
    const stopped = await u.line(/^bestmove /, 10_000);
    const ms = performance.now() - t;
    console.log(`# stop to bestmove through Chromium: ${ms.toFixed(1)} ms`);
    assert.match(stopped, /^bestmove [A-F]$/);
    assert.ok(ms < 1_000, `${ms} ms`);

    // A game over (South has taken 25): no move.
    u.send('position fen 0-0-0-0-0-1-1-0-0-0-0-0-25-21-S');
    u.send('go movetime 100');
    assert.equal(await u.line(/^bestmove /), 'bestmove 0000');

    u.send('quit');
    assert.equal(await u.exited, 0);
  } finally {
    // (The browser ends with the tool: its pipe to it closes.)
    u.p.kill('SIGKILL');
  }
});

test('oware match plays the engine in Chromium', { skip: !process.env.OWARE_BIN && 'OWARE_BIN is not set' }, async () => {
  const out = await new Promise((resolve, reject) => {
    execFile(process.env.OWARE_BIN, ['match', '--engine1', `${process.execPath} ${tool} --threads 2`, '--engine2', `${process.env.OWARE_BIN} uci --hash 16`,
      '--games', '2', '--movetime', '20', '--random-plies', '4', '--seed', '1'],
    { env: { ...process.env, OWARE_URL: BASE }, timeout: 170_000 }, (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stdout}\n${stderr}`)) : resolve(stdout + stderr)));
  });
  console.log(out.split('\n').map((l) => `# ${l}`).join('\n'));
  // Both games ended by the rules: no fault (a timeout, an illegal move, a
  // crash) lost one.
  assert.match(out, /games 2 {2}W \d+ {2}D \d+ {2}L \d+ {2}\(engine1's view; 0 lost by an engine fault\)/);
});
