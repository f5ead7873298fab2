// The game page (/game/{id}): computer, hot-seat and online games, for
// players and spectators. The server is the referee: this page sends moves,
// animates the traces it gets back, and resyncs by ply number. A game
// played on this device without the server (`local-…`, offline) is
// refereed by the rules core in the browser (local.js), in the same shapes.

import { api, seats, GameSocket, ApiError, CHAT_PAGE } from '../api.js';
import { Board } from '../board.js';
import { t, sideName, formatScore, errorText, refusalText, seatName, levelName } from '../i18n.js';
import { announce, esc, navigate, setMsg, settings, touching, usingKeyboard } from '../ui.js';
import { previewHandler, coachAnalysis, coachWarning } from '../aids.js';
import { describeTrace, resultParts } from '../rulesboard.js';
import { moveListHtml, traceCaptures } from '../moves.js';
import { sound, celebrate } from '../sound.js';
import { browserEngine, readyEngine } from '../engine/client.js';
import { isLocal, localApi, localTokens, createLocalGame, localOgn, ognDownload } from '../local.js';
import { accountReady, currentUser, syncMyGames, ratingText, refreshRatings, ratingClass, myRating } from '../account.js';
import { unreadCount, readDone } from '../inbox.js';

const other = (s) => (s === 'S' ? 'N' : 'S');

export function mount(main, id) {
  const page = new GamePage(main, id);
  return () => page.destroy();
}

