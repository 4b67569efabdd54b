// The game page's player bars above and below the board: each player's name
// and clock. The running clock counts down between the server's updates
// (`tick`, ten times a second); when the opponent's time is up the page is
// told, so that the claim button can appear.
import { h } from '../dom';
import { t } from '../i18n';
import { dayText, diffText, leaveRange, ratingText } from '../labels';
import type { Color, GameState } from './state';

/** A clock's time: `m:ss` (tenths under ten seconds, hours when long), or days and hours by correspondence. */
export function fmtClock(ms: number, kind: string): string {
  ms = Math.max(0, ms);
  if (kind === 'correspondence') {
    const d = Math.floor(ms / 86400000), hh = Math.floor((ms % 86400000) / 3600000), mm = Math.floor((ms % 3600000) / 60000);
    return d > 0 ? t('game.clockDays', { d, h: hh }) : t('game.clockHours', { h: hh, m: String(mm).padStart(2, '0') });
  }
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const base = m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${m}:${String(s % 60).padStart(2, '0')}`;
  return ms < 10000 ? `${base}.${Math.floor((ms % 1000) / 100)}` : base;
}

/** What the player bars need from the page. */
export interface PlayerBarsHooks {
  /** The opponent's time ran out, or that is no longer so (the claim button comes or goes). */
  claimChanged: () => void;
  /** The player's own live clock went under `LOW_TIME_MS` (once per turn). */
  lowTime: () => void;
}

/** A live clock under this is low: shown red, and the player warned once per turn. */
export const LOW_TIME_MS = 10000;

export type PlayerBars = ReturnType<typeof playerBars>;

export function playerBars(state: GameState, hooks: PlayerBarsHooks) {
  const top = h('div', { class: 'player' }), bottom = h('div', { class: 'player' });
  let claimShown = false;
  /** Whether the low-time warning sounded in this turn. */
  let warned = false;

  /** The name shown in `color`'s seat: its player; for an open challenge, the challenger in their seat (the bottom one when colours go by lot) and "waiting" in the other. */
  function seatName(color: Color): string {
    const game = state.game;
    const p = color === 'white' ? game.white : game.black;
    if (p) return p.username;
    if (game.status !== 'open') return t('game.waitingPlayer');
    const creatorSeat = game.creator_color === 'white' || game.creator_color === 'black' ? game.creator_color : state.orientation;
    if (color !== creatorSeat) return t('game.waitingPlayer');
    return game.creator_color === 'random' ? t('game.seatByLot', { name: game.creator.username }) : game.creator.username;
  }

  function bar(color: Color): HTMLElement[] {
    const p = color === 'white' ? state.game.white : state.game.black;
    const clock = h('span', { class: 'clock', id: `clock-${color}` });
    const rating = p?.rating ? h('span', { class: 'rating' }, ` ${ratingText(p.rating)}`) : null;
    const diff = p?.rating_diff != null ? h('span', { class: `rating-diff ${p.rating_diff >= 0 ? 'up' : 'down'}` }, ` ${diffText(p.rating_diff)}`) : null;
    const away = onLeave(color);
    const leave = away ? h('span', { class: 'on-leave', id: `leave-${color}` }, ` · ${t('leave.onLeave', { range: leaveRange(away.first_day, away.last_day, away.days) })}`) : null;
    return [h('span', {}, `${color === 'white' ? '○' : '●'} ${seatName(color)}`, rating, diff, leave), state.game.time_control.kind === 'none' ? h('span') : clock];
  }

  /** The leave `color`'s player is on, at the server's reading. */
  function onLeave(color: Color) {
    const now = state.game.clock.server_now;
    return state.game.leave.find(l => l.side === color && l.from <= now && now < l.until) ?? null;
  }

  /** Shows the time left on both clocks. */
  function tick(): void {
    const game = state.game;
    // The opponent's time ran out and the server has not ended the game yet: offer the claim.
    const other = state.myColor === 'white' ? 'black' : 'white';
    const claimable = game.status === 'ongoing' && !!state.myColor && game.clock.running === other && state.timeLeft(other) <= 0;
    if (claimable !== claimShown) { claimShown = claimable; hooks.claimChanged(); }
    for (const color of ['white', 'black'] as const) {
      const el = document.getElementById(`clock-${color}`);
      if (!el) continue;
      const ms = state.timeLeft(color);
      const running = game.clock.running === color;
      const paused = running ? state.pausedUntil() : null;
      el.textContent = paused ? `⏸ ${fmtClock(ms, game.time_control.kind)}` : fmtClock(ms, game.time_control.kind);
      const pause = paused ? game.leave.find(l => l.until === paused) : undefined;
      el.title = paused ? t('leave.paused', { date: pause ? leaveRange(pause.first_day, pause.last_day, pause.days) : dayText(paused) }) : '';
      el.classList.toggle('paused', !!paused);
      el.classList.toggle('running', running && !paused);
      const low = running && ms < LOW_TIME_MS && game.time_control.kind === 'live';
      el.classList.toggle('low', low);
      if (color === state.myColor && running) {
        if (low && !warned) { warned = true; hooks.lowTime(); }
      } else if (color === state.myColor) warned = false;
    }
  }

  /** Draws both bars, the board's bottom side below it. */
  function render(): void {
    const below = state.orientation, above = below === 'white' ? 'black' : 'white';
    top.replaceChildren(...bar(above));
    bottom.replaceChildren(...bar(below));
    tick();
  }

  return { top, bottom, render, tick };
}
