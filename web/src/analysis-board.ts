// The analysis board: move pieces freely (legal moves only) from any
// position, without touching any game. The position and the moves are in the
// page's address, so a copied link shows the same board.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key } from 'chessgroundx/types';
import * as api from './api';
import { boardFen } from './boardfen';
import { h } from './dom';
import { t, tMaybe } from './i18n';
import { boardNotation, showMove } from './notation';

interface PositionView {
  variant: string; rules: string; fen: string; turn: 'white' | 'black'; legal: api.LegalMove[];
  played: string[]; played_thai: api.ThaiText[]; result: string; reason: string | null;
}

/** The address of the analysis board for a position (and moves played from it). */
export function analysisUrl(variant: string, rules: string, fen: string, moves: string[] = []): string {
  const q = new URLSearchParams({ variant, rules });
  if (fen) q.set('fen', fen);
  if (moves.length) q.set('moves', moves.join(','));
  return `/analysis?${q.toString()}`;
}

/** Renders the analysis board page into `root`. */
export async function analysisPage(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const variant = params.get('variant') ?? 'makruk';
  const rules = params.get('rules') ?? 'default';
  const startFen = params.get('fen');
  let moves = (params.get('moves') ?? '').split(',').filter(Boolean);
  let orientation: 'white' | 'black' = params.get('flip') === '1' ? 'black' : 'white';
  const isMakhos = variant === 'makhos';

  const boardEl = h('div', { class: 'cg-wrap', id: 'board' });
  const err = h('div', { class: 'error', id: 'analysis-error' });
  const movesEl = h('div', { class: 'moves', id: 'analysis-moves' });
  const statusEl = h('div', { class: 'status', id: 'analysis-status' });
  const fenBox = h('input', { class: 'fen', id: 'analysis-fen', readonly: true }) as HTMLInputElement;
  const pngLink = h('a', { id: 'analysis-png', target: '_blank' }, t('analysis.png')) as HTMLAnchorElement;
  const chooser = h('div', { class: 'chooser' });
  root.replaceChildren(h('div', { class: 'game' },
    h('div', { class: `board-col ${isMakhos ? 'makhos' : 'makruk'}` }, boardEl),
    h('div', { class: 'side' },
      h('h2', {}, t('analysis.title')),
      h('p', { class: 'muted' }, t('analysis.about')),
      statusEl, movesEl,
      h('div', { class: 'row' },
        h('button', { id: 'analysis-back', onclick: () => { moves = moves.slice(0, -1); load(); } }, t('analysis.back')),
        h('button', { id: 'analysis-reset', onclick: () => { moves = []; load(); } }, t('analysis.reset')),
        h('button', { id: 'analysis-flip', onclick: () => { orientation = orientation === 'white' ? 'black' : 'white'; cg.set({ orientation }); } }, t('analysis.flip'))),
      chooser, h('p', {}, t('analysis.fen'), fenBox), h('p', {}, pngLink), err)));

  let view: PositionView | null = null;
  const cg: Api = Chessground(boardEl, {
    dimensions: { width: 8, height: 8 },
    orientation,
    coordinates: true,
    notation: boardNotation(),
    kingRoles: isMakhos ? [] : ['k-piece'],
    highlight: { lastMove: true, check: true },
    movable: { free: false, showDests: true, events: { after: (orig: Key, dest: Key) => onMove(orig, dest) } },
  });

  function onMove(orig: string, dest: string): void {
    const cands = (view?.legal ?? []).filter(m => m.path[0] === orig && m.path[m.path.length - 1] === dest);
    if (cands.length === 1) { moves = [...moves, cands[0].uci]; load(); return; }
    if (cands.length > 1) {
      chooser.replaceChildren(t('analysis.whichMove'), ...cands.map(m => h('button', { onclick: () => { chooser.replaceChildren(); moves = [...moves, m.uci]; load(); } }, showMove(m))));
      return;
    }
    load();
  }

  async function load(): Promise<void> {
    err.textContent = '';
    const q = new URLSearchParams({ variant, rules });
    if (startFen) q.set('fen', startFen);
    if (moves.length) q.set('moves', moves.join(','));
    try {
      view = await api.call<PositionView>('GET', `/api/position?${q.toString()}`);
    } catch (e) {
      err.textContent = (e as Error).message;
      if (moves.length) { moves = moves.slice(0, -1); return load(); }
      return;
    }
    const v = view;
    history.replaceState(null, '', analysisUrl(variant, rules, startFen ?? '', moves));
    const dests = new Map<Key, Key[]>();
    for (const m of v.legal) {
      const from = m.path[0] as Key, to = m.path[m.path.length - 1] as Key;
      dests.set(from, [...(dests.get(from) ?? []).filter(d => d !== to), to]);
    }
    const last = moves.length ? (isMakhos ? moves[moves.length - 1].match(/../g) ?? [] : [moves[moves.length - 1].slice(0, 2), moves[moves.length - 1].slice(2, 4)]) : [];
    cg.set({ fen: boardFen(variant, v.fen), turnColor: v.turn, lastMove: last as Key[], movable: { color: v.result === 'ongoing' ? v.turn : undefined, dests } });
    movesEl.replaceChildren(...v.played.map((san, i) => h('span', { class: 'mv' }, `${i % 2 === 0 ? `${Math.floor(i / 2) + 1}. ` : ''}${showMove({ san, thai: v.played_thai[i] })} `)));
    statusEl.textContent = v.result === 'ongoing' ? t(v.turn === 'white' ? 'game.whiteToMove' : 'game.blackToMove') : `${v.result} (${tMaybe(`reason.${v.reason}`, v.reason ?? '')})`;
    fenBox.value = v.fen;
    pngLink.href = `/api/picture.png?variant=${encodeURIComponent(variant)}&fen=${encodeURIComponent(v.fen)}${orientation === 'black' ? '&flip=1' : ''}`;
  }
  window.addEventListener('notationchange', () => { cg.set({ notation: boardNotation() }); cg.redrawAll(); load(); });
  await load();
}
