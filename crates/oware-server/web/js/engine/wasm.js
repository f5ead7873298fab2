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

// The engine comes in three builds of the same code (scripts/build-wasm.sh):
// `oware.wasm` with WebAssembly SIMD (the network's inference in 128-bit
// vectors), `oware-plain.wasm` without, for browsers that cannot run SIMD
// (Safari before 16.4, Chrome before 91, Firefox before 89), and
// `oware-threads.wasm`, SIMD with shared memory and atomics, whose searches
// run on several threads (one Web Worker each: `startHelpers`) where the
// page is cross-origin isolated. All search the same nodes on one thread
// and answer the same; SIMD is faster, and threads more so.
export const SIMD_MODULE = '/wasm/oware.wasm';
export const PLAIN_MODULE = '/wasm/oware-plain.wasm';
export const THREADS_MODULE = '/wasm/oware-threads.wasm';

// The threads build's memory, which the page makes (shared) and every
// instance imports: in 64 KiB pages, its initial size and the most it may
// grow to, as linked (scripts/build-wasm.sh's --initial-memory and
// --max-memory; e2e/wasm/threads.test.mjs reads them from the module).
export const THREADS_MEMORY = { initial: 32, maximum: 8192 };
// Each helper thread's stack, as the engine's own (Rust's default 1 MiB).
export const HELPER_STACK = 1 << 20;

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

// The smallest module with a shared memory and an atomic instruction:
// one function `() -> i32` doing `i32.atomic.load` at 0. A browser without
// WebAssembly threads refuses it.
export const THREADS_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // types: () -> i32
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x05, 0x04, 0x01, 0x03, 0x01, 0x01, // one memory: shared, 1 page, at most 1
  0x0a, 0x0a, 0x01, 0x08, 0x00, // code: no locals
  0x41, 0x00, 0xfe, 0x10, 0x02, 0x00, 0x0b, // i32.const 0, i32.atomic.load, end
]);

function validates(bytes, validate) {
  try {
    return validate(bytes) === true;
  } catch (e) {
    return false;
  }
}

const wasmValidate = (bytes) => WebAssembly.validate(bytes);

/** Whether this WebAssembly engine runs SIMD (`validate` for tests). */
export function hasSimd(validate = wasmValidate) {
  return validates(SIMD_PROBE, validate);
}

/** Whether this context can run the threads build: it may share memory
 * (cross-origin isolated, `SharedArrayBuffer`), start workers from a
 * worker, and its WebAssembly runs threads and SIMD. `scope` and
 * `validate` for tests. */
export function hasThreads(validate = wasmValidate, scope = globalThis) {
  return scope.crossOriginIsolated === true
    && typeof scope.SharedArrayBuffer === 'function'
    && typeof scope.Atomics === 'object'
    && typeof scope.Worker === 'function'
    && validates(THREADS_PROBE, validate)
    && hasSimd(validate);
}

/** The address of the build this browser should load. */
export function moduleUrl(validate, scope) {
  if (hasThreads(validate, scope)) return THREADS_MODULE;
  return hasSimd(validate) ? SIMD_MODULE : PLAIN_MODULE;
}

// A thread's own memory, from the engine's allocator (memory it keeps for
// as long as the page): its thread-local block and, with `stack` bytes,
// the top of its stack.
function threadMemory(exports, stack = 0) {
  const tls = exports.oware_thread_memory(exports.__tls_size.value, exports.__tls_align.value);
  const base = stack ? exports.oware_thread_memory(stack, 16) : 0;
  return { tls, stack: base ? base + stack : 0 };
}

