// Learning aids shared by game, tutorial and study boards: hover previews
// and the coach, both fed by the server's `previews` (rules/state).

import { api } from './api.js';
import { t, lang, illegalReason, refusalText } from './i18n.js';
import { settings } from './ui.js';
import { coachAnywhere } from './engine/client.js';

const traceCache = new Map();

/** The server's trace of one move from a position (cached), for showing
 * which houses a move would capture. */
export async function traceOf(position, move) {
  const key = `${position}|${move}`;
  if (!traceCache.has(key)) {
    traceCache.set(key, api.rulesState(position, move).then((s) => s.last).catch(() => null));
    if (traceCache.size > 500) traceCache.delete(traceCache.keys().next().value);
  }
  return traceCache.get(key);
}

/**
 * Wires a board's hover/focus to a preview line.
 * getState() returns {position, previews, canMove}; lineEl shows the text.
 */
export function previewHandler(board, lineEl, getState) {
  let token = 0;
  return async (letter) => {
    const mine = ++token;
    board.clearPreview();
    lineEl.textContent = '';
    const st = getState();
    if (!letter || !st || !st.canMove || !settings.get('preview')) return;
    const p = (st.previews || []).find((x) => x.move === letter);
    if (!p) return;
    if (!p.legal) {
      board.markIllegal(letter);
      lineEl.textContent = t('preview.illegal', { move: letter, reason: illegalReason(p.refusal?.code || p.refusal?.reason, p.refusal?.rule), rule: p.refusal?.rule || '' });
      return;
    }
    let text = t('preview.line', { move: letter, last: p.last_house }) + (p.captures ? t('preview.captures', { n: p.captures }) : t('preview.none'));
    board.showPreview(p.last_house, []);
    lineEl.textContent = text;
    if (p.captures) {
      const tr = await traceOf(st.position, letter);
      if (mine !== token || !tr) return;
      board.showPreview(p.last_house, tr.captured.map(([h]) => h));
    }
  };
}

const coachCache = new Map();

/** The engine coach's analysis of a position (POST /coach: every legal
 * move judged from one analysis, so it agrees with the hint), cached per
 * position, moves, language and computer side. Resolves to null on error. */
export function coachAnalysis(position, moves, computer) {
  const key = `${position}|${moves || ''}|${lang()}|${computer || ''}`;
  if (!coachCache.has(key)) {
    // The browser's engine first (the same answer, no server engine used),
    // the server's when the browser cannot give that answer.
    const p = coachAnywhere(position, moves, lang(), computer, () => api.coach(position, moves, undefined, lang(), computer))
      .catch(() => { coachCache.delete(key); return null; });
    coachCache.set(key, p);
    if (coachCache.size > 200) coachCache.delete(coachCache.keys().next().value);
  }
  return coachCache.get(key);
}

/** The coach's judgement of one move ({verdict, warn, loss, text, …}),
 * or null (coach off, no analysis, illegal move). */
export async function coachJudgement(position, moves, letter, computer) {
  if (!settings.get('coach')) return null;
  const a = await coachAnalysis(position, moves, computer);
  return a?.moves?.find((m) => m.move === letter) || null;
}

/** The coach's warning about a move (its text, from "mistake" up), or null. */
export async function coachWarning(position, moves, letter, computer) {
  const j = await coachJudgement(position, moves, letter, computer);
  return j && j.warn ? j.text : null;
}

/** The refusal message for a house the server's previews mark illegal, or null. */
export function refusalOf(previews, letter) {
  const p = (previews || []).find((x) => x.move === letter);
  if (!p || p.legal) return null;
  return refusalText(p.refusal);
}
