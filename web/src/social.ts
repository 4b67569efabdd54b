// Following players and TV: the follow button and status line of a player's
// page, the lobby's panel of the players I follow (online, playing now, the
// feed of their finished games), and the TV page (/tv, /tv/{variant}) that
// shows each game type's highest-rated game in progress and moves on to the
// next when it ends.
import * as api from './api';
import { h } from './dom';
import { t } from './i18n';
import { gamePage } from './game/page';
import { nameWithRating, playerHref, reasonText, variantName } from './labels';

type Summary = api.Summary;
interface Followed { name: string; online: boolean; playing: Summary | null }
interface RelStatus { name: string; following: boolean; online: boolean; playing: Summary | null }
interface Channel { game: Summary | null; spectators: number }

const TV_VARIANTS = ['makruk', 'cambodian', 'makhos'];

/** "White – Black" of a game, with the players' ratings. */
const pairing = (g: Summary): string => `${nameWithRating(g.white ?? '?', g.white_rating)} – ${nameWithRating(g.black ?? '?', g.black_rating)}`;

/** A player's online state and game in progress, as a line. */
function presence(online: boolean, playing: Summary | null): HTMLElement {
  return h('span', { class: 'presence' },
    h('span', { class: `dot ${online ? 'on' : 'off'}`, 'aria-hidden': 'true' }, online ? '●' : '○'), ' ',
    online ? t('social.online') : t('social.offline'),
    ...(playing ? [' · ', h('a', { href: `/game/${playing.id}`, class: 'playing-now' }, t('social.playingNow', { game: variantName(playing.variant) }))] : []));
}

/** The follow button and status line of player `name`'s page. */
export function followBox(name: string): HTMLElement {
  const box = h('div', { id: 'follow-box', class: 'row' });
  const enc = encodeURIComponent(name);
  const render = async () => {
    const s = await api.call<RelStatus>('GET', `/api/rel/status/${enc}`);
    const mine = api.me?.username === s.name;
    const button = mine || !api.me || api.me.guest ? null : h('button', {
      id: 'follow', 'data-following': String(s.following),
      onclick: async () => {
        try { await api.call('POST', `/api/rel/${s.following ? 'unfollow' : 'follow'}/${enc}`); render(); }
        catch (e) { box.append(h('span', { class: 'error' }, (e as Error).message)); }
      },
    }, s.following ? t('social.unfollow') : t('social.follow'));
    box.replaceChildren(presence(s.online, s.playing), ...(button ? [button] : []));
  };
  render().catch(e => box.replaceChildren(h('span', { class: 'error' }, (e as Error).message)));
  return box;
}

/** The lobby's panel: the players I follow, then the feed of their finished games. */
export function followingPanel(): HTMLElement | null {
  if (!api.me || api.me.guest) return null;
  const list = h('ul', { id: 'following' });
  const feed = h('ul', { id: 'feed' });
  const show = async () => {
    const [{ following }, { games }] = await Promise.all([
      api.call<{ following: Followed[] }>('GET', '/api/rel/following'),
      api.call<{ games: Summary[] }>('GET', '/api/rel/feed'),
    ]);
    list.replaceChildren(...(following.length ? following.map(f => h('li', { 'data-name': f.name },
      h('a', { href: playerHref(f.name) }, f.name), ' ', presence(f.online, f.playing)))
      : [h('li', { class: 'muted' }, t('social.noneFollowed'))]));
    feed.replaceChildren(...(games.length ? games.map(g => h('li', { 'data-id': g.id },
      h('a', { href: `/game/${g.id}` }, `${variantName(g.variant)} · ${pairing(g)} · ${g.result ?? ''} ${reasonText(g.reason)}`)))
      : [h('li', { class: 'muted' }, t('social.feedEmpty'))]));
  };
  show().catch(() => {});
  setInterval(() => show().catch(() => {}), 15000);
  return h('div', { class: 'panel lobby-panel', id: 'social' },
    h('h2', {}, t('social.following')), list,
    h('h2', {}, t('social.feed')), feed);
}

/** The TV page of `variant` (Makruk when none is named). */
export async function tvPage(app: HTMLElement, variant: string | null): Promise<void> {
  const v = variant ?? 'makruk';
  if (!TV_VARIANTS.includes(v)) throw new Error(t('tv.noChannel', { variant: v }));
  document.title = `${t('tv.title')} · ${variantName(v)} · thaiboard`;
  const channel = await api.call<Channel>('GET', `/api/tv/${v}`);
  const tabs = h('nav', { class: 'row tv-channels', 'aria-label': t('tv.channels') }, ...TV_VARIANTS.map(c =>
    h('a', { href: `/tv/${c}`, class: c === v ? 'current' : '', ...(c === v ? { 'aria-current': 'page' } : {}) }, variantName(c))));
  const shown = channel.game?.id ?? '';
  const head = h('div', { class: 'panel', id: 'tv', 'data-game': shown },
    h('h2', {}, t('tv.title'), ' · ', variantName(v)), tabs,
    channel.game ? h('p', {}, pairing(channel.game)) : h('p', { id: 'tv-empty' }, t('tv.none')));
  const board = h('div', { id: 'tv-game' });
  app.replaceChildren(head, board);
  if (channel.game) await gamePage(board, channel.game.id);
  // Every few seconds: once the game shown has ended (or when none was
  // shown and one started), the page starts again with the channel's game.
  const poll = async () => {
    const now = await api.call<Channel>('GET', `/api/tv/${v}`);
    const next = now.game?.id ?? '';
    if (next === shown) return;
    if (shown) {
      const g = await api.getGame(shown);
      if (g.status === 'ongoing') return;
    }
    location.reload();
  };
  setInterval(() => poll().catch(() => {}), 2000);
}
