// Quick pairing in the lobby, as lichess's pools: a button per clock for
// the chosen game; a click waits in that pool (GET /api/pools/mine holds
// the answer until a pairing or a few seconds pass, and keeps the place);
// Cancel, or leaving the page, takes the player out.
import * as api from './api';
import type { PoolList, PoolState } from './api-types';
import { h } from './dom';
import { t } from './i18n';
import { variantName } from './labels';

/** A pool clock as the buttons show it: `3+2`, or `3 days per move`. */
export function clockLabel(clock: string): string {
  return clock.endsWith('d') ? t('pools.days', { days: clock.slice(0, -1) }) : clock;
}

/** The quick pairing panel. */
export function poolsPanel(): HTMLElement {
  const err = h('div', { class: 'error', id: 'pools-error' });
  const variant = h('select', { name: 'pool-variant', id: 'pool-variant', 'aria-label': t('label.variant') },
    ...['makruk', 'cambodian', 'makhos'].map(v => h('option', { value: v }, variantName(v)))) as HTMLSelectElement;
  const grid = h('div', { class: 'pools', id: 'pools' });
  const status = h('div', { class: 'pool-status', id: 'pool-status' });
  let list: PoolList = { pools: [] };
  // The pool waited in, if any (the polling loop runs while it is set).
  let waiting: { variant: string; clock: string; since: number } | null = null;
  const draw = () => {
    grid.replaceChildren(...list.pools.filter(p => p.variant === variant.value).map(p => {
      const here = waiting?.variant === p.variant && waiting.clock === p.clock;
      return h('button', { class: 'pool' + (here ? ' waiting' : ''), type: 'button', 'data-clock': p.clock, onclick: () => join(p.variant, p.clock) },
        h('strong', {}, clockLabel(p.clock)), h('small', {}, t('pools.waitingCount', { n: p.waiting })));
    }));
  };
  const refresh = async () => { list = await api.call<PoolList>('GET', '/api/pools').catch(() => list); draw(); };
  const showWaiting = () => {
    if (!waiting) { status.replaceChildren(); return; }
    const seconds = Math.max(0, Math.round((Date.now() - waiting.since) / 1000));
    status.replaceChildren(h('span', {}, t('pools.waiting', { variant: variantName(waiting.variant), clock: clockLabel(waiting.clock), seconds })), ' ',
      h('button', { class: 'cancel', id: 'pool-cancel', type: 'button', onclick: () => leave() }, t('common.cancel')));
  };
  const leave = async () => {
    waiting = null; showWaiting(); draw();
    await api.call('DELETE', '/api/pools/mine').catch(e => err.textContent = (e as Error).message);
    refresh();
  };
  const poll = async () => {
    while (waiting) {
      let s: PoolState;
      try { s = await api.call<PoolState>('GET', '/api/pools/mine?wait=15'); } catch (e) {
        err.textContent = (e as Error).message;
        await new Promise(r => setTimeout(r, 2000));
        continue;
      }
      if (!waiting) return;
      if (s.status === 'paired' && s.game) { location.href = `/game/${s.game}`; return; }
      if (s.status === 'none') { waiting = null; showWaiting(); draw(); return; }
    }
  };
  const join = async (v: string, clock: string) => {
    err.textContent = '';
    if (api.me?.guest) { err.textContent = t('pools.guest'); return; }
    try {
      await api.call<PoolState>('POST', '/api/pools/join', { variant: v, clock });
      const first = !waiting;
      waiting = { variant: v, clock, since: Date.now() };
      showWaiting(); draw(); refresh();
      if (first) poll();
    } catch (e) { err.textContent = (e as Error).message; }
  };
  // Leaving the page leaves the pool (the server also drops a player it no longer hears from).
  addEventListener('pagehide', () => {
    if (!waiting) return;
    fetch('/api/pools/mine', { method: 'DELETE', keepalive: true, credentials: 'same-origin', headers: { 'x-csrf-token': api.csrfToken() } });
  });
  variant.onchange = draw;
  // A wait begun elsewhere ("New opponent" after a game) goes on here.
  if (api.me && !api.me.guest) {
    api.call<PoolState>('GET', '/api/pools/mine').then(s => {
      if (s.status !== 'waiting' || !s.variant || !s.clock || waiting) return;
      waiting = { variant: s.variant, clock: s.clock, since: s.since ?? Date.now() };
      variant.value = s.variant;
      showWaiting(); draw(); poll();
    }).catch(() => {});
  }
  setInterval(showWaiting, 1000);
  setInterval(refresh, 5000);
  refresh();
  return h('div', { class: 'panel', id: 'quick-pairing' }, h('h2', {}, t('pools.title')), h('p', { class: 'muted' }, t('pools.hint')),
    variant, grid, status, err);
}
