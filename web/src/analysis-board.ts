// The analysis board: move pieces freely (legal moves only) from any
// position, without touching any game. The position, the line of moves and
// the move shown are in the page's address, so a copied link shows the same
// board; a game's "analysis board" link opens it with the game's moves.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key } from 'chessgroundx/types';
import * as api from './api';
import { boardFen } from './boardfen';
import { h } from './dom';
import { type MoveEntry, moveCells } from './move-table';
import { t, tMaybe } from './i18n';
import { evalText } from './tabs';
import { boardNotation, showMove } from './notation';
import { explorerPanel } from './explorer';
import { type TablebaseAnswer, tablebaseText } from './tablebase';
import { practicePanel } from './practice';

interface PositionView {
  variant: string; rules: string; fen: string; turn: 'white' | 'black'; legal: api.LegalMove[];
  played: string[]; played_thai: api.ThaiText[]; result: string; reason: string | null;
}

/** An empty board, drawn until a position has loaded (never another game's start). */
const EMPTY_BOARD = '8/8/8/8/8/8/8/8';

/**
 * The address of the analysis board for a position and a line of moves
 * played from it, showing the position after `at` of them (default: all).
 */
export function analysisUrl(variant: string, rules: string, fen: string, moves: string[] = [], at?: number): string {
  const q = new URLSearchParams({ variant, rules });
  if (fen) q.set('fen', fen);
  if (moves.length) q.set('moves', moves.join(','));
  if (at !== undefined && at < moves.length) q.set('at', String(at));
  return `/analysis?${q.toString()}`;
}

interface LiveLine { depth: number; eval: { cp?: number; mate?: number }; pv: string[]; pv_san: string[]; pv_thai: api.ThaiText[]; nodes: number }

/**
 * The engine panel: a switch, then the server's search of the position shown,
 * its evaluation and main line (in the chosen notation) as they deepen.
 */
function liveEngine() {
  const on = h('input', { type: 'checkbox', id: 'analysis-engine' }) as HTMLInputElement;
  const out = h('div', { id: 'engine-line', class: 'engine-line' });
  const el = h('div', { class: 'engine-panel' }, h('label', {}, on, ' ', t('analysis.engine')), out);
  let controller: AbortController | null = null;
  let url: string | null = null;
  let ply = 0;
  const show = (l: LiveLine) => {
    const moves = l.pv_san.map((san, i) => showMove({ san, thai: l.pv_thai[i] }));
    const text = moves.map((m, i) => {
      const p = ply + i + 1;
      return (p % 2 === 1 ? `${(p + 1) / 2}. ` : i === 0 ? `${p / 2}… ` : '') + m;
    }).join(' ');
    out.replaceChildren(h('b', { class: 'engine-eval' }, evalText(l.eval)), ` ${t('analysis.depth', { depth: l.depth })} `, h('span', { class: 'engine-pv' }, text));
  };
  async function run(): Promise<void> {
    controller?.abort();
    controller = null;
    if (!on.checked || !url) { out.replaceChildren(); return; }
    const mine = new AbortController();
    controller = mine;
    out.textContent = t('analysis.thinking');
    try {
      const resp = await fetch(url, { signal: mine.signal });
      if (!resp.ok) { out.textContent = (await resp.json().catch(() => ({ message: resp.statusText }))).message; return; }
      const reader = resp.body!.getReader();
      const dec = new TextDecoder();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const text = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (!text) continue;
          const l = JSON.parse(text);
          if (l.depth !== undefined && controller === mine) show(l as LiveLine);
        }
      }
    } catch { /* stopped: another position, or the switch turned off */ }
  }
  on.addEventListener('change', () => run());
  return {
    el,
    /** Follows the position at `query` (null: none to search), `n` moves into the line. */
    follow(query: string | null, n: number): void { url = query; ply = n; run(); },
  };
}

