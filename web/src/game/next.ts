// The ways on after a game, as lichess offers them: after a game against
// the computer "Play again" (the same game, clock, colour and level) and
// "New opponent"; after a game between people "New opponent" beside the
// rematch. "New opponent" waits in the quick pairing pool of the game's
// clock when there is one (the lobby then shows the wait), else opens the
// lobby's custom game form.
import * as api from '../api';
import type { TimeControl } from '../api-types';
import { h } from '../dom';
import { t } from '../i18n';

/** The pool clock of time control `tc` (`3+2`, `3d`), or null when no pool has it. */
export function poolClock(tc: TimeControl): string | null {
  const clocks = ['1+0', '3+0', '3+2', '5+3', '10+0', '10+5', '15+10', '30+0'];
  if (tc.kind === 'live' && tc.initial_ms % 60000 === 0 && tc.increment_ms % 1000 === 0) {
    const c = `${tc.initial_ms / 60000}+${tc.increment_ms / 1000}`;
    return clocks.includes(c) ? c : null;
  }
  const day = 86400000;
  if (tc.kind === 'correspondence' && tc.initial_ms === 3 * day && tc.increment_ms === 3 * day && tc.max_ms === 3 * day) return '3d';
  return null;
}

/** The buttons after game `game`, over, for its player `myColor`; `error` shows a refusal. */
export function afterGameButtons(game: api.Game, myColor: 'white' | 'black', error: (m: string) => void): HTMLElement[] {
  const engine = [game.white, game.black].find(p => p && /^engine[1-8]$/.test(p.id));
  const out: HTMLElement[] = [];
  const tc = game.time_control;
  if (engine) {
    out.push(h('button', { id: 'play-again', class: 'primary', onclick: async (ev: Event) => {
      (ev.currentTarget as HTMLButtonElement).disabled = true;
      const time_control: Record<string, unknown> = { kind: tc.kind };
      if (tc.kind === 'live') { time_control.minutes = tc.initial_ms / 60000; time_control.increment = tc.increment_ms / 1000; }
      if (tc.kind === 'correspondence') { const d = 86400000; time_control.days = tc.initial_ms / d; time_control.increment_days = tc.increment_ms / d; time_control.max_days = tc.max_ms / d; }
      const body: Record<string, unknown> = { variant: game.variant, color: myColor, level: +engine.id.slice(6), time_control };
      if (game.variant === 'makhos') body.rules = game.rules;
      try { location.href = `/game/${(await api.engineGame(body)).id}`; } catch (e) { error((e as Error).message); (ev.target as HTMLButtonElement).disabled = false; }
    } }, t('game.playAgain')));
  }
  const clock = poolClock(tc);
  const pooled = clock !== null && game.rules === 'default' && !api.me?.guest;
  out.push(h('button', { id: 'new-opponent', class: engine ? '' : 'primary', onclick: async () => {
    if (!pooled) { location.href = '/'; return; }
    try { await api.call('POST', '/api/pools/join', { variant: game.variant, clock }); location.href = '/'; } catch (e) { error((e as Error).message); }
  } }, t('game.newOpponent')));
  return out;
}
