// The game page's move list (moves, other events such as draw offers, and
// comments) and the way through the game's history: going to a position, and
// playing the game through from the start (animation).
import { h } from '../dom';
import { type MoveEntry, moveCells } from '../move-table';
import { t, tMaybe } from '../i18n';
import type { Comment } from '../tabs';
import type { GameState } from './state';

/** What the move list needs from the page. */
export interface MoveListHooks {
  /** The comments shown after ply `ply` (0: before the first move). */
  commentsAt: (ply: number) => Comment[];
  /** The engine's judgement of the move leading to position `index`, shown after it as `?!`, `?` or `??`. */
  judgementAt?: (index: number) => { symbol: string; judgement: string } | null;
  /** Another position is shown: the board, the move list and the tabs follow. */
  shown: () => void;
  /** The animation started or stopped (its button changes). */
  animationChanged: () => void;
}

export type MoveList = ReturnType<typeof moveList>;

export function moveList(state: GameState, hooks: MoveListHooks) {
  const el = h('div', { class: 'moves', id: 'moves', tabindex: '0', role: 'region', 'aria-label': t('game.moveList') });
  let animTimer: number | undefined;

  const commentCell = (c: Comment) => h('div', { class: `note comment${c.private ? ' private' : ''}` }, `${c.private ? t('game.note') : c.author}: ${c.text}`);

  /** Draws the list, marking the move shown (kept in view while following the game). */
  function render(): void {
    const cur = state.shownIndex();
    const note = (el: HTMLElement): MoveEntry => ({ kind: 'note', el });
    const entries: MoveEntry[] = hooks.commentsAt(0).map(c => note(commentCell(c)));
    // A game from a position with Black to move: its first move is Black's.
    const offset = state.game.start_fen.split(' ')[1] === 'b' ? 1 : 0;
    let idx = 0;
    for (const a of state.actions) {
      if (a.kind !== 'move') {
        const side = a.uci === 'white' ? t('common.white') : a.uci === 'black' ? t('common.black') : a.uci;
        entries.push(note(h('div', { class: 'note' }, tMaybe(`game.action.${a.kind}`, a.san, { side }))));
        continue;
      }
      idx++;
      const at = idx;
      const judged = hooks.judgementAt?.(at);
      entries.push({ kind: 'move', ply: at + offset, index: at, text: state.showMove(a), san: a.san, current: at === cur, go: () => go(at), mark: judged ? { text: judged.symbol, kind: judged.judgement } : undefined });
      entries.push(...hooks.commentsAt(at).map(c => note(commentCell(c))));
    }
    el.replaceChildren(...moveCells(entries));
    const curEl = el.querySelector('.current');
    if (curEl && state.atLatest()) (curEl as HTMLElement).scrollIntoView({ block: 'nearest' });
  }

  /** Shows position `idx` of `state.plies()` (clamped); the latest one follows the game again. */
  function go(idx: number): void {
    const n = state.plies().length - 1;
    idx = Math.max(0, Math.min(n, idx));
    state.view = idx === n ? -1 : idx;
    hooks.shown();
  }

  function stopAnimation(): void {
    if (animTimer !== undefined) { clearInterval(animTimer); animTimer = undefined; }
    hooks.animationChanged();
  }

  /** Plays the game through from the start, a move every 0.7 s; stops it if it is running. */
  function animate(): void {
    if (animTimer !== undefined) { stopAnimation(); return; }
    go(0);
    animTimer = window.setInterval(() => { if (state.atLatest()) stopAnimation(); else go(state.shownIndex() + 1); }, 700);
    hooks.animationChanged();
  }

  return {
    /** The list element. */
    el,
    render,
    go,
    animate,
    /** Whether the animation is running. */
    animating: (): boolean => animTimer !== undefined,
  };
}
