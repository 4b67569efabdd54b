// The bar at the top of every page: links, the language and notation
// settings, and the login / register / logout form.
import * as api from './api';
import { h } from './dom';
import { lang, setLang, t } from './i18n';
import { MOVE_NOTATIONS, type MoveNotation, moveNotation, setMoveNotation } from './notation';
import { saveSettings } from './settings';

/** Draws the top bar into `topBar` for the signed-in user (or guest) `api.me`. */
export function renderHeader(topBar: HTMLElement): void {
  const me = api.me!;
  const err = h('span', { class: 'error', id: 'auth-error' });
  const right = h('div', { class: 'who' });
  if (me.guest) {
    const user = h('input', { name: 'username', placeholder: t('top.username'), autocomplete: 'username' }) as HTMLInputElement;
    const pass = h('input', { name: 'password', type: 'password', placeholder: t('top.password'), autocomplete: 'current-password' }) as HTMLInputElement;
    // Asked only once the server says the account has two-factor.
    const code = h('input', { name: 'totp', id: 'login-totp', placeholder: t('top.totp'), autocomplete: 'one-time-code', size: '10', hidden: true }) as HTMLInputElement;
    const go = async (fn: typeof api.login) => {
      try { await fn(user.value.trim(), pass.value, code.value.trim() || undefined); location.reload(); } catch (e) {
        if (e instanceof api.RequestError && (e.body.error === 'totp_required' || e.body.error === 'bad_totp')) { code.hidden = false; code.focus(); }
        err.textContent = (e as Error).message;
      }
    };
    // The form folds away under one link, so that the bar stays one line on a phone.
    right.append(h('span', { class: 'playing-as' }, me.id ? t('top.playingAs', { name: me.username }) : t('top.visitor')),
      h('details', { id: 'login-box' }, h('summary', {}, t('top.loginOrRegister')),
        h('form', { class: 'login-form', onsubmit: (ev: Event) => { ev.preventDefault(); go(api.login); } }, user, pass, code,
          h('button', { id: 'login', type: 'submit' }, t('top.login')),
          h('button', { id: 'register', type: 'button', onclick: () => go(api.register) }, t('top.register')), err,
          h('a', { id: 'forgot', href: '/reset-password' }, t('top.forgot')))));
  } else {
    right.append(h('a', { id: 'username', href: `/@/${encodeURIComponent(me.username)}` }, t('top.signedInAs', { name: me.username })),
      h('a', { id: 'nav-account', href: '/account' }, t('top.account')),
      h('button', { id: 'logout', onclick: async () => { await api.logout(); location.href = '/'; } }, t('top.logout')));
  }
  // On a phone the links fold under a menu button (style.css shows the button there only).
  const items = h('div', { class: 'menu-items', id: 'nav-items' }, h('a', { href: '/' }, t('top.lobby')), h('a', { href: '/my-games' }, t('top.myGames')),
    h('a', { href: '/tournaments', id: 'nav-tournaments' }, t('top.tournaments')), h('a', { href: '/leaderboard', id: 'nav-leaderboard' }, t('top.leaderboard')), h('a', { href: '/tv', id: 'nav-tv' }, t('top.tv')),
    h('a', { href: '/puzzle', id: 'nav-puzzles' }, t('top.puzzles')), h('a', { href: '/editor', id: 'nav-editor' }, t('editor.title')),
    h('a', { href: '/settings', id: 'nav-settings' }, t('top.settings')));
  const nav = h('nav', { class: 'links' }, h('a', { href: '/', class: 'brand' }, 'thaiboard'));
  const toggle = h('button', { id: 'nav-menu', class: 'menu-button', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'nav-items', onclick: () => {
    const open = nav.classList.toggle('open');
    toggle.setAttribute('aria-expanded', String(open));
  } }, `☰ ${t('top.menu')}`);
  nav.append(toggle, items);
  topBar.replaceChildren(nav, quickSwitches(), right);
}

/** The language switch (English / ไทย; the page is drawn again) and the Thai notation option, kept as settings. */
function quickSwitches(): HTMLElement {
  const select = h('select', { id: 'lang', 'aria-label': t('top.language'), onchange: async (ev: Event) => {
    const language = (ev.target as HTMLSelectElement).value === 'th' ? 'th' : 'en';
    try { await saveSettings({ language }); } catch { setLang(language); }
    location.reload();
  } }, h('option', { value: 'en' }, 'English'), h('option', { value: 'th' }, 'ไทย')) as HTMLSelectElement;
  select.value = lang();
  // The game's own notation, or Thai: the long (book) form, never ambiguous, first. Kept as a setting.
  const notation = h('select', { id: 'notation', 'aria-label': t('top.notation'), onchange: async (ev: Event) => {
    const n = (ev.target as HTMLSelectElement).value as MoveNotation;
    try { await saveSettings({ notation: n }); } catch { setMoveNotation(n); }
  } }, ...MOVE_NOTATIONS.map(n => h('option', { value: n }, t(`top.notation.${n}`)))) as HTMLSelectElement;
  notation.value = moveNotation();
  return h('span', { class: 'settings' }, select, ' ', notation);
}
