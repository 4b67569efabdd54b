// Players' pages (/@/{name}): ratings per pool with the history of one as a
// plot, win/draw/loss counts and the searchable game archive; and the
// leaderboards (/leaderboard).
import * as api from './api';
import type { GameSummary, HistoryPoint, LeaderboardRow, Profile } from './api-types';
import { h } from './dom';
import { t } from './i18n';
import { followBox } from './social';
import { dayText, describeTc, diffText, fieldLabel, leaveRange, nameWithRating, playerHref, poolName, ratingText, reasonText, SPEEDS, variantName } from './labels';

const VARIANTS = ['makruk', 'cambodian', 'makhos'];
const SVG = 'http://www.w3.org/2000/svg';

/** A rating history as an SVG line: ratings over the games played, with the lowest and highest rating marked. */
export function ratingPlot(points: HistoryPoint[], width = 640, height = 180): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('id', 'rating-plot');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  const el = (tag: string, attrs: Record<string, string>, text?: string) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    svg.append(e);
  };
  el('rect', { x: '0', y: '0', width: String(width), height: String(height), fill: '#fffaf0', stroke: '#c8b48c' });
  if (!points.length) return svg;
  const ratings = points.map(p => p.rating);
  const lo = Math.min(...ratings) - 10, hi = Math.max(...ratings) + 10;
  const pad = 40;
  const x = (i: number) => pad + (points.length === 1 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (r: number) => height - 15 - ((r - lo) * (height - 30)) / (hi - lo);
  el('polyline', { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' '), fill: 'none', stroke: '#8b3a0f', 'stroke-width': '2' });
  points.forEach((p, i) => el('circle', { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: '3', fill: '#8b3a0f' }));
  el('text', { x: '4', y: String(y(hi - 10) + 4), 'font-size': '11' }, String(hi - 10));
  el('text', { x: '4', y: String(y(lo + 10) + 4), 'font-size': '11' }, String(lo + 10));
  return svg;
}

function gameRow(g: GameSummary, me: string): HTMLElement {
  const mine = g.white === me ? 'white' : 'black';
  const diff = mine === 'white' ? g.white_rating_diff : g.black_rating_diff;
  return h('tr', {},
    h('td', {}, h('a', { href: `/game/${g.id}` }, `${nameWithRating(g.white ?? '?', g.white_rating)} – ${nameWithRating(g.black ?? '?', g.black_rating)}`)),
    h('td', {}, variantName(g.variant) + (g.rated ? '' : ` · ${t('player.casual')}`)),
    h('td', {}, describeTc(g.tc_kind, g.tc_initial_ms, g.tc_increment_ms)),
    h('td', {}, `${g.result ?? ''} ${reasonText(g.reason)}`),
    h('td', { class: 'rating-diff' }, diff != null ? diffText(diff) : ''),
    h('td', {}, new Date(g.updated_at).toLocaleDateString()));
}

