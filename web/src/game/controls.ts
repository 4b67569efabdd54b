// The game page's status line (whose move, or the result), the Makruk count,
// and the buttons: history navigation, flip, animate, and the player's
// actions (accept the challenge, abort or resign, claim on time, draw offers,
// start or stop the count), and after a game the ways on (next.ts).
import * as api from '../api';
import { h } from '../dom';
import { pliesText, spokenText } from '../count';
import { t } from '../i18n';
import { reasonText } from '../labels';
import { afterGameButtons } from './next';
import type { GameState, Send } from './state';

/** What the controls need from the page. */
export interface ControlsHooks {
  send: Send;
  /** Shows an error under the controls ('' clears it). */
  error: (message: string) => void;
  /** Shows position `index` of the game (clamped). */
  go: (index: number) => void;
  /** Starts or stops playing the game through. */
  animate: () => void;
  animating: () => boolean;
  /** The board was turned round (`state.orientation` changed). */
  flipped: () => void;
  /** The challenge was accepted: the game as the server returned it. */
  accepted: (game: api.Game) => void;
  /** The Berserk button of an arena game, while the player may use it. */
  berserk: () => HTMLElement | null;
}

export type Controls = ReturnType<typeof gameControls>;

export function gameControls(state: GameState, hooks: ControlsHooks) {
  const status = h('div', { class: 'status', id: 'status' });
  const count = h('div', { class: 'count', id: 'count' });
  const buttons = h('div', { class: 'row', id: 'controls' });

  /** The status line and the count. */
  function renderStatus(): void {
    const game = state.game;
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
      status.textContent = state.myColor ? (state.myTurn() ? t('game.yourMove') : computer ? t('game.computerThinking') : t('game.opponentMove')) : t(game.turn === 'white' ? 'game.whiteToMove' : 'game.blackToMove');
    }
    if (game.count) {
      const c = game.count;
      const who = c.side ? t(c.side === 'white' ? 'game.whiteCounts' : 'game.blackCounts') : t('game.count');
      count.textContent = t('game.countLine', { who, kind: t(c.kind === 'board' ? 'game.boardHonour' : 'game.piecesHonour'), spoken: spokenText(c) });
      count.title = pliesText(c);
      count.style.display = '';
    } else count.style.display = 'none';
  }

  /** The buttons, as the game's state allows. */
  function render(): void {
    const game = state.game, myColor = state.myColor;
    const b = (label: string, id: string, fn: () => void, primary = false) => h('button', { id, class: primary ? 'primary' : '', onclick: fn }, label);
    const act = async (cmd: Record<string, unknown>) => {
      hooks.error('');
      const r = await hooks.send(cmd);
      if (r.type !== 'ack') hooks.error(r.message ?? t('common.refused'));
    };
    const flip = () => { state.orientation = state.orientation === 'white' ? 'black' : 'white'; hooks.flipped(); };
    const nav = h('div', { class: 'row nav' },
      b('|<', 'nav-start', () => hooks.go(0)), b('<', 'nav-back', () => hooks.go(state.shownIndex() - 1)),
      b('>', 'nav-forward', () => hooks.go(state.shownIndex() + 1)), b('>|', 'nav-end', () => hooks.go(state.plies().length - 1)),
      b(t('game.flip'), 'flip', flip),
      b(hooks.animating() ? t('game.stop') : t('game.animate'), 'animate', hooks.animate));
    const items: HTMLElement[] = [];
    if (game.status === 'open' && game.creator.id !== state.me.id && !state.me.guest)
      items.push(b(t('game.acceptChallenge'), 'accept', async () => { try { hooks.accepted(await api.accept(state.id)); } catch (e) { hooks.error((e as Error).message); } }, true));
    if (game.status === 'ongoing' && myColor) {
      const other = myColor === 'white' ? 'black' : 'white';
      // Tournament games cannot be aborted: resign instead.
      const berserk = hooks.berserk();
      if (berserk) items.push(berserk);
      if (game.ply < 2 && !state.inTournament) items.push(b(t('game.abort'), 'abort', () => act({ type: 'abort' })));
      else items.push(b(t('game.resign'), 'resign', () => { if (confirm(t('game.resignConfirm'))) act({ type: 'resign' }); }));
      if (game.clock.running === other && state.timeLeft(other) <= 0) items.push(b(t('game.claim'), 'claim', () => act({ type: 'claim' }), true));
      if (game.draw_offer === other) {
        items.push(h('span', {}, t('game.drawOffered')), b(t('game.acceptDraw'), 'draw-accept', () => act({ type: 'draw', action: 'accept' }), true),
          b(t('game.decline'), 'draw-decline', () => act({ type: 'draw', action: 'decline' })));
      } else if (game.draw_offer === myColor) items.push(h('span', {}, t('game.drawSent')));
      else items.push(b(t('game.offerDraw'), 'draw-offer', () => act({ type: 'draw', action: 'offer' })));
      // Takebacks: casual games only (the computer agrees at once).
      if (!game.rated && !state.inTournament) {
        const moved = state.game.ply >= (myColor === 'white' ? 1 : 2);
        if (game.takeback_offer === other) {
          items.push(h('span', {}, t('game.takebackProposed')), b(t('game.acceptTakeback'), 'takeback-accept', () => act({ type: 'takeback', action: 'accept' }), true),
            b(t('game.decline'), 'takeback-decline', () => act({ type: 'takeback', action: 'decline' })));
        } else if (game.takeback_offer === myColor) items.push(h('span', { id: 'takeback-sent' }, t('game.takebackSent')));
        else if (moved) items.push(b(t('game.proposeTakeback'), 'takeback-offer', () => act({ type: 'takeback', action: 'offer' })));
      }
      if (game.can_start_count.includes(myColor)) items.push(b(t('game.countStart'), 'count-start', () => act({ type: 'count', action: 'start' })));
      if (game.can_stop_count.includes(myColor)) items.push(b(t('game.countStop'), 'count-stop', () => act({ type: 'count', action: 'stop' })));
    }
    const over = game.status === 'finished' || game.status === 'aborted';
    const people = ![game.white, game.black].some(p => p?.id.startsWith('engine'));
    if (over && myColor && people && !state.inTournament) {
      const rematch = async (action: string) => {
        hooks.error('');
        try { await api.call('POST', `/api/games/${state.id}/rematch`, { action }); } catch (e) { hooks.error((e as Error).message); }
      };
      const other = myColor === 'white' ? 'black' : 'white';
      if (game.rematch) items.push(h('a', { id: 'rematch-link', href: `/game/${game.rematch}` }, t('game.toRematch')));
      else if (game.rematch_offer === other) {
        items.push(h('span', {}, t('game.rematchOffered')), b(t('game.acceptRematch'), 'rematch-accept', () => rematch('accept'), true),
          b(t('game.decline'), 'rematch-decline', () => rematch('decline')));
      } else if (game.rematch_offer === myColor) items.push(h('span', { id: 'rematch-sent' }, t('game.rematchSent')));
      else items.push(b(t('game.rematch'), 'rematch', () => rematch('offer')));
    }
    if (over && myColor && !state.inTournament) items.push(...afterGameButtons(game, myColor, hooks.error));
    buttons.replaceChildren(nav, ...items);
  }

  return {
    /** The status line (the tournament link goes before it). */
    status,
    count,
    /** The row of buttons. */
    buttons,
    renderStatus,
    render,
  };
}
