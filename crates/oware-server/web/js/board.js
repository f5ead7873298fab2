// The board component: draws a position, highlights what the server says is
// legal, previews, and replays the server's move traces seed by seed.
// It knows the notation (house letters, the position string layout) but no
// rule: which moves are legal and what they do always comes from the server.

import { t } from './i18n.js';

/** House index (0..11, sowing order) to its move letter. */
export const letterOf = (i) => (i < 6 ? 'ABCDEF'[i] : 'abcdef'[i - 6]);
/** Move letter to house index, or -1. */
export const indexOf = (l) => {
  const u = 'ABCDEF'.indexOf(l);
  if (u >= 0) return u;
  const d = 'abcdef'.indexOf(l);
  return d >= 0 ? d + 6 : -1;
};
/** Which side a house letter belongs to. */
export const sideOfLetter = (l) => (l === l.toUpperCase() ? 'S' : 'N');

/** Splits a position string into its fields (notation only, no validation:
 * the server validates positions). */
export function parsePosition(text) {
  const parts = String(text).trim().split('-');
  const houses = parts.slice(0, 12).map((x) => parseInt(x, 10) || 0);
  return { houses, stores: { S: parseInt(parts[12], 10) || 0, N: parseInt(parts[13], 10) || 0 }, toMove: parts[14] === 'N' ? 'N' : 'S' };
}
export function formatPosition(p) {
  return [...p.houses, p.stores.S, p.stores.N, p.toMove].join('-');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const GOLDEN = 2.399963;

// Small counts get tidy clusters (easy to count at a glance); larger ones a
// sunflower spiral that fills the pit evenly.
const CLUSTERS = [
  [],
  [[50, 50]],
  [[33, 48], [66, 54]],
  [[50, 28], [30, 66], [70, 64]],
  [[30, 30], [68, 27], [32, 70], [70, 68]],
  [[27, 27], [70, 26], [50, 50], [29, 73], [72, 71]],
  [[24, 34], [50, 26], [76, 36], [26, 68], [52, 74], [78, 64]],
  [[50, 50], [50, 18], [78, 34], [78, 66], [50, 82], [22, 66], [22, 34]],
];
const TILT = [35, 110, 160, 75, 10, 130, 55];

function seedSpots(n, max) {
  if (n < CLUSTERS.length) return CLUSTERS[n].map(([x, y], k) => [x, y, TILT[k]]);
  const shown = Math.min(n, max);
  const spots = [];
  for (let k = 0; k < shown; k++) {
    const r = 0.42 * Math.sqrt((k + 0.5) / Math.max(shown, 1));
    const a = k * GOLDEN + 0.7;
    spots.push([50 + r * 100 * Math.cos(a), 50 + r * 100 * Math.sin(a), (k * 47) % 180]);
  }
  return spots;
}

let boardCount = 0;

export class Board {
  /**
   * @param {HTMLElement} host
   * @param {object} opts orientation 'S'|'N' (side shown at the bottom), small,
   *   onPlay(letter), onPreview(letter|null), names {S, N}
   */
  constructor(host, opts = {}) {
    this.host = host;
    this.opts = opts;
    this.id = ++boardCount;
    this.orientation = opts.orientation || 'S';
    this.pos = parsePosition('4-4-4-4-4-4-4-4-4-4-4-4-0-0-S');
    this.playable = new Set();
    this.lastMove = null;
    this.animating = false;
    // Each animation's number: cancelAnimation() moves it on, and an
    // animation whose number is past stops at its next step.
    this.animation = 0;
    this.flying = new Set();
    this.stepMs = opts.stepMs ?? 150;
    this.build();
  }

  build() {
    const root = document.createElement('div');
    root.className = `board-wrap${this.opts.labels === false ? ' no-labels' : ''}`;
    root.innerHTML = `
      <div class="side-label top-label"></div>
      <div class="board${this.opts.small ? ' small' : ''}" role="group">
        <div class="store store-left"><div class="seeds"></div><span class="count"></span></div>
        <div class="rows"><div class="rowline row-top"></div><div class="rowline row-bottom"></div></div>
        <div class="store store-right"><div class="seeds"></div><span class="count"></span></div>
      </div>
      <div class="side-label bottom-label"></div>`;
    this.root = root;
    this.boardEl = root.querySelector('.board');
    this.houses = [];
    for (let i = 0; i < 12; i++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'house';
      b.dataset.house = letterOf(i);
      b.innerHTML = `<span class="label" aria-hidden="true">${letterOf(i)}</span><div class="seeds"></div><span class="count" aria-hidden="true"></span>`;
      b.addEventListener('click', () => this.clicked(letterOf(i)));
      b.addEventListener('mouseenter', () => this.hover(letterOf(i)));
      b.addEventListener('mouseleave', () => this.hover(null));
      b.addEventListener('focus', () => this.hover(letterOf(i)));
      b.addEventListener('blur', () => this.hover(null));
      b.addEventListener('keydown', (e) => this.key(e, i));
      this.houses.push(b);
    }
    this.host.replaceChildren(root);
    this.layout();
    this.render();
  }

  /** Places houses and stores for the current orientation: the bottom
   * player's A..F run left to right, their store on their right. */
  layout() {
    const top = this.root.querySelector('.row-top');
    const bottom = this.root.querySelector('.row-bottom');
    const bottomSide = this.orientation;
    const bottomIdx = bottomSide === 'S' ? [0, 1, 2, 3, 4, 5] : [6, 7, 8, 9, 10, 11];
    const topIdx = (bottomSide === 'S' ? [6, 7, 8, 9, 10, 11] : [0, 1, 2, 3, 4, 5]).reverse();
    bottom.replaceChildren(...bottomIdx.map((i) => this.houses[i]));
    for (const i of bottomIdx) this.houses[i].tabIndex = 0;
    top.replaceChildren(...topIdx.map((i) => this.houses[i]));
    this.storeEl = {
      [bottomSide]: this.root.querySelector('.store-right'),
      [bottomSide === 'S' ? 'N' : 'S']: this.root.querySelector('.store-left'),
    };
    this.root.querySelector('.store-right').dataset.store = bottomSide;
    this.root.querySelector('.store-left').dataset.store = bottomSide === 'S' ? 'N' : 'S';
    this.labels();
  }

  labels() {
    const names = this.opts.names || {};
    const other = this.orientation === 'S' ? 'N' : 'S';
    const lab = (s) => `${names[s] || t(s === 'S' ? 'side.S' : 'side.N')}`;
    this.root.querySelector('.top-label').textContent = lab(other);
    this.root.querySelector('.bottom-label').textContent = lab(this.orientation);
    this.boardEl.setAttribute('aria-label', t('board.aria', { bottom: lab(this.orientation), top: lab(other) }));
  }

  setNames(names) { this.opts.names = names; this.labels(); }

  setOrientation(side) {
    if (side === this.orientation) return;
    this.orientation = side;
    this.layout();
    this.render();
  }

  setPosition(text) {
    this.pos = typeof text === 'string' ? parsePosition(text) : text;
    this.render();
  }

  /** Letters the server says may be played now (highlighted, clickable). */
  setPlayable(letters) {
    this.playable = new Set(letters || []);
    this.render();
  }

  setLastMove(letter) { this.lastMove = letter; this.render(); }

  /** The house chosen in advance to be played when its turn comes (a
   * premove), marked on the board; null for none. */
  setPremove(letter) { this.premove = letter; this.render(); }

  renderHouse(i) {
    const b = this.houses[i];
    const n = this.pos.houses[i];
    b.querySelector('.count').textContent = n;
    b.querySelector('.seeds').innerHTML = seedSpots(n, 22)
      .map(([x, y, r]) => `<i class="seed" style="left:${x - 11}%;top:${y - 9}%;transform:rotate(${r}deg)"></i>`).join('');
    const l = letterOf(i);
    const playable = this.playable.has(l);
    b.classList.toggle('playable', playable);
    // The opponent's row (at the top) is no tab stop unless its houses
    // may be played (two players on one device); arrows still reach it.
    if (b.parentElement?.classList.contains('row-top')) b.tabIndex = playable ? 0 : -1;
    b.classList.toggle('last-move', this.lastMove === l);
    b.classList.toggle('premove', this.premove === l);
    const owner = t(i < 6 ? 'side.S' : 'side.N');
    b.setAttribute('aria-label', t('board.house', { letter: l, n, owner }) + (playable ? t('board.playable') : '') + (this.premove === l ? t('board.premove') : ''));
  }

  renderStore(side) {
    const el = this.storeEl[side];
    const n = this.pos.stores[side];
    el.querySelector('.count').textContent = n;
    el.setAttribute('aria-label', t('board.store', { side: t(side === 'S' ? 'side.S' : 'side.N'), n }));
    el.setAttribute('role', 'img');
    const shown = Math.min(n, 30);
    let html = '';
    for (let k = 0; k < shown; k++) {
      const col = k % 3, rowi = Math.floor(k / 3);
      html += `<i class="seed" style="left:${8 + col * 30 + ((rowi * 7) % 9)}%;top:${4 + rowi * 9}%;transform:rotate(${(k * 53) % 180}deg)"></i>`;
    }
    el.querySelector('.seeds').innerHTML = html;
  }

  render() {
    for (let i = 0; i < 12; i++) this.renderHouse(i);
    this.renderStore('S');
    this.renderStore('N');
  }

  clicked(letter) {
    if (this.animating) return;
    this.opts.onPlay?.(letter);
  }

  hover(letter) {
    if (this.animating) return;
    this.opts.onPreview?.(letter);
  }

  /** Arrow keys move between houses as they appear on screen; digits 1-6 play
   * the bottom player's houses from the left. */
  key(e, i) {
    const b = this.houses[i];
    const rowEl = b.parentElement;
    const inRow = [...rowEl.children];
    const k = inRow.indexOf(b);
    let target = null;
    if (e.key === 'ArrowLeft') target = inRow[Math.max(0, k - 1)];
    else if (e.key === 'ArrowRight') target = inRow[Math.min(5, k + 1)];
    else if (e.key === 'ArrowUp' && rowEl.classList.contains('row-bottom')) target = this.root.querySelector('.row-top').children[k];
    else if (e.key === 'ArrowDown' && rowEl.classList.contains('row-top')) target = this.root.querySelector('.row-bottom').children[k];
    else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      // Nothing above the top row or below the bottom one: the page does
      // not scroll either.
      e.preventDefault();
      return;
    } else if (/^[1-6]$/.test(e.key)) {
      const bottom = this.root.querySelector('.row-bottom').children[Number(e.key) - 1];
      bottom.focus();
      this.clicked(bottom.dataset.house);
      e.preventDefault();
      return;
    }
    if (target) { target.focus(); e.preventDefault(); }
  }

  /** Focuses the first playable house (or the first bottom house). */
  focusFirst() {
    const first = this.houses.find((b) => b.classList.contains('playable')) || this.root.querySelector('.row-bottom').children[0];
    first?.focus();
  }

  /** Marks the house where the last seed would land and those it would take. */
  showPreview(last, capturedLetters = []) {
    this.clearPreview();
    if (last) this.houses[indexOf(last)]?.classList.add('preview-last');
    for (const l of capturedLetters) this.houses[indexOf(l)]?.classList.add('preview-cap');
  }

  clearPreview() {
    for (const b of this.houses) b.classList.remove('preview-last', 'preview-cap', 'illegal-focus');
  }

  markIllegal(letter) { this.houses[indexOf(letter)]?.classList.add('illegal-focus'); }

  /** Stops a running animation at once (its seeds in flight go): the
   * board then shows whatever it is given next, never the rest of that
   * move. */
  cancelAnimation() {
    this.animation += 1;
    for (const el of this.flying) el.remove();
    this.flying.clear();
    for (const b of this.houses) b.classList.remove('sow-pulse', 'sow-now', 'captured-flash');
    this.animating = false;
  }

  /** A seed drawn over the page during an animation. */
  flyingSeed(className) {
    const el = document.createElement('div');
    el.className = className;
    el.setAttribute('aria-hidden', 'true');
    document.body.appendChild(el);
    this.flying.add(el);
    return el;
  }

  /**
   * Replays a move from the server's trace: empties the house, drops one seed
   * per entry of trace.sown, then flies captured seeds to the mover's store,
   * and finally shows the server's position after the move. Resolves
   * to false when cancelAnimation() stopped it (the board is then left to
   * its caller), else true.
   * trace: {move, sown: [letters], captured: [{house, seeds}], after}
   */
  async animate(trace, { instant = false } = {}) {
    const src = indexOf(trace.move);
    const mover = sideOfLetter(trace.move);
    // One animation at a time: a new one ends the one running.
    this.cancelAnimation();
    if (instant || this.stepMs === 0 || src < 0) {
      this.lastMove = trace.move;
      this.setPosition(trace.after);
      return true;
    }
    const mine = this.animation;
    const stopped = () => mine !== this.animation;
    const wait = async (ms) => { await sleep(ms); return stopped(); };
    this.animating = true;
    this.clearPreview();
    this.playable = new Set();
    const work = { houses: [...this.pos.houses], stores: { ...this.pos.stores }, toMove: this.pos.toMove };
    this.pos = work;
    this.lastMove = trace.move;
    work.houses[src] = 0;
    this.render();
    const step = trace.sown.length > 16 ? Math.max(50, this.stepMs * 0.5) : this.stepMs;
    // One seed "in the hand" travels from house to house and drops a seed in each.
    const hand = this.flyingSeed('flying-seed hand');
    const centre = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2 - 7, r.top + r.height / 2 - 6]; };
    const [x0, y0] = centre(this.houses[src]);
    hand.style.left = `${x0}px`;
    hand.style.top = `${y0}px`;
    hand.style.transition = `transform ${Math.round(step * 0.8)}ms ease-in-out`;
    if (await wait(step / 2)) return false;
    for (const l of trace.sown) {
      const i = indexOf(l);
      const [x, y] = centre(this.houses[i]);
      hand.style.transform = `translate(${x - x0}px, ${y - y0}px)`;
      if (await wait(step * 0.8)) return false;
      work.houses[i] += 1;
      this.renderHouse(i);
      const b = this.houses[i];
      b.classList.remove('sow-pulse');
      void b.offsetWidth;
      b.classList.add('sow-pulse', 'sow-now');
      if (await wait(step * 0.2)) return false;
      b.classList.remove('sow-now');
    }
    hand.remove();
    this.flying.delete(hand);
    for (const c of trace.captured || []) {
      const [house, seeds] = Array.isArray(c) ? c : [c.house, c.seeds];
      const i = indexOf(house);
      this.houses[i].classList.add('captured-flash');
      await this.fly(this.houses[i], this.storeEl[mover], Math.min(seeds, 6));
      if (stopped()) return false;
      work.houses[i] = 0;
      work.stores[mover] += seeds;
      this.renderHouse(i);
      this.renderStore(mover);
      setTimeout(() => this.houses[i].classList.remove('captured-flash'), 600);
    }
    this.animating = false;
    this.setPosition(trace.after);
    return true;
  }

  async fly(fromEl, toEl, count) {
    const a = fromEl.getBoundingClientRect();
    const b = toEl.getBoundingClientRect();
    const seeds = [];
    for (let k = 0; k < count; k++) {
      const s = this.flyingSeed('flying-seed');
      s.style.left = `${a.left + a.width / 2 - 7 + (k % 3) * 5 - 5}px`;
      s.style.top = `${a.top + a.height / 2 - 6 + Math.floor(k / 3) * 5}px`;
      seeds.push(s);
    }
    await sleep(20);
    for (const [k, s] of seeds.entries()) {
      const dx = b.left + b.width / 2 - a.left - a.width / 2 + ((k % 3) - 1) * 6;
      const dy = b.top + b.height / 2 - a.top - a.height / 2 + (k - 3) * 4;
      s.style.transform = `translate(${dx}px, ${dy}px)`;
    }
    await sleep(500);
    for (const s of seeds) { s.remove(); this.flying.delete(s); }
  }
}