/** Draws the page of player `name` into `app`. */
export async function playerPage(app: HTMLElement, name: string): Promise<void> {
  const enc = encodeURIComponent(name);
  const p = await api.call<Profile>('GET', `/api/users/${enc}`);
  const plot = h('div', { id: 'plot' });
  const showHistory = async (pool: string) => {
    const points = await api.call<HistoryPoint[]>('GET', `/api/users/${enc}/rating-history?pool=${encodeURIComponent(pool)}`);
    plot.replaceChildren(h('h3', {}, t('player.history', { pool: poolName(pool) })), ratingPlot(points));
  };
  const ratings = p.ratings.length
    ? h('table', { id: 'ratings' }, h('thead', {}, h('tr', {}, h('th', {}, t('player.pool')), h('th', {}, t('player.rating')), h('th', {}, t('player.games')))),
      h('tbody', {}, ...p.ratings.map(r => h('tr', { class: 'pool', 'data-pool': r.pool, onclick: () => showHistory(r.pool) },
        h('td', {}, poolName(r.pool)), h('td', {}, ratingText(r.rating)), h('td', {}, String(r.games))))))
    : h('p', {}, t('player.noRatings'));
  // The archive, with its search form.
  const sel = (n: string, opts: [string, string][]) => h('select', { name: n, 'aria-label': fieldLabel(n) }, ...opts.map(([v, l]) => h('option', { value: v }, l))) as HTMLSelectElement;
  const opponent = h('input', { name: 'opponent', placeholder: t('player.opponent') }) as HTMLInputElement;
  const variant = sel('variant', [['', t('player.anyGame')], ...VARIANTS.map(v => [v, variantName(v)] as [string, string])]);
  const result = sel('result', [['', t('player.anyResult')], ['win', t('player.win')], ['draw', t('player.draw')], ['loss', t('player.loss')]]);
  const rated = sel('rated', [['', t('player.anyRating')], ['true', t('player.rated')], ['false', t('player.casual')]]);
  const from = h('input', { name: 'from', type: 'date', 'aria-label': fieldLabel('from') }) as HTMLInputElement;
  const to = h('input', { name: 'to', type: 'date', 'aria-label': fieldLabel('to') }) as HTMLInputElement;
  const err = h('div', { class: 'error', id: 'archive-error' });
  const list = h('tbody', {});
  const search = async () => {
    err.textContent = '';
    const q = new URLSearchParams();
    for (const [k, v] of [['opponent', opponent.value.trim()], ['variant', variant.value], ['result', result.value], ['rated', rated.value], ['from', from.value], ['to', to.value]]) if (v) q.set(k, v);
    try {
      const games = await api.call<GameSummary[]>('GET', `/api/users/${enc}/games?${q}`);
      list.replaceChildren(...(games.length ? games.map(g => gameRow(g, p.username)) : [h('tr', {}, h('td', {}, t('player.noGames')))]));
    } catch (e) { err.textContent = (e as Error).message; }
  };
  const form = h('form', { class: 'row', id: 'archive-search', onsubmit: (ev: Event) => { ev.preventDefault(); search(); } },
    opponent, variant, result, rated, from, to, h('button', { type: 'submit' }, t('player.search')));
  app.replaceChildren(h('div', { class: 'panel', id: 'player' },
    h('h2', {}, p.username), followBox(p.username), h('p', {}, t('player.since', { date: new Date(p.created_at).toLocaleDateString() })),
    ...(p.leave && p.leave_days ? [h('p', { id: 'player-leave', class: 'on-leave' }, t(p.leave.from <= Date.now() ? 'leave.onLeave' : 'leave.booked',
      { range: leaveRange(p.leave_days.first_day, p.leave_days.last_day, p.leave_days.days) }))] : []),
    h('p', { id: 'results' }, t('player.results', { wins: p.results.wins, draws: p.results.draws, losses: p.results.losses })),
    h('h3', {}, t('player.ratings')), ratings, plot,
    h('h3', {}, t('player.archive')), form, err, h('table', { id: 'archive' }, list)));
  if (p.ratings.length) await showHistory(p.ratings[0].pool);
  await search();
}

/** Draws the leaderboards into `app`: one pool at a time, chosen from every game and speed. */
export async function leaderboardPage(app: HTMLElement): Promise<void> {
  const pools = ['makruk', 'cambodian', 'makhos', 'makhos:no-reverse'].flatMap(g => SPEEDS.map(s => `${g}/${s}`));
  const chosen = new URLSearchParams(location.search).get('pool') ?? 'makruk/blitz';
  const select = h('select', { id: 'pool', 'aria-label': t('label.pool') }, ...pools.map(p => h('option', { value: p, selected: p === chosen }, poolName(p)))) as HTMLSelectElement;
  const body = h('tbody', {});
  const empty = h('p', { id: 'leaderboard-empty' });
  const show = async () => {
    history.replaceState(null, '', `/leaderboard?pool=${encodeURIComponent(select.value)}`);
    const rows = await api.call<LeaderboardRow[]>('GET', `/api/leaderboard/${select.value}`);
    empty.textContent = rows.length ? '' : t('leaderboard.empty', { games: 5 });
    body.replaceChildren(...rows.map((r, i) => h('tr', {}, h('td', {}, String(i + 1)),
      h('td', {}, h('a', { href: playerHref(r.username) }, r.username)), h('td', {}, ratingText(r.rating)), h('td', {}, String(r.games)))));
  };
  select.onchange = show;
  app.replaceChildren(h('div', { class: 'panel' }, h('h2', {}, t('leaderboard.title')), select,
    h('table', { id: 'leaderboard' }, h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('lobby.player')), h('th', {}, t('player.rating')), h('th', {}, t('player.games')))), body), empty));
  await show();
}