class GamePage {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.game = null;
    this.local = isLocal(id);
    // The referee: the server, or the rules core in this browser.
    this.api = this.local ? localApi : api;
    this.tokens = this.local ? {} : seats.get(id);
    this.previews = [];
    this.queue = Promise.resolve();
    this.pendingCoach = null;
    this.destroyed = false;
    this.clockBase = null;
    this.caps = [];
    this.chat = [];
    this.baseTitle = document.title;
    main.innerHTML = `<p class="muted">${esc(t('game.loading'))}</p>`;
    this.start();
  }

  destroy() {
    this.destroyed = true;
    this.offKeys?.();
    document.title = this.baseTitle;
    for (const c of document.querySelectorAll('.celebrate')) c.remove();
    this.ws?.close();
    clearInterval(this.ticker);
  }

  mySides() { return ['S', 'N'].filter((s) => this.tokens[s]); }

  async start() {
    let game;
    try {
      game = await this.api.getGame(this.id);
    } catch (e) {
      if (e.code === 'network' && !this.local) {
        // A game on the server with the network cut: it comes back by
        // itself when the network returns.
        this.main.innerHTML = `<h1>${esc(t('offline.title'))}</h1><p class="msg warn offline-needs" role="status">${esc(t('offline.needs'))}</p><p><a class="btn" href="/play" data-link>${esc(t('game.newgame'))}</a></p>`;
        window.addEventListener('online', () => { if (!this.destroyed) this.start(); }, { once: true });
        return;
      }
      this.main.innerHTML = `<h1>${esc(t('game.notfound'))}</h1><p class="msg bad">${esc(errorText(e))}</p><p><a class="btn" href="/play" data-link>${esc(t('game.newgame'))}</a></p>`;
      return;
    }
    if (this.destroyed) return;
    if (this.local) this.tokens = localTokens(game);
    // A signed-in player opening their game on another device: the
    // account holds the seat, and this device gets a token of its own.
    if (!this.local && !this.mySides().length && await accountReady) {
      // A game made since the list was read (a tournament pairing, a
      // rematch from another device): read the list again once.
      let mine = (await syncMyGames()).find((g) => g.id === this.id);
      if (!mine && game.status === 'playing') mine = (await syncMyGames(true)).find((g) => g.id === this.id);
      if (mine && mine.mine && mine.mine.length) {
        try {
          const r = await api.claimSeats(this.id);
          seats.add(this.id, r.tokens);
          this.tokens = seats.get(this.id);
        } catch (_) { /* watch it instead */ }
      }
      if (this.destroyed) return;
    }
    // Seen: this game's "your move" notification is read.
    if (!this.local && currentUser() && this.mySides().length && unreadCount() > 0) {
      api.markRead({ game: this.id }).then((r) => readDone(r.unread)).catch(() => {});
    }
    const invite = new URLSearchParams(location.search).get('invite');
    this.layout();
    this.setGame(game);
    // Started from the new-game form or opened from a link with the
    // keyboard: it goes on from the player's board, not from the top of
    // the page. (After a click or a tap the focus stays put: a focused
    // house would show its preview unasked.)
    const lost = !document.activeElement || document.activeElement === document.body || document.activeElement === this.main;
    if (usingKeyboard() && this.mySides().length && game.status !== 'over' && lost) this.board.focusFirst();
    const drawn = sessionStorage.getItem(`oware.drawn.${this.id}`);
    if (drawn) {
      sessionStorage.removeItem(`oware.drawn.${this.id}`);
      const text = t('game.drawn', { side: sideName(drawn) });
      setMsg(this.msgEl, text, 'ok');
      announce(text);
    }
    if (!this.mySides().length && game.status === 'waiting' && game.mode === 'online') this.showJoin(invite);
    if (this.local) return;
    this.connect();
    this.ticker = setInterval(() => this.renderClocks(), 200);
    if (game.mode === 'online') this.setupChat();
  }

  connect() {
    this.ws?.close();
    const token = this.tokens.S || this.tokens.N || null;
    const sock = new GameSocket(this.id, token, {
      sinceFn: () => this.game?.ply ?? 0,
      onEvent: (ev) => { if (this.ws === sock) this.enqueue(() => this.onEvent(ev)); },
      onStatus: (s) => {
        // A socket this page replaced (after taking a seat) closes late:
        // its news is not the page's.
        if (this.ws !== sock || this.destroyed) return;
        const el = this.main.querySelector('.conn');
        if (!el) return;
        if (s === 'closed') setMsg(el, t('game.connLost'), 'warn');
        else if (sock.opens > 1 || el.textContent) { setMsg(el, t('game.connBack'), 'ok'); setTimeout(() => { if (this.ws === sock) setMsg(el, ''); }, 2000); }
        // Chat said while the socket was away comes from the history.
        if (s === 'open' && sock.opens > 1) this.loadChat();
      },
    });
    this.ws = sock;
  }

  enqueue(f) {
    this.queue = this.queue.then(() => (this.destroyed ? null : f())).catch((e) => console.error(e));
    return this.queue;
  }

  layout() {
    this.main.innerHTML = `
      <div class="game">
        <section aria-label="${esc(t('aria.board'))}">
          <div class="player top-player"></div>
          <div class="board-host"></div>
          <div class="player bottom-player"></div>
          <div class="last-line muted" aria-hidden="true"></div>
          <div class="preview-line" aria-hidden="true"></div>
          <div class="msg move-msg" role="status"></div>
          <div class="msg conn" role="status"></div>
          <div class="offer-box"></div>
          <div class="takeback-box"></div>
          <div class="row controls">
            <button class="btn hint-btn" type="button">${esc(t('game.hint'))}</button>
            <button class="btn undo-btn" type="button">${esc(t('game.undo'))}</button>
            <button class="btn offer-btn" type="button">${esc(t('game.offer'))}</button>
            <button class="btn resign-btn" type="button">${esc(t('game.resign'))}</button>
            <button class="btn abort-btn" type="button">${esc(t('game.abort'))}</button>
            <button class="btn takeback-btn" type="button">${esc(t('game.takeback'))}</button>
            <button class="btn premove-cancel" type="button" hidden>${esc(t('premove.cancel'))}</button>
          </div>
          <div class="end-box"></div>
          <p class="flip-row" hidden><button class="btn small flip-btn" type="button">${esc(t('board.flip'))}</button></p>
        </section>
        <aside class="side-panel">
          <div class="card status-card"><div class="status" aria-live="polite"></div><div class="muted mode-line"></div></div>
          <div class="card join-card" hidden></div>
          <div class="card links-card" hidden></div>
          <div class="card cond-card" hidden></div>
          <div class="card chat-card" hidden></div>
          <div class="card"><h2>${esc(t('game.moves'))}</h2><div class="moves-list"></div></div>
          <div class="card toggles"><h2>${esc(t('game.aids'))}</h2>
            <label><input type="checkbox" data-set="preview"> ${esc(t('game.previewOpt'))}</label>
            <label><input type="checkbox" data-set="coach"> ${esc(t('game.coachOpt'))}</label>
            <label><input type="checkbox" data-set="animate"> ${esc(t('game.animOpt'))}</label>
            <label><input type="checkbox" data-set="sound"> ${esc(t('game.soundOpt'))}</label>
            <label class="notify-opt" hidden><input type="checkbox" data-set="notify"> ${esc(t('game.notifyOpt'))}</label>
            <label class="orient-opt" hidden><input type="checkbox" data-set="orient"> ${esc(t('game.orientOpt'))}</label>
            <p class="muted small-print">${esc(t('game.keys'))}</p>
          </div>
        </aside>
      </div>`;
    const q = (s) => this.main.querySelector(s);
    this.msgEl = q('.move-msg');
    this.lineEl = q('.preview-line');
    this.board = new Board(q('.board-host'), {
      labels: false,
      onPlay: (l) => this.onPlay(l),
      onPreview: (l) => this.previewFn?.(l),
    });
    this.previewFn = previewHandler(this.board, this.lineEl, () => ({ position: this.game?.position, previews: this.previews, canMove: this.canMove() }));
    for (const box of this.main.querySelectorAll('[data-set]')) {
      box.checked = settings.get(box.dataset.set);
      box.addEventListener('change', () => {
        settings.set(box.dataset.set, box.checked);
        if (box.dataset.set === 'orient') this.orient();
        if (box.dataset.set === 'sound' && box.checked) sound.move();
        if (box.dataset.set === 'notify' && box.checked && typeof Notification === 'function' && Notification.permission === 'default') Notification.requestPermission().catch(() => {});
        if (!box.checked) { this.board.clearPreview(); this.lineEl.textContent = ''; }
      });
    }
    q('.hint-btn').addEventListener('click', () => this.hint());
    q('.undo-btn').addEventListener('click', () => this.undo());
    q('.resign-btn').addEventListener('click', () => this.resign());
    q('.abort-btn').addEventListener('click', () => this.abort());
    q('.takeback-btn').addEventListener('click', () => this.takeback('offer'));
    q('.flip-btn').addEventListener('click', () => { this.flipped = !this.flipped; this.orient(); });
    q('.offer-btn').addEventListener('click', () => this.agreement('offer'));
    q('.premove-cancel').addEventListener('click', () => this.setPremove(null));
    // Escape cancels a premove.
    const onEscape = (e) => { if (e.key === 'Escape' && this.premove) this.setPremove(null); };
    document.addEventListener('keydown', onEscape);
    this.offKeys = () => document.removeEventListener('keydown', onEscape);
  }

  // ---- state --------------------------------------------------------------

  setGame(game) {
    this.syncCaps(game);
    this.game = game;
    this.board.setPosition(game.position);
    this.board.setLastMove(game.last?.move || null);
    this.clockBase = game.clock ? { ...game.clock, at: performance.now() } : null;
    this.refresh();
  }

  /** Keeps this.caps (seeds captured by each ply) in step with the game:
   * the game view's own list (the server's and the module's alike). */
  syncCaps(game) {
    this.caps = (game.captures || []).slice();
  }

  /** The side this browser plays in a computer or online game (for "You
   * won"), or null: hot-seat games and spectators read side names. */
  viewer() {
    const mine = this.mySides();
    return this.game?.mode !== 'hotseat' && mine.length === 1 ? mine[0] : null;
  }

  canMove() {
    const g = this.game;
    return !!g && g.status === 'playing' && !!this.tokens[g.to_move] && !g.thinking;
  }

  orient() {
    const g = this.game;
    if (!g) return;
    let bottom = 'S';
    if (g.mode === 'hotseat') bottom = settings.get('orient') && g.status !== 'over' ? g.to_move : 'S';
    else if (this.mySides().length) bottom = this.mySides()[0];
    else if (this.flipped) bottom = 'N';
    this.board.setOrientation(bottom);
  }

  async refresh() {
    const g = this.game;
    this.orient();
    const lastLine = this.main.querySelector('.last-line');
    if (g.last) lastLine.textContent = describeTrace(g.last, g.last.move === g.last.move.toUpperCase() ? 'S' : 'N');
    else lastLine.textContent = g.plies.length && g.plies[g.plies.length - 1] === '-' ? t('say.lost', { side: sideName(other(g.to_move)) }) : '';
    this.board.setNames({ S: this.seatName('S'), N: this.seatName('N') });
    this.board.setPlayable(this.canMove() ? g.legal : []);
    this.renderPanel();
    this.previews = [];
    this.computerTurn();
    if (this.premove) queueMicrotask(() => this.firePremove());
    if (this.canMove()) {
      // Start the coach's analysis now, so a click is judged at once.
      if (this.coachOn()) coachAnalysis(...this.coachArgs());
      if (g.previews) { this.previews = g.previews; return; }
      try {
        const st = await api.rulesState(g.position);
        if (st.position === this.game.position) this.previews = st.previews;
      } catch (_) { /* previews are optional */ }
    }
  }

  /** The computer's turn in an untimed computer game this browser plays:
   * its own engine finds the move (the level's limits, as the server's
   * would) and sends it; the server's engine stays idle. A browser whose
   * engine cannot run gives the moves back to the server. */
  async computerTurn() {
    const g = this.game;
    const computer = ['S', 'N'].find((s) => g?.seats?.[s]?.kind === 'computer');
    if (!g || g.mode !== 'computer' || g.time_control || g.status !== 'playing' || !computer) return;
    if (g.to_move !== computer || !this.tokens[other(computer)] || this.computing === g.ply) return;
    if (g.engine === 'server' && g.thinking) return;
    const ply = g.ply;
    this.computing = ply;
    const eng = await readyEngine();
    if (this.destroyed || this.game.ply !== ply) { this.computing = null; return; }
    const token = this.tokens[other(computer)];
    if (!eng) {
      this.computing = null;
      if (this.local) { setMsg(this.msgEl, t('offline.noEngine'), 'bad'); return; }
      if (g.engine === 'browser') {
        this.enqueue(async () => {
          try { this.setGame((await api.chooseEngine(this.id, token, 'server')).game); } catch (e) { this.showError(e); }
        });
      }
      return;
    }
    g.thinking = true;
    this.renderPanel();
    this.board.setPlayable([]);
    const r = await eng.request({
      op: 'search',
      game: { start: g.start, moves: g.plies.join('') },
      level: g.level || 3,
      seed: Math.floor(Math.random() * 2 ** 31),
    });
    if (this.destroyed) return;
    if (this.game.ply !== ply || !r.ok || !r.best) {
      this.computing = null;
      if (this.game.ply === ply) { this.game.thinking = false; this.refresh(); }
      return;
    }
    try {
      const a = await this.api.computerMove(this.id, token, r.best, ply);
      await this.enqueue(() => this.showAnswer(a.game, computer));
      // Played: after a take-back the computer plays at this ply again.
      if (this.computing === ply) this.computing = null;
    } catch (e) {
      this.computing = null;
      if (this.game.ply === ply) this.game.thinking = false;
      this.showError(e);
    }
  }

  /** A move's answer from the server (ours, or the computer's found here):
   * animated unless the socket's event was first. */
  async showAnswer(game, mover) {
    const cur = this.game;
    if (game.ply === cur.ply + 1 && game.last) {
      await this.animateTrace(game.last, game.position);
      if (traceCaptures(game.last)) sound.capture(traceCaptures(game.last)); else sound.move();
      announce(`${describeTrace(game.last, mover)} ${t('say.score', { s: game.score.south, n: game.score.north })}`);
    }
    if (game.ply >= cur.ply) {
      const ended = cur.status !== 'over' && game.status === 'over';
      this.setGame(game);
      if (ended) this.celebrateEnd(game.result);
    }
  }

  /** The players' names for a spectator's result line ("Ama won"); none
   * in hot-seat games, where the sides are the names. */
  playerNames() {
    const g = this.game;
    if (!g || g.mode === 'hotseat') return null;
    return { S: seatName(g.seats?.S, 'S', g.level), N: seatName(g.seats?.N, 'N', g.level) };
  }

  seatName(side) {
    const seat = this.game?.seats?.[side];
    let name = seatName(seat, side, this.game?.level);
    if (this.tokens[side] && this.game.mode !== 'hotseat') name += ` (${t('game.you')})`;
    return name;
  }

  renderPanel() {
    const g = this.game;
    const q = (s) => this.main.querySelector(s);
    const bottom = this.board.orientation;
    for (const [sel, side] of [['.top-player', other(bottom)], ['.bottom-player', bottom]]) {
      const el = q(sel);
      const seat = g.seats?.[side];
      const online = g.mode === 'online' && seat?.taken ? `<span class="dot${seat.connected ? ' on' : ''}" title="${esc(t(seat.connected ? 'presence.on' : 'presence.off'))}" aria-hidden="true"></span>` : '';
      el.className = `player ${sel.slice(1)}${g.status === 'playing' && g.to_move === side ? ' to-move' : ''}`;
      el.dataset.side = side;
      const rating = ratingText(seat?.rating);
      const name = seat?.account && seat.name
        ? `<a class="seat-name" href="/player/${encodeURIComponent(seat.name)}" data-link>${esc(this.seatName(side))}</a>`
        : `<span class="seat-name">${esc(this.seatName(side))}</span>`;
      el.innerHTML = `<span>${online} ${name}${rating ? ` <span class="rating" title="${esc(t('player.rating'))}">${esc(rating)}</span>` : ''} <span class="pill">${esc(t('game.captured', { n: side === 'S' ? g.score.south : g.score.north }))}</span></span>${g.time_control ? `<span class="clock" data-clock="${side}"></span>` : ''}`;
    }
    this.renderClocks();
    // Status line
    let status;
    // The result itself is shown once, in the result card under the board.
    if (g.status === 'over') status = t('game.over');
    // A seek withdrawn, or a game called off before each side had moved.
    else if (g.status === 'cancelled') status = g.seats?.S?.taken && g.seats?.N?.taken ? t('game.abortedOff') : t('game.cancelled');
    else if (g.status === 'waiting') status = t('game.waiting');
    else if (g.thinking) status = t('game.thinking');
    else if (g.mode === 'hotseat') status = t('game.toMove', { side: this.seatName(g.to_move) });
    else if (this.tokens[g.to_move]) status = t('game.yourTurn');
    else if (this.mySides().length) status = t('game.theirTurn');
    else status = `${t('game.spectating')} ${t('game.toMove', { side: this.seatName(g.to_move) })}`;
    q('.status').textContent = status;
    q('.mode-line').textContent = `${t(`mode.${g.mode}`)}${this.local ? ` · ${t('offline.localGame')}` : ''}${g.rated ? ` · ${t('seek.rated')}` : ''}${g.aborted ? ` · ${t('game.abortedShort')}` : ''}${g.level ? ` · ${t('play.level')} ${levelName(g.level)}` : ''}${g.time_control ? ` · ${tcText(g.time_control)}` : ''}`;
    this.renderMoves();
    this.renderPrepared();
    const myTurn = g.status === 'playing' && g.mode !== 'hotseat' && this.canMove();
    document.title = myTurn ? `● ${t('game.titleTurn')} · Oware` : this.baseTitle;
    // Controls
    const mine = this.mySides().length > 0;
    const playing = g.status === 'playing';
    const noClock = !g.time_control;
    q('.controls').hidden = !mine || !playing;
    q('.hint-btn').hidden = !(mine && g.mode !== 'online' && noClock);
    q('.hint-btn').disabled = !this.canMove();
    q('.undo-btn').hidden = !(mine && g.mode !== 'online');
    q('.undo-btn').disabled = !playing || g.ply === 0 || g.thinking;
    // Online, before each side has moved, a player calls the game off
    // (nothing counts) instead of resigning.
    // (A tournament game has no abort: the tournament paired it.)
    const early = g.mode === 'online' && playing && g.ply < 2 && !g.tournament;
    q('.resign-btn').hidden = !mine || early;
    q('.resign-btn').disabled = !playing;
    q('.abort-btn').hidden = !mine || !early;
    // Online and casual: ask the opponent to take one's last move back.
    const mySide = this.mySides()[0];
    const iMoved = g.plies.some((_, i) => (i % 2 === 0) === (g.start.endsWith('-S') === (mySide === 'S')));
    q('.takeback-btn').hidden = !(mine && g.mode === 'online' && !g.rated && playing && iMoved);
    q('.takeback-btn').disabled = g.takeback === mySide;
    // Against the computer an offer to stop only makes sense once few seeds
    // are left; the computer accepts when it sees no better than a draw.
    const onBoard = g.position.split('-').slice(0, 12).reduce((a, x) => a + Number(x), 0);
    q('.offer-btn').hidden = !mine || (g.mode === 'computer' && onBoard > 12);
    q('.offer-btn').title = g.mode === 'computer' ? t('game.offerHint') : '';
    q('.offer-btn').disabled = !playing || (g.offer && this.tokens[g.offer]);
    q('.orient-opt').hidden = g.mode !== 'hotseat';
    // Spectators may turn the board round.
    q('.flip-row').hidden = g.mode === 'hotseat' || mine;
    q('.notify-opt').hidden = g.mode !== 'online' || !mine || typeof Notification !== 'function';
    this.renderOffer();
    this.renderTakeback();
    this.renderLinks();
    this.renderEnd();
  }

  renderMoves() {
    const ml = this.main.querySelector('.moves-list');
    if (!ml || !this.game) return;
    ml.innerHTML = moveListHtml(this.game.plies, this.caps) || '<span class="muted">—</span>';
    ml.scrollTop = ml.scrollHeight;
  }

  renderOffer() {
    const g = this.game;
    const box = this.main.querySelector('.offer-box');
    if (g.status !== 'playing' || !g.offer) { box.innerHTML = ''; return; }
    if (this.tokens[g.offer] && g.mode !== 'hotseat') {
      box.innerHTML = `<div class="msg">${esc(t('game.offerSent'))}</div>`;
      return;
    }
    if (!this.tokens[other(g.offer)]) { box.innerHTML = `<div class="msg">${esc(t('game.offerFrom', { side: this.seatName(g.offer) }))}</div>`; return; }
    box.innerHTML = `<div class="msg warn">${esc(t('game.offerFrom', { side: this.seatName(g.offer) }))}
      <div class="row"><button class="btn primary accept-btn" type="button">${esc(t('game.accept'))}</button><button class="btn decline-btn" type="button">${esc(t('game.decline'))}</button></div></div>`;
    box.querySelector('.accept-btn').addEventListener('click', () => this.agreement('accept'));
    box.querySelector('.decline-btn').addEventListener('click', () => this.agreement('decline'));
  }

  /** A take-back request: sent (waiting), or the opponent's to answer. */
  renderTakeback() {
    const g = this.game;
    const box = this.main.querySelector('.takeback-box');
    if (g.status !== 'playing' || !g.takeback) { box.innerHTML = ''; return; }
    if (this.tokens[g.takeback]) { box.innerHTML = `<div class="msg">${esc(t('game.takebackSent'))}</div>`; return; }
    const from = t('game.takebackFrom', { side: this.seatName(g.takeback) });
    if (!this.tokens[other(g.takeback)]) { box.innerHTML = `<div class="msg">${esc(from)}</div>`; return; }
    box.innerHTML = `<div class="msg warn">${esc(from)}
      <div class="row"><button class="btn primary tb-accept" type="button">${esc(t('game.accept'))}</button><button class="btn tb-decline" type="button">${esc(t('game.decline'))}</button></div></div>`;
    box.querySelector('.tb-accept').addEventListener('click', () => this.takeback('accept'));
    box.querySelector('.tb-decline').addEventListener('click', () => this.takeback('decline'));
  }

  renderLinks() {
    const g = this.game;
    const card = this.main.querySelector('.links-card');
    if (g.mode !== 'online') { card.hidden = true; return; }
    card.hidden = false;
    const invite = localStorage.getItem(`oware.invite.${this.id}`);
    const abs = (p) => new URL(p, location.origin).href;
    let html = '';
    if (invite && g.status === 'waiting' && this.mySides().length) {
      html += `<label>${esc(t('game.invite'))}<div class="linkbox"><input type="text" readonly class="invite-url" value="${esc(abs(invite))}"><button class="btn small copy" type="button">${esc(t('game.copy'))}</button></div></label>`;
    }
    // The creator of a game nobody has joined may withdraw it; a listed
    // one also leaves the lobby by itself when this page closes.
    if (g.status === 'waiting' && this.mySides().length) {
      html += `${g.public ? `<p class="muted small-print">${esc(t('seek.leaves'))}</p>` : ''}<p><button class="btn cancel-seek" type="button">${esc(t('game.cancel'))}</button></p>`;
    }
    if (g.status === 'cancelled') html = `<p><a class="btn primary" href="/lobby" data-link>${esc(t('game.toLobby'))}</a></p>`;
    html += `<label>${esc(t('game.spectate'))}<div class="linkbox"><input type="text" readonly class="spectator-url" value="${esc(abs(`/game/${this.id}`))}"><button class="btn small copy" type="button">${esc(t('game.copy'))}</button></div></label>`;
    if (card.dataset.html === html) return;
    card.dataset.html = html;
    card.innerHTML = html;
    card.querySelector('.cancel-seek')?.addEventListener('click', async (e) => {
      e.target.disabled = true;
      try {
        const side = this.mySides()[0];
        const r = await api.cancel(this.id, this.tokens[side]);
        if (r?.game) this.setGame(r.game);
      } catch (err) { e.target.disabled = false; setMsg(this.msgEl, errorText(err), 'bad'); }
    });
    for (const b of card.querySelectorAll('.copy')) {
      b.addEventListener('click', async () => {
        const input = b.parentElement.querySelector('input');
        input.select();
        try { await navigator.clipboard.writeText(input.value); } catch (_) { document.execCommand?.('copy'); }
        b.textContent = t('game.copied');
      });
    }
  }

  renderEnd() {
    const g = this.game;
    const box = this.main.querySelector('.end-box');
    if (g.status !== 'over') { box.innerHTML = ''; return; }
    const mine = this.mySides().length > 0;
    const viewer = this.viewer();
    const { head, why } = resultParts(g.result, viewer, this.playerNames());
    const won = viewer && g.result?.winner === viewer;
    let html = `<div class="card result-card${won ? ' won' : ''}" role="status"><h2 class="result-text">${esc(head)}</h2><p class="why">${esc(why)}.</p>`;
    if (g.aborted) html += `<p class="muted aborted">${esc(t('game.aborted'))}</p>`;
    html += '<div class="row">';
    if (g.mode === 'computer' && mine) html += `<button class="btn primary again-btn" type="button">${esc(t('game.playAgain'))}</button>`;
    // A tournament game: back to the tournament, which pairs again (no rematch).
    if (g.tournament) html += `<a class="btn primary tournament-back" href="/tournament/${esc(g.tournament)}" data-link>${esc(t('tour.back'))}</a>`;
    else if (mine && g.mode !== 'computer') html += `<button class="btn primary rematch-btn" type="button">${esc(g.rematch ? t('game.rematchJoin') : t('game.rematch'))}</button>`;
    html += `<a class="btn" href="/review/${esc(this.id)}" data-link>${esc(t('game.review'))}</a>`;
    const learner = viewer || (g.mode === 'hotseat' && mine ? 'S' : null);
    // A game kept on this device has no link to share or server record yet.
    if (learner && !this.local) html += `<a class="btn mistakes-link" href="/mistakes/${esc(this.id)}?side=${learner}" data-link>${esc(t('mis.title'))}</a>`;
    if (!this.local) html += `<button class="btn share-btn" type="button">${esc(t('game.share'))}</button>`;
    if (!this.local) html += `<a class="btn" href="${esc(api.ognUrl(this.id))}" download="oware-${esc(this.id)}.ogn">${esc(t('game.ogn'))}</a>`;
    // A game kept on this device: the record is written here, by the module.
    else html += `<a class="btn ogn-local" href="#" download="oware-${esc(this.id)}.ogn">${esc(t('game.ogn'))}</a>`;
    html += `<a class="btn" href="/play" data-link>${esc(t('game.newgame'))}</a></div><p class="msg share-msg" role="status"></p>`;
    if (g.rematch && mine && g.mode === 'online') html += `<p class="msg ok">${esc(t('game.rematchOffer'))}</p>`;
    const rated = g.rated && viewer && currentUser();
    if (rated) html += '<p class="rating-change"></p>';
    html += '</div>';
    if (box.dataset.html === html) return;
    box.dataset.html = html;
    box.innerHTML = html;
    if (rated) this.showRatingChange(box.querySelector('.rating-change'), viewer);
    box.querySelector('.rematch-btn')?.addEventListener('click', () => this.rematch());
    box.querySelector('.again-btn')?.addEventListener('click', () => this.playAgain());
    const ognLink = box.querySelector('.ogn-local');
    if (ognLink) ognDownload(ognLink, () => localOgn(this.id));
    box.querySelector('.share-btn')?.addEventListener('click', async () => {
      const url = new URL(`/review/${this.id}`, location.origin).href;
      try { await navigator.clipboard.writeText(url); } catch (_) { /* shown below to copy by hand */ }
      setMsg(box.querySelector('.share-msg'), t('game.shareCopied', { url }), 'ok');
    });
  }

  /** A rated game's effect on the player's rating: the rating they sat
   * down with, and the account's rating in that class now. */
  async showRatingChange(el, viewer) {
    await refreshRatings();
    const cls = ratingClass(this.game.time_control);
    const was = ratingText(this.game.seats?.[viewer]?.rating);
    const now = ratingText(myRating(cls));
    if (!el.isConnected || !now) return;
    el.textContent = was ? t('game.ratingChange', { cls: t(`class.${cls}`), was, now }) : t('game.ratingNow', { cls: t(`class.${cls}`), now });
  }

  /** The end of the game as it happens (not on a reload): a sound, and a
   * shower of seeds for a win. */
  celebrateEnd(result) {
    if (this.celebrated) return;
    this.celebrated = true;
    if (this.game?.rated) refreshRatings();
    const viewer = this.viewer();
    const won = viewer ? result?.winner === viewer : null;
    sound.end(result?.winner === 'draw' ? null : won);
    if (won) celebrate();
  }

  renderClocks() {
    const c = this.clockBase;
    if (!c || !this.game) return;
    const elapsed = performance.now() - c.at;
    for (const side of ['S', 'N']) {
      const el = this.main.querySelector(`[data-clock="${side}"]`);
      if (!el) continue;
      let ms = side === 'S' ? c.south_ms : c.north_ms;
      if (c.running === side && this.game.status === 'playing') ms -= elapsed;
      ms = Math.max(0, ms);
      el.textContent = clockText(ms);
      el.classList.toggle('low', ms < 10000);
      el.setAttribute('aria-label', `${sideName(side)}: ${el.textContent}`);
    }
  }

  showJoin(invite) {
    const card = this.main.querySelector('.join-card');
    card.hidden = false;
    const me = currentUser();
    if (this.game?.rated && !me) {
      // A rated game is between accounts: sign in first, then come back.
      const back = `/game/${this.id}${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`;
      card.innerHTML = `<h2>${esc(t('game.joinTitle'))}</h2><p>${esc(t('seek.signInFor'))}</p>
        <p><a class="btn primary" href="/account?next=${encodeURIComponent(back)}" data-link>${esc(t('nav.signin'))}</a></p>`;
      return;
    }
    card.innerHTML = `<h2>${esc(t('game.joinTitle'))}</h2>
      ${me ? `<p>${esc(t('seek.as', { name: me.username }))}</p>` : `<label>${esc(t('play.name'))} <input type="text" class="join-name" maxlength="40" value="${esc(localStorage.getItem('oware.name') || '')}"></label>`}
      <p><button class="btn primary join-btn" type="button">${esc(t('game.joinBtn'))}</button></p><div class="msg"></div>`;
    card.querySelector('.join-btn').addEventListener('click', async () => {
      const name = card.querySelector('.join-name')?.value.trim();
      if (name) localStorage.setItem('oware.name', name);
      try {
        const r = await api.join(this.id, invite, name || undefined);
        seats.add(this.id, { [r.you]: r.token });
        this.tokens = seats.get(this.id);
        card.hidden = true;
        history.replaceState(null, '', `/game/${this.id}`);
        this.setGame(r.game);
        this.connect();
        // Now a player: the players' room with a mute switch, without the
        // spectators' room seen until now.
        this.chat = [];
        this.setupChat();
      } catch (e) {
        setMsg(card.querySelector('.msg'), errorText(e), 'bad');
      }
    });
  }

  // ---- chat ---------------------------------------------------------------

  /** The chat card of an online game: the players' room, which everyone
   * reads, and the spectators' own room. Every message is text
   * (textContent), never markup. */
  setupChat() {
    const card = this.main.querySelector('.chat-card');
    card.hidden = false;
    const player = this.mySides().length > 0;
    card.innerHTML = `<h2>${esc(t('chat.title'))}</h2>
      ${player ? `<label class="choice mute-opt"><input type="checkbox" class="mute"> ${esc(t('chat.mute'))}</label>` : `<p class="muted small-print">${esc(t('chat.spectatorNote'))}</p>`}
      <button class="btn small chat-earlier" type="button" hidden>${esc(t('chat.earlier'))}</button>
      <ol class="chat-log" aria-live="polite" aria-label="${esc(t('chat.title'))}"></ol>
      <p class="muted chat-empty">${esc(t('chat.empty'))}</p>
      <form class="chat-form" novalidate>
        <input type="text" name="text" maxlength="500" autocomplete="off" aria-label="${esc(t('chat.message'))}" placeholder="${esc(player ? t('chat.placeholder') : t('chat.placeholderSpectators'))}">
        <button class="btn primary" type="submit">${esc(t('chat.send'))}</button>
      </form>
      <div class="msg chat-msg" role="status"></div>`;
    const mute = card.querySelector('.mute');
    const muteKey = `oware.mute.${this.id}`;
    if (mute) {
      mute.checked = localStorage.getItem(muteKey) === '1';
      card.classList.toggle('muted-opp', mute.checked);
      mute.addEventListener('change', () => {
        if (mute.checked) localStorage.setItem(muteKey, '1'); else localStorage.removeItem(muteKey);
        card.classList.toggle('muted-opp', mute.checked);
        this.chatEmpty();
      });
    }
    card.querySelector('.chat-earlier').addEventListener('click', () => this.loadEarlierChat());
    const form = card.querySelector('.chat-form');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = form.text.value.trim();
      if (!text) return;
      const msg = card.querySelector('.chat-msg');
      if ([...text].length > 500) { setMsg(msg, t('err.too_large.chat'), 'bad'); return; }
      if (!this.ws?.send({ type: 'chat', text })) { setMsg(msg, t('game.connLost'), 'warn'); return; }
      this.chatSentAt = Date.now();
      setMsg(msg, '');
      form.text.value = '';
    });
    this.loadChat();
  }

  /** The history (on load and after a reconnect) is the record; live
   * messages it does not hold yet (sent while it was on its way) stay
   * after it. Messages are compared as a multiset: two players may both
   * write "gg" in the same second. */
  async loadChat() {
    let history;
    try {
      history = (await api.chat(this.id, this.tokens.S || this.tokens.N || null)).messages || [];
    } catch (_) { return; /* an older server has no chat: the card stays empty */ }
    if (this.destroyed) return;
    const left = new Map();
    for (const m of history) left.set(chatKey(m), (left.get(chatKey(m)) || 0) + 1);
    const extra = (this.chat || []).filter((m) => {
      const n = left.get(chatKey(m)) || 0;
      if (n) { left.set(chatKey(m), n - 1); return false; }
      return true;
    });
    this.chat = [...history, ...extra];
    const log = this.main.querySelector('.chat-log');
    if (!log) return;
    log.replaceChildren(...this.chat.map((m) => this.chatLine(m)));
    log.scrollTop = log.scrollHeight;
    this.showEarlierButton(history.length >= CHAT_PAGE);
    this.chatEmpty();
  }

  /** The button for earlier messages, while the server may hold some. */
  showEarlierButton(more) {
    const btn = this.main.querySelector('.chat-earlier');
    if (btn) btn.hidden = !more || this.chat[0]?.id == null;
  }

  /** The page of messages before the first one shown, put above it; the
   * reader's place in the log stays where it was. */
  async loadEarlierChat() {
    const first = this.chat[0]?.id;
    if (first == null) return;
    let page;
    try {
      page = (await api.chat(this.id, this.tokens.S || this.tokens.N || null, first)).messages || [];
    } catch (err) { setMsg(this.main.querySelector('.chat-msg'), errorText(err), 'bad'); return; }
    if (this.destroyed || this.chat[0]?.id !== first) return;
    const log = this.main.querySelector('.chat-log');
    const below = log.scrollHeight - log.scrollTop;
    this.chat = [...page, ...this.chat];
    log.prepend(...page.map((m) => this.chatLine(m)));
    log.scrollTop = log.scrollHeight - below;
    this.showEarlierButton(page.length >= CHAT_PAGE);
  }

  addChat(m) {
    const log = this.main.querySelector('.chat-log');
    if (!log || !m || typeof m.text !== 'string') return;
    (this.chat ||= []).push(m);
    log.append(this.chatLine(m));
    log.scrollTop = log.scrollHeight;
    this.chatEmpty();
  }

  /** One message as DOM text nodes (never markup). */
  chatLine(m) {
    const mine = m.side && this.tokens[m.side];
    const li = document.createElement('li');
    li.className = `chat-line${m.room === 'spectators' ? ' spectators' : ''}${m.side && !mine && m.room !== 'spectators' ? ' from-opponent' : ''}${mine ? ' mine' : ''}`;
    const who = document.createElement('span');
    who.className = 'chat-who';
    // The server's name for the writer; its default names in this language.
    let name;
    if (!m.name || m.name === 'Spectator') name = m.side ? sideName(m.side) : t('chat.spectator');
    else name = seatName({ kind: 'human', taken: true, name: m.name }, m.side || 'S');
    if (mine) name += ` (${t('game.you')})`;
    who.textContent = m.room === 'spectators' ? `${name} · ${t('chat.spectatorsRoom')}` : name;
    const text = document.createElement('span');
    text.className = 'chat-text';
    text.textContent = m.text;
    li.append(who, document.createTextNode(': '), text);
    return li;
  }

  chatEmpty() {
    const card = this.main.querySelector('.chat-card');
    const shown = [...card.querySelectorAll('.chat-line')].some((li) => !(card.classList.contains('muted-opp') && li.classList.contains('from-opponent')));
    card.querySelector('.chat-empty').hidden = shown;
  }

  // ---- events -------------------------------------------------------------

  async onEvent(ev) {
    const g = this.game;
    switch (ev.type) {
      case 'state':
        if (ev.game.ply === g.ply + 1 && ev.game.last && ev.game.status !== 'waiting' && g.plies.join('') === ev.game.plies.slice(0, -1).join('')) {
          await this.animateTrace(ev.game.last, ev.game.position);
        }
        this.setGame(ev.game);
        break;
      case 'move':
        await this.applyMove(ev);
        break;
      case 'end':
        setMsg(this.msgEl, '');
        g.status = 'over';
        g.result = ev.result;
        g.offer = null;
        g.takeback = null;
        {
          const { head, why } = resultParts(ev.result, this.viewer(), this.playerNames());
          announce(`${head}: ${why}.`);
        }
        this.celebrateEnd(ev.result);
        this.refresh();
        break;
      case 'offer':
        if (ev.action === 'offer') {
          g.offer = ev.side;
          if (!this.tokens[ev.side]) announce(t('game.offerFrom', { side: this.seatName(ev.side) }));
        } else {
          g.offer = null;
          if (this.tokens[ev.side] === undefined) setMsg(this.msgEl, t('game.offerDeclined'));
          else setMsg(this.msgEl, t('game.offerDeclined'));
        }
        this.renderPanel();
        break;
      case 'takeback':
        g.takeback = ev.action === 'offer' ? ev.side : null;
        if (ev.action === 'offer' && !this.tokens[ev.side]) announce(t('game.takebackFrom', { side: this.seatName(ev.side) }));
        if (ev.action === 'decline' && !this.tokens[ev.side]) setMsg(this.msgEl, t('game.takebackDeclined'));
        this.renderPanel();
        break;
      case 'presence':
        g.seats = ev.seats;
        if (g.status === 'waiting' && ev.seats.S?.taken && ev.seats.N?.taken) {
          // The other seat was taken: the game starts; fetch the full state.
          this.setGame(await api.getGame(this.id));
        } else this.renderPanel();
        break;
      case 'thinking':
        g.thinking = ev.thinking;
        this.renderPanel();
        this.board.setPlayable(this.canMove() ? g.legal : []);
        break;
      case 'clock':
        g.clock = ev.clock;
        this.clockBase = { ...ev.clock, at: performance.now() };
        break;
      case 'rematch':
        g.rematch = ev.id;
        this.renderPanel();
        break;
      case 'chat':
        this.addChat(ev);
        break;
      case 'error':
        if (this.chatSentAt && Date.now() - this.chatSentAt < 3000 && ['too_large', 'rate_limited', 'invalid_request', 'not_allowed'].includes((ev.error || ev).code)) {
          this.chatSentAt = 0;
          const err = ev.error || ev;
          setMsg(this.main.querySelector('.chat-msg'), err.code === 'too_large' ? t('err.too_large.chat') : errorText(err), 'bad');
          break;
        }
        // Flat ({type, code, …}) today; nested ({type, error: {code, …}}) in
        // the typed protocol.
        setMsg(this.msgEl, errorText(ev.error || ev), 'bad');
        break;
      default:
        break;
    }
  }

  async applyMove(ev) {
    const g = this.game;
    if (ev.ply <= g.ply) return; // already shown (our own POST answer, or a replay after hello)
    if (ev.ply > g.ply + 1) {
      // We missed something: take the server's full state.
      this.setGame(await api.getGame(this.id));
      return;
    }
    if (ev.trace) await this.animateTrace(ev.trace, ev.position);
    else this.board.setPosition(ev.position);
    if (this.caps.length === g.plies.length) this.caps.push(traceCaptures(ev.trace));
    g.captures = this.caps.slice();
    g.plies = [...g.plies, ev.move];
    g.ply = ev.ply;
    g.position = ev.position;
    g.to_move = ev.to_move;
    g.legal = ev.legal;
    g.score = ev.score;
    g.last = ev.trace;
    g.offer = null;
    g.takeback = null;
    // The engine's move ends its thinking, whether or not a `thinking` event follows.
    if (g.seats?.[ev.side]?.kind === 'computer') g.thinking = false;
    if (g.status === 'waiting') g.status = 'playing';
    if (ev.clock) { g.clock = ev.clock; this.clockBase = { ...ev.clock, at: performance.now() }; }
    if (ev.trace) {
      announce(`${describeTrace(ev.trace, ev.side)} ${t('say.score', { s: ev.score.south, n: ev.score.north })}`);
      if (traceCaptures(ev.trace)) sound.capture(traceCaptures(ev.trace)); else sound.move();
    }
    else announce(t('say.lost', { side: sideName(ev.side) }));
    this.notifyTurn(ev);
    this.board.setLastMove(ev.trace?.move || null);
    await this.refresh();
  }

  /** In a background tab, tells an online player their opponent has moved
   * (a notification, when switched on and allowed). */
  notifyTurn(ev) {
    const g = this.game;
    if (!document.hidden || g.mode !== 'online' || !this.canMove() || !settings.get('notify')) return;
    if (typeof Notification !== 'function' || Notification.permission !== 'granted') return;
    try {
      const n = new Notification(`${t('game.titleTurn')} · Oware`, { body: ev.trace ? describeTrace(ev.trace, ev.side) : t('say.lost', { side: sideName(ev.side) }), tag: `oware-${this.id}` });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (_) { /* notifications unavailable */ }
  }

  animateTrace(trace, after) {
    return this.board.animate({ ...trace, after }, { instant: !settings.get('animate') });
  }

  // ---- actions ------------------------------------------------------------

  async onPlay(letter) {
    const g = this.game;
    if (!g || this.sending) return;
    this.board.clearPreview();
    this.lineEl.textContent = '';
    if (g.status !== 'playing') { setMsg(this.msgEl, g.status === 'over' ? t('game.over') : t('game.waiting'), 'bad'); return; }
    if (!this.mySides().length) { setMsg(this.msgEl, t('refuse.spectator'), 'bad'); return; }
    if (!this.tokens[g.to_move] || g.thinking) {
      // One of my houses while the opponent thinks: a premove, played as
      // soon as the turn comes (the same house again cancels it).
      if (this.canPremove(letter)) { this.setPremove(this.premove === letter ? null : letter); return; }
      setMsg(this.msgEl, t('refuse.notYours'), 'bad');
      announce(t('refuse.notYours'));
      return;
    }
    const p = this.previews.find((x) => x.move === letter);
    if (p && !p.legal) {
      const text = refusalText(p.refusal);
      setMsg(this.msgEl, text, 'bad');
      announce(text);
      this.board.markIllegal(letter);
      return;
    }
    // The engine coach warns from "mistake" up; its analysis is the one the
    // hint comes from, so the hinted move is never warned about.
    const [start, moves, computer] = this.coachArgs();
    let warning = null;
    if (this.coachOn() && this.pendingCoach !== `${g.ply}${letter}`) {
      setMsg(this.msgEl, t('coach.checking', { move: letter }));
      warning = await coachWarning(start, moves, letter, computer);
      if (this.msgEl.textContent === t('coach.checking', { move: letter })) setMsg(this.msgEl, '');
    }
    if (this.game?.ply !== g.ply || this.sending) return;
    if (warning) {
      this.pendingCoach = `${g.ply}${letter}`;
      const text = `${warning} ${t(touching() ? 'coach.confirmTap' : 'coach.confirm', { move: letter })}`;
      setMsg(this.msgEl, text, 'warn');
      announce(text);
      return;
    }
    this.pendingCoach = null;
    if (this.hinted !== `${g.ply}${letter}`) setMsg(this.msgEl, '');
    this.sending = true;
    try {
      const r = await this.api.move(this.id, this.tokens[g.to_move], letter, g.ply);
      await this.enqueue(() => this.showAnswer(r.game, g.to_move));
    } catch (e) {
      this.showError(e, letter);
    } finally {
      this.sending = false;
    }
  }

  /** Correspondence, the opponent to move: a reply prepared for each of
   * their moves (conditional moves), played by the server the moment that
   * move comes. The choices are each move's legal replies, from the rules
   * service; what is stored is read back from the server. */
  async renderPrepared() {
    const g = this.game;
    const card = this.main.querySelector('.cond-card');
    const mine = this.mySides();
    const show = !this.local && g.status === 'playing' && !!g.time_control?.days_per_move
      && mine.length === 1 && g.to_move !== mine[0];
    if (!show) { card.hidden = true; this.preparedFor = null; return; }
    const key = `${g.ply}`;
    if (this.preparedFor === key) return;
    this.preparedFor = key;
    const token = this.tokens[mine[0]];
    let stored = { ply: null, replies: {} };
    const choices = [];
    try {
      stored = await api.prepared(this.id, token);
      for (const theirs of g.legal) {
        // eslint-disable-next-line no-await-in-loop
        const after = await api.rulesState(g.start, g.plies.filter((m) => m !== '-').join('') + theirs);
        if (after.status === 'playing') choices.push([theirs, after.legal]);
      }
    } catch (e) { this.preparedFor = null; return; }
    if (this.game?.ply !== g.ply || this.destroyed) return;
    const chosen = stored.ply === g.ply ? stored.replies : {};
    card.innerHTML = `<h2>${esc(t('cond.title'))}</h2><p class="muted">${esc(t('cond.help'))}</p>
      <form class="cond-form">${choices.map(([theirs, replies]) => `<label class="cond-row">${esc(t('cond.if', { move: theirs }))}
        <select name="${esc(theirs)}"><option value="">${esc(t('cond.none'))}</option>${replies.map((r) => `<option value="${esc(r)}"${chosen[theirs] === r ? ' selected' : ''}>${esc(r)}</option>`).join('')}</select></label>`).join('')}
      <button class="btn small" type="submit">${esc(t('cond.save'))}</button><div class="msg cond-msg" role="status"></div></form>`;
    card.hidden = false;
    card.querySelector('.cond-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const replies = {};
      for (const sel of card.querySelectorAll('select')) if (sel.value) replies[sel.name] = sel.value;
      const out = card.querySelector('.cond-msg');
      try {
        const r = await api.conditional(this.id, token, g.ply, replies);
        const n = Object.keys(r.replies).length;
        setMsg(out, n ? t('cond.saved', { n }) : t('cond.cleared'), 'ok');
      } catch (e) { setMsg(out, errorText(e), 'bad'); }
    });
  }

  /** May `letter` be chosen now as a premove: a game in play against
   * someone else (a person or the computer), the opponent to move, and
   * the house one of mine? */
  canPremove(letter) {
    const g = this.game;
    const mine = this.mySides();
    if (!g || g.status !== 'playing' || g.mode === 'hotseat' || mine.length !== 1) return false;
    if (this.tokens[g.to_move] && !g.thinking) return false;
    return (letter === letter.toUpperCase() ? 'S' : 'N') === mine[0];
  }

  /** Shows this.premove: marked on the board, its cancel button. */
  showPremove() {
    this.board.setPremove(this.premove);
    const cancel = this.main.querySelector('.premove-cancel');
    if (cancel) cancel.hidden = !this.premove;
  }

  /** Chooses (or with null, cancels) the premove, and says so. */
  setPremove(letter) {
    const was = this.premove;
    this.premove = letter || null;
    this.showPremove();
    const text = this.premove ? t('premove.set', { move: this.premove }) : was ? t('premove.cancelled', { move: was }) : '';
    if (text) { setMsg(this.msgEl, text, this.premove ? 'ok' : ''); announce(text); }
  }

  /** Plays the premove once the turn is mine: if it is legal then, it is
   * sent at once (no coach question: it was chosen on purpose); if not, it
   * is dropped and the player told why. */
  firePremove() {
    const letter = this.premove;
    const g = this.game;
    if (!letter || !g) return;
    if (g.status !== 'playing') { this.premove = null; this.showPremove(); return; }
    if (!this.canMove() || this.sending) return;
    this.premove = null;
    this.showPremove();
    if (!(g.legal || []).includes(letter)) {
      const text = t('premove.illegal', { move: letter });
      setMsg(this.msgEl, text, 'warn');
      announce(text);
      return;
    }
    this.pendingCoach = `${g.ply}${letter}`;
    this.onPlay(letter);
  }

  showError(e, letter) {
    if (e instanceof ApiError && e.code === 'stale_ply') {
      setMsg(this.msgEl, t('err.stale_ply'), 'warn');
      this.api.getGame(this.id).then((g) => this.enqueue(() => this.setGame(g)));
      return;
    }
    const text = errorText(e);
    setMsg(this.msgEl, text, 'bad');
    announce(text);
    if (letter) this.board.markIllegal(letter);
  }

  token() { return this.tokens[this.game.to_move] || this.tokens.S || this.tokens.N; }

  /** The engine coach runs where hints do: computer and untimed hot-seat
   * games, when switched on. */
  coachOn() {
    const g = this.game;
    return !!g && g.mode !== 'online' && !g.time_control && settings.get('coach');
  }

  /** [start position, moves, computer side] for the coach. */
  coachArgs() {
    const g = this.game;
    const computer = ['S', 'N'].find((s) => g.seats?.[s]?.kind === 'computer');
    return [g.start, g.plies.join(''), computer];
  }

  async hint() {
    try {
      const ply = this.game.ply;
      // The hint is the coach's best move (one analysis, as on the server):
      // the coach's analysis comes from the browser's engine when it gives
      // the server's answer (docs/WEB.md, "Which engine answers").
      const g = this.game;
      const a = g.mode !== 'online' && !g.time_control ? await coachAnalysis(...this.coachArgs()) : null;
      const r = a?.moves?.length ? { move: a.best, score: a.moves[0].score } : await api.hint(this.id, this.token(), 700);
      this.hinted = `${ply}${r.move}`;
      const text = t('game.hintIs', { move: r.move, score: formatScore(r.score) });
      setMsg(this.msgEl, text, 'ok');
      announce(text);
      this.board.showPreview(r.move, []);
    } catch (e) { this.showError(e); }
  }

  async undo() {
    try {
      const r = await this.api.undo(this.id, this.token());
      this.enqueue(() => this.setGame(r.game));
      setMsg(this.msgEl, '');
    } catch (e) { this.showError(e); }
  }

  async takeback(action) {
    try {
      const r = await api.takeback(this.id, this.tokens[this.mySides()[0]], action);
      this.enqueue(() => this.setGame(r.game));
    } catch (e) { this.showError(e); }
  }

  async abort() {
    try {
      const r = await api.abort(this.id, this.tokens[this.mySides()[0]]);
      this.enqueue(() => this.setGame(r.game));
    } catch (e) { this.showError(e); }
  }

  async resign() {
    if (!window.confirm(t('game.resignConfirm'))) return;
    try {
      const side = this.game.mode === 'hotseat' ? this.game.to_move : this.mySides()[0];
      const r = await this.api.resign(this.id, this.tokens[side]);
      this.enqueue(() => this.setGame(r.game));
    } catch (e) { this.showError(e); }
  }

  async agreement(action) {
    if (this.game.mode === 'hotseat') {
      // Both players sit at this device: one confirmation stands for the offer and its acceptance.
      if (action !== 'offer' || !window.confirm(t('game.agreeBoth'))) return;
      try {
        const g = this.game;
        await this.api.agreement(this.id, this.tokens[g.to_move], 'offer');
        const r = await this.api.agreement(this.id, this.tokens[other(g.to_move)], 'accept');
        this.enqueue(() => this.setGame(r.game));
      } catch (e) { this.showError(e); }
      return;
    }
    try {
      const side = this.game.mode === 'hotseat' ? this.game.to_move : (action === 'offer' ? this.mySides()[0] : other(this.game.offer));
      const r = await this.api.agreement(this.id, this.tokens[side] || this.token(), action);
      this.enqueue(() => {
        if (action === 'offer' && r.game.status === 'playing' && !r.game.offer) setMsg(this.msgEl, t('game.offerDeclined'));
        this.setGame(r.game);
      });
    } catch (e) { this.showError(e); }
  }

  async playAgain() {
    const g = this.game;
    try {
      if (this.local) {
        const r = await createLocalGame({ mode: 'computer', level: g.level, side: this.viewer() || 'S', name: localStorage.getItem('oware.name') || undefined });
        navigate(`/game/${r.id}`);
        return;
      }
      const r = await api.createGame({ mode: 'computer', level: g.level, side: this.viewer() || 'S', name: localStorage.getItem('oware.name') || undefined, engine: g.time_control || !browserEngine() ? undefined : 'browser' });
      seats.add(r.id, r.tokens);
      navigate(`/game/${r.id}`);
    } catch (e) { this.showError(e); }
  }

  async rematch() {
    try {
      let newId = null;
      for (const side of this.mySides()) {
        // eslint-disable-next-line no-await-in-loop
        const r = await this.api.rematch(this.id, this.tokens[side]);
        newId = r.id;
        // A local game's rematch is one call, and its seats are not the server's.
        if (this.local) break;
        seats.add(r.id, { [r.you]: r.token });
        if (r.tokens) seats.add(r.id, r.tokens);
        if (this.game.mode !== 'hotseat') break;
      }
      if (newId) navigate(`/game/${newId}`);
    } catch (e) { this.showError(e); }
  }
}

const chatKey = (m) => `${m.at}|${m.room}|${m.side}|${m.name}|${m.text}`;

/** A clock's time left: m:ss, or days and hours (correspondence), or
 * hours and minutes. */
export function clockText(ms) {
  const s = Math.ceil(ms / 1000);
  if (s >= 86400) return t('clock.days', { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t('clock.hours', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function tcText(tc) {
  if (!tc) return t('play.none');
  if (tc.per_move_ms) return t('tc.permove', { s: Math.round(tc.per_move_ms / 1000) });
  if (tc.days_per_move) return t(tc.days_per_move === 1 ? 'tc.days1' : 'tc.days', { n: tc.days_per_move });
  return t('tc.clock', { m: Math.round(tc.initial_ms / 60000), i: Math.round((tc.increment_ms || 0) / 1000) });
}
