// Small DOM helpers shared by the pages.

export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

/** Says something to screen-reader users through the page's aria-live region. */
export function announce(text) {
  const el = document.getElementById('announcer');
  if (!el) return;
  el.textContent = '';
  // A fresh text node after a tick makes screen readers read repeated messages.
  setTimeout(() => { el.textContent = text; }, 30);
}

let router = null;
export function setRouter(r) { router = r; }
export function navigate(path, { replace = false } = {}) { router?.(path, replace); }

export function setMsg(el, text, kind = '') {
  el.classList.add('msg');
  el.classList.remove('bad', 'warn', 'ok');
  if (kind) el.classList.add(kind);
  el.textContent = text || '';
}

// How the player points: the last pointer used, else what the screen is
// made for (a phone's touch screen), so the page says "tap" or "click";
// and whether they last used the keyboard or a pointer.
let lastPointer = null;
let lastInput = null;
if (typeof addEventListener === 'function') {
  addEventListener('pointerdown', (e) => { lastPointer = e.pointerType; lastInput = 'pointer'; }, { capture: true, passive: true });
  addEventListener('keydown', () => { lastInput = 'keyboard'; }, { capture: true, passive: true });
}
export const touching = () => (lastPointer ? lastPointer === 'touch' || lastPointer === 'pen'
  : typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches);
/** The player's last input was the keyboard (not a click or a tap). */
export const usingKeyboard = () => lastInput === 'keyboard';

/** Settings that persist across pages (learning aids, animation). */
const reducedMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
const DEFAULTS = { preview: true, coach: true, animate: !reducedMotion, orient: true, sound: false, notify: false };
export const settings = {
  get(k) {
    const v = localStorage.getItem(`oware.set.${k}`);
    return v === null ? DEFAULTS[k] : v === '1';
  },
  set(k, v) { localStorage.setItem(`oware.set.${k}`, v ? '1' : '0'); },
};

export function relTime(iso, now = Date.now()) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const lang = document.documentElement.lang || 'en';
  // Within a week: "2 minutes ago" / « il y a 2 minutes »; then the date.
  const s = Math.round((d.getTime() - now) / 1000);
  if (Math.abs(s) < 7 * 86400) {
    const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
    const a = Math.abs(s);
    if (a < 45) return rtf.format(0, 'second');
    if (a < 3600) return rtf.format(Math.round(s / 60), 'minute');
    if (a < 86400) return rtf.format(Math.round(s / 3600), 'hour');
    return rtf.format(Math.round(s / 86400), 'day');
  }
  return d.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}
