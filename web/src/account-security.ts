// The account page's security sections (account.ts draws them): two-factor
// authentication (enrolment by QR code, recovery codes), the signed-in
// devices (each can be signed out), the security log, and closing the
// account after downloading its data; and the password-reset page
// (/reset-password), reached by the link in the mail or from the login box.
import * as api from './api';
import { h } from './dom';
import { dateText, t, tMaybe } from './i18n';

interface TotpStatus { enabled: boolean; recovery_codes_left: number }
interface TotpSetup { secret: string; otpauth_url: string; qr_svg: string }
interface DeviceView { id: string; browser: string; user_agent: string; ip: string | null; created_at: number; last_seen: number; current: boolean }
interface EventView { at: number; kind: string; ip: string | null; browser: string | null; detail: string | null }

const password = (id: string, placeholder = t('account.current')) =>
  h('input', { type: 'password', id, placeholder, autocomplete: 'current-password' }) as HTMLInputElement;
const codeInput = (id: string, placeholder = t('security.code')) =>
  h('input', { id, placeholder, inputmode: 'numeric', autocomplete: 'one-time-code', size: '12' }) as HTMLInputElement;

/** The recovery codes, shown once. */
function recoveryList(codes: string[]): HTMLElement {
  return h('div', { id: 'recovery-codes' }, h('p', {}, t('security.recoveryOnce')),
    h('ul', { class: 'codes' }, ...codes.map(c => h('li', {}, h('code', {}, c)))));
}

/** Two-factor: its state, the enrolment (QR code, key, first code), and turning it off. */
export function twoFactorSection(): HTMLElement {
  const box = h('div', { id: 'totp' });
  const err = h('div', { class: 'error', id: 'totp-error' });
  const fail = (e: unknown) => { err.textContent = (e as Error).message; };
  const draw = async (shown?: HTMLElement) => {
    err.textContent = '';
    const s = await api.call<TotpStatus>('GET', '/api/account/totp');
    if (s.enabled) {
      const pw = password('totp-off-password'), code = codeInput('totp-off-code');
      const off = h('form', { class: 'row', id: 'totp-off', onsubmit: async (ev: Event) => {
        ev.preventDefault();
        try { await api.call('POST', '/api/account/totp/disable', { password: pw.value, totp: code.value }); await draw(); } catch (e) { fail(e); }
      } }, pw, code, h('button', { type: 'submit' }, t('security.disable')),
      h('button', { type: 'button', id: 'totp-new-codes', onclick: async () => {
        try {
          const r = await api.call<{ recovery_codes: string[] }>('POST', '/api/account/totp/recovery', { password: pw.value, totp: code.value });
          await draw(recoveryList(r.recovery_codes));
        } catch (e) { fail(e); }
      } }, t('security.newCodes')));
      box.replaceChildren(h('p', { id: 'totp-state', class: 'ok' }, t('security.totpOn', { left: s.recovery_codes_left })), shown ?? '', off, err);
      return;
    }
    const start = h('button', { type: 'button', id: 'totp-setup', onclick: async () => {
      try {
        const setup = await api.call<TotpSetup>('POST', '/api/account/totp/setup');
        const pw = password('totp-password'), code = codeInput('totp-code');
        const qr = h('div', { class: 'qr', id: 'totp-qr' });
        // The server draws the QR code (an SVG of squares, no script): shown as a picture.
        qr.append(h('img', { alt: 'QR code', width: '200', height: '200', src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(setup.qr_svg) }));
        const enable = h('form', { class: 'row', id: 'totp-enable', onsubmit: async (ev: Event) => {
          ev.preventDefault();
          try {
            const r = await api.call<{ recovery_codes: string[] }>('POST', '/api/account/totp/enable', { password: pw.value, code: code.value });
            await draw(recoveryList(r.recovery_codes));
          } catch (e) { fail(e); }
        } }, pw, code, h('button', { type: 'submit' }, t('security.enable')));
        box.replaceChildren(h('p', {}, t('security.scan')), qr, h('p', {}, h('code', { id: 'totp-secret' }, setup.secret)), enable, err);
      } catch (e) { fail(e); }
    } }, t('security.enrol'));
    box.replaceChildren(h('p', { id: 'totp-state' }, t('security.totpOff')), start, err);
  };
  draw().catch(fail);
  return h('section', {}, h('h3', {}, t('security.twoFactor')), h('p', {}, t('security.twoFactorHint')), box);
}

