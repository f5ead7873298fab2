// The browser launched by e2e/lib.mjs gets its launcher's scheduler
// priority (`browserAtOurPriority`): Linux shares the CPU between
// sessions (autogroups) first, playwright starts the browser in a session
// of its own, and a timing run under scripts/timing-run.sh must cover the
// browser too (docs/ENGINE.md, "Threads on a shared machine"). Checked
// without a browser: a launcher in a session of its own starts a child in
// another session, as playwright does, and hands it its priority. A lower
// priority (nice 5) is used, which needs no privilege.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lib = fileURLToPath(new URL('../lib.mjs', import.meta.url));

// The launcher: sets its own session's autogroup nice to NICE (unless it
// is 0), starts `sleep` in a new session, calls `browserAtOurPriority`
// and prints what it returned and the child's autogroup line.
const launcher = `
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
const { browserAtOurPriority } = await import(process.argv[1]);
const nice = process.argv[2];
if (nice !== '0') writeFileSync('/proc/self/autogroup', nice);
const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
await new Promise((resolve) => child.once('spawn', resolve));
const before = readFileSync('/proc/' + child.pid + '/autogroup', 'utf8').trim();
const changed = browserAtOurPriority();
const after = readFileSync('/proc/' + child.pid + '/autogroup', 'utf8').trim();
child.kill();
console.log(JSON.stringify({ changed, before, after, own: readFileSync('/proc/self/autogroup', 'utf8').trim() }));
`;

// Runs the launcher in a session of its own (setsid) with `nice`.
function run(nice) {
  return new Promise((resolve, reject) => {
    execFile('setsid', ['--wait', process.execPath, '--input-type=module', '-e', launcher, lib, nice],
      { timeout: 20000 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop()));
      });
  });
}

const autogroups = existsSync('/proc/self/autogroup');

test('a launcher at a lower session priority hands it to the session of its child', { skip: !autogroups && 'no scheduler autogroups here' }, async () => {
  const r = await run('5');
  assert.match(r.own, /nice 5$/);
  assert.match(r.before, /nice 0$/, 'the child starts in a session of its own, at the usual priority');
  assert.ok(r.changed >= 1, JSON.stringify(r));
  assert.match(r.after, /nice 5$/);
});

test('at the usual priority nothing is changed', { skip: !autogroups && 'no scheduler autogroups here' }, async () => {
  const r = await run('0');
  assert.match(r.own, /nice 0$/);
  assert.equal(r.changed, 0);
  assert.match(r.after, /nice 0$/);
});
