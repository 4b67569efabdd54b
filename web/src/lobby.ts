// The lobby (/): quick pairing (pools.ts), play the computer, create a challenge (the custom game form) (open or to a named
// opponent), and the live list of open challenges to accept or cancel.
import * as api from './api';
import { h } from './dom';
import { t } from './i18n';
import { colorName, describeTc, fieldLabel, nameWithRating, variantName } from './labels';
import { poolsPanel } from './pools';
import { followingPanel } from './social';
import { dailyPuzzlePanel } from './puzzle';

/** The settings a new game needs (variant, rule option, colour, time control), as form fields. */
function gameSettings(defaultTc: string, offerRated = false): { nodes: HTMLElement[]; body: () => Record<string, unknown> } {
  const sel = (name: string, options: [string, string][], value?: string) => {
    const el = h('select', { name, 'aria-label': fieldLabel(name) }, ...options.map(([v, t]) => h('option', { value: v }, t))) as HTMLSelectElement;
    if (value) el.value = value;
    return el;
  };
  const variant = sel('variant', [['makruk', t('variant.makruk')], ['cambodian', t('variant.cambodian')], ['makhos', t('variant.makhos')]]);
  const rules = sel('rules', [['default', t('lobby.rulesDefault')], ['no-reverse', t('lobby.rulesNoReverse')]]);
  const color = sel('color', [['random', t('lobby.colorRandom')], ['white', t('common.whiteLower')], ['black', t('common.blackLower')]]);
  const kind = sel('tc', [['live', t('tc.live')], ['correspondence', t('tc.correspondence')], ['none', t('tc.none')]], defaultTc);
  const num = (name: string, value: string, step = '1') => h('input', { name, type: 'number', value, step, min: '0', style: 'width:5em', 'aria-label': fieldLabel(name) }) as HTMLInputElement;
  const minutes = num('minutes', '10', 'any'), increment = num('increment', '5', 'any');
  const days = num('days', '3', 'any'), incDays = num('increment_days', '1', 'any'), maxDays = num('max_days', '10', 'any');
  const live = h('span', { class: 'row' }, t('tc.minutes'), minutes, t('tc.seconds'), increment);
  const corr = h('span', { class: 'row' }, t('tc.daysLabel'), days, t('tc.daysPerMove'), incDays, t('tc.maxDays'), maxDays);
  const rated = h('input', { type: 'checkbox', name: 'rated', checked: true }) as HTMLInputElement;
  const ratedLabel = h('label', { class: 'rated' }, rated, t('lobby.rated'));
  const sync = () => {
    // Only games with a clock are rated.
    ratedLabel.style.display = offerRated && kind.value !== 'none' ? '' : 'none';
    rules.style.display = variant.value === 'makhos' ? '' : 'none';
    live.style.display = kind.value === 'live' ? '' : 'none';
    corr.style.display = kind.value === 'correspondence' ? '' : 'none';
  };
  variant.onchange = kind.onchange = sync;
  sync();
  const body = () => {
    const tc: Record<string, unknown> = { kind: kind.value };
    if (kind.value === 'live') { tc.minutes = +minutes.value; tc.increment = +increment.value; }
    if (kind.value === 'correspondence') { tc.days = +days.value; tc.increment_days = +incDays.value; tc.max_days = +maxDays.value; }
    const b: Record<string, unknown> = { variant: variant.value, color: color.value, time_control: tc };
    if (variant.value === 'makhos') b.rules = rules.value;
    if (offerRated && kind.value !== 'none') b.rated = rated.checked;
    return b;
  };
  return { nodes: [variant, rules, color, kind, live, corr, ratedLabel], body };
}

