// The page's side of the WebAssembly module's hand-made glue
// (crates/oware-wasm/src/lib.rs; docs/WEB.md, "The engine in the browser").
// Used by the Web Worker (worker.js) and by the Node tests (e2e/wasm/):
// no DOM, no fetch here.
//
//   const engine = await OwareWasm.instantiate(bytesOrModule, { stop, onInfo });
//   engine.call({ op: 'search', game: { moves: 'FfA' }, level: 10, movetime_ms: 1000 });
//   engine.addTable(bytesOfTheNextTableFile); engine.call({ op: 'tables' });
//
// `stop` is an Int32Array (over a SharedArrayBuffer when the page can share
// memory with the worker): a nonzero stop[0] stops the running search at
// its next check (every 1,024 nodes); or `shouldStop`, a function read at
// those checks instead. `onInfo` receives each completed iteration of a
// search as an object.

// The engine comes in two builds of the same code (scripts/build-wasm.sh):
// `oware.wasm` with WebAssembly SIMD (the network's inference in 128-bit
// vectors) and `oware-plain.wasm` without, for browsers that cannot run
// SIMD (Safari before 16.4, Chrome before 91, Firefox before 89). Both
// search the same nodes and answer the same; the SIMD one is faster.
export const SIMD_MODULE = '/wasm/oware.wasm';
export const PLAIN_MODULE = '/wasm/oware-plain.wasm';

// The smallest module that uses SIMD: one function `() -> v128` returning
// `v128.const 0`. A browser without SIMD refuses it. (sw.js holds a copy,
// to keep the same build; e2e/wasm/engine.test.mjs checks they are equal.)
export const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, // code: no locals, v128.const
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b, // 16 zero bytes, end
]);

/** Whether this WebAssembly engine runs SIMD (`validate` for tests). */
export function hasSimd(validate = (bytes) => WebAssembly.validate(bytes)) {
  try {
    return validate(SIMD_PROBE) === true;
  } catch (e) {
    return false;
  }
}

/** The address of the build this browser should load. */
export function moduleUrl(validate) {
  return hasSimd(validate) ? SIMD_MODULE : PLAIN_MODULE;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class OwareWasm {
  constructor(instance, state) {
    this.exports = instance.exports;
    this.state = state;
  }

  /** Instantiates the module from its bytes or a compiled WebAssembly.Module. */
  static async instantiate(source, { stop = new Int32Array(1), shouldStop, onInfo = () => {}, now = () => performance.now() } = {}) {
    const state = { memory: null, onInfo, shouldStop: shouldStop || (() => Atomics.load(stop, 0) !== 0) };
    const env = {
      now_ms: now,
      should_stop: () => (state.shouldStop() ? 1 : 0),
      report: (ptr, len) => {
        const text = decoder.decode(new Uint8Array(state.memory.buffer, ptr, len).slice());
        state.onInfo(JSON.parse(text));
      },
    };
    const result = source instanceof WebAssembly.Module
      ? await WebAssembly.instantiate(source, { env })
      : (await WebAssembly.instantiate(source, { env })).instance;
    state.memory = result.exports.memory;
    return new OwareWasm(result, state);
  }

  /** Copies bytes into the module's input buffer. */
  write(bytes) {
    const ptr = this.exports.oware_input(bytes.length);
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
  }

  /** Sends one request (an object) and returns the answer (an object). */
  call(request) {
    this.write(encoder.encode(JSON.stringify(request)));
    const len = this.exports.oware_call();
    const ptr = this.exports.oware_output();
    return JSON.parse(decoder.decode(new Uint8Array(this.exports.memory.buffer, ptr, len).slice()));
  }

  /** Adds the next table file (0, 1, 2, … seeds); `call({op:'tables'})` installs them. */
  addTable(bytes) {
    this.write(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
    return this.exports.oware_add_table();
  }

}
