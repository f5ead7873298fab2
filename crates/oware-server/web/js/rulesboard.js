// A board driven by the stateless rules service: the tutorial's lesson
// boards and the study page's "play moves" mode. Every move goes to
// POST /api/v1/rules/state; the page only animates what comes back.
// Offline the browser's module answers in the same shape (local.js).

import { api } from './api.js';
import { serverOrHere, localRulesState } from './local.js';
import { Board } from './board.js';
import { t, tr, sideName, errorText, refusalText } from './i18n.js';
import { announce, setMsg, settings, touching } from './ui.js';
import { previewHandler, coachWarning } from './aids.js';

export function describeTrace(trace, side) {
  let text = t('say.move', { side: sideName(side), move: trace.move });
  const n = (trace.captured || []).reduce((a, c) => a + (Array.isArray(c) ? c[1] : c.seeds), 0);
  if (n) text += ' ' + t('say.capture', { n, houses: trace.captured.map((c) => (Array.isArray(c) ? c[0] : c.house)).join(', ') });
  if (trace.grand_slam) text += ' ' + t('say.slam');
  return text;
}

/**
 * What the last move did and why (lesson feedback), as the rules service
 * words it from the core's trace (oware_session::lessons::explain, the
 * terminal's lessons say the same). expected: true when the move is the
 * one the lesson asks for ("Bravo").
 */
export function explainMove(st, expected = false) {
  const text = tr(st.explained);
  return expected ? `${t('learn.done')} ${text}` : text;
}

export function resultText(result) {
  const { head, why } = resultParts(result);
  return head ? `${head}: ${why}.` : '';
}

/**
 * The result as a player reads it: head ("You won, 29–6", "Draw, 24–24",
 * "South won, 26–22") and why, in words without rule ids. viewer is the
 * side the reader plays (null for spectators, hot-seat games and lessons).
 */
/** A finished game in a list: its score, or how it ended when the seeds
 * decided nothing (a resignation, a fallen flag). */
export function resultShort(result) {
  if (!result) return '';
  if (result.reason === 'resignation') return t('list.resigned');
  if (result.reason === 'time') return t('list.onTime');
  return `${result.totals?.south ?? 0}–${result.totals?.north ?? 0}`;
}

export function resultParts(result, viewer = null, names = null) {
  if (!result) return { head: '', why: '' };
  // Spectators read the players' names, when the page knows them.
  const nameOf = (side) => names?.[side] || sideName(side);
  const s = result.totals?.south ?? 0, n = result.totals?.north ?? 0;
  const w = result.winner;
  let head;
  // After a resignation or a fallen flag the seeds captured decided nothing.
  const bare = ['resignation', 'time'].includes(result.reason) ? 'Bare' : '';
  if (w === 'draw') head = t('result.draw', { s, n });
  else if (viewer) {
    const [me, them] = viewer === 'S' ? [s, n] : [n, s];
    head = t(`${w === viewer ? 'result.won' : 'result.lost'}${bare}`, { me, them });
  } else head = t(`result.sideWon${bare}`, { side: nameOf(w), s, n });
  // Who the reason is about: the winner for a majority, the loser otherwise.
  const about = result.reason === 'majority' ? w : (w === 'S' ? 'N' : 'S');
  let why;
  if (['majority', 'resignation', 'time'].includes(result.reason) && w !== 'draw') {
    const who = !viewer ? 'side' : about === viewer ? 'you' : 'them';
    why = t(`why.${result.reason}.${who}`, { side: nameOf(about) });
  } else why = t(`why.${result.reason}`);
  return { head, why };
}

/**
 * host gets the board, a preview line and a message line.
 * opts: position, moves, small, orientation, coach (bool, default settings),
 * onChange(state) after each update.
 */
/** The rules service, or the browser's module when the network is cut
 * or the server cannot be reached. */
const rulesState = (start, moves) => serverOrHere(() => api.rulesState(start, moves), () => localRulesState(start, moves));
const rulesAgreement = (start, moves) => serverOrHere(() => api.rulesAgreement(start, moves), () => localRulesState(start, moves, 'agree'));

export class RulesBoard {
  constructor(host, opts = {}) {
    this.opts = opts;
    this.start = opts.position || '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S';
    this.moves = opts.moves || '';
    this.state = null;
    this.pending = null;
    host.innerHTML = '<div class="rb-board"></div><div class="preview-line" aria-hidden="true"></div><div class="msg" role="status"></div>';
    this.msgEl = host.querySelector('.msg');
    this.lineEl = host.querySelector('.preview-line');
    this.board = new Board(host.querySelector('.rb-board'), {
      small: opts.small,
      orientation: opts.orientation || 'S',
      onPlay: (l) => this.play(l),
      onPreview: (l) => this.preview(l),
    });
    this.preview = previewHandler(this.board, this.lineEl, () => this.state && { position: this.state.position, previews: this.state.previews, canMove: this.state.status !== 'over' });
    this.ready = this.load(false);
    // A refusal is already said under the board.
    this.ready.catch(() => {});
  }

