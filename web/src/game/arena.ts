// An arena game on the game page, as lichess plays arenas: the Berserk
// button (before one's first move: half one's clock, no increment, an extra
// point for a win), and after the game the way on: while the arena runs and
// the player is still in its pool, "Waiting for your next game" with a
// Pause button, then "Next game in 5…" with a Stay button, and the move to
// the new pairing when the count ends.
import * as api from '../api';
import { h } from '../dom';
import { t } from '../i18n';
import type { GameState, Send } from './state';

/** Seconds counted down before going to the next pairing. */
export const NEXT_GAME_SECONDS = 5;

interface Board { round: number; white: { username: string }; black: { username: string } | null; game_id: string | null; status: string | null }
interface Detail { kind: string; status: string; ends_at: number | null; you: { joined: boolean }; pairings: { round: number; boards: Board[] }[] }

/** Whether `color` went berserk in the game (a `berserk` action of that side). */
export function wentBerserk(state: GameState, color: 'white' | 'black'): boolean {
  return state.actions.some(a => a.kind === 'berserk' && a.uci === color);
}

export type ArenaPanel = ReturnType<typeof arenaPanel>;

/** The arena part of the game page; `start(tournament)` once the game is known to be in one. */
export function arenaPanel(state: GameState, hooks: { send: Send; error: (m: string) => void }) {
  const el = h('div', { id: 'arena-next', class: 'arena-next' });
  let tournament: string | null = null;
  let arena = false;
  let polling: number | undefined;
  let counting: number | undefined;
  let stayed = false;

  /** The Berserk button, when this player may still go berserk. */
  function berserkButton(): HTMLElement | null {
    const me = state.myColor, game = state.game;
    if (!arena || !me || game.status !== 'ongoing' || game.time_control.kind !== 'live') return null;
    if (wentBerserk(state, me) || game.ply >= (me === 'white' ? 1 : 2)) return null;
    return h('button', { id: 'berserk', title: t('game.berserkTitle'), onclick: async (ev: Event) => {
      (ev.currentTarget as HTMLButtonElement).disabled = true;
      hooks.error('');
      const r = await hooks.send({ type: 'berserk' });
      if (r.type !== 'ack') hooks.error(r.message ?? t('common.refused'));
    } }, `⚡ ${t('game.berserk')}`);
  }

  /** The berserk marks beside the players (both sides see them). */
  function marks(): string {
    return (['white', 'black'] as const).filter(c => wentBerserk(state, c)).map(c => t('game.wentBerserk', { side: t(c === 'white' ? 'common.white' : 'common.black') })).join(' · ');
  }

  /** My pairing made after this game, if any, and whether I am still in the pool of a running arena. */
  async function look(): Promise<{ next: string | null; on: boolean }> {
    const d = await api.call<Detail>('GET', `/api/tournaments/${tournament}`);
    const name = state.me.username;
    const mine = d.pairings.flatMap(r => r.boards.map(b => ({ ...b, round: r.round })))
      .filter(b => b.game_id && (b.white.username === name || b.black?.username === name));
    const here = mine.find(b => b.game_id === state.id);
    const next = mine.find(b => b.status === 'ongoing' && b.game_id !== state.id && (!here || b.round > here.round));
    const on = d.status === 'running' && d.you.joined && (d.ends_at === null || d.ends_at > Date.now() - 1000);
    return { next: next?.game_id ?? null, on };
  }

  /** Shows "Next game in n…" and goes there at 0, unless the player stays. */
  function countdown(game: string): void {
    if (counting !== undefined || stayed) return;
    let n = NEXT_GAME_SECONDS;
    const line = h('span', { id: 'next-countdown' });
    const show = () => { line.textContent = t('game.nextGameIn', { n }); };
    show();
    el.replaceChildren(line, ' ', h('button', { id: 'arena-stay', onclick: () => {
      stayed = true;
      if (counting !== undefined) clearInterval(counting);
      el.replaceChildren(h('a', { id: 'next-game-link', href: `/game/${game}` }, t('game.toNextGame')));
    } }, t('game.stayHere')));
    counting = window.setInterval(() => {
      n -= 1;
      if (n > 0) { show(); return; }
      clearInterval(counting);
      location.href = `/game/${game}`;
    }, 1000);
  }

  /** After the game: looks for the next pairing every second while the arena runs. */
  function follow(): void {
    if (polling !== undefined || !tournament || !state.myColor) return;
    const tick = async () => {
      try {
        const { next, on } = await look();
        if (next) { clearInterval(polling); countdown(next); return; }
        if (!on) { clearInterval(polling); el.replaceChildren(); return; }
        if (!el.querySelector('#arena-waiting')) {
          el.replaceChildren(h('span', { id: 'arena-waiting' }, t('game.waitingNextGame')), ' ', h('button', { id: 'arena-pause', onclick: async () => {
            try { await api.call('POST', `/api/tournaments/${tournament}/withdraw`); } catch (e) { hooks.error((e as Error).message); }
            clearInterval(polling);
            el.replaceChildren(h('a', { href: `/tournaments/${tournament}` }, t('game.pausedArena')));
          } }, t('game.pauseArena')));
        }
      } catch { /* the next look tries again */ }
    };
    polling = window.setInterval(tick, 1000);
    void tick();
  }

  /** Draws what fits the game's state now. */
  function render(): void {
    if (!arena) return;
    const over = state.game.status === 'finished' || state.game.status === 'aborted';
    if (over) follow();
    else el.replaceChildren(...[marks()].filter(Boolean).map(m => h('span', { class: 'berserk-marks' }, m)));
  }

  return {
    el,
    berserkButton,
    render,
    /** The game belongs to tournament `id`: an arena's page gets the arena part. */
    async start(id: string): Promise<void> {
      tournament = id;
      try { arena = (await api.call<Detail>('GET', `/api/tournaments/${id}`)).kind === 'arena'; } catch { arena = false; }
      render();
    },
    /** Whether the game is an arena game. */
    isArena: () => arena,
  };
}
