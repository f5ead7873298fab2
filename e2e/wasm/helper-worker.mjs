// A helper thread of the threads build in Node (threads.test.mjs and
// stop-worker.mjs): what js/engine/helper.js is in the browser.
import { parentPort } from 'node:worker_threads';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';

parentPort.once('message', (message) => {
  OwareWasm.runHelper(message, () => parentPort.postMessage({ type: 'running' }))
    .catch((e) => parentPort.postMessage({ type: 'failed', message: String(e?.message || e) }));
});
