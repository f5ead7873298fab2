// Move lists as players read them: numbered pairs that never wrap apart,
// captures marked as OGN marks them (`B+2`), engine lines split into moves.
// Notation only: the captures come from the server's traces and OGN.

import { esc } from './ui.js';

/** "5." for the first ply of a pair, "5…" for the second (i counts from 0). */
export const moveNumber = (i) => `${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'}`;

/** Seeds captured by a trace (0 without one). */
export const traceCaptures = (trace) => (trace?.captured || []).reduce((a, c) => a + (Array.isArray(c) ? c[1] : c.seeds), 0);

/** One ply as text: "F", "e+2", or "–" for a lost turn. */
export const plyText = (m, cap) => (m === '-' ? '–' : `${m}${cap ? `+${cap}` : ''}`);

/**
 * The HTML of a move list. plies: letters ('-' for a lost turn); caps[i]:
 * seeds captured by ply i (or undefined). button(i) → true makes each ply a
 * button with data-k = i + 1 (the review's clickable list).
 */
export function moveListHtml(plies, caps = [], { current = -1, button = false, disabledFrom = Infinity, marks = [] } = {}) {
  let html = '';
  for (let i = 0; i < plies.length; i += 2) {
    html += `<span class="mv-pair"><span class="num">${Math.floor(i / 2) + 1}.</span>`;
    for (const j of [i, i + 1]) {
      if (j >= plies.length) break;
      const m = plies[j];
      const cap = caps[j] ? `<span class="cap">+${caps[j]}</span>` : '';
      const inner = `${esc(m === '-' ? '–' : m)}${cap}${esc(marks[j] || '')}`;
      html += button
        ? ` <button type="button" class="mv${marks[j] ? ' eval-cell bad' : ''}" data-k="${j + 1}"${j + 1 === current ? ' aria-current="true"' : ''}${j >= disabledFrom ? ' disabled' : ''}>${inner}</button>`
        : ` <span class="mv">${inner}</span>`;
    }
    html += '</span> ';
  }
  return html;
}

/** An engine line ("eCfF…", or its moves as a list, as the coach sends
 * them) as moves grouped in pairs: "e C · f F …". */
export function pvText(pv) {
  const ms = (Array.isArray(pv) ? pv.join('') : String(pv || '')).replace(/\s+/g, '').split('');
  const out = [];
  for (let i = 0; i < ms.length; i += 2) out.push(ms.slice(i, i + 2).join(' '));
  return out.join(' · ');
}