/** The signed-in devices, each with its sign-out button, and "sign out every other device". */
export function devicesSection(): HTMLElement {
  const body = h('tbody', {});
  const err = h('div', { class: 'error', id: 'devices-error' });
  const draw = async () => {
    const list = await api.call<DeviceView[]>('GET', '/api/account/sessions');
    body.replaceChildren(...list.map(d => h('tr', { 'data-id': d.id, class: d.current ? 'current' : '' },
      h('td', { title: d.user_agent }, d.browser, d.current ? h('em', {}, ` (${t('security.thisDevice')})`) : ''),
      h('td', {}, d.ip ?? ''), h('td', {}, dateText(d.created_at)), h('td', {}, dateText(d.last_seen)),
      h('td', {}, d.current ? '' : h('button', { class: 'end-session', onclick: async () => {
        try { await api.call('DELETE', `/api/account/sessions/${d.id}`); await draw(); } catch (e) { err.textContent = (e as Error).message; }
      } }, t('security.end'))))));
  };
  draw().catch(e => { err.textContent = (e as Error).message; });
  return h('section', {}, h('h3', {}, t('security.devices')), h('p', {}, t('security.devicesHint')),
    h('table', { id: 'devices' }, h('thead', {}, h('tr', {}, h('th', {}, t('security.device')), h('th', {}, t('security.address')),
      h('th', {}, t('security.signedIn')), h('th', {}, t('security.lastSeen')), h('th', {}))), body),
    h('button', { id: 'end-others', onclick: async () => {
      try { await api.call('POST', '/api/account/sessions/others/end'); await draw(); } catch (e) { err.textContent = (e as Error).message; }
    } }, t('security.endOthers')), err);
}

/** The security log, newest first. */
export function logSection(): HTMLElement {
  const body = h('tbody', {});
  api.call<EventView[]>('GET', '/api/account/security-log').then(events => {
    body.replaceChildren(...events.map(e => h('tr', { 'data-kind': e.kind },
      h('td', {}, dateText(e.at)), h('td', {}, tMaybe(`security.event.${e.kind}`, e.kind)),
      h('td', {}, [e.browser, e.ip, e.detail].filter(Boolean).join(' · ')))));
  }).catch(() => {});
  return h('section', {}, h('h3', {}, t('security.log')), h('p', {}, t('security.logHint')),
    h('table', { id: 'security-log' }, h('thead', {}, h('tr', {}, h('th', {}, t('security.when')), h('th', {}, t('security.what')), h('th', {}))), body));
}

/** The export of the player's data and the closing of the account. */
export function closeSection(): HTMLElement {
  const pw = password('close-password'), code = codeInput('close-code', t('account.totpCode'));
  const err = h('div', { class: 'error', id: 'close-error' });
  const form = h('form', { class: 'row', id: 'close-form', onsubmit: async (ev: Event) => {
    ev.preventDefault(); err.textContent = '';
    if (!confirm(t('security.closeConfirm'))) return;
    try { await api.call('POST', '/api/account/close', { password: pw.value, totp: code.value || null }); location.href = '/'; } catch (e) { err.textContent = (e as Error).message; }
  } }, pw, code, h('button', { type: 'submit', class: 'danger' }, t('security.closeButton')));
  return h('section', {}, h('h3', {}, t('security.close')), h('p', {}, t('security.closeHint')),
    h('p', {}, h('a', { id: 'export', href: '/api/account/export', download: 'thaiboard-account.json' }, t('security.export'))), form, err);
}

/** The password-reset page: asks for the address, or, with the mailed token, the new password. */
export function resetPasswordPage(app: HTMLElement): void {
  document.title = `${t('reset.title')} · thaiboard`;
  const token = new URLSearchParams(location.search).get('token');
  const msg = h('div', { id: 'reset-message' });
  const show = (ok: boolean, text: string) => { msg.className = ok ? 'ok' : 'error'; msg.textContent = text; };
  let form: HTMLElement;
  if (token) {
    const pw = h('input', { type: 'password', id: 'reset-password', placeholder: t('account.new'), autocomplete: 'new-password' }) as HTMLInputElement;
    const code = codeInput('reset-code', t('account.totpCode'));
    form = h('form', { class: 'row', id: 'reset-form', onsubmit: async (ev: Event) => {
      ev.preventDefault();
      try { await api.call('POST', '/api/account/reset/confirm', { token, password: pw.value, totp: code.value || null }); show(true, t('reset.done')); } catch (e) { show(false, (e as Error).message); }
    } }, pw, code, h('button', { type: 'submit' }, t('reset.save')));
    form = h('div', {}, h('p', {}, t('reset.newHint')), form);
  } else {
    const email = h('input', { type: 'email', id: 'reset-email', placeholder: t('account.emailPlaceholder'), autocomplete: 'email' }) as HTMLInputElement;
    form = h('div', {}, h('p', {}, t('reset.askHint')), h('form', { class: 'row', id: 'reset-request', onsubmit: async (ev: Event) => {
      ev.preventDefault();
      try { const r = await api.call<{ message: string }>('POST', '/api/account/reset', { email: email.value }); show(true, r.message); } catch (e) { show(false, (e as Error).message); }
    } }, email, h('button', { type: 'submit' }, t('reset.send'))));
  }
  app.replaceChildren(h('div', { class: 'panel', id: 'reset' }, h('h2', {}, t('reset.title')), form, msg));
}
