// The game page's board (chessgroundx): draws the position shown, lets the
// player move by drag or click when it is their turn at the latest position,
// and sends the move. Where several legal moves fit what was played (captures
// ending on the same square), the chooser under the controls asks which.
// Mak-hot captures can also be entered square by square: after each landing
// square the board offers the next ones.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key } from 'chessgroundx/types';
import type * as api from '../api';
import { h } from '../dom';
import { t } from '../i18n';
import { boardNotation, showSquare } from '../notation';
import { confirmsMoves, settings } from '../settings';
import { premoveDests } from './premove';
import type { GameState, Send } from './state';

/** What the board needs from the page. */
export interface BoardHooks {
  send: Send;
  /** Shows an error under the controls ('' clears it). */
  error: (message: string) => void;
  /** Called with the FEN of every position drawn. */
  drawn: (fen: string) => void;
}

export type GameBoard = ReturnType<typeof gameBoard>;

export function gameBoard(state: GameState, hooks: BoardHooks) {
  const el = h('div', { class: 'cg-wrap', id: 'board' });
  /** Buttons to pick among moves, or the Mak-hot capture path entered so far. */
  const chooser = h('div', { class: 'chooser' });
  /** The premove waiting, said in words with a button to cancel it (hidden when none waits). */
  const premoveBox = h('div', { class: 'premove-box', id: 'premove', hidden: true });
  // Built with the game's own position: chessground's default is chess's start.
  const cg: Api = Chessground(el, {
    fen: state.toBoard(state.plies()[state.shownIndex()].fen),
    dimensions: { width: 8, height: 8 },
    orientation: state.orientation,
    coordinates: settings().coordinates,
    notation: boardNotation(),
    kingRoles: state.isMakhos ? [] : ['k-piece'],
    highlight: { lastMove: true, check: true },
    animation: { enabled: settings().animationMs > 0, duration: settings().animationMs },
    draggable: { enabled: true, showGhost: true },
    selectable: { enabled: true },
    // A move made during the opponent's turn is kept and played when the turn comes (if still legal).
    premovable: {
      enabled: settings().premoves,
      premoveFunc: (board, key) => premoveDests(board, key, state.isMakhos),
      events: { set: (orig, dest) => { hooks.error(''); showPremove(orig as Key, dest); }, unset: () => showPremove(null, null) },
    },
    movable: { free: false, showDests: true, events: { after: (orig: Key, dest: Key) => onBoardMove(orig, dest) } },
  });

  // A right click cancels the premove, as on lichess (a click on an empty square does too, in chessground).
  el.addEventListener('mousedown', (ev: MouseEvent) => { if (ev.button === 2 && cg.state.premovable.current) cg.cancelPremove(); }, true);

  /** Shows the premove waiting (an arrow on the board, its squares marked, and in words), or clears it. */
  function showPremove(orig: Key | null, dest: Key | null): void {
    if (!orig || !dest) {
      premoveBox.hidden = true;
      premoveBox.replaceChildren();
      cg.setAutoShapes([]);
      return;
    }
    cg.setAutoShapes([{ orig, dest, brush: 'blue' }]);
    premoveBox.hidden = false;
    premoveBox.replaceChildren(h('span', { id: 'premove-text' }, t('game.premoveWaiting', { move: `${showSquare(orig)}–${showSquare(dest)}` })), ' ',
      h('button', { id: 'premove-cancel', onclick: () => cg.cancelPremove() }, t('common.cancel')));
  }

  // Mak-hot captures are entered square by square: the squares clicked so far.
  let stepPath: string[] = [];
  const lastSq = (m: api.LegalMove) => m.path[m.path.length - 1];
  /** The legal Mak-hot moves whose path begins with `prefix`. */
  const following = (prefix: string[]) => state.game.legal.filter(m => prefix.every((sq, i) => m.path[i] === sq));

  /** The squares each piece may go to (for Mak-hot: the next step of the capture path entered so far). */
  function dests(): Map<Key, Key[]> {
    const map = new Map<Key, Key[]>();
    const add = (from: string, to: string) => {
      const list = map.get(from as Key) ?? [];
      if (!list.includes(to as Key)) list.push(to as Key);
      map.set(from as Key, list);
    };
    if (state.isMakhos) {
      // The next landing square of each move, and its final square (dropping there plays it whole).
      const n = Math.max(stepPath.length, 1);
      for (const m of following(stepPath)) if (m.path.length > n) { add(m.path[n - 1], m.path[n]); add(m.path[n - 1], lastSq(m)); }
      return map;
    }
    for (const m of state.game.legal) add(m.uci.slice(0, 2), m.uci.slice(2, 4));
    return map;
  }

  /**
   * Draws the position shown (any capture path entered is dropped). The
   * player's pieces move on their turn at the latest position; during the
   * opponent's turn they can be premoved (if premoves are on), and a
   * premove waiting is played as soon as the turn comes.
   */
  function draw(): void {
    stepPath = [];
    const shown = state.shownIndex();
    const p = state.plies()[shown];
    const playing = state.game.status === 'ongoing' && !!state.myColor && state.atLatest();
    const canMove = playing && state.myTurn();
    const checked = !state.isMakhos && /[+#]$/.test(p.san);
    if (!playing) cg.cancelPremove();
    cg.set({
      fen: state.toBoard(p.fen),
      orientation: state.orientation,
      turnColor: shown % 2 === 0 ? 'white' : 'black',
      lastMove: p.last as Key[],
      check: checked ? (shown % 2 === 0 ? 'white' : 'black') : false,
      movable: { color: playing ? state.myColor! : undefined, dests: canMove ? dests() : new Map() },
    });
    hooks.drawn(p.fen);
    if (canMove && cg.state.premovable.current) {
      // A premove that is not legal now is dropped, and the player told.
      if (!cg.playPremove()) hooks.error(t('game.premoveCancelled'));
    }
  }

  /** Asks for a confirmation before `text` is sent, when the settings want one for this game. */
  function confirmFirst(text: string, shown: string): void {
    if (!confirmsMoves(state.game.time_control.kind)) { sendMove(text); return; }
    chooser.replaceChildren(h('span', { id: 'confirm-text' }, t('game.confirmMove', { move: shown })), ' ',
      h('button', { id: 'confirm-move', class: 'primary', onclick: () => sendMove(text) }, t('game.confirm')),
      h('button', { id: 'cancel-move', onclick: () => { chooser.replaceChildren(); draw(); } }, t('common.cancel')));
  }

  /** Sends a move (UCI or notation); if the server refuses it, says why and puts the board back. */
  async function sendMove(text: string): Promise<void> {
    chooser.replaceChildren();
    hooks.error('');
    const reply = await hooks.send({ type: 'move', move: text, ply: state.game.ply });
    if (reply.type !== 'ack') { hooks.error(reply.message ?? t('game.moveRefused')); draw(); }
  }

  function chooseAmong(moves: api.LegalMove[]): void {
    chooser.replaceChildren(t('game.whichCapture'), ...moves.map(m => h('button', { onclick: () => sendMove(m.uci) }, state.showMove(m))));
  }

  /** A Mak-hot board move: one step of a capture path, or a whole move dropped on its final square. */
  function onMakhosStep(orig: string, dest: string): void {
    const prefix = stepPath.length ? stepPath : [orig];
    const next = [...prefix, dest];
    const stepping = following(next);
    if (stepping.length === 1) { confirmFirst(stepping[0].uci, state.showMove(stepping[0])); return; }
    const complete = stepping.filter(m => m.path.length === next.length);
    if (stepping.length > 0 && complete.length === stepping.length) { chooseAmong(complete); return; }
    if (stepping.length > 0) {
      // Several ways go on from here: show the next landing squares and wait for the next click.
      stepPath = next;
      cg.set({ turnColor: state.myColor!, movable: { color: state.myColor!, dests: dests() } });
      cg.selectSquare(dest as Key);
      chooser.replaceChildren(h('span', { id: 'capture-path' }, t('game.capturePath', { path: next.map(showSquare).join('x') })), ' ',
        ...complete.map(m => h('button', { onclick: () => sendMove(m.uci) }, t('game.stopAt', { move: state.showMove(m) }))),
        h('button', { id: 'capture-cancel', onclick: () => { chooser.replaceChildren(); draw(); } }, t('game.cancelCapture')));
      return;
    }
    const ending = following(prefix).filter(m => lastSq(m) === dest);
    if (ending.length === 1) confirmFirst(ending[0].uci, state.showMove(ending[0]));
    else if (ending.length) chooseAmong(ending);
    else { chooser.replaceChildren(); draw(); }
  }

  /** A move made on the board (drag or click). */
  function onBoardMove(orig: string, dest: string): void {
    if (state.isMakhos) { onMakhosStep(orig, dest); return; }
    const cands = state.game.legal.filter(m => m.uci.slice(0, 2) === orig && m.uci.slice(2, 4) === dest);
    if (cands.length === 1) { confirmFirst(cands[0].uci, state.showMove(cands[0])); return; }
    if (!cands.length) { draw(); return; }
    // Several captures end on the same square: let the player pick the path.
    chooseAmong(cands);
  }

  return {
    /** The board element. */
    el,
    chooser,
    premoveBox,
    draw,
    sendMove,
    /** Thai notation was switched on or off: the coordinates follow. */
    notationChanged(): void {
      cg.set({ notation: boardNotation() });
      cg.redrawAll();
    },
    /** The settings changed: coordinates, animation and premoves follow. */
    settingsChanged(): void {
      const s = settings();
      cg.set({ coordinates: s.coordinates, animation: { enabled: s.animationMs > 0, duration: s.animationMs }, premovable: { enabled: s.premoves } });
      cg.redrawAll();
      draw();
    },
  };
}
