// A helper thread of the threads build in Node (threads.test.mjs and
// stop-worker.mjs): what js/engine/helper.js is in the browser.
//
// With `hook` in its message (an Int32Array over a SharedArrayBuffer; a
// test's, never the page's), the helper can be made to fail on purpose
// while it searches: hook[0] = TRAP makes its clock answer Infinity, so the
// module's next time reading panics and, its panics aborting, traps; hook[0]
// = EXIT ends the worker's thread from inside the search, with no word to
// anyone (process.exit in a worker thread). When the helper has told the
// module it is lost, it sets hook[1] to 1.
import { parentPort } from 'node:worker_threads';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';
import { EXIT, TRAP } from './common.mjs';

function failing(hook) {
  return {
    now_ms: () => (Atomics.load(hook, 0) === TRAP ? Infinity : performance.now()),
    should_stop: () => {
      if (Atomics.load(hook, 0) === EXIT) process.exit(0);
      return 0;
    },
  };
}

parentPort.once('message', ({ hook, ...message }) => {
  OwareWasm.runHelper(message, () => parentPort.postMessage({ type: 'running' }), hook ? failing(hook) : {})
    .catch((e) => {
      if (hook) {
        Atomics.store(hook, 1, 1);
        Atomics.notify(hook, 1);
      }
      parentPort.postMessage({ type: 'failed', message: String(e?.message || e) });
    });
});
