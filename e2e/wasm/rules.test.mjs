// The rules data files of oware-core (R1-R13, E1-E12) and its perft
// vectors, answered by the WebAssembly module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine, readCases, root } from './common.mjs';

const data = `${root}crates/oware-core/tests/data/`;
// IllegalMove variants as the data names them, and the core's codes.
const CODES = { GameOver: 'game_over', NotYourHouse: 'not_your_house', EmptyHouse: 'empty_house', MustFeed: 'must_feed' };

test('every rule and worked example holds in the browser engine', async () => {
  const e = await engine();
  const cases = [...readCases(`${data}examples.txt`), ...readCases(`${data}rules.txt`)];
  const tags = new Set();
  let checked = 0;
  for (const c of cases) {
    const id = c.get('id');
    for (const r of (c.get('rules') || '').split(/\s+/)) tags.add(r);
    if (/^E\d+$/.test(id)) tags.add(id);
    for (const text of c.all('invalid')) {
      const r = e.call({ op: 'position', text });
      assert.equal(r.ok, false, `${id}: ${text} should be refused`);
      assert.equal(r.code, 'invalid_position', `${id}: ${text}`);
      checked++;
    }
    const pos = c.get('pos');
    if (pos === undefined) continue;
    const illegal = c.all('illegal').map((s) => s.split(' '));
    const r = e.call({
      op: 'replay',
      game: { start: pos, moves: c.get('moves') || '' },
      action: c.get('action'),
      check: illegal.map(([m]) => m),
    });
    assert.equal(r.ok, true, `${id}: ${JSON.stringify(r)}`);
    const after = c.get('after');
    if (after) assert.equal(r.position, after, `${id}: position after the moves`);
    const captured = c.get('captured');
    if (captured) assert.equal(String(r.last.captured.reduce((a, [, n]) => a + n, 0)), captured, `${id}: captured`);
    const sown = c.get('sown');
    if (sown) assert.equal(r.last.sown.join(''), sown, `${id}: houses sown`);
    const legal = c.get('legal');
    if (legal) assert.equal(r.legal.join(''), legal === '-' ? '' : legal, `${id}: legal moves`);
    illegal.forEach(([m, why], i) => {
      assert.equal(r.checks[i].legal, false, `${id}: ${m} should be illegal`);
      assert.equal(r.checks[i].code, CODES[why], `${id}: ${m}`);
    });
    const toMove = c.get('to-move');
    if (toMove) assert.equal(r.to_move, toMove, `${id}: side to move`);
    if (c.get('ongoing') !== undefined) assert.equal(r.status, 'playing', `${id}: should go on`);
    const fin = c.get('final');
    if (fin) {
      assert.ok(r.result, `${id}: should be over`);
      const o = r.result;
      assert.equal(`${o.totals.south}-${o.totals.north} ${o.reason} ${o.winner}`, fin, `${id}: outcome`);
    }
    const overAt = c.get('over-at');
    if (overAt) assert.equal(r.over_at, Number(overAt), `${id}: ended at ply`);
    checked++;
  }
  for (let i = 1; i <= 13; i++) assert.ok(tags.has(`R${i}`), `R${i} has a case`);
  for (let i = 1; i <= 12; i++) assert.ok(tags.has(`E${i}`), `E${i} has a case`);
  assert.ok(checked >= cases.length, `${checked} checks for ${cases.length} cases`);
});

test('perft vectors match, and perft 10 is timed', async () => {
  const e = await engine();
  let vectors = 0;
  for (const file of ['perft.txt', 'own.perft']) {
    for (const c of readCases(`${data}${file}`)) {
      const pos = c.get('pos');
      for (const line of c.all('perft')) {
        const [d, n] = line.split(' ').map(Number);
        // The larger counts take seconds each; the core's own tests run them.
        if (n > 20_000_000) continue;
        const r = e.call({ op: 'perft', position: pos, depth: d });
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.equal(r.nodes, n, `${c.get('id')}: perft ${d}`);
        vectors++;
      }
    }
  }
  assert.ok(vectors > 20, `${vectors} vectors`);
  const t = performance.now();
  const r = e.call({ op: 'perft', position: 'start', depth: 10 });
  const ms = performance.now() - t;
  console.log(`# perft 10 from the start: ${r.nodes} in ${ms.toFixed(0)} ms in Node ${process.version}`);
});

test('bad requests are refused with the server\'s codes, not a crash', async () => {
  const e = await engine();
  // code.reason, as the web client's words are keyed (err.<code>.<reason>).
  const cases = [
    [{ op: 'fly' }, 'malformed'],
    [{ op: 'perft', position: 'start' }, 'malformed'],
    [{ op: 'perft', position: '1-2-3', depth: 2 }, 'invalid_position.field_count'],
    [{ op: 'perft', position: 'start', depth: 40 }, 'invalid_request.too_deep'],
    [{ op: 'replay', game: { moves: 'Fz' } }, 'invalid_move.bad_letter'],
    [{ op: 'replay', game: { moves: 'FF' } }, 'illegal_move.not_your_house'],
    [{ op: 'replay', game: { moves: 'F' }, action: 'dance' }, 'invalid_request.bad_action'],
    [{ op: 'search', game: { start: '0-0-0-0-0-0-0-0-0-0-0-0-24-24-S' }, depth: 3 }, 'game_over'],
    [{ op: 'tables' }, 'invalid_request.no_tables'],
  ];
  for (const [req, code] of cases) {
    const r = e.call(req);
    assert.equal(r.ok, false, JSON.stringify(req));
    assert.equal(r.reason ? `${r.code}.${r.reason}` : r.code, code, `${JSON.stringify(req)}: ${r.message}`);
    assert.ok(r.message.length > 0);
  }
  // Still answers after the refusals.
  assert.deepEqual(e.call({ op: 'replay', game: { moves: 'F' } }).legal, [...'abcdef']);
  // Not UTF-8.
  e.write(new Uint8Array([0xff, 0xfe]));
  const len = e.exports.oware_call();
  const text = new TextDecoder().decode(new Uint8Array(e.exports.memory.buffer, e.exports.oware_output(), len));
  assert.equal(JSON.parse(text).code, 'malformed');
});
