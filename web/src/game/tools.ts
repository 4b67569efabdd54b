// The game page's tools panel: download the game (PGN, or PDN for Mak-hot),
// copy the FEN of the position shown, open it on the analysis board, go to
// the next game waiting for my move; and the FEN box itself.
import * as api from '../api';
import { analysisUrl } from '../analysis-board';
import { h } from '../dom';
import { t } from '../i18n';
import type { GameState } from './state';

export type GameTools = ReturnType<typeof gameTools>;

/** `error` shows an error under the controls. */
export function gameTools(state: GameState, error: (message: string) => void) {
  const { id, isMakhos } = state;
  const fenBox = h('input', { class: 'fen', id: 'fen', readonly: true, 'aria-label': t('label.fen') }) as HTMLInputElement;
  const el = h('div', { class: 'panel' }, h('div', { class: 'row' },
    h('a', { href: `/api/games/${id}/pgn`, download: `thaiboard-${id}.${isMakhos ? 'pdn' : 'pgn'}`, id: 'export-pgn' }, isMakhos ? t('game.downloadPdn') : t('game.downloadPgn')),
    h('button', { id: 'copy-fen', onclick: () => { fenBox.select(); navigator.clipboard?.writeText(fenBox.value); } }, isMakhos ? t('game.copyPosition') : t('game.copyFen')),
    h('a', { id: 'open-analysis', href: '#', onclick: (ev: Event) => {
      ev.preventDefault();
      // The game's moves come along; the board shows the position shown here.
      const line = state.actions.filter(a => a.kind === 'move').map(a => a.uci);
      location.href = analysisUrl(state.game.variant, state.game.rules, state.game.start_fen, line, state.shownIndex());
    } }, t('game.analysisBoard')),
    // The next game waiting for my move: for players with an account (guests keep no games).
    api.me && !api.me.guest ? h('button', { id: 'next-game', onclick: async () => {
      const n = await api.call<{ id: string | null }>('GET', `/api/next-game?after=${id}`);
      if (n.id) location.href = `/game/${n.id}`; else error(t('game.noNextGame'));
    } }, t('game.nextGame')) : null),
    fenBox);

  return {
    /** The panel. */
    el,
    /** Puts the FEN of the position drawn into the box. */
    showFen(fen: string): void { fenBox.value = fen; },
  };
}
