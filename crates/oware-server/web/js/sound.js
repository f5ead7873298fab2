// Short sounds made with WebAudio (nothing to download): a wooden click for
// a move, a brighter double tick for a capture, a little phrase at the end.
// Off unless the player switches them on (remembered in localStorage).

import { settings } from './ui.js';

let ctx = null;

function audio() {
  if (!settings.get('sound')) return null;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

function tone(a, freq, at, dur, { type = 'sine', gain = 0.18 } = {}) {
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, a.currentTime + at);
  g.gain.setValueAtTime(0.0001, a.currentTime + at);
  g.gain.exponentialRampToValueAtTime(gain, a.currentTime + at + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + at + dur);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + at);
  o.stop(a.currentTime + at + dur + 0.02);
}

export const sound = {
  move() {
    const a = audio();
    if (a) tone(a, 520, 0, 0.09, { type: 'triangle' });
  },
  capture(n = 2) {
    const a = audio();
    if (!a) return;
    const k = Math.min(4, Math.max(2, Math.ceil(n / 3)));
    for (let i = 0; i < k; i++) tone(a, 880 + i * 110, i * 0.07, 0.08, { type: 'square', gain: 0.06 });
  },
  end(won) {
    const a = audio();
    if (!a) return;
    const notes = won === true ? [523, 659, 784, 1047] : won === false ? [440, 392, 330] : [440, 440];
    notes.forEach((f, i) => tone(a, f, i * 0.13, 0.18, { type: 'triangle', gain: 0.14 }));
  },
};

/** A shower of seeds across the screen for a win (skipped when the player
 * asked for reduced motion). */
export function celebrate() {
  if (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const box = document.createElement('div');
  box.className = 'celebrate';
  box.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < 40; i++) {
    const s = document.createElement('i');
    s.style.left = `${Math.random() * 100}%`;
    s.style.animationDelay = `${Math.random() * 0.8}s`;
    s.style.animationDuration = `${1.2 + Math.random() * 0.9}s`;
    box.appendChild(s);
  }
  document.body.appendChild(box);
  setTimeout(() => box.remove(), 3200);
}
