// The bar at the top of every page: links, the language and notation
// settings, and the login / register / logout form.
import * as api from './api';
import { h } from './dom';
import { lang, setLang, t } from './i18n';
import { MOVE_NOTATIONS, type MoveNotation, moveNotation, setMoveNotation } from './notation';

/** Draws the top bar into `topBar` for the signed-in user (or guest) `api.me`. */
export function renderHeader(topBar: HTMLElement): void {
  const me = api.me!;
  const err = h('span', { class: 'error', id: 'auth-error' });
  const right = h('div', { class: 'who' });
  if (me.guest) {
    const user = h('input', { name: 'username', placeholder: t('top.username'), autocomplete: 'username' }) as HTMLInputElement;
    const pass = h('input', { name: 'password', type: 'password', placeholder: t('top.password'), autocomplete: 'current-password' }) as HTMLInputElement;
    const go = async (fn: typeof api.login) => {
      try { await fn(user.value.trim(), pass.value); location.reload(); } catch (e) { err.textContent = (e as Error).message; }
    };
    right.append(h('span', {}, t('top.playingAs', { name: me.username })), user, pass,
      h('button', { id: 'login', onclick: () => go(api.login) }, t('top.login')),
      h('button', { id: 'register', onclick: () => go(api.register) }, t('top.register')), err);
  } else {
    right.append(h('a', { id: 'username', href: `/@/${encodeURIComponent(me.username)}` }, t('top.signedInAs', { name: me.username })),
      h('a', { id: 'nav-account', href: '/account' }, t('top.account')),
      h('button', { id: 'logout', onclick: async () => { await api.logout(); location.href = '/'; } }, t('top.logout')));
  }
  topBar.replaceChildren(h('a', { href: '/' }, 'thaiboard'), h('a', { href: '/' }, t('top.lobby')), h('a', { href: '/my-games' }, t('top.myGames')),
    h('a', { href: '/tournaments', id: 'nav-tournaments' }, t('top.tournaments')), h('a', { href: '/leaderboard', id: 'nav-leaderboard' }, t('top.leaderboard')), settings(), right);
}

/** The language switch (English / ไทย; the page is drawn again) and the Thai notation option. */
function settings(): HTMLElement {
  const select = h('select', { id: 'lang', 'aria-label': t('top.language'), onchange: (ev: Event) => {
    setLang((ev.target as HTMLSelectElement).value === 'th' ? 'th' : 'en');
    location.reload();
  } }, h('option', { value: 'en' }, 'English'), h('option', { value: 'th' }, 'ไทย')) as HTMLSelectElement;
  select.value = lang();
  // The game's own notation, or Thai: the long (book) form, never ambiguous, first.
  const notation = h('select', { id: 'notation', 'aria-label': t('top.notation'), onchange: (ev: Event) => setMoveNotation((ev.target as HTMLSelectElement).value as MoveNotation) },
    ...MOVE_NOTATIONS.map(n => h('option', { value: n }, t(`top.notation.${n}`)))) as HTMLSelectElement;
  notation.value = moveNotation();
  return h('span', { class: 'settings' }, select, ' ', notation);
}
