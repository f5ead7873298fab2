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
//   node e2e/wasm/time-to-depth.mjs /path/to/oware [depth] [rounds] [module.wasm ...]
//
// The modules default to the two checked-in builds (oware.wasm, with SIMD,
// and oware-plain.wasm).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { OwareWasm } from '../../crates/oware-server/web/js/engine/wasm.js';
import { root } from './common.mjs';
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
for (const path of modules) {
  const engine = await OwareWasm.instantiate(readFileSync(path));
  // V8 compiles a module's hot functions with its optimising compiler
  // only once they ran a while; a user's first search pays for that, the
  // later ones do not. Measured here: the later ones.
  engine.call({ op: 'bench', depth: 12, hash_mb: 16 });
  engines.push({ name: basename(path), call: (request) => engine.call(request) });
}
console.log(`Node ${process.version}, ${modules.length} modules, depth ${depth}, ${rounds} rounds`);
await timeToDepth({ bin, depth, rounds, engines, label: ' in Node' });
