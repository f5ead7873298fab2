// The UCI words both engine adapters read (e2e/wasm/uci.mjs, the module in
// Node; e2e/chromium-uci.mjs, the app's engine in Chromium), parsed once.

// `position startpos|fen POS [moves …]` (the words after `position`): the
// module's game `{ start, moves }`, or null when it is not that.
export function parsePosition(words) {
  const m = words.indexOf('moves');
  const head = m >= 0 ? words.slice(0, m) : words;
  let start;
  if (head[0] === 'startpos') start = 'start';
  else if (head[0] === 'fen' && head[1]) start = head[1];
  else return null;
  return { start, moves: m >= 0 ? words.slice(m + 1).join('') : '' };
}

export const POSITION_ERROR = 'info string error: expected position startpos|fen POS [moves …]';

// `setoption name NAME [value V]`: the name in small letters, and the value.
export function parseOption(words) {
  const v = words.indexOf('value');
  return {
    name: words.slice(1, v >= 0 ? v : undefined).join(' ').toLowerCase(),
    value: v >= 0 ? words.slice(v + 1).join(' ') : '',
  };
}

// The number after `key` in the words of `go`, if any.
export function goNumber(words, key) {
  const i = words.indexOf(key);
  return i >= 0 ? Number(words[i + 1]) : undefined;
}

// The module's search request for the words of `go` (movetime, depth,
// nodes) on `game`, at `level` if one is set.
export function searchRequest(words, game, newGame, level) {
  const request = { op: 'search', game, new_game: newGame };
  for (const [key, field] of [['movetime', 'movetime_ms'], ['depth', 'depth'], ['nodes', 'nodes']]) {
    const n = goNumber(words, key);
    if (n !== undefined) request[field] = n;
  }
  if (level) request.level = level;
  return request;
}
