// The opening explorer panel: the moves played from a position in this
// server's rated games (or the engine database), with their results and
// average rating, filtered by speed and rating band (GET /api/explorer).
// Shown on the analysis board and in a game's tabs.
import * as api from './api';
import { h } from './dom';
import { t } from './i18n';
import { showMove } from './notation';

/** One move of the explorer's answer (lichess's shape, plus Thai notation). */
export interface ExplorerMove { uci: string; san: string; white: number; draws: number; black: number; averageRating: number; thai?: api.ThaiText | null }
/** A player of a top game. */
export interface TopPlayer { name: string; rating: number | null }
/** One of the highest-rated games through the position. */
export interface TopGame { id: string; uci: string; winner: 'white' | 'black' | null; white: TopPlayer; black: TopPlayer; year: number }
/** The explorer's answer for a position. */
export interface ExplorerAnswer { white: number; draws: number; black: number; moves: ExplorerMove[]; topGames: TopGame[] }

/** The speeds and rating bands a query may name, as the server reads them. */
export const SPEEDS = ['ultra_bullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export const BANDS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500] as const;

/** The filter a player chose, kept between pages. */
export interface ExplorerFilter { db: 'site' | 'engine'; speeds: string[]; minBand: number }

const KEY = 'explorer-filter';

export function loadFilter(): ExplorerFilter {
  try {
    const f = JSON.parse(localStorage.getItem(KEY) ?? '') as Partial<ExplorerFilter>;
    return {
      db: f.db === 'engine' ? 'engine' : 'site',
      speeds: Array.isArray(f.speeds) ? f.speeds.filter(s => (SPEEDS as readonly string[]).includes(s)) : [],
      minBand: (BANDS as readonly number[]).includes(f.minBand ?? -1) ? f.minBand! : 0,
    };
  } catch {
    return { db: 'site', speeds: [], minBand: 0 };
  }
}

/** The query string of a position and filter. */
export function explorerQuery(variant: string, rules: string, fen: string, f: ExplorerFilter): string {
  const q = new URLSearchParams({ variant, rules, fen, db: f.db });
  if (f.speeds.length) q.set('speeds', f.speeds.join(','));
  if (f.minBand > 0) q.set('ratings', BANDS.filter(b => b >= f.minBand).join(','));
  return q.toString();
}

/** A share of `n` in `of`, as a whole percentage. */
export function percent(n: number, of: number): string {
  return of > 0 ? `${Math.round((100 * n) / of)}%` : '–';
}

/**
 * The explorer panel. `pick(uci)` plays a move the player clicked.
 * `show(variant, rules, fen)` loads a position (later calls win over
 * earlier ones still loading).
 */
export function explorerPanel(pick: (uci: string) => void): { el: HTMLElement; show: (variant: string, rules: string, fen: string) => Promise<void> } {
  let filter = loadFilter();
  let last: [string, string, string] | null = null;
  let asked = 0;
  const body = h('div', { class: 'explorer-body' });
  const db = h('select', { id: 'explorer-db', 'aria-label': t('explorer.db') },
    h('option', { value: 'site' }, t('explorer.site')), h('option', { value: 'engine' }, t('explorer.engine'))) as HTMLSelectElement;
  db.value = filter.db;
  const band = h('select', { id: 'explorer-band', 'aria-label': t('explorer.minRating') },
    ...BANDS.map(b => h('option', { value: String(b) }, b === 0 ? t('explorer.anyRating') : `${b}+`))) as HTMLSelectElement;
  band.value = String(filter.minBand);
  const speedBoxes = SPEEDS.map(s => {
    const box = h('input', { type: 'checkbox', value: s, id: `explorer-speed-${s}` }) as HTMLInputElement;
    box.checked = filter.speeds.includes(s);
    return h('label', { class: 'explorer-speed' }, box, ' ', t(`speed.${s}`));
  });
  const changed = (): void => {
    filter = {
      db: db.value === 'engine' ? 'engine' : 'site',
      minBand: Number(band.value),
      speeds: speedBoxes.map(l => l.querySelector('input') as HTMLInputElement).filter(b => b.checked).map(b => b.value),
    };
    localStorage.setItem(KEY, JSON.stringify(filter));
    if (last) void show(...last);
  };
  db.onchange = changed;
  band.onchange = changed;
  for (const l of speedBoxes) (l.querySelector('input') as HTMLInputElement).onchange = changed;
  const el = h('section', { class: 'explorer', id: 'explorer', 'aria-label': t('explorer.title') },
    h('h3', {}, t('explorer.title')),
    h('div', { class: 'explorer-filter' }, db, band, h('span', { class: 'explorer-speeds' }, ...speedBoxes)),
    body);

  async function show(variant: string, rules: string, fen: string): Promise<void> {
    last = [variant, rules, fen];
    const mine = ++asked;
    let a: ExplorerAnswer;
    try {
      a = await api.call<ExplorerAnswer>('GET', `/api/explorer?${explorerQuery(variant, rules, fen, filter)}`);
    } catch (e) {
      if (mine === asked) body.replaceChildren(h('p', { class: 'error', role: 'alert' }, (e as Error).message));
      return;
    }
    if (mine !== asked) return;
    if (!a.moves.length) {
      body.replaceChildren(h('p', { id: 'explorer-empty' }, t('explorer.empty')));
      return;
    }
    const total = a.white + a.draws + a.black;
    const row = (m: ExplorerMove): HTMLElement => {
      const games = m.white + m.draws + m.black;
      return h('tr', { class: 'explorer-move', 'data-uci': m.uci, tabindex: '0', onclick: () => pick(m.uci),
        onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter') pick(m.uci); } },
        h('td', { 'data-san': m.san }, showMove(m)),
        h('td', {}, `${games} (${percent(games, total)})`),
        h('td', { class: 'explorer-bar' }, resultBar(m.white, m.draws, m.black)),
        h('td', {}, m.averageRating ? String(m.averageRating) : '–'));
    };
    const nodes: Node[] = [h('table', { class: 'explorer-moves', id: 'explorer-moves' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('explorer.move')), h('th', { scope: 'col' }, t('explorer.games')),
        h('th', { scope: 'col' }, t('explorer.results')), h('th', { scope: 'col' }, t('explorer.averageRating')))),
      h('tbody', {}, ...a.moves.map(row),
        h('tr', { class: 'explorer-total' }, h('td', {}, 'Σ'), h('td', {}, String(total)),
          h('td', { class: 'explorer-bar' }, resultBar(a.white, a.draws, a.black)), h('td', {}))))];
    if (a.topGames.length) {
      nodes.push(h('h4', {}, t('explorer.topGames')), h('ul', { class: 'explorer-top', id: 'explorer-top' },
        ...a.topGames.map(g => h('li', {}, h('a', { href: `/game/${encodeURIComponent(g.id)}` },
          `${g.white.name} (${g.white.rating ?? '?'}) – ${g.black.name} (${g.black.rating ?? '?'})`),
          ` ${g.winner === 'white' ? '1-0' : g.winner === 'black' ? '0-1' : '½-½'} · ${g.year}`))));
    }
    body.replaceChildren(...nodes);
  }

  return { el, show };
}

/** White / draw / Black shares as a bar with their percentages. */
function resultBar(white: number, draws: number, black: number): HTMLElement {
  const games = white + draws + black;
  const part = (cls: string, n: number, label: string): HTMLElement =>
    h('span', { class: cls, style: `width:${games ? (100 * n) / games : 0}%`, title: `${label} ${percent(n, games)}` }, n / games >= 0.12 ? percent(n, games) : '');
  return h('div', { class: 'result-bar', role: 'img', 'aria-label': `${t('explorer.whiteWins')} ${percent(white, games)}, ${t('explorer.draws')} ${percent(draws, games)}, ${t('explorer.blackWins')} ${percent(black, games)}` },
    part('white', white, t('explorer.whiteWins')), part('draws', draws, t('explorer.draws')), part('black', black, t('explorer.blackWins')));
}
