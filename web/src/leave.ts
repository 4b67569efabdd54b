// The account page's leave section: the time zone leave days are counted
// in, the yearly allowance, booking leave (a range of days, or from now),
// and cancelling or ending it (GET/POST/DELETE /api/account/leave). While a
// player is on leave the clocks of their correspondence games stand still.
import * as api from './api';
import type { LeaveOverview } from './api-types';
import { h } from './dom';
import { t, tMaybe } from './i18n';
import { leaveRange } from './labels';
import { saveSettings, settings } from './settings';

/** The time zones the browser knows, `UTC` first. */
function zones(): string[] {
  const known = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...known.filter(z => z !== 'UTC')];
}

/** The leave section of the account page. */
export function leaveSection(): HTMLElement {
  const err = h('div', { class: 'error', id: 'leave-error' });
  const years = h('ul', { id: 'leave-years' });
  const list = h('tbody', {});
  const hint = h('p', {});
  const zoneSelect = h('select', { id: 'leave-zone', name: 'timeZone' }, ...zones().map(z => h('option', { value: z }, z))) as HTMLSelectElement;
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zoneForm = h('form', { class: 'row', id: 'leave-zone-form', onsubmit: async (ev: Event) => {
    ev.preventDefault(); err.textContent = '';
    try { await saveSettings({ timeZone: zoneSelect.value }); await show(); } catch (e) { err.textContent = (e as Error).message; }
  } }, h('label', {}, t('leave.timeZone'), ' ', zoneSelect), h('button', { type: 'submit' }, t('leave.saveZone')),
  h('span', { class: 'muted' }, ` ${t('leave.browserZone', { zone: browserZone })}`));
  const from = h('input', { type: 'date', name: 'from', id: 'leave-from' }) as HTMLInputElement;
  const to = h('input', { type: 'date', name: 'to', id: 'leave-to', required: 'required' }) as HTMLInputElement;
  const book = async (body: { from?: string; to: string }) => {
    err.textContent = '';
    try { render(await api.call<LeaveOverview>('POST', '/api/account/leave', body)); } catch (e) { err.textContent = (e as Error).message; }
  };
  const form = h('form', { class: 'row', id: 'leave-form', onsubmit: (ev: Event) => { ev.preventDefault(); return book({ from: from.value, to: to.value }); } },
    h('label', {}, t('leave.from'), ' ', from), h('label', {}, t('leave.to'), ' ', to),
    h('button', { type: 'submit', id: 'leave-book' }, t('leave.book')),
    h('button', { type: 'button', id: 'leave-now', onclick: () => book({ to: to.value }) }, t('leave.startNow')));

  function render(o: LeaveOverview): void {
    hint.textContent = t('leave.hint', { n: o.allowance_days });
    zoneSelect.value = o.time_zone;
    if (!from.value) from.value = o.today;
    if (!to.value) to.value = o.today;
    years.replaceChildren(...o.years.map(y => h('li', {}, t('leave.year', { year: y.year, used: y.used, left: y.left }))));
    list.replaceChildren(...(o.periods.length === 0 ? [h('tr', {}, h('td', { colspan: '3', class: 'muted' }, t('leave.none')))] : o.periods.map(p => {
      const action = p.state === 'over' ? null : h('button', { class: 'leave-cancel', onclick: async () => {
        err.textContent = '';
        try { render(await api.call<LeaveOverview>('DELETE', `/api/account/leave/${p.id}`)); } catch (e) { err.textContent = (e as Error).message; }
      } }, p.state === 'running' ? t('leave.end') : t('leave.cancel'));
      return h('tr', { class: `leave-${p.state}`, 'data-id': p.id },
        h('td', { class: 'leave-range' }, leaveRange(p.first_day, p.last_day, p.days)),
        h('td', {}, tMaybe(`leave.state.${p.state}`, p.state)), h('td', {}, action));
    })));
  }

  async function show(): Promise<void> {
    try { render(await api.call<LeaveOverview>('GET', '/api/account/leave')); } catch (e) { err.textContent = (e as Error).message; }
  }
  zoneSelect.value = settings().timeZone;
  show();
  return h('section', { id: 'leave' }, h('h3', {}, t('leave.title')), hint, zoneForm, form, err, years, h('table', { id: 'leave-periods' }, list));
}
