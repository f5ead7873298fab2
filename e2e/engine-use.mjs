// The server's engine use with and without the browser's engine, for the
// same scripted session of computer games (docs/WEB.md, "Measured"; a
// measurement, not a test: forty games take longer than a test may).
// The session: GAMES games at level 1 from lib.mjs's ENDGAME (short ones,
// a few moves each), each played to its end by clicks from /play, in a
// Chromium context with WebAssembly (the browser's engine plays the
// computer) and in one without it (the server's engine is the fallback).
// The server's own counters (`oware_engine_searches_total{lane}` in
// /metrics) are read before and after each.
//
//   OWARE_URL=http://127.0.0.1:8080 node engine-use.mjs [games]

import { launch, BASE, startComputerGame, playToEnd, watchErrors } from './lib.mjs';

const GAMES = Number(process.argv[2] || 20);

async function searches() {
  const text = await (await fetch(`${BASE}/metrics`)).text();
  const read = (lane) => Number(text.match(new RegExp(`^oware_engine_searches_total\\{lane="${lane}"\\} (\\d+)$`, 'm'))[1]);
  return { game: read('game'), study: read('study') };
}

async function session(page) {
  const before = await searches();
  const t0 = Date.now();
  let computerMoves = 0;
  const engines = new Set();
  for (let i = 0; i < GAMES; i += 1) {
    await startComputerGame(page, BASE, { local: false });
    const ours = await playToEnd(page);
    const id = new URL(page.url()).pathname.split('/').pop();
    const g = await (await fetch(`${BASE}/api/v1/games/${id}`)).json();
    if (g.status !== 'over') throw new Error(`game ${id} is not over`);
    engines.add(g.engine);
    computerMoves += g.ply - ours;
  }
  const after = await searches();
  return { engines: [...engines].join(','), computerMoves, ms: Date.now() - t0, game: after.game - before.game, study: after.study - before.study };
}

const b = await launch();
try {
  const page = await b.context.newPage();
  const errors = watchErrors(page);
  const withWasm = await session(page);
  const ctx = await b.newContext();
  await ctx.addInitScript(() => { delete globalThis.WebAssembly; });
  const without = await session(await ctx.newPage());
  for (const [name, r] of [['with the browser engine', withWasm], ['without WebAssembly', without]]) {
    console.log(`${GAMES} games ${name} (game engine: ${r.engines}): ${r.computerMoves} computer moves in ${(r.ms / 1000).toFixed(1)} s; server searches: game lane +${r.game}, study lane +${r.study}`);
  }
  if (errors.length) console.log(`page errors: ${errors.join(' | ')}`);
} finally {
  await b.close();
}