function importsMemory(module) {
  return WebAssembly.Module.imports(module).some((i) => i.kind === 'memory');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class OwareWasm {
  constructor(instance, state) {
    this.exports = instance.exports;
    this.state = state;
  }

  /** Instantiates the module from its bytes or a compiled WebAssembly.Module
   * (the threads build with a new shared memory, `memory` for tests). */
  static async instantiate(source, { stop = new Int32Array(1), shouldStop, onInfo = () => {}, now = () => performance.now(), memory } = {}) {
    const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
    const state = { memory: null, onInfo, shouldStop: shouldStop || (() => Atomics.load(stop, 0) !== 0) };
    const env = {
      now_ms: now,
      should_stop: () => (state.shouldStop() ? 1 : 0),
      report: (ptr, len) => {
        const text = decoder.decode(new Uint8Array(state.memory.buffer, ptr, len).slice());
        state.onInfo(JSON.parse(text));
      },
    };
    if (importsMemory(module)) env.memory = memory || new WebAssembly.Memory({ ...THREADS_MEMORY, shared: true });
    const instance = await WebAssembly.instantiate(module, { env });
    // Every instance of the threads build needs its own thread-local block
    // before any other call (wasm-ld sets none up, even for the first).
    if (env.memory) instance.exports.__wasm_init_tls(threadMemory(instance.exports).tls);
    state.memory = env.memory || instance.exports.memory;
    const engine = new OwareWasm(instance, state);
    engine.module = module;
    return engine;
  }

  /** Whether this is the threads build (its memory is shared). */
  get threaded() {
    return typeof this.exports.oware_helper === 'function';
  }

  /** Starts `count` helper threads for the engine's searches, each in a
   * worker that `spawn(message)` starts and sends `message` to; that
   * worker calls `OwareWasm.runHelper(message)` and posts 'running'.
   * `spawn` resolves once it did. Then sets the engine's threads (the
   * helpers and itself) and answers how many it has: 1 when this is not
   * the threads build or no helper started within `timeoutMs`. */
  async startHelpers(count, spawn, { timeoutMs = 10_000 } = {}) {
    if (!this.threaded || count < 1) return 1;
    const started = [];
    for (let i = 0; i < count; i += 1) {
      const { stack, tls } = threadMemory(this.exports, HELPER_STACK);
      if (!stack || !tls) break;
      started.push(spawn({ module: this.module, memory: this.state.memory, stack, tls }));
    }
    const ran = (await Promise.allSettled(started)).filter((r) => r.status === 'fulfilled').length;
    // Each helper counts itself in its loop, a moment after it said it
    // started: wait for that, so no search waits for a helper that is not
    // there.
    const until = Date.now() + timeoutMs;
    while (this.exports.oware_helpers() < ran && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 2));
    }
    const r = this.call({ op: 'threads', threads: 1 + this.exports.oware_helpers() });
    return r.ok ? r.threads : 1;
  }

  /** A helper thread's side (in its worker): instantiates the module over
   * the engine's memory, gives it its own stack and thread-locals, calls
   * `running()`, then runs the engine's helper searches forever. Should
   * the module trap there (a bug: a panic aborts), the helper tells the
   * module it is lost, so the engine's searches stop waiting for it and
   * run on the threads left, and the promise rejects with the trap.
   * `imports` replaces some of the helper's imports (tests only: a clock
   * that makes the module trap). */
  static async runHelper({ module, memory, stack, tls }, running = () => {}, imports = {}) {
    const env = {
      memory,
      now_ms: () => performance.now(),
      // The engine stops its helpers itself when its own search ends.
      should_stop: () => 0,
      report: () => {},
      ...imports,
    };
    const instance = await WebAssembly.instantiate(module, { env });
    instance.exports.__stack_pointer.value = stack;
    instance.exports.__wasm_init_tls(tls);
    running();
    try {
      instance.exports.oware_helper();
    } catch (e) {
      // The trap left the stack pointer wherever it was.
      instance.exports.__stack_pointer.value = stack;
      instance.exports.oware_helper_lost();
      throw e;
    }
  }

  /** Copies bytes into the module's input buffer. */
  write(bytes) {
    const ptr = this.exports.oware_input(bytes.length);
    new Uint8Array(this.state.memory.buffer, ptr, bytes.length).set(bytes);
  }

  /** Sends one request (an object) and returns the answer (an object). */
  call(request) {
    this.write(encoder.encode(JSON.stringify(request)));
    const len = this.exports.oware_call();
    const ptr = this.exports.oware_output();
    return JSON.parse(decoder.decode(new Uint8Array(this.state.memory.buffer, ptr, len).slice()));
  }

  /** Adds the next table file (0, 1, 2, … seeds); `call({op:'tables'})` installs them. */
  addTable(bytes) {
    this.write(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
    return this.exports.oware_add_table();
  }

}
