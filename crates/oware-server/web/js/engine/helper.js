// A helper thread of the engine's parallel search (the threads build,
// js/engine/wasm.js `startHelpers`): the engine's worker (worker.js)
// starts one of these per extra thread and sends it the compiled module,
// the shared memory and its stack and thread-local block. It says
// 'running' and then runs the engine's helper searches until the page
// closes (OwareWasm.runHelper never returns), or says 'failed' if the
// module trapped (the engine then searches without this helper).
import { OwareWasm } from './wasm.js';

self.onmessage = (event) => {
  OwareWasm.runHelper(event.data, () => self.postMessage({ type: 'running' }))
    .catch((e) => self.postMessage({ type: 'failed', message: String(e?.message || e) }));
};
