// Learn: the interactive tutorial (/learn) and the rules page (/rules).

import { t, tr, lang } from '../i18n.js';
import { esc } from '../ui.js';
import { RulesBoard } from '../rulesboard.js';
import { Board } from '../board.js';
import { loadContent, START } from '../learn-content.js';

const paras = (list) => list.map((p) => `<p>${esc(p)}</p>`).join('');

export function mountTutorial(main) {
  let alive = true;
  main.innerHTML = `<p class="muted">${esc(t('game.loading'))}</p>`;
  loadContent().then((data) => { if (alive) drawTutorial(main, data); })
    .catch(() => { if (alive) main.innerHTML = `<p class="msg bad">${esc(t('err.network'))}</p>`; });
  return () => { alive = false; };
}

function drawTutorial(main, { lessons: LESSONS, examples: EXAMPLES, mistakes: MISTAKES, tips: TIPS }) {
  const L = lang();
  main.innerHTML = `
    <h1>${esc(t('learn.title'))}</h1>
    <p class="lead">${esc(t('learn.intro'))} <a href="/rules" data-link>${esc(t('learn.toRules'))}</a></p>
    <nav class="card" aria-label="${esc(t('learn.contents'))}"><h2>${esc(t('learn.contents'))}</h2><ol class="toc">
      ${LESSONS.map((l) => `<li><a href="#${l.id}">${esc(l.rule)} · ${esc(tr(l.title))}</a></li>`).join('')}
      <li><a href="#examples">${esc(t('learn.examples'))}</a></li>
      <li><a href="#mistakes">${esc(t('learn.mistakes'))}</a></li>
    </ol></nav>
    ${LESSONS.map((l) => `
      <section class="card lesson" id="${l.id}" aria-labelledby="${l.id}-h">
        <h2 id="${l.id}-h"><span class="rule-id">${esc(l.rule)}</span>${esc(tr(l.title))}</h2>
        ${paras(l.body[L])}
        <p><strong>${esc(t('learn.try'))}</strong> ${esc(tr(l.task))}</p>
        <div class="lesson-board" data-lesson="${l.id}"></div>
        <div class="row">
          <button class="btn small reset" type="button" data-lesson="${l.id}">${esc(t('learn.reset'))}</button>
          ${l.show || l.sequence ? `<button class="btn small show" type="button" data-lesson="${l.id}">${esc(t('learn.show'))}</button>` : ''}
          ${l.id === 'r12' ? `<button class="btn small agree" type="button" data-lesson="${l.id}">${esc(t('learn.agree'))}</button>` : ''}
          ${l.id === 'r13' ? `<button class="btn small timeout" type="button" data-lesson="${l.id}">${esc(t('learn.timeout'))}</button>` : ''}
        </div>
      </section>`).join('')}
    <section class="card" id="examples"><h2>${esc(t('learn.examples'))}</h2>
      ${EXAMPLES.map((ex) => `
        <div class="example" data-example="${ex.id}">
          <h3>${esc(tr(ex.title))}</h3>
          <div class="example-steps" role="group">${ex.steps.map((_, i) => `<button class="btn small step" type="button" aria-pressed="${i === 0}" data-step="${i}">${i + 1}</button>`).join('')}</div>
          <p class="step-text"></p>
          <div class="example-board"></div>
          <div class="row"><button class="btn small reset" type="button">${esc(t('learn.reset'))}</button><button class="btn small show" type="button">${esc(t('learn.show'))}</button></div>
        </div>`).join('<hr>')}
    </section>
    <section class="card" id="mistakes"><h2>${esc(t('learn.mistakes'))}</h2>
      <ol class="mistakes">${MISTAKES.map((m, i) => `<li>${esc(tr(m.text))}${m.position ? ` <button class="btn small see" type="button" data-m="${i}">${esc(t('learn.show'))}</button>` : ''}</li>`).join('')}</ol>
      <div class="mistake-board"></div>
      <h2>${esc(t('learn.tips'))}</h2>
      <ul>${TIPS[L].map((x) => `<li>${esc(x)}</li>`).join('')}</ul>
    </section>`;

  const boards = new Map();
  for (const host of main.querySelectorAll('.lesson-board')) {
    const lesson = LESSONS.find((l) => l.id === host.dataset.lesson);
    boards.set(lesson.id, new RulesBoard(host, { position: lesson.position, small: true, orientation: lesson.position.endsWith('N') ? 'N' : 'S', coach: false, feedback: true, expect: lesson.sequence || lesson.show || '' }));
  }
  for (const b of main.querySelectorAll('.lesson .reset')) {
    b.addEventListener('click', () => { const l = LESSONS.find((x) => x.id === b.dataset.lesson); boards.get(l.id).reset(l.position); });
  }
  for (const b of main.querySelectorAll('.lesson .agree')) b.addEventListener('click', () => boards.get(b.dataset.lesson).agree());
  for (const b of main.querySelectorAll('.lesson .timeout')) b.addEventListener('click', () => boards.get(b.dataset.lesson).loseTurn());
  for (const b of main.querySelectorAll('.lesson .show')) {
    b.addEventListener('click', async () => {
      const l = LESSONS.find((x) => x.id === b.dataset.lesson);
      const rb = boards.get(l.id);
      b.disabled = true;
      await rb.reset(l.position);
      await rb.playSequence(l.sequence || l.show);
      b.disabled = false;
    });
  }

  for (const exEl of main.querySelectorAll('.example')) {
    const ex = EXAMPLES.find((e) => e.id === exEl.dataset.example);
    let step = 0;
    const rb = new RulesBoard(exEl.querySelector('.example-board'), { position: ex.steps[0].position, small: true, coach: false, feedback: true });
    const setStep = (i) => {
      step = i;
      exEl.querySelector('.step-text').textContent = tr(ex.steps[i].text);
      for (const s of exEl.querySelectorAll('.step')) s.setAttribute('aria-pressed', String(Number(s.dataset.step) === i));
      exEl.querySelector('.show').hidden = !ex.steps[i].show;
      rb.reset(ex.steps[i].position);
    };
    for (const s of exEl.querySelectorAll('.step')) s.addEventListener('click', () => setStep(Number(s.dataset.step)));
    exEl.querySelector('.reset').addEventListener('click', () => setStep(step));
    exEl.querySelector('.show').addEventListener('click', async () => {
      await rb.reset(ex.steps[step].position);
      await rb.playSequence(ex.steps[step].show);
    });
    exEl.querySelector('.step-text').textContent = tr(ex.steps[0].text);
    exEl.querySelector('.show').hidden = !ex.steps[0].show;
  }

  let mistakeBoard = null;
  for (const b of main.querySelectorAll('.see')) {
    b.addEventListener('click', async () => {
      const m = MISTAKES[Number(b.dataset.m)];
      const host = main.querySelector('.mistake-board');
      if (!mistakeBoard) mistakeBoard = new RulesBoard(host, { position: m.position, small: true, coach: false });
      await mistakeBoard.reset(m.position);
      host.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      if (m.show) await mistakeBoard.playSequence(m.show);
    });
  }
  if (location.hash) setTimeout(() => document.getElementById(location.hash.slice(1))?.scrollIntoView(), 50);
}