/** Draws the lobby into `app`. */
export function lobbyPage(app: HTMLElement): void {
  const err = h('div', { class: 'error', id: 'lobby-error' });
  const submit = (make: () => Promise<api.Game>) => async (ev: Event) => {
    ev.preventDefault();
    try { const g = await make(); location.href = `/game/${g.id}`; } catch (e) { err.textContent = (e as Error).message; }
  };
  const people = gameSettings('live', true);
  const opponent = h('input', { name: 'opponent', placeholder: t('lobby.opponent') }) as HTMLInputElement;
  const form = h('form', { class: 'row', id: 'create', onsubmit: submit(() => {
    const body = people.body();
    if (opponent.value.trim()) body.opponent = opponent.value.trim();
    return api.challenge(body);
  }) }, ...people.nodes, opponent, h('button', { class: 'primary', type: 'submit' }, t('lobby.createGame')));
  const computer = gameSettings('none');
  const level = h('select', { name: 'level', 'aria-label': t('label.level') }, ...[1, 2, 3, 4, 5, 6, 7, 8].map(l => h('option', { value: String(l) }, t('lobby.level', { level: l })))) as HTMLSelectElement;
  level.value = '3';
  const engineForm = h('form', { class: 'row', id: 'engine', onsubmit: submit(() => api.engineGame({ ...computer.body(), level: +level.value })) },
    ...computer.nodes, level, h('button', { class: 'primary', type: 'submit' }, t('lobby.playComputer')));
  const list = h('tbody');
  const live = h('span', { class: 'muted', id: 'lobby-live' });
  const show = (games: api.Summary[]) => {
    list.replaceChildren(...games.map(g => {
      const mine = g.creator === api.me!.username;
      const act = mine
        ? h('button', { class: 'cancel', onclick: async () => { await api.cancel(g.id).catch(e => err.textContent = e.message); if (!connected) refresh(); } }, t('common.cancel'))
        : h('button', { class: 'primary accept', onclick: async () => {
            try { await api.accept(g.id); location.href = `/game/${g.id}`; } catch (e) { err.textContent = (e as Error).message; }
          } }, t('lobby.accept'));
      // A game from a set-up position says so, with the position on hover.
      const setUp = g.start_fen ? [' · ', h('span', { class: 'from-position', title: g.start_fen }, t('lobby.fromPosition'))] : [];
      return h('tr', { 'data-id': g.id }, h('td', {}, nameWithRating(g.creator, g.creator_rating)), h('td', {}, variantName(g.variant) + (g.rules !== 'default' ? ` (${g.rules})` : '') + (g.rated ? '' : ` · ${t('lobby.casual')}`), ...setUp),
        h('td', {}, describeTc(g.tc_kind, g.tc_initial_ms, g.tc_increment_ms)), h('td', {}, colorName(g.creator_color)),
        h('td', {}, h('a', { href: `/game/${g.id}` }, t('lobby.view')), ' ', act));
    }));
    if (!games.length) list.append(h('tr', {}, h('td', { colspan: '5' }, t('lobby.empty'))));
  };
  // The list comes live over the lobby socket; while it is down, it is fetched now and then.
  let connected = false;
  const refresh = async () => show(await api.lobby().catch(() => [] as api.Summary[]));
  new api.LobbySocket(show, ok => { connected = ok; live.textContent = ok ? t('lobby.live') : t('lobby.reconnecting'); live.dataset.connected = String(ok); });
  setInterval(() => { if (!connected) refresh(); }, 5000);
  // Games being played now, to watch (refreshed every ten seconds).
  const playing = h('ul', { id: 'now-playing' });
  const showPlaying = async () => {
    const games = await api.call<api.Summary[]>('GET', '/api/games/now-playing').catch(() => [] as api.Summary[]);
    playing.replaceChildren(...(games.length ? games.map(g => h('li', {},
      h('a', { href: `/game/${g.id}` }, `${nameWithRating(g.white ?? '?', g.white_rating)} – ${nameWithRating(g.black ?? '?', g.black_rating)}`),
      ` · ${variantName(g.variant)} · ${describeTc(g.tc_kind, g.tc_initial_ms, g.tc_increment_ms)} · `, h('a', { href: `/game/${g.id}` }, t('lobby.watch'))))
      : [h('li', { class: 'muted' }, t('lobby.noneNowPlaying'))]));
  };
  showPlaying();
  setInterval(showPlaying, 10000);
  app.replaceChildren(
    poolsPanel(),
    h('div', { class: 'panel lobby-panel' }, h('h2', {}, t('lobby.playComputer')), engineForm),
    h('div', { class: 'panel lobby-panel' }, h('h2', {}, t('lobby.customGame')), api.me!.guest ? h('p', {}, t('lobby.guestHint')) : null, form, err),
    h('div', { class: 'panel lobby-panel' }, h('h2', {}, t('lobby.openChallenges'), live), h('table', { id: 'lobby' },
      h('thead', {}, h('tr', {}, h('th', {}, t('lobby.player')), h('th', {}, t('lobby.game')), h('th', {}, t('lobby.time')), h('th', {}, t('lobby.theirColour')), h('th', {}, ''))), list)),
    h('div', { class: 'panel lobby-panel' }, h('h2', {}, t('lobby.nowPlaying')), playing),
    dailyPuzzlePanel(),
    followingPanel() ?? '');
}
