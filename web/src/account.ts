// My account (/account): changing the password, the e-mail address for
// correspondence games (verified by a mailed link), leave (leave.ts), personal API tokens
// for bots and other programs (made once, shown once, revocable), and the
// security sections of account-security.ts (two-factor, devices, the log, closing).
import * as api from './api';
import { h } from './dom';
import { t } from './i18n';
import { closeSection, devicesSection, logSection, twoFactorSection } from './account-security';
import { leaveSection } from './leave';

interface TokenInfo { id: string; description: string; scopes: string[]; created_at: number; token?: string }
const SCOPES = ['bot:play', 'board:play', 'challenge:read', 'challenge:write'];

/** Draws the account page into `app`. */
export async function accountPage(app: HTMLElement): Promise<void> {
  if (api.me!.guest) { app.replaceChildren(h('div', { class: 'panel' }, h('p', {}, t('account.guest')))); return; }
  const msg = h('div', { id: 'password-message' });
  const current = h('input', { type: 'password', name: 'current', placeholder: t('account.current'), autocomplete: 'current-password' }) as HTMLInputElement;
  const next = h('input', { type: 'password', name: 'new', placeholder: t('account.new'), autocomplete: 'new-password' }) as HTMLInputElement;
  const code = h('input', { name: 'totp', id: 'password-totp', placeholder: t('account.totpCode'), autocomplete: 'one-time-code', size: '12' }) as HTMLInputElement;
  const password = h('form', { class: 'row', id: 'password', onsubmit: async (ev: Event) => {
    ev.preventDefault();
    try {
      const r = await api.call<{ ended: { sessions: number; tokens: number } }>('POST', '/api/account/password', { current: current.value, new: next.value, totp: code.value || null });
      msg.className = 'ok'; msg.textContent = t('account.changedEnded', { sessions: String(r.ended.sessions), tokens: String(r.ended.tokens) });
      current.value = next.value = code.value = '';
      await show();
    } catch (e) { msg.className = 'error'; msg.textContent = (e as Error).message; }
  } }, current, next, code, h('button', { type: 'submit' }, t('account.change')), h('p', { class: 'hint', id: 'password-ends' }, t('account.changeEnds')));
  const list = h('tbody', {});
  const made = h('div', { id: 'token-made' });
  const err = h('div', { class: 'error', id: 'token-error' });
  const show = async () => {
    const tokens = await api.call<TokenInfo[]>('GET', '/api/account/tokens');
    list.replaceChildren(...tokens.map(tk => h('tr', { 'data-id': tk.id }, h('td', {}, tk.description), h('td', {}, tk.scopes.join(' ')),
      h('td', {}, new Date(tk.created_at).toLocaleDateString()),
      h('td', {}, h('button', { class: 'revoke', onclick: async () => { await api.call('DELETE', `/api/account/tokens/${tk.id}`); made.textContent = ''; show(); } }, t('account.revoke'))))));
  };
  const description = h('input', { name: 'description', placeholder: t('account.description') }) as HTMLInputElement;
  const boxes = SCOPES.map(s => h('input', { type: 'checkbox', name: 'scope', value: s, checked: s === 'bot:play' }) as HTMLInputElement);
  const create = h('form', { class: 'row', id: 'token-create', onsubmit: async (ev: Event) => {
    ev.preventDefault(); err.textContent = '';
    try {
      const tk = await api.call<TokenInfo>('POST', '/api/account/tokens', { description: description.value, scopes: boxes.filter(b => b.checked).map(b => b.value) });
      made.replaceChildren(h('p', {}, t('account.tokenOnce')), h('code', { id: 'new-token' }, tk.token ?? ''));
      description.value = '';
      await show();
    } catch (e) { err.textContent = (e as Error).message; }
  } }, description, ...boxes.map(b => h('label', {}, b, b.value)), h('button', { type: 'submit' }, t('account.create')));
  // E-mail for correspondence games: an address, verified by a mailed link.
  interface EmailView { email: string | null; pending: string | null; verified: boolean; subscribed: boolean; enabled: boolean }
  const emailInput = h('input', { type: 'email', name: 'email', id: 'email-input', placeholder: t('account.emailPlaceholder'), autocomplete: 'email' }) as HTMLInputElement;
  const emailPassword = h('input', { type: 'password', id: 'email-password', placeholder: t('account.emailPassword'), autocomplete: 'current-password' }) as HTMLInputElement;
  const emailCode = h('input', { id: 'email-totp', placeholder: t('account.totpCode'), autocomplete: 'one-time-code', size: '12' }) as HTMLInputElement;
  const emailState = h('p', { id: 'email-state', class: 'muted' });
  const emailErr = h('div', { class: 'error', id: 'email-error' });
  const showEmail = (v: EmailView) => {
    if (v.email) emailInput.value = v.email;
    emailState.textContent = !v.enabled ? t('account.emailDisabled') : !v.email ? t('account.emailNone')
      : !v.verified ? t('account.emailWaiting') : v.subscribed ? t('account.emailOn') : t('account.emailOff');
    if (v.pending) emailState.textContent += ' ' + t('account.emailPending', { email: v.pending });
  };
  const emailForm = h('form', { class: 'row', id: 'email-form', onsubmit: async (ev: Event) => {
    ev.preventDefault(); emailErr.textContent = '';
    try {
      showEmail(await api.call<EmailView>('PUT', '/api/account/email', { email: emailInput.value, password: emailPassword.value, totp: emailCode.value || null }));
      emailPassword.value = emailCode.value = '';
    } catch (e) { emailErr.textContent = (e as Error).message; }
  } }, emailInput, emailPassword, emailCode, h('button', { type: 'submit' }, t('account.emailSave')));
  api.call<EmailView>('GET', '/api/account/email').then(showEmail).catch(() => {});
  app.replaceChildren(h('div', { class: 'panel', id: 'account' },
    h('h2', {}, t('account.title')), h('h3', {}, t('account.password')), password, msg,
    h('h3', {}, t('account.email')), h('p', {}, t('account.emailHint')), emailForm, emailState, emailErr,
    leaveSection(),
    h('h3', {}, t('account.tokens')), h('p', {}, t('account.tokensHint')), create, err, made,
    h('table', { id: 'tokens' }, list),
    twoFactorSection(), devicesSection(), logSection(), closeSection()));
  await show();
}
