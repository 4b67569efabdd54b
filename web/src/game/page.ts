// The game page (/game/{id}): loads the game, builds its components and lays
// them out, follows the game over its socket, and draws everything again on
// each update.
//
//   state.ts       the game and what follows from it (plies, my colour, my turn, clocks)
//   board.ts       the board: drawing, moving, Mak-hot captures square by square
//   moves.ts       the move list, history navigation and animation
//   clocks.ts      the player bars with their clocks
//   controls.ts    the status line, the count and the buttons
//   move-input.ts  the box to type a move
//   tools.ts       download, FEN, analysis board, next game
//   chat.ts        the players' and the spectators' chat
//   arena.ts       arena games: berserk, and the countdown to the next pairing
//   ../tabs.ts     the information tabs under it all
import * as api from '../api';
import { h } from '../dom';
import { t } from '../i18n';
import { describeTc, variantName } from '../labels';
import { gameTabs } from '../tabs';
import { tournamentLink } from '../tournaments';
import { arenaPanel } from './arena';
import { gameBoard } from './board';
import { gameChat } from './chat';
import { moveSound, play } from '../sounds';
import { playerBars } from './clocks';
import { gameControls } from './controls';
import { moveInput } from './move-input';
import { moveList } from './moves';
import { GameState, type Send } from './state';
import { gameTools } from './tools';

/** Draws game `id` into `app` and keeps it up to date. */
export async function gamePage(app: HTMLElement, id: string): Promise<void> {
  const state = new GameState(id, await api.getGame(id), api.me!);

  const err = h('div', { class: 'error', id: 'game-error' });
  const error = (message: string) => { err.textContent = message; };
  const conn = h('span', { class: 'muted', id: 'conn' });
  const send: Send = cmd => socket.send(cmd);

  // The components reach each other through the hooks given here; these run
  // only after the page is built (so `moves`, `controls` and `socket` exist).
  const tools = gameTools(state, error);
  const board = gameBoard(state, { send, error, drawn: fen => tools.showFen(fen) });
  const tabs = gameTabs({
    game: () => state.game, actions: () => state.actions, plies: () => state.plies(), shown: () => state.shownIndex(),
    goTo: index => moves.go(index), flipped: () => state.orientation === 'black', onComments: () => moves.render(), onAnalysis: () => moves.render(),
  });
  const moves = moveList(state, {
    commentsAt: tabs.commentsAt,
    judgementAt: tabs.judgementAt,
    shown: () => { board.draw(); moves.render(); tabs.refresh(); },
    animationChanged: () => controls.render(),
  });
  const arena = arenaPanel(state, { send, error });
  const players = playerBars(state, { claimChanged: () => controls.render(), lowTime: () => play('lowTime') });
  const controls = gameControls(state, {
    send, error, go: moves.go, animate: moves.animate, animating: moves.animating,
    flipped: () => { players.render(); board.draw(); },
    accepted: g => onGame(g, null, true),
    berserk: arena.berserkButton,
  });
  const typing = moveInput(state, { sendMove: board.sendMove, error });
  const chat = gameChat(state);

  function renderAll(): void { players.render(); controls.renderStatus(); controls.render(); typing.render(); moves.render(); board.draw(); tabs.refresh(); arena.render(); }

  /** A game from the server: the whole of it, or an update with its new action. */
  function onGame(g: api.Game, action: api.Action | null, full: boolean): void {
    // Both players go to the rematch once it starts.
    if (g.rematch && !state.game.rematch && state.myColor) { location.href = `/game/${g.rematch}`; return; }
    const before = state.game.status;
    if (!state.update(g, action, full)) { api.getGame(id).then(fresh => onGame(fresh, null, true)); return; }
    renderAll();
    // Sounds: each new move, and the end of the game.
    if (action?.kind === 'move') play(moveSound(action.san));
    if (before === 'ongoing' && (g.status === 'finished' || g.status === 'aborted')) play('end');
    // The game started or ended: the chat rooms this viewer reads change with it.
    if (g.status !== before) { chat.statusChanged(); socket.reconnect(); }
  }
  const socket = new api.GameSocket(id, onGame, s => { conn.textContent = s; });
  socket.onChat = line => chat.received(line);
  const spectators = h('span', { class: 'muted', id: 'spectators', 'data-count': '0' });
  socket.onSpectators = n => { spectators.dataset.count = String(n); spectators.textContent = n > 0 ? ` · ${t('social.spectators', { count: n })}` : ''; };

  const { variant, rules, time_control: tc } = state.game;
  app.replaceChildren(h('div', { class: 'game' },
    h('div', { class: `board-col ${state.isMakhos ? 'makhos' : 'makruk'}` }, players.top, board.el, h('div', { style: 'height:18px' }), players.bottom),
    h('div', { class: 'side-col' },
      h('div', { class: 'panel' },
        h('div', {}, `${variantName(variant)}${rules !== 'default' ? ` (${rules})` : ''} · ${describeTc(tc.kind, tc.initial_ms, tc.increment_ms)} · `, conn, spectators),
        controls.status, controls.count, controls.buttons, arena.el, board.chooser, board.premoveBox, err, typing.form),
      h('div', { class: 'panel' }, moves.el),
      chat.el,
      tools.el,
      h('div', { class: 'panel' }, tabs.el))));
  renderAll();
  chat.load();
  // Thai notation switched on or off: coordinates, moves and the move box follow.
  window.addEventListener('settingschange', () => board.settingsChanged());
  window.addEventListener('notationchange', () => {
    board.notationChanged();
    typing.notationChanged();
    renderAll();
  });
  tournamentLink(id).then(async link => {
    if (!link) return;
    state.inTournament = true;
    controls.status.before(link);
    await arena.start(link.getAttribute('href')!.split('/').pop()!);
    controls.render();
  });
  setInterval(players.tick, 100);
  document.addEventListener('keydown', ev => {
    if (typing.focused()) return;
    if (ev.key === 'ArrowLeft') moves.go(state.shownIndex() - 1);
    if (ev.key === 'ArrowRight') moves.go(state.shownIndex() + 1);
  });
}