export function mountRules(main) {
  let alive = true;
  main.innerHTML = `<p class="muted">${esc(t('game.loading'))}</p>`;
  loadContent().then((data) => { if (alive) drawRules(main, data); })
    .catch(() => { if (alive) main.innerHTML = `<p class="msg bad">${esc(t('err.network'))}</p>`; });
  return () => { alive = false; };
}

function drawRules(main, { rules_page: RULES_PAGE, tips: TIPS }) {
  const R = RULES_PAGE[lang()];
  main.innerHTML = `
    <h1>${esc(t('rules.title'))}</h1>
    <p class="lead">${esc(R.intro)}</p>
    <div class="card"><div class="rules-board"></div>
      <p class="muted">${esc(t('rules.boardNote'))}</p></div>
    ${R.sections.map(([h, ps]) => `<section class="card"><h2>${esc(h)}</h2>${paras(ps)}</section>`).join('')}
    <section class="card"><h2>${esc(t('learn.tips'))}</h2><ul>${TIPS[lang()].map((x) => `<li>${esc(x)}</li>`).join('')}</ul>
    <p><a class="btn primary" href="/learn" data-link>${esc(t('learn.toLearn'))}</a></p></section>`;
  const b = new Board(main.querySelector('.rules-board'), {});
  b.setPosition(START);
  for (const h of b.houses) h.tabIndex = -1;
}
