// Tournaments: the list with the create form (/tournaments) and a
// tournament's page (/tournaments/{id}): standings with tie-breaks,
// round-by-round pairings with results and game links, join/withdraw/start.
import * as api from './api';
import { h } from './dom';
import { t as tr, tMaybe } from './i18n';
import { fieldLabel } from './labels';

// Every visible string goes through `t()` (imported as `tr`; the `tournament.` group of i18n.ts).
const kindName = (k: string): string => tMaybe(`tournament.kind.${k}`, k);
const variantName = (v: string): string => tMaybe(`variant.${v}`, v);

function tcText(tc: api.TimeControl): string {
  if (tc.kind === 'live') return `${+(tc.initial_ms / 60000).toFixed(2)}+${tc.increment_ms / 1000}`;
  if (tc.kind === 'correspondence') return tr('tc.days', { days: +(tc.initial_ms / 86400000).toFixed(2), inc: +(tc.increment_ms / 86400000).toFixed(2) });
  return '';
}

function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}h ${m % 60}m` : `${m}:${String(s % 60).padStart(2, '0')}`;
}

interface Summary {
  id: string; name: string; kind: string; variant: string; rules: string; time_control: api.TimeControl;
  rounds: number; duration_ms: number; max_players: number; status: string; creator: api.Player; current_round: number;
  starts_at: number | null; started_at: number | null; ends_at: number | null; finished_at: number | null; created_at: number; players: number;
}
interface BoardView { board: number; white: api.Player; black: api.Player | null; game_id: string | null; status: string | null; result: string | null; reason: string | null }
interface Detail extends Summary {
  entrants: { user: api.Player; seed: number; active: boolean }[];
  standings: Record<string, any>[];
  pairings: { round: number; boards: BoardView[] }[];
  you: { joined: boolean; creator: boolean; can_join: boolean; can_withdraw: boolean; can_start: boolean; can_cancel: boolean };
}

function variantText(t: { variant: string; rules: string }): string {
  return variantName(t.variant) + (t.rules !== 'default' ? ` (${t.rules})` : '');
}

/** `/tournaments`: the create form and the lists. */
export async function tournamentsPage(app: HTMLElement): Promise<void> {
  const err = h('div', { class: 'error', id: 'tournament-error' });
  const input = (name: string, attrs: Record<string, string | boolean> = {}) => h('input', { name, 'aria-label': fieldLabel(name), ...attrs }) as HTMLInputElement;
  const select = (name: string, options: [string, string][]) =>
    h('select', { name, 'aria-label': fieldLabel(name) }, ...options.map(([v, t]) => h('option', { value: v }, t))) as HTMLSelectElement;
  const name = input('name', { placeholder: tr('tournament.name'), maxlength: '60', required: true });
  const kind = select('kind', (['round_robin', 'swiss', 'arena'] as const).map(k => [k, kindName(k)] as [string, string]));
  const variant = select('variant', (['makruk', 'cambodian', 'makhos'] as const).map(v => [v, variantName(v)] as [string, string]));
  const rules = select('rules', [['default', tr('lobby.rulesDefault')], ['no-reverse', tr('lobby.rulesNoReverse')]]);
  const num = (n: string, value: string) => input(n, { type: 'number', value, step: 'any', min: '0', style: 'width:5em' });
  const days = num('days', '3'), incDays = num('increment_days', '1');
  const minutes = num('minutes', '3'), increment = num('increment', '2');
  const rounds = num('rounds', '5'), duration = num('duration_minutes', '60'), maxPlayers = num('max_players', '16');
  const double = input('double', { type: 'checkbox' });
  const leave = select('leave', (['allowed', 'forbidden', 'capped'] as const).map(l => [l, tr(`tournament.leave.${l}`)] as [string, string]));
  const leaveCap = num('leave_cap_days', '14');
  const publicGames = input('public_games', { type: 'checkbox' });
  const leaveCapLabel = h('span', {}, leaveCap, ` ${tr('tournament.leaveCapDays')}`);
  const corrOnly = h('span', { class: 'row', id: 'corr-terms' }, h('label', {}, `${tr('tournament.leaveRule')} `, leave), leaveCapLabel,
    h('label', {}, publicGames, ` ${tr('tournament.publicGames')}`));
  const startsAt = input('starts_at', { type: 'datetime-local' });
  const help = h('span', { class: 'muted', id: 'kind-help' });
  const corr = h('span', { class: 'row' }, tr('tc.daysLabel'), days, tr('tc.daysPerMove'), incDays);
  const live = h('span', { class: 'row' }, tr('tc.minutes'), minutes, tr('tc.seconds'), increment);
  const swissOnly = h('label', {}, `${tr('tournament.rounds')} `, rounds);
  const rrOnly = h('label', {}, double, ` ${tr('tournament.double')}`);
  const arenaOnly = h('span', { class: 'row' }, h('label', {}, `${tr('tournament.duration')} `, duration), h('label', {}, `${tr('tournament.startsAt')} `, startsAt));
  const sync = () => {
    const k = kind.value;
    rules.style.display = variant.value === 'makhos' ? '' : 'none';
    corr.style.display = k === 'arena' ? 'none' : '';
    live.style.display = k === 'arena' ? '' : 'none';
    swissOnly.style.display = k === 'swiss' ? '' : 'none';
    rrOnly.style.display = k === 'round_robin' ? '' : 'none';
    arenaOnly.style.display = k === 'arena' ? '' : 'none';
    corrOnly.style.display = k === 'arena' ? 'none' : '';
    leaveCapLabel.style.display = leave.value === 'capped' ? '' : 'none';
    help.textContent = tMaybe(`tournament.help.${k}`, '');
  };
  kind.onchange = variant.onchange = leave.onchange = sync;
  sync();
  const body = () => {
    const k = kind.value;
    const b: Record<string, unknown> = { name: name.value, kind: k, variant: variant.value, max_players: +maxPlayers.value };
    if (variant.value === 'makhos') b.rules = rules.value;
    if (k === 'arena') {
      b.time_control = { kind: 'live', minutes: +minutes.value, increment: +increment.value };
      b.duration_minutes = +duration.value;
      if (startsAt.value) b.starts_at = new Date(startsAt.value).getTime();
    } else {
      b.time_control = { kind: 'correspondence', days: +days.value, increment_days: +incDays.value };
      b.leave = leave.value;
      if (leave.value === 'capped') b.leave_cap_days = +leaveCap.value;
      b.public_games = publicGames.checked;
    }
    if (k === 'swiss') b.rounds = +rounds.value;
    if (k === 'round_robin') b.double = double.checked;
    return b;
  };
  const form = h('form', { class: 'row', id: 'tournament-create', onsubmit: async (ev: Event) => {
    ev.preventDefault();
    err.textContent = '';
    try {
      const t = await api.call<Detail>('POST', '/api/tournaments', body());
      location.href = `/tournaments/${t.id}`;
    } catch (e) { err.textContent = (e as Error).message; }
  } }, name, kind, variant, rules, corr, live, swissOnly, rrOnly, arenaOnly, corrOnly, h('label', {}, `${tr('tournament.maxPlayers')} `, maxPlayers),
  h('button', { class: 'primary', type: 'submit' }, tr('tournament.createButton')), help);

  const lists = await api.call<Record<string, Summary[]>>('GET', '/api/tournaments');
  const table = (status: string) => {
    const list = lists[status] ?? [];
    if (!list.length) return h('p', { class: 'muted' }, tr('tournament.none'));
    return h('table', { id: `tournaments-${status}` },
      h('thead', {}, h('tr', {}, h('th', {}, tr('tournament.name')), h('th', {}, tr('tournament.kind')), h('th', {}, tr('tournament.game')), h('th', {}, tr('tournament.time')), h('th', {}, tr('tournament.players')), h('th', {}, tr('tournament.statusHead')))),
      h('tbody', {}, ...list.map(t => h('tr', { 'data-id': t.id },
        h('td', {}, h('a', { href: `/tournaments/${t.id}` }, t.name)), h('td', {}, kindName(t.kind)), h('td', {}, variantText(t)),
        h('td', {}, tcText(t.time_control)), h('td', {}, tr('tournament.playerCount', { n: t.players, max: t.max_players })), h('td', {}, statusText(t))))));
  };
  app.replaceChildren(
    h('div', { class: 'panel' }, h('h2', {}, tr('tournament.create')), api.me!.guest ? h('p', {}, tr('tournament.guestNote')) : form, err),
    ...(['running', 'upcoming', 'finished'] as const).map(s => h('div', { class: 'panel' }, h('h2', {}, tr(`tournament.${s}` as const)), table(s))));
}

function statusText(t: Summary): string {
  const now = Date.now();
  if (t.status === 'running' && t.kind === 'swiss') return tr('tournament.roundOf', { round: t.current_round, rounds: t.rounds });
  if (t.status === 'running' && t.kind === 'arena' && t.ends_at) return t.ends_at > now ? tr('tournament.endsIn', { time: span(t.ends_at - now) }) : tr('tournament.ended');
  if (t.status === 'upcoming' && t.starts_at) return tr('tournament.startsIn', { time: span(t.starts_at - now) });
  return tMaybe(`tournament.status.${t.status}`, t.status);
}

function resultText(b: BoardView): string {
  if (!b.black) return tr('tournament.bye');
  if (b.status === 'aborted') return '–';
  if (b.result === '1/2-1/2') return '½–½';
  return b.result ? b.result.replace('-', '–') : '*';
}

const num = (x: number) => String(x).replace('.5', '½').replace(/^0½$/, '½');

function standingsTable(t: Detail): HTMLElement {
  if (!t.standings.length) return h('p', { class: 'muted' }, tr('tournament.noPlayers'));
  const th = (text: string, title = '') => h('th', title ? { title } : {}, text);
  let head: HTMLElement[];
  let cells: (s: Record<string, any>) => (string | HTMLElement)[];
  if (t.kind === 'arena') {
    head = [th('#'), th(tr('tournament.player')), th(tr('tournament.score')), th(tr('tournament.sheet')), th(tr('tournament.berserk'), tr('tournament.berserkTitle')), th(tr('tournament.games')), th(tr('tournament.performance')), th(tr('tournament.performanceRating'))];
    cells = s => [String(s.rank), h('span', {}, s.user.username, s.on_fire ? h('span', { class: 'fire', title: tr('tournament.onFire') }, ' 🔥') : ''),
      String(s.score), (s.sheet as number[]).join(' '), h('span', { class: 'berserks' }, s.berserks ? `⚡${s.berserks} (+${s.berserk_points})` : ''), String(s.games), String(s.performance), s.performance_rating == null ? '' : String(s.performance_rating)];
  } else if (t.kind === 'swiss') {
    head = [th('#'), th(tr('tournament.player')), th(tr('tournament.points')), th(tr('tournament.buchholz'), tr('tournament.buchholzTitle')), th(tr('tournament.median'), tr('tournament.medianTitle')), th(tr('tournament.sb'), tr('tournament.sbTitle')), th(tr('tournament.de'), tr('tournament.deTitle')), th(tr('tournament.wins')), th(tr('tournament.byes'))];
    cells = s => [String(s.rank), s.user.username, num(s.points), num(s.buchholz), num(s.median_buchholz), String(s.sonneborn_berger), num(s.direct_encounter), String(s.wins), String(s.byes)];
  } else {
    head = [th('#'), th(tr('tournament.player')), th(tr('tournament.points')), th(tr('tournament.sb'), tr('tournament.sbTitle')), th(tr('tournament.de'), tr('tournament.deTitle')), th(tr('tournament.wins')), th(tr('tournament.games'))];
    cells = s => [String(s.rank), s.user.username, num(s.points), String(s.sonneborn_berger), num(s.direct_encounter), String(s.wins), String(s.games)];
  }
  return h('table', { id: 'standings' }, h('thead', {}, h('tr', {}, ...head)),
    h('tbody', {}, ...t.standings.map(s => h('tr', { 'data-user': s.user.username }, ...cells(s).map(c => h('td', {}, c))))));
}

function pairingsView(t: Detail): HTMLElement {
  if (!t.pairings.length) return h('p', { class: 'muted' }, tr('tournament.noGames'));
  const rounds = [...t.pairings].reverse(); // the latest first
  return h('div', { id: 'pairings' }, ...rounds.map(r => h('div', { class: 'round', 'data-round': String(r.round) },
    h('h3', {}, tr(t.kind === 'arena' ? 'tournament.wave' : 'tournament.round', { n: r.round })),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, tr('tournament.board')), h('th', {}, tr('common.white')), h('th', {}, tr('tournament.result')), h('th', {}, tr('common.black')), h('th', {}, ''))),
      h('tbody', {}, ...r.boards.map(b => h('tr', { class: b.status === 'ongoing' ? 'ongoing' : '' },
        h('td', {}, String(b.board)), h('td', {}, b.white.username), h('td', { class: 'result' }, resultText(b)), h('td', {}, b.black?.username ?? ''),
        h('td', {}, b.game_id ? h('a', { class: 'game-link', href: `/game/${b.game_id}` }, tr('tournament.view')) : ''))))))));
}

/** `/tournaments/{id}`: one tournament, refreshed every few seconds while it is not over. */
export async function tournamentPage(app: HTMLElement, id: string): Promise<void> {
  const err = h('div', { class: 'error', id: 'tournament-error' });
  let timer: number | undefined;
  // An arena player goes to a pairing made while this page is open (as on lichess).
  let myGames: Set<string> | null = null;
  const followPairing = (t: Detail): boolean => {
    if (t.kind !== 'arena' || !api.me) return false;
    const name = api.me.username;
    const ongoing = t.pairings.flatMap(r => r.boards).filter(b => b.status === 'ongoing' && b.game_id && (b.white.username === name || b.black?.username === name)).map(b => b.game_id!);
    const seen = myGames;
    myGames = new Set(ongoing);
    const fresh = seen && t.you.joined ? ongoing.find(g => !seen.has(g)) : undefined;
    if (fresh) location.href = `/game/${fresh}`;
    return !!fresh;
  };
  const render = (t: Detail) => {
    if (followPairing(t)) return;
    const act = (what: string, label: string, primary = false) => h('button', { id: what, class: primary ? 'primary' : '', onclick: async () => {
      err.textContent = '';
      try { render(await api.call<Detail>('POST', `/api/tournaments/${id}/${what}`)); } catch (e) { err.textContent = (e as Error).message; }
    } }, label);
    const buttons = h('div', { class: 'row', id: 'tournament-actions' },
      t.you.can_join ? act('join', tr('tournament.join'), true) : null,
      t.you.can_withdraw ? act('withdraw', t.status === 'running' && t.kind === 'arena' ? tr('tournament.leave') : tr('tournament.withdraw')) : null,
      t.you.can_start ? act('start', tr('tournament.start'), true) : null,
      t.you.can_cancel ? act('cancel', tr('tournament.cancel')) : null);
    const info = [kindName(t.kind), variantText(t), tcText(t.time_control), tr('tournament.playerCount', { n: t.players, max: t.max_players }), tr('tournament.by', { name: t.creator.username })];
    app.replaceChildren(
      h('div', { class: 'panel' }, h('h2', { id: 'tournament-name' }, t.name),
        h('div', { class: 'muted' }, info.join(' · ')),
        h('div', { id: 'tournament-status' }, statusText(t)), buttons, err),
      h('div', { class: 'panel' }, h('h2', {}, tr('tournament.standings')), standingsTable(t)),
      t.status === 'upcoming'
        ? h('div', { class: 'panel' }, h('h2', {}, tr('tournament.entrants')), h('ol', { id: 'entrants' }, ...t.entrants.map(e => h('li', {}, e.user.username))))
        : h('div', { class: 'panel' }, h('h2', {}, tr('tournament.pairings')), pairingsView(t)));
    if ((t.status === 'finished' || t.status === 'cancelled') && timer !== undefined) { clearInterval(timer); timer = undefined; }
  };
  const load = async () => render(await api.call<Detail>('GET', `/api/tournaments/${id}`));
  await load();
  timer = window.setInterval(() => { load().catch(e => { err.textContent = (e as Error).message; }); }, 3000);
}

/** A link to the tournament of game `id`, if it belongs to one (for the game page). */
export async function tournamentLink(id: string): Promise<HTMLElement | null> {
  const t = await api.call<{ id: string; name: string; round: number } | null>('GET', `/api/games/${id}/tournament`).catch(() => null);
  return t ? h('a', { id: 'tournament-link', href: `/tournaments/${t.id}` }, tr('tournament.link', { name: t.name, round: t.round })) : null;
}

