// The game page's move box: a move typed in any notation the server reads
// (UCI, SAN, Thai notation in either form, Mak-hot squares) is sent as typed;
// the server reads it, or says why not.
import { h } from '../dom';
import { t } from '../i18n';
import { thaiNotation } from '../notation';
import type { GameState } from './state';

/** What the move box needs from the page. */
export interface MoveInputHooks {
  /** Sends a move (as the board does). */
  sendMove: (text: string) => void;
  /** Shows an error under the controls. */
  error: (message: string) => void;
}

export type MoveInput = ReturnType<typeof moveInput>;

export function moveInput(state: GameState, hooks: MoveInputHooks) {
  const input = h('input', { id: 'move-input', autocomplete: 'off', 'aria-label': t('label.move') }) as HTMLInputElement;
  const hint = (): string => t(state.isMakhos ? (thaiNotation() ? 'game.inputMakhosThai' : 'game.inputMakhos') : thaiNotation() ? 'game.inputMakrukThai' : 'game.inputMakruk');
  input.placeholder = hint();
  input.title = hint();

  const typed = (ev: Event) => { ev.preventDefault(); const text = input.value.trim(); if (text) { hooks.sendMove(text); input.value = ''; } };
  const form = h('form', { class: 'row', id: 'move-form', onsubmit: typed }, input, h('button', { type: 'submit' }, t('game.play')));

  return {
    /** The form: the box and its button. */
    form,
    /** Shows the box only while this viewer plays the game (not after its end, not to spectators). */
    render(): void { form.style.display = state.game.status === 'ongoing' && state.myColor ? '' : 'none'; },
    /** Whether the box has the focus (the arrow keys then stay in it). */
    focused: (): boolean => document.activeElement === input,
    /** Thai notation was switched on or off: the hint follows. */
    notationChanged(): void { input.placeholder = hint(); input.title = hint(); },
  };
}
