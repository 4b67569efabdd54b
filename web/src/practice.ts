// "Practise this ending": from a position the server's endgame tables cover,
// a game against their perfect play (POST /api/engine-games/practice): the
// computer plays the tables' best defence or fastest win, and the game page
// shows the count as players count. The analysis board and the board editor
// show this panel; it follows the tables' answer on the position shown
// (GET /api/tablebase): the button is disabled, with the reason, when the
// server has no tables or they do not hold the position.
import * as api from './api';
import { h } from './dom';
import { t } from './i18n';
import type { TablebaseAnswer } from './tablebase';

/** The reason, in the reader's language, that a refused probe or practice request gives. */
export function practiceRefusal(e: unknown): string {
  const code = e instanceof api.RequestError ? e.body.error : '';
  if (code === 'no_tablebases') return t('practice.noTables');
  if (code === 'not_in_tablebases') return t('practice.outside');
  return (e as Error).message;
}

/** The panel: the player's side, the button, and why it is disabled. */
export function practicePanel() {
  const side = h('select', { id: 'practice-color', 'aria-label': t('practice.yourSide') },
    h('option', { value: 'white' }, t('common.white')), h('option', { value: 'black' }, t('common.black'))) as HTMLSelectElement;
  const button = h('button', { id: 'practice-start', class: 'primary', type: 'button', disabled: true, onclick: () => start() }, t('practice.start')) as HTMLButtonElement;
  const why = h('p', { class: 'muted', id: 'practice-why', role: 'status' });
  const el = h('div', { class: 'practice', id: 'practice' },
    h('div', { class: 'row' }, h('label', {}, t('practice.yourSide'), ' ', side), button), why);
  let position: { variant: string; rules: string; fen: string } | null = null;

  async function start(): Promise<void> {
    if (!position) return;
    button.disabled = true;
    const body: Record<string, unknown> = { variant: position.variant, fen: position.fen, color: side.value };
    if (position.variant === 'makhos') body.rules = position.rules;
    try {
      const g = await api.call<api.Game>('POST', '/api/engine-games/practice', body);
      location.href = `/game/${g.id}`;
    } catch (e) {
      why.textContent = practiceRefusal(e);
      button.disabled = false;
    }
  }

  return {
    el,
    /** Hides the panel (a finished position, or none). */
    hide(): void { position = null; el.hidden = true; },
    /**
     * Follows the position `fen` of `variant` and the tables' answer on it:
     * the answer enables the button (the side the tables see winning chosen
     * first), a refusal disables it with its reason.
     */
    show(variant: string, rules: string, fen: string, answer: TablebaseAnswer | { refused: unknown }): void {
      el.hidden = false;
      if ('refused' in answer) {
        position = null;
        button.disabled = true;
        why.textContent = practiceRefusal(answer.refused);
        return;
      }
      position = { variant, rules, fen };
      const toMove = variant === 'makhos' ? (fen.startsWith('B') ? 'black' : 'white') : (fen.split(' ')[1] === 'b' ? 'black' : 'white');
      const other = toMove === 'white' ? 'black' : 'white';
      side.value = answer.category === 'loss' ? other : toMove;
      button.disabled = false;
      why.textContent = t('practice.about');
    },
  };
}