  async load(animate) {
    let st;
    try {
      st = await rulesState(this.start, this.moves);
    } catch (e) {
      setMsg(this.msgEl, errorText(e), 'bad');
      throw e;
    }
    return this.apply(st, animate);
  }

  async apply(st, animate) {
    {
      const prevPly = this.state?.ply ?? -1;
      this.state = st;
      if (animate && st.last && st.ply === prevPly + 1) {
        await this.board.animate({ ...st.last, after: st.position }, { instant: !settings.get('animate') });
        announce(describeTrace(st.last, st.last.move === st.last.move.toUpperCase() ? 'S' : 'N'));
      } else {
        this.board.setPosition(st.position);
        this.board.setLastMove(st.last?.move || null);
      }
      this.board.setPlayable(st.status === 'over' ? [] : st.legal);
      // Lessons answer every move: what it did and why, from the trace.
      const said = this.opts.feedback && st.last && st.ply === prevPly + 1
        ? explainMove(st, !this.showing && !!this.opts.expect && this.opts.expect.startsWith(this.moves))
        : '';
      if (st.status === 'over') setMsg(this.msgEl, `${said ? `${said} ` : ''}${t('learn.over', { text: resultText(st.result) })}`, 'ok');
      else if (said) setMsg(this.msgEl, said, 'ok');
      this.opts.onChange?.(st, this);
      return st;
    }
  }

  async play(letter) {
    if (!this.state || this.busy) return;
    const p = this.state.previews.find((x) => x.move === letter);
    if (p && !p.legal) {
      setMsg(this.msgEl, refusalText(p.refusal), 'bad');
      this.board.markIllegal(letter);
      return;
    }
    // The engine coach (from "mistake" up), as on the game page.
    const moves = this.moves;
    const warning = this.opts.coach === false || this.pending === letter ? null : await coachWarning(this.start, moves, letter);
    if (this.moves !== moves || this.busy) return;
    if (warning) {
      this.pending = letter;
      setMsg(this.msgEl, `${warning} ${t(touching() ? 'coach.confirmTap' : 'coach.confirm', { move: letter })}`, 'warn');
      return;
    }
    this.pending = null;
    this.busy = true;
    this.lineEl.textContent = '';
    try {
      // Ask first without committing, so a refused move leaves the board as it was.
      const st = await rulesState(this.start, this.moves + letter);
      this.moves += letter;
      setMsg(this.msgEl, '');
      await this.apply(st, true);
    } catch (e) {
      setMsg(this.msgEl, errorText(e), 'bad');
      this.board.markIllegal(letter);
    } finally {
      this.busy = false;
    }
  }

  reset(position = this.start, moves = '') {
    this.start = position;
    this.moves = moves;
    this.state = null;
    this.pending = null;
    setMsg(this.msgEl, '');
    return this.load(false);
  }

  /** R12: the players agree to stop here; the server's core gives the
   * totals, and the board shows the finished game. */
  async agree() {
    if (!this.state || this.busy || this.state.status === 'over') return;
    try {
      const st = await rulesAgreement(this.start, this.moves);
      await this.apply(st, false);
    } catch (e) { setMsg(this.msgEl, errorText(e), 'bad'); }
  }

  /** R13: the player to move runs out of time and loses the turn: the
   * board stays, the other player moves (a `-` in the move list). */
  async loseTurn() {
    if (!this.state || this.busy || this.state.status === 'over') return;
    const side = this.state.to_move;
    this.moves += '-';
    try {
      await this.load(false);
      setMsg(this.msgEl, `${t('say.lost', { side: sideName(side) })} ${t('learn.lostTurn', { side: sideName(this.state.to_move) })}`, 'ok');
    } catch (e) {
      this.moves = this.moves.slice(0, -1);
      setMsg(this.msgEl, errorText(e), 'bad');
    }
  }

  /** Plays a fixed list of moves one after the other, animated. */
  async playSequence(moves) {
    this.showing = true;
    try {
      for (const m of moves) {
        this.moves += m;
        // eslint-disable-next-line no-await-in-loop
        await this.load(true);
      }
    } finally {
      this.showing = false;
    }
  }
}
