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
