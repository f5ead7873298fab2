// What the module answers for the offline pages and the matches, through
// the module itself: a puzzle of the shipped set judged and worded in
// French, a game's review in the server's shape, and the UCI wrapper
// (uci.mjs) that `oware match` drives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { engine, root } from './common.mjs';

const shipped = readFileSync(`${root}crates/oware-session/data/puzzles.txt`, 'utf8')
  .split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split(/\s+/));

test('a shipped puzzle offline: the same position, solved and failed in words', async () => {
  const e = await engine();
  const [id, position, line] = shipped[0];
  const p = e.call({ op: 'puzzle', id: Number(id), lang: 'fr' });
  assert.equal(p.ok, true, JSON.stringify(p));
  assert.equal(p.position, position);
  assert.equal(p.solution, undefined, 'no solution before an attempt');
  const solved = e.call({ op: 'puzzle_attempt', id: Number(id), moves: [line[0]], lang: 'fr' });
  assert.equal(solved.solved, true);
  assert.match(solved.text, /^Résolu\u00a0! /);
  assert.equal(solved.line.join(''), line.slice(0, solved.line.length));
  const legal = e.call({ op: 'position', text: position }).legal.split('');
  const wrong = legal.find((m) => m !== line[0]);
  const failed = e.call({ op: 'puzzle_attempt', id: Number(id), moves: [wrong], lang: 'fr' });
  assert.equal(failed.solved, false);
  assert.ok(failed.text.startsWith(`Pas ${wrong}\u00a0: le coup était ${line[0]}.`), failed.text);
  const next = e.call({ op: 'puzzle_next', rating: 1500, skip: [Number(id)], seed: 7 });
  assert.equal(next.ok, true);
  assert.notEqual(next.id, Number(id));
  assert.equal(e.call({ op: 'puzzle', id: 0 }).code, 'not_found');
});

test("a game's review in the server's shape", async () => {
  const e = await engine();
  const r = e.call({ op: 'review', game: { moves: 'FfAb' }, movetime_ms: 20 });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.plies.map((p) => `${p.ply}${p.side}${p.move}`), ['1SF', '2Nf', '3SA', '4Nb']);
  for (const p of r.plies) {
    assert.ok(p.loss_cp >= 0 && /^[A-Fa-f]$/.test(p.best) && typeof p.score.cp === 'number', JSON.stringify(p));
    assert.equal(p.eval_south_cp, p.side === 'S' ? p.score.cp : -p.score.cp);
  }
  // Each verdict is the coach's (`analyse`) on the position before the move.
  assert.equal(r.depth, 14);
  for (const [k, p] of r.plies.entries()) {
    const a = e.call({ op: 'analyse', game: { moves: 'FfAb'.slice(0, k) } });
    const m = a.moves.find((x) => x.move === p.move);
    assert.deepEqual([p.verdict, p.loss, p.best], [m.verdict, m.loss, a.best], JSON.stringify([p, m]));
  }
});

test('the UCI wrapper answers a match driver', async () => {
  const child = spawn(process.execPath, [`${root}e2e/wasm/uci.mjs`], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stdin.write('uci\nisready\nucinewgame\nsetoption name Hash value 8\nposition fen 0-0-0-0-0-2-2-2-0-1-2-0-17-22-S moves F\ngo depth 6\nquit\n');
  await new Promise((resolve) => child.on('exit', resolve));
  assert.match(out, /^id name Oware .* \(WebAssembly\)$/m);
  assert.match(out, /^uciok$/m);
  assert.match(out, /^readyok$/m);
  assert.match(out, /^bestmove [a-f]$/m, out);
  assert.doesNotMatch(out, /error/, out);
});
