// The worker of engine.test.mjs's stop test: one engine, the stop flag in
// shared memory, the first iteration's report, then the answer.
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';

let reported = false;
const e = await OwareWasm.instantiate(readFileSync(workerData.modulePath), {
  stop: workerData.flag,
  onInfo: (info) => { if (!reported) { reported = true; parentPort.postMessage(info); } },
});
parentPort.on('message', (req) => parentPort.postMessage(e.call(req)));
