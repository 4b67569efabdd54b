// My games (/my-games): the signed-in player's games with their state, a
// filter by tag, and a button to the next game waiting for their move.
import * as api from './api';
import { h } from './dom';
import { t } from './i18n';
import { describeTc, diffText, nameWithRating, reasonText, variantName } from './labels';

/** Draws the list of my games into `app`. */
export async function myGamesPage(app: HTMLElement): Promise<void> {
  const [games, tags] = await Promise.all([api.myGames(), api.call<{ games: Record<string, string[]>; tags: Record<string, number> }>('GET', '/api/tags')]);
  let filter = new URLSearchParams(location.search).get('tag') ?? '';
  const body = h('tbody', {});
  const row = (g: api.Summary) => h('tr', { class: g.your_move ? 'your-move' : '' },
    h('td', {}, h('a', { href: `/game/${g.id}` }, `${nameWithRating(g.white ?? '?', g.white_rating)} – ${nameWithRating(g.black ?? '?', g.black_rating)}`),
      g.white_rating_diff != null && g.black_rating_diff != null ? h('span', { class: 'rating-diff' }, ` ${diffText(g.white_rating_diff)} / ${diffText(g.black_rating_diff)}`) : null),
    h('td', {}, variantName(g.variant),
      g.tournament_id ? h('div', {}, h('a', { class: 'tournament', href: `/tournaments/${g.tournament_id}` }, g.tournament_name ?? '')) : null),
    h('td', {}, describeTc(g.tc_kind, g.tc_initial_ms, g.tc_increment_ms)),
    h('td', {}, g.status === 'ongoing' ? (g.your_move ? t('mygames.yourMove') : t('mygames.theirMove')) : g.status === 'open' ? t('mygames.waiting') : `${g.result ?? ''} ${reasonText(g.reason)}`),
    h('td', {}, String(Math.ceil(g.ply / 2))),
    h('td', { class: 'tags' }, (tags.games[g.id] ?? []).join(', ')));
  const show = () => body.replaceChildren(...games.filter(g => !filter || (tags.games[g.id] ?? []).includes(filter)).map(row));
  const select = h('select', { id: 'tag-filter', onchange: (ev: Event) => {
    filter = (ev.target as HTMLSelectElement).value;
    history.replaceState(null, '', filter ? `/my-games?tag=${encodeURIComponent(filter)}` : '/my-games');
    show();
  } }, h('option', { value: '' }, t('mygames.allGames')), ...Object.entries(tags.tags).map(([t, n]) => h('option', { value: t, selected: t === filter }, `${t} (${n})`))) as HTMLSelectElement;
  show();
  app.replaceChildren(h('div', { class: 'panel' }, h('h2', {}, t('mygames.title')),
    h('div', { class: 'row' }, h('label', {}, t('mygames.tag'), select),
      h('button', { id: 'next-game', onclick: async () => {
        const n = await api.call<{ id: string | null }>('GET', '/api/next-game');
        if (n.id) location.href = `/game/${n.id}`;
      } }, t('mygames.next'))),
    games.length ? h('table', { id: 'my-games' }, h('thead', {}, h('tr', {}, ...(['players', 'game', 'time', 'state', 'moves', 'tags'] as const).map(k => h('th', {}, t(`mygames.${k}`))))),
      body) : h('p', {}, t('mygames.none'))));
}