/** Renders the analysis board page into `root`. */
export async function analysisPage(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const variant = params.get('variant') ?? 'makruk';
  const rules = params.get('rules') ?? 'default';
  const startFen = params.get('fen');
  /** The line of moves (engine form) and how many of them the board shows. */
  let moves = (params.get('moves') ?? '').split(',').filter(Boolean);
  let cursor = Math.min(moves.length, Math.max(0, Number(params.get('at') ?? moves.length) || 0));
  let orientation: 'white' | 'black' = params.get('flip') === '1' ? 'black' : 'white';
  const isMakhos = variant === 'makhos';

  const boardEl = h('div', { class: 'cg-wrap', id: 'board' });
  const err = h('div', { class: 'error', id: 'analysis-error', role: 'alert' });
  const movesEl = h('div', { class: 'moves', id: 'analysis-moves' });
  const statusEl = h('div', { class: 'status', id: 'analysis-status' });
  const tablebaseEl = h('div', { class: 'tablebase', id: 'analysis-tablebase' });
  const fenBox = h('input', { class: 'fen', id: 'analysis-fen', spellcheck: 'false', 'aria-label': t('label.fen') }) as HTMLInputElement;
  const variantSel = h('select', { id: 'analysis-variant', 'aria-label': t('analysis.variant') },
    ...['makruk', 'cambodian', 'makhos'].map(v => h('option', { value: v }, tMaybe(`variant.${v}`, v)))) as HTMLSelectElement;
  variantSel.value = variant;
  // Another game: its start position.
  variantSel.addEventListener('change', () => { location.href = analysisUrl(variantSel.value, variantSel.value === 'makhos' ? rules : 'default', ''); });
  const editorLink = h('a', { id: 'analysis-editor', href: '/editor' }, t('analysis.editor')) as HTMLAnchorElement;
  /** Loads the FEN typed in the box: the server (the rules crates) checks it; a bad one leaves the board as it is and says why. */
  async function loadTyped(): Promise<void> {
    const typed = fenBox.value.trim();
    const q = new URLSearchParams({ variant, rules, fen: typed });
    try {
      const v = await api.call<PositionView>('GET', `/api/position?${q.toString()}`);
      location.href = analysisUrl(variant, rules, v.fen);
    } catch (e) {
      err.textContent = t('analysis.fenRefused', { reason: (e as Error).message });
    }
  }
  fenBox.addEventListener('keydown', ev => { if (ev.key === 'Enter') void loadTyped(); });
  const loadButton = h('button', { id: 'analysis-load', type: 'button', onclick: () => void loadTyped() }, t('analysis.load'));
  const pngLink = h('a', { id: 'analysis-png', target: '_blank' }, t('analysis.png')) as HTMLAnchorElement;
  const chooser = h('div', { class: 'chooser' });
  const engine = liveEngine();
  const explorer = explorerPanel(uci => play(uci));
  const practice = practicePanel();
  root.replaceChildren(h('div', { class: 'game' },
    h('div', { class: `board-col ${isMakhos ? 'makhos' : 'makruk'}` }, boardEl),
    h('div', { class: 'side-col' },
      h('h2', {}, t('analysis.title')),
      h('div', { class: 'row' }, variantSel, editorLink),
      err,
      h('p', { class: 'muted' }, t('analysis.about')),
      statusEl, tablebaseEl, practice.el, movesEl,
      h('div', { class: 'row' },
        h('button', { id: 'analysis-back', onclick: () => go(cursor - 1) }, t('analysis.back')),
        h('button', { id: 'analysis-forward', onclick: () => go(cursor + 1) }, t('analysis.forward')),
        h('button', { id: 'analysis-reset', onclick: () => { moves = []; cursor = 0; load(); } }, t('analysis.reset')),
        h('button', { id: 'analysis-flip', onclick: () => { orientation = orientation === 'white' ? 'black' : 'white'; cg.set({ orientation }); } }, t('analysis.flip'))),
      engine.el, chooser, explorer.el, h('p', { class: 'fen-row' }, t('analysis.fen'), fenBox, loadButton), h('p', {}, pngLink))));

  let view: PositionView | null = null;
  const cg: Api = Chessground(boardEl, {
    fen: EMPTY_BOARD,
    dimensions: { width: 8, height: 8 },
    orientation,
    coordinates: true,
    notation: boardNotation(),
    kingRoles: isMakhos ? [] : ['k-piece'],
    highlight: { lastMove: true, check: true },
    movable: { free: false, showDests: true, events: { after: (orig: Key, dest: Key) => onMove(orig, dest) } },
  });

  /** Plays `uci` at the position shown: the line goes on from there (the next move of the line is kept if it is the same). */
  function play(uci: string): void {
    chooser.replaceChildren();
    if (moves[cursor] !== uci) moves = [...moves.slice(0, cursor), uci];
    cursor++;
    load();
  }

  function onMove(orig: string, dest: string): void {
    const cands = (view?.legal ?? []).filter(m => m.path[0] === orig && m.path[m.path.length - 1] === dest);
    if (cands.length === 1) { play(cands[0].uci); return; }
    if (cands.length > 1) {
      chooser.replaceChildren(t('analysis.whichMove'), ...cands.map(m => h('button', { onclick: () => play(m.uci) }, showMove(m))));
      return;
    }
    load();
  }

  /** Shows the position after `n` moves of the line (clamped). */
  function go(n: number): void {
    cursor = Math.max(0, Math.min(moves.length, n));
    load();
  }

  const positionQuery = (line: string[]) => {
    const q = new URLSearchParams({ variant, rules });
    if (startFen) q.set('fen', startFen);
    if (line.length) q.set('moves', line.join(','));
    return `/api/position?${q.toString()}`;
  };

  /**
   * The endgame tables' verdict on the position shown, when the server has
   * tables that hold it (otherwise no verdict: the answer is 404), and the
   * "Practise this ending" panel that follows it.
   */
  let tablebaseAsked = 0;
  async function showTablebase(fen: string, ongoing: boolean): Promise<void> {
    const mine = ++tablebaseAsked;
    tablebaseEl.replaceChildren();
    if (!ongoing) { practice.hide(); return; }
    const q = new URLSearchParams({ variant, rules, fen });
    try {
      const a = await api.call<TablebaseAnswer>('GET', `/api/tablebase?${q.toString()}`);
      if (mine !== tablebaseAsked) return;
      tablebaseEl.replaceChildren(h('b', {}, `${t('tb.title')}: `), tablebaseText(variant, fen, a));
      practice.show(variant, rules, fen, a);
    } catch (e) {
      // Outside the tables, or a server without them: the panel says which.
      if (mine === tablebaseAsked) practice.show(variant, rules, fen, { refused: e });
    }
  }

  /** The SAN and Thai forms of every move of the line (the whole line, whichever position is shown). */
  let lineSans: string[] = [];
  let lineThai: api.ThaiText[] = [];

  async function load(): Promise<void> {
    err.textContent = '';
    let whole: PositionView;
    try {
      whole = await api.call<PositionView>('GET', positionQuery(moves));
    } catch (e) {
      // A bad move in the address: drop it and what follows; a bad position: an empty board and the reason.
      err.textContent = (e as Error).message;
      if (moves.length) { moves = moves.slice(0, -1); cursor = Math.min(cursor, moves.length); return load(); }
      view = null;
      cg.set({ fen: EMPTY_BOARD, lastMove: [], movable: { color: undefined, dests: new Map() } });
      movesEl.replaceChildren();
      statusEl.textContent = '';
      fenBox.value = '';
      return;
    }
    lineSans = whole.played;
    lineThai = whole.played_thai;
    view = cursor === moves.length ? whole : await api.call<PositionView>('GET', positionQuery(moves.slice(0, cursor)));
    const v = view;
    history.replaceState(null, '', analysisUrl(variant, rules, startFen ?? '', moves, cursor));
    const dests = new Map<Key, Key[]>();
    for (const m of v.legal) {
      const from = m.path[0] as Key, to = m.path[m.path.length - 1] as Key;
      dests.set(from, [...(dests.get(from) ?? []).filter(d => d !== to), to]);
    }
    const lastUci = cursor > 0 ? moves[cursor - 1] : '';
    const last = lastUci ? (isMakhos ? lastUci.match(/../g) ?? [] : [lastUci.slice(0, 2), lastUci.slice(2, 4)]) : [];
    cg.set({ fen: boardFen(variant, v.fen), turnColor: v.turn, lastMove: last as Key[], movable: { color: v.result === 'ongoing' ? v.turn : undefined, dests } });
    // Black to move in the start position: the first move is Black's.
    const offset = (startFen ?? '').split(' ')[1] === 'b' || (isMakhos && (startFen ?? '').startsWith('B')) ? 1 : 0;
    movesEl.replaceChildren(...moveCells(lineSans.map((san, i): MoveEntry => ({
      kind: 'move', ply: i + 1 + offset, index: i + 1, text: showMove({ san, thai: lineThai[i] }), san, current: i + 1 === cursor, go: () => go(i + 1),
    }))));
    statusEl.textContent = v.result === 'ongoing' ? t(v.turn === 'white' ? 'game.whiteToMove' : 'game.blackToMove') : `${v.result} (${tMaybe(`reason.${v.reason}`, v.reason ?? '')})`;
    engine.follow(v.result === 'ongoing' ? positionQuery(moves.slice(0, cursor)).replace('/api/position', '/api/analysis/live') : null, cursor);
    if (document.activeElement !== fenBox) fenBox.value = v.fen;
    editorLink.href = `/editor?${new URLSearchParams({ variant, rules, fen: v.fen }).toString()}`;
    void showTablebase(v.fen, v.result === 'ongoing');
    void explorer.show(variant, rules, v.fen);
    pngLink.href = `/api/picture.png?variant=${encodeURIComponent(variant)}&fen=${encodeURIComponent(v.fen)}${orientation === 'black' ? '&flip=1' : ''}`;
  }
  document.addEventListener('keydown', ev => {
    if (ev.key === 'ArrowLeft') go(cursor - 1);
    if (ev.key === 'ArrowRight') go(cursor + 1);
  });
  window.addEventListener('notationchange', () => { cg.set({ notation: boardNotation() }); cg.redrawAll(); load(); });
  await load();
}
