// The worker of the stop tests (engine.test.mjs, threads.test.mjs): one
// engine, the stop flag in shared memory; for each request the first
// iteration's report, then the answer. With `threads` (the threads build) it first starts that
// many threads in all, as the browser's worker does, and says how many
// (with `hook`, helpers a test can make fail: helper-worker.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';
import { nodeHelpers } from './common.mjs';

let reported = false;
const e = await OwareWasm.instantiate(readFileSync(workerData.modulePath), {
  stop: workerData.flag,
  onInfo: (info) => { if (!reported) { reported = true; parentPort.postMessage(info); } },
});
if (workerData.threads) {
  parentPort.postMessage({ threads: await e.startHelpers(workerData.threads - 1, nodeHelpers([], workerData.hook)) });
}
parentPort.on('message', (req) => {
  reported = false;
  parentPort.postMessage(e.call(req));
});
