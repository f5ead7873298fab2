// Time to a fixed depth, the WebAssembly modules in Node against the
// native engine (docs/WEB.md, "Measured"; a measurement, not a test).
// For each round and each position of depth.mjs: the native
// `oware uci --hash 16 --no-tablebases` (`go depth D` in a fresh process),
// then each module (`search` to depth D in a cleared 16 MiB table), the
// order of the modules turned round every other round, so all of them run
// in the same minutes. The node counts must be the native ones (the same
// search). Prints each search, then per position and in all the median
// times and the ratio native time / module time (1 is native speed).
//
//   node e2e/wasm/time-to-depth.mjs /path/to/oware [depth] [rounds] [module.wasm[:T] | native:T ...]
//
// The modules default to the two one-thread builds (oware.wasm, with SIMD,
// and oware-plain.wasm). `module.wasm:T` runs the threads build on T
// threads (helpers in Node workers, as the browser's); `native:T` adds the
// native engine on T threads. With more than one thread only the depth is
// checked (the node count depends on timing).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';
import { nodeHelpers, root } from './common.mjs';
import { timeToDepth } from './depth.mjs';

const [bin, depthArg, roundsArg, ...moduleArgs] = process.argv.slice(2);
if (!bin) {
  console.error('usage: node time-to-depth.mjs /path/to/oware [depth] [rounds] [module.wasm ...]');
  process.exit(2);
}
const depth = Number(depthArg || 20);
const rounds = Number(roundsArg || 3);
const modules = moduleArgs.length
  ? moduleArgs
  : ['oware.wasm', 'oware-plain.wasm'].map((m) => `${root}crates/oware-server/web/wasm/${m}`);

const engines = [];
for (const arg of modules) {
  const [path, t] = arg.split(':');
  const threads = Number(t || 1);
  if (path === 'native') {
    engines.push({ name: `native ${threads} threads`, native: threads });
    continue;
  }
  const engine = await OwareWasm.instantiate(readFileSync(path));
  if (threads > 1) {
    const n = await engine.startHelpers(threads - 1, nodeHelpers([]));
    if (n !== threads) throw new Error(`${arg}: ${n} threads started`);
  }
  // V8 compiles a module's hot functions with its optimising compiler
  // only once they ran a while; a user's first search pays for that, the
  // later ones do not. Measured here: the later ones.
  engine.call({ op: 'bench', depth: 12, hash_mb: 16 });
  engines.push({ name: `${basename(path)}${threads > 1 ? `:${threads}` : ''}`, threads, call: (request) => engine.call(request) });
}
console.log(`Node ${process.version}, ${modules.length} modules, depth ${depth}, ${rounds} rounds`);
await timeToDepth({ bin, depth, rounds, engines, label: ' in Node' });
