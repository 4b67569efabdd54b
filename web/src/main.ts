// thaiboard web board: the game page and the entry point (the other pages have their own files).
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key } from 'chessgroundx/types';
import * as api from './api';
import { analysisPage, analysisUrl } from './analysis-board';
import { makhosBoardFen } from './boardfen';
import { h } from './dom';
import { renderHeader } from './header';
import { applyLang, t, tMaybe } from './i18n';
import { describeTc, reasonText, variantName } from './labels';
import { lobbyPage } from './lobby';
import { myGamesPage } from './my-games';
import { boardNotation, hasThai, pickMove, showMove, showSquare, thaiNotation } from './notation';
import { gameTabs } from './tabs';
import { tournamentLink, tournamentPage, tournamentsPage } from './tournaments';

const app = document.getElementById('app')!;
const topBar = document.getElementById('top')!;

// ---------------------------------------------------------------- game page

interface Ply { fen: string; san: string; last: string[]; turn: 'white' | 'black' }

function fmtClock(ms: number, kind: string): string {
  ms = Math.max(0, ms);
  if (kind === 'correspondence') {
    const d = Math.floor(ms / 86400000), hh = Math.floor((ms % 86400000) / 3600000), mm = Math.floor((ms % 3600000) / 60000);
    return d > 0 ? t('game.clockDays', { d, h: hh }) : t('game.clockHours', { h: hh, m: String(mm).padStart(2, '0') });
  }
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const base = m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${m}:${String(s % 60).padStart(2, '0')}`;
  return ms < 10000 ? `${base}.${Math.floor((ms % 1000) / 100)}` : base;
}

async function gamePage(id: string): Promise<void> {
  let game = await api.getGame(id);
  let actions: api.Action[] = game.actions ?? [];
  let received = Date.now();
  const colorOf = (): 'white' | 'black' | null =>
    game.white?.id === api.me!.id ? 'white' : game.black?.id === api.me!.id ? 'black' : null;
  let myColor = colorOf();
  let orientation: 'white' | 'black' = myColor ?? (game.creator.id === api.me!.id && game.creator_color === 'black' ? 'black' : 'white');
  let view = -1; // index into plies; -1 follows the latest
  let animTimer: number | undefined;
  const isMakhos = game.variant === 'makhos';
  const toBoard = (fen: string) => (isMakhos ? makhosBoardFen(fen) : fen);

  const boardEl = h('div', { class: 'cg-wrap', id: 'board' });
  const wrapper = h('div', { class: `board-col ${isMakhos ? 'makhos' : 'makruk'}` });
  const topPlayer = h('div', { class: 'player' }), bottomPlayer = h('div', { class: 'player' });
  wrapper.append(topPlayer, boardEl, h('div', { style: 'height:18px' }), bottomPlayer);
  const status = h('div', { class: 'status', id: 'status' });
  const countBox = h('div', { class: 'count', id: 'count' });
  const movesEl = h('div', { class: 'moves', id: 'moves' });
  const err = h('div', { class: 'error', id: 'game-error' });
  const chooser = h('div', { class: 'chooser' });
  const input = h('input', { id: 'move-input', autocomplete: 'off' }) as HTMLInputElement;
  const inputHint = (): string => t(isMakhos ? (thaiNotation() ? 'game.inputMakhosThai' : 'game.inputMakhos') : thaiNotation() ? 'game.inputMakrukThai' : 'game.inputMakruk');
  input.placeholder = inputHint();
  const mv = (san: string): string => showMove(game.variant, san);
  const fenBox = h('input', { class: 'fen', id: 'fen', readonly: true }) as HTMLInputElement;
  const controls = h('div', { class: 'row', id: 'controls' });
  const conn = h('span', { class: 'muted', id: 'conn' });

  const plies = (): Ply[] => {
    const start: Ply = { fen: game.start_fen, san: '', last: [], turn: 'white' };
    const list = [start];
    for (const a of actions) {
      if (a.kind !== 'move') { list[list.length - 1] = { ...list[list.length - 1], fen: a.fen }; continue; }
      const last = isMakhos ? a.uci.match(/../g) ?? [] : [a.uci.slice(0, 2), a.uci.slice(2, 4)];
      list.push({ fen: a.fen, san: a.san, last, turn: list.length % 2 === 1 ? 'black' : 'white' });
    }
    return list;
  };
  const shownIndex = () => (view < 0 ? plies().length - 1 : view);
  const atLatest = () => shownIndex() === plies().length - 1;

  const cg: Api = Chessground(boardEl, {
    dimensions: { width: 8, height: 8 },
    orientation,
    coordinates: true,
    notation: boardNotation(),
    kingRoles: isMakhos ? [] : ['k-piece'],
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 200 },
    draggable: { enabled: true, showGhost: true },
    selectable: { enabled: true },
    premovable: { enabled: false },
    movable: { free: false, showDests: true, events: { after: (orig: Key, dest: Key) => onBoardMove(orig, dest) } },
  });

  // Mak-hot captures are entered square by square: the squares clicked so far.
  let stepPath: string[] = [];
  const lastSq = (m: api.LegalMove) => m.path[m.path.length - 1];
  const following = (prefix: string[]) => game.legal.filter(m => prefix.every((sq, i) => m.path[i] === sq));

  function dests(): Map<Key, Key[]> {
    const map = new Map<Key, Key[]>();
    const add = (from: string, to: string) => {
      const list = map.get(from as Key) ?? [];
      if (!list.includes(to as Key)) list.push(to as Key);
      map.set(from as Key, list);
    };
    if (isMakhos) {
      // The next landing square of each move, and its final square (dropping there plays it whole).
      const n = Math.max(stepPath.length, 1);
      for (const m of following(stepPath)) if (m.path.length > n) { add(m.path[n - 1], m.path[n]); add(m.path[n - 1], lastSq(m)); }
      return map;
    }
    for (const m of game.legal) {
      const from = (isMakhos ? m.path[0] : m.uci.slice(0, 2)) as Key;
      const to = (isMakhos ? m.path[m.path.length - 1] : m.uci.slice(2, 4)) as Key;
      const list = map.get(from) ?? [];
      if (!list.includes(to)) list.push(to);
      map.set(from, list);
    }
    return map;
  }

  function myTurn(): boolean { return game.status === 'ongoing' && myColor === game.turn; }

  function drawBoard(): void {
    stepPath = [];
    const list = plies();
    const p = list[shownIndex()];
    const canMove = myTurn() && atLatest();
    const checked = !isMakhos && /[+#]$/.test(p.san);
    cg.set({
      fen: toBoard(p.fen),
      orientation,
      turnColor: shownIndex() % 2 === 0 ? 'white' : 'black',
      lastMove: p.last as Key[],
      check: checked ? (shownIndex() % 2 === 0 ? 'white' : 'black') : false,
      movable: { color: canMove ? myColor! : undefined, dests: canMove ? dests() : new Map() },
    });
    fenBox.value = p.fen;
  }

  async function sendMove(text: string): Promise<void> {
    chooser.replaceChildren();
    err.textContent = '';
    const reply = await socket.send({ type: 'move', move: text, ply: game.ply });
    if (reply.type !== 'ack') { err.textContent = reply.message ?? t('game.moveRefused'); drawBoard(); }
  }

  /** A typed move: Thai notation is read back (the legal move it names) before it is sent. */
  function sendTyped(text: string): void {
    if (!hasThai(text)) { sendMove(text); return; }
    const pick = pickMove(game.variant, text, game.legal);
    if (!pick) { err.textContent = t('game.notThai', { text }); return; }
    sendMove(pick.move);
  }

  function chooseAmong(moves: api.LegalMove[]): void {
    chooser.replaceChildren(t('game.whichCapture'), ...moves.map(m => h('button', { onclick: () => sendMove(m.uci) }, mv(m.san))));
  }

  /** A Mak-hot board move: one step of a capture path, or a whole move dropped on its final square. */
  function onMakhosStep(orig: string, dest: string): void {
    const prefix = stepPath.length ? stepPath : [orig];
    const next = [...prefix, dest];
    const stepping = following(next);
    if (stepping.length === 1) { sendMove(stepping[0].uci); return; }
    const complete = stepping.filter(m => m.path.length === next.length);
    if (stepping.length > 0 && complete.length === stepping.length) { chooseAmong(complete); return; }
    if (stepping.length > 0) {
      // Several ways go on from here: show the next landing squares and wait for the next click.
      stepPath = next;
      cg.set({ turnColor: myColor!, movable: { color: myColor!, dests: dests() } });
      cg.selectSquare(dest as Key);
      chooser.replaceChildren(h('span', { id: 'capture-path' }, t('game.capturePath', { path: next.map(showSquare).join('x') })), ' ',
        ...complete.map(m => h('button', { onclick: () => sendMove(m.uci) }, t('game.stopAt', { move: mv(m.san) }))),
        h('button', { id: 'capture-cancel', onclick: () => { chooser.replaceChildren(); drawBoard(); } }, t('game.cancelCapture')));
      return;
    }
    const ending = following(prefix).filter(m => lastSq(m) === dest);
    if (ending.length === 1) sendMove(ending[0].uci);
    else if (ending.length) chooseAmong(ending);
    else { chooser.replaceChildren(); drawBoard(); }
  }

  function onBoardMove(orig: string, dest: string): void {
    if (isMakhos) { onMakhosStep(orig, dest); return; }
    const cands = game.legal.filter(m => isMakhos
      ? m.path[0] === orig && m.path[m.path.length - 1] === dest
      : m.uci.slice(0, 2) === orig && m.uci.slice(2, 4) === dest);
    if (cands.length === 1) { sendMove(cands[0].uci); return; }
    if (!cands.length) { drawBoard(); return; }
    // Several captures end on the same square: let the player pick the path.
    chooseAmong(cands);
  }

  function renderMoves(): void {
    const list = plies();
    const cur = shownIndex();
    const cells: HTMLElement[] = tabs.commentsAt(0).map(c => h('div', { class: `note comment${c.private ? ' private' : ''}` }, `${c.private ? t('game.note') : c.author}: ${c.text}`));
    let ply = 0;
    for (const a of actions) {
      if (a.kind !== 'move') {
        const side = a.uci === 'white' ? t('common.white') : a.uci === 'black' ? t('common.black') : a.uci;
        cells.push(h('div', { class: 'note' }, tMaybe(`game.action.${a.kind}`, a.san, { side })));
        continue;
      }
      ply++;
      if (ply % 2 === 1) cells.push(h('div', {}, `${(ply + 1) / 2}.`));
      const idx = ply;
      cells.push(h('div', { class: `mv${idx === cur ? ' current' : ''}`, 'data-ply': String(idx), 'data-san': a.san, onclick: () => go(idx) }, mv(a.san)));
      for (const c of tabs.commentsAt(idx)) cells.push(h('div', { class: `note comment${c.private ? ' private' : ''}` }, `${c.private ? t('game.note') : c.author}: ${c.text}`));
    }
    movesEl.replaceChildren(...cells);
    const curEl = movesEl.querySelector('.current');
    if (curEl && atLatest()) (curEl as HTMLElement).scrollIntoView({ block: 'nearest' });
    void list;
  }

  function go(idx: number): void {
    const n = plies().length - 1;
    idx = Math.max(0, Math.min(n, idx));
    view = idx === n ? -1 : idx;
    drawBoard(); renderMoves(); tabs.refresh();
  }

  function stopAnim(): void { if (animTimer !== undefined) { clearInterval(animTimer); animTimer = undefined; } renderControls(); }
  function animate(): void {
    if (animTimer !== undefined) { stopAnim(); return; }
    go(0);
    animTimer = window.setInterval(() => { if (atLatest()) stopAnim(); else go(shownIndex() + 1); }, 700);
    renderControls();
  }

  function playerBar(color: 'white' | 'black'): HTMLElement[] {
    const p = color === 'white' ? game.white : game.black;
    const clock = h('span', { class: 'clock', id: `clock-${color}` });
    return [h('span', {}, `${color === 'white' ? '○' : '●'} ${p?.username ?? t('game.waitingPlayer')}`), game.time_control.kind === 'none' ? h('span') : clock];
  }

  function timeLeft(color: 'white' | 'black'): number {
    const ms = color === 'white' ? game.clock.white_ms : game.clock.black_ms;
    return game.clock.running === color ? ms - (Date.now() - received) : ms;
  }

  let inTournament = false; // set once the game's tournament (if any) is known
  let claimShown = false;
  function tickClocks(): void {
    // The opponent's time ran out and the server has not ended the game yet: offer the claim.
    const other = myColor === 'white' ? 'black' : 'white';
    const claimable = game.status === 'ongoing' && !!myColor && game.clock.running === other && timeLeft(other) <= 0;
    if (claimable !== claimShown) { claimShown = claimable; renderControls(); }
    for (const color of ['white', 'black'] as const) {
      const el = document.getElementById(`clock-${color}`);
      if (!el) continue;
      const ms = timeLeft(color);
      const running = game.clock.running === color;
      el.textContent = fmtClock(ms, game.time_control.kind);
      el.classList.toggle('running', running);
      el.classList.toggle('low', running && ms < 10000 && game.time_control.kind === 'live');
    }
  }

  function renderPlayers(): void {
    const bottom = orientation, top = bottom === 'white' ? 'black' : 'white';
    topPlayer.replaceChildren(...playerBar(top));
    bottomPlayer.replaceChildren(...playerBar(bottom));
    tickClocks();
  }

  function renderStatus(): void {
    if (game.status === 'finished') {
      status.replaceChildren(h('span', { class: 'result', id: 'result' }, `${game.result} — ${reasonText(game.reason)}`));
    } else if (game.status === 'open') {
      status.textContent = t('game.statusOpen');
    } else if (game.status === 'aborted') {
      status.replaceChildren(h('span', { class: 'result', id: 'result' }, t('game.statusAborted')));
    } else if (game.status === 'cancelled') {
      status.textContent = t('game.statusCancelled');
    } else {
      const toMove = game.turn === 'white' ? game.white : game.black;
      const computer = !!toMove && /^engine[1-8]$/.test(toMove.id);
      status.textContent = myColor ? (myTurn() ? t('game.yourMove') : computer ? t('game.computerThinking') : t('game.opponentMove')) : t(game.turn === 'white' ? 'game.whiteToMove' : 'game.blackToMove');
    }
    if (game.count) {
      const c = game.count;
      const who = c.side ? t(c.side === 'white' ? 'game.whiteCounts' : 'game.blackCounts') : t('game.count');
      countBox.textContent = t('game.countLine', { who, kind: t(c.kind === 'board' ? 'game.boardHonour' : 'game.piecesHonour'), ply: c.ply, limit: c.limit });
      countBox.style.display = '';
    } else countBox.style.display = 'none';
  }

  function renderControls(): void {
    const b = (label: string, id: string, fn: () => void, primary = false) => h('button', { id, class: primary ? 'primary' : '', onclick: fn }, label);
    const act = async (cmd: Record<string, unknown>) => {
      err.textContent = '';
      const r = await socket.send(cmd);
      if (r.type !== 'ack') err.textContent = r.message ?? t('common.refused');
    };
    const nav = h('div', { class: 'row nav' },
      b('|<', 'nav-start', () => go(0)), b('<', 'nav-back', () => go(shownIndex() - 1)),
      b('>', 'nav-forward', () => go(shownIndex() + 1)), b('>|', 'nav-end', () => go(plies().length - 1)),
      b(t('game.flip'), 'flip', () => { orientation = orientation === 'white' ? 'black' : 'white'; renderPlayers(); drawBoard(); }),
      b(animTimer !== undefined ? t('game.stop') : t('game.animate'), 'animate', animate));
    const items: (HTMLElement | null)[] = [];
    if (game.status === 'open' && game.creator.id !== api.me!.id && !api.me!.guest)
      items.push(b(t('game.acceptChallenge'), 'accept', async () => { try { onGame(await api.accept(id), null, true); } catch (e) { err.textContent = (e as Error).message; } }, true));
    if (game.status === 'ongoing' && myColor) {
      const other = myColor === 'white' ? 'black' : 'white';
      // Tournament games cannot be aborted: resign instead.
      if (game.ply < 2 && !inTournament) items.push(b(t('game.abort'), 'abort', () => act({ type: 'abort' })));
      else items.push(b(t('game.resign'), 'resign', () => { if (confirm(t('game.resignConfirm'))) act({ type: 'resign' }); }));
      if (game.clock.running === other && timeLeft(other) <= 0) items.push(b(t('game.claim'), 'claim', () => act({ type: 'claim' }), true));
      if (game.draw_offer === other) {
        items.push(h('span', {}, t('game.drawOffered')), b(t('game.acceptDraw'), 'draw-accept', () => act({ type: 'draw', action: 'accept' }), true),
          b(t('game.decline'), 'draw-decline', () => act({ type: 'draw', action: 'decline' })));
      } else if (game.draw_offer === myColor) items.push(h('span', {}, t('game.drawSent')));
      else items.push(b(t('game.offerDraw'), 'draw-offer', () => act({ type: 'draw', action: 'offer' })));
      if (game.can_start_count.includes(myColor)) items.push(b(t('game.countStart'), 'count-start', () => act({ type: 'count', action: 'start' })));
      if (game.can_stop_count.includes(myColor)) items.push(b(t('game.countStop'), 'count-stop', () => act({ type: 'count', action: 'stop' })));
    }
    controls.replaceChildren(nav, ...items.filter((x): x is HTMLElement => !!x));
  }

  function renderAll(): void { renderPlayers(); renderStatus(); renderControls(); renderMoves(); drawBoard(); tabs.refresh(); }

  const onGame = (g: api.Game, action: api.Action | null, full: boolean) => {
    received = Date.now();
    if (full) actions = g.actions ?? [];
    else if (action && !actions.some(a => a.seq === action.seq)) actions.push(action);
    const moves = actions.filter(a => a.kind === 'move').length;
    game = { ...g, actions };
    const before = myColor;
    myColor = colorOf();
    if (!before && myColor) orientation = myColor;
    if (moves !== g.ply) { api.getGame(id).then(fresh => onGame(fresh, null, true)); return; }
    renderAll();
  };
  const tabs = gameTabs({ game: () => game, actions: () => actions, plies, shown: shownIndex, goTo: go, flipped: () => orientation === 'black', onComments: () => renderMoves() });
  const socket = new api.GameSocket(id, onGame, s => { conn.textContent = s; });

  const typed = (ev: Event) => { ev.preventDefault(); const text = input.value.trim(); if (text) { sendTyped(text); input.value = ''; } };
  app.replaceChildren(h('div', { class: 'game' }, wrapper,
    h('div', { class: 'side-col' },
      h('div', { class: 'panel' },
        h('div', {}, `${variantName(game.variant)}${game.rules !== 'default' ? ` (${game.rules})` : ''} · ${describeTc(game.time_control.kind, game.time_control.initial_ms, game.time_control.increment_ms)} · `, conn),
        status, countBox, controls, chooser, err,
        h('form', { class: 'row', id: 'move-form', onsubmit: typed }, input, h('button', { type: 'submit' }, t('game.play')))),
      h('div', { class: 'panel' }, movesEl),
      h('div', { class: 'panel' }, h('div', { class: 'row' },
        h('a', { href: `/api/games/${id}/pgn`, download: `thaiboard-${id}.${isMakhos ? 'pdn' : 'pgn'}`, id: 'export-pgn' }, isMakhos ? t('game.downloadPdn') : t('game.downloadPgn')),
        h('button', { id: 'copy-fen', onclick: () => { fenBox.select(); navigator.clipboard?.writeText(fenBox.value); } }, isMakhos ? t('game.copyPosition') : t('game.copyFen')),
        h('a', { id: 'open-analysis', href: '#', onclick: (ev: Event) => { ev.preventDefault(); location.href = analysisUrl(game.variant, game.rules, plies()[shownIndex()].fen); } }, t('game.analysisBoard')),
        h('button', { id: 'next-game', onclick: async () => {
          const n = await api.call<{ id: string | null }>('GET', `/api/next-game?after=${id}`);
          if (n.id) location.href = `/game/${n.id}`; else err.textContent = t('game.noNextGame');
        } }, t('game.nextGame'))),
        fenBox),
      h('div', { class: 'panel' }, tabs.el))));
  renderAll();
  // Thai notation switched on or off: coordinates, moves and the move box follow.
  window.addEventListener('notationchange', () => {
    cg.set({ notation: boardNotation() });
    cg.redrawAll();
    input.placeholder = inputHint();
    renderAll();
  });
  tournamentLink(id).then(link => { if (link) { inTournament = true; status.before(link); renderControls(); } });
  setInterval(tickClocks, 100);
  document.addEventListener('keydown', ev => {
    if (document.activeElement === input) return;
    if (ev.key === 'ArrowLeft') go(shownIndex() - 1);
    if (ev.key === 'ArrowRight') go(shownIndex() + 1);
  });
}

// ---------------------------------------------------------------- start

async function main(): Promise<void> {
  applyLang();
  try {
    await api.loadSession();
  } catch (e) {
    app.textContent = t('common.cannotReach', { message: (e as Error).message });
    return;
  }
  renderHeader(topBar);
  const path = location.pathname;
  const m = path.match(/^\/game\/([A-Za-z0-9]+)$/);
  try {
    if (m) await gamePage(m[1]);
    else if (path === '/my-games') await myGamesPage(app);
    else if (path === '/analysis') await analysisPage(app);
    else if (path === '/tournaments') await tournamentsPage(app);
    else if (path.match(/^\/tournaments\/[A-Za-z0-9]+$/)) await tournamentPage(app, path.split('/')[2]);
    else lobbyPage(app);
  } catch (e) {
    app.replaceChildren(h('div', { class: 'error' }, (e as Error).message));
  }
}

main();
