// The board editor (/editor?variant=&rules=&fen=): set up any position of
// Makruk, Ouk Chatrang or Mak-hot by dragging pieces from a palette onto the
// board, between squares and off it; set the side to move, Ouk Chatrang's
// leap rights, Makruk's counting fields or Mak-hot's rule option. The FEN box
// follows the board and the board follows the FEN box. The server checks the
// position with the rules crates (GET /api/position); a position it refuses
// is explained and "Continue from here" (against the computer, or as a
// challenge) stays disabled with the reason.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Color, Key, Piece, Role } from 'chessgroundx/types';
import * as api from './api';
import { analysisUrl } from './analysis-board';
import { boardFen } from './boardfen';
import { h } from './dom';
import { t, tMaybe } from './i18n';
import { boardNotation } from './notation';
import { practicePanel } from './practice';
import type { TablebaseAnswer } from './tablebase';

/** The games the editor sets up, with their start positions. */
const STARTS: Record<string, string> = {
  makruk: 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1',
  cambodian: 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1',
  makhos: 'W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8',
};
export const VARIANTS = ['makruk', 'cambodian', 'makhos'];

/** The pieces of the palette: Makruk's (a promoted bia is a met marked `~`) or Mak-hot's men and kings. */
function palettePieces(variant: string, color: Color): Piece[] {
  const roles = variant === 'makhos' ? ['p', 'k'] : ['k', 'm', 's', 'n', 'r', 'p'];
  const pieces: Piece[] = roles.map(r => ({ role: `${r}-piece` as Role, color }));
  if (variant !== 'makhos') pieces.splice(2, 0, { role: 'm-piece', color, promoted: true });
  return pieces;
}

/** The fields of a Makruk/Ouk Chatrang FEN after the board (Fairy-Stockfish's order). */
interface Fields { turn: 'w' | 'b'; rights: string; limit: number; ply: number; fullmove: number }

/** Reads FEN fields 2 to 6 (missing ones take their defaults, as the server reads them). */
export function readFields(fen: string): Fields {
  const f = fen.trim().split(/\s+/);
  const num = (s: string | undefined, d: number) => (s !== undefined && /^\d+$/.test(s) ? +s : d);
  const counting = f[3] ?? '-';
  const fifth = num(f[4], 0);
  const limit = counting === '-' ? 0 : num(counting, 0);
  return { turn: f[1] === 'b' ? 'b' : 'w', rights: f[2] && f[2] !== '-' ? f[2] : '', limit, ply: limit > 0 ? fifth : 0, fullmove: Math.max(1, num(f[5], 1)) };
}

/** A Makruk/Ouk Chatrang FEN from a board and its fields. */
export function makrukFen(board: string, x: Fields): string {
  const count = x.limit > 0 ? `${x.limit} ${x.ply}` : '- 0';
  return `${board} ${x.turn} ${x.rights || '-'} ${count} ${x.fullmove}`;
}

/** A Mak-hot position text (`W:Wa1,Kc3:Bb8`) from the pieces on the board. */
function makhosText(pieces: Map<Key, Piece>, turn: 'w' | 'b'): string {
  // Rank 1 first, files a to h within a rank, as the server writes it.
  const side = (c: Color) => [...pieces.entries()].filter(([, p]) => p.color === c)
    .sort(([a], [b]) => (a[1] + a[0]).localeCompare(b[1] + b[0]))
    .map(([k, p]) => (p.role === 'k-piece' ? 'K' : '') + k).join(',');
  return `${turn === 'w' ? 'W' : 'B'}:W${side('white')}:B${side('black')}`;
}

interface PositionAnswer { fen: string; result: string; reason: string | null }

/** Renders the board editor into `root`. */
export function editorPage(root: HTMLElement): void {
  const params = new URLSearchParams(location.search);
  let variant = VARIANTS.includes(params.get('variant') ?? '') ? params.get('variant')! : 'makruk';
  let rules = params.get('rules') === 'no-reverse' ? 'no-reverse' : 'default';
  let fen = params.get('fen') || STARTS[variant];
  let orientation: Color = 'white';
  document.title = `${t('editor.title')} · thaiboard`;

  const select = (id: string, label: string, options: [string, string][], value: string) => {
    const s = h('select', { id, 'aria-label': label }, ...options.map(([v, text]) => h('option', { value: v }, text))) as HTMLSelectElement;
    s.value = value;
    return s;
  };
  const variantSel = select('editor-variant', t('editor.variant'), VARIANTS.map(v => [v, tMaybe(`variant.${v}`, v)]), variant);
  const rulesSel = select('editor-rules', t('editor.rules'), [['default', t('lobby.rulesDefault')], ['no-reverse', t('lobby.rulesNoReverse')]], rules);
  const turnSel = select('editor-turn', t('editor.turn'), [['w', t('game.whiteToMove')], ['b', t('game.blackToMove')]], 'w');
  const rightsBox = h('input', { id: 'editor-rights', size: '5', 'aria-label': t('editor.rights') }) as HTMLInputElement;
  const limitBox = h('input', { id: 'editor-limit', type: 'number', min: '0', max: '200', 'aria-label': t('editor.countLimit') }) as HTMLInputElement;
  const plyBox = h('input', { id: 'editor-ply', type: 'number', min: '0', max: '200', 'aria-label': t('editor.countPly') }) as HTMLInputElement;
  const fullmoveBox = h('input', { id: 'editor-fullmove', type: 'number', min: '1', 'aria-label': t('editor.fullmove') }) as HTMLInputElement;
  const fenBox = h('input', { id: 'editor-fen', class: 'fen', 'aria-label': t('label.fen'), spellcheck: 'false' }) as HTMLInputElement;
  const verdict = h('div', { id: 'editor-verdict', role: 'status' });
  const err = h('div', { class: 'error', id: 'editor-error', role: 'alert' });
  const boardEl = h('div', { class: 'cg-wrap', id: 'editor-board' });
  const boardCol = h('div', { class: 'board-col' }, boardEl);
  const palettes = [h('div', { class: 'editor-palette', id: 'editor-palette-top', role: 'group' }), h('div', { class: 'editor-palette', id: 'editor-palette-bottom', role: 'group' })];
  const rightsRow = h('label', { class: 'row' }, t('editor.rights'), ' ', rightsBox);
  const countRow = h('span', { class: 'row' }, h('label', {}, t('editor.countLimit'), ' ', limitBox), h('label', {}, t('editor.countPly'), ' ', plyBox));
  const rulesRow = h('label', { class: 'row' }, t('editor.rules'), ' ', rulesSel);

  // Continue from here: against the computer, or as a challenge.
  const level = select('editor-level', t('label.level'), [1, 2, 3, 4, 5, 6, 7, 8].map(l => [String(l), t('lobby.level', { level: l })]), '3');
  const colorSel = select('editor-color', t('editor.yourColor'), [['white', t('common.white')], ['black', t('common.black')], ['random', t('lobby.colorRandom')]], 'white');
  const tcSel = select('editor-tc', t('editor.timeControl'), [['none', t('editor.noClock')], ['5+3', '5+3'], ['10+5', '10+5'], ['15+10', '15+10'], ['corr', t('editor.correspondence')]], '10+5');
  const opponent = h('input', { id: 'editor-opponent', placeholder: t('lobby.opponent'), 'aria-label': t('lobby.opponent') }) as HTMLInputElement;
  const playComputer = h('button', { id: 'editor-play-computer', class: 'primary', type: 'button', onclick: () => start('computer') }, t('editor.playComputer')) as HTMLButtonElement;
  const playChallenge = h('button', { id: 'editor-challenge', class: 'primary', type: 'button', onclick: () => start('challenge') }, t('editor.challenge')) as HTMLButtonElement;
  const why = h('p', { class: 'muted', id: 'editor-why' });
  const analyse = h('a', { id: 'editor-analyse' }, t('editor.analyse')) as HTMLAnchorElement;
  const practice = practicePanel();

  root.replaceChildren(h('div', { class: 'game editor' },
    h('div', {}, palettes[0], boardCol, palettes[1]),
    h('div', { class: 'side-col' },
      h('h2', {}, t('editor.title')), err,
      h('p', { class: 'muted' }, t('editor.about')),
      h('div', { class: 'row' }, variantSel, rulesRow),
      h('div', { class: 'row' },
        h('button', { id: 'editor-start', type: 'button', onclick: () => load(STARTS[variant]) }, t('editor.startPosition')),
        h('button', { id: 'editor-clear', type: 'button', onclick: () => { cg.set({ fen: '8/8/8/8/8/8/8/8' }); changed(); } }, t('editor.clear')),
        h('button', { id: 'editor-flip', type: 'button', onclick: () => { orientation = orientation === 'white' ? 'black' : 'white'; cg.set({ orientation }); drawPalettes(); } }, t('analysis.flip'))),
      h('div', { class: 'row' }, h('label', {}, t('editor.turn'), ' ', turnSel)),
      rightsRow, countRow,
      h('label', { class: 'row' }, t('editor.fullmove'), ' ', fullmoveBox),
      h('p', { class: 'fen-row' }, h('label', { for: 'editor-fen' }, t('analysis.fen')), fenBox,
        h('button', { id: 'editor-load', type: 'button', onclick: () => load(fenBox.value) }, t('analysis.load'))),
      verdict,
      h('h3', {}, t('editor.continue')),
      h('div', { class: 'row' }, colorSel),
      h('div', { class: 'row' }, level, playComputer),
      h('div', { class: 'row' }, tcSel, opponent, playChallenge),
      why, practice.el, h('p', {}, analyse))));

  const cg: Api = Chessground(boardEl, {
    fen: '8/8/8/8/8/8/8/8',
    dimensions: { width: 8, height: 8 },
    orientation,
    coordinates: true,
    notation: boardNotation(),
    kingRoles: [],
    movable: { free: true, color: 'both', showDests: false },
    draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
    selectable: { enabled: false },
    highlight: { lastMove: false, check: false },
    animation: { enabled: false },
    events: { change: () => changed() },
  });

  function drawPalettes(): void {
    const top: Color = orientation === 'white' ? 'black' : 'white';
    const sides: Color[] = [top, top === 'white' ? 'black' : 'white'];
    sides.forEach((color, i) => {
      palettes[i].className = `editor-palette ${variant === 'makhos' ? 'makhos' : 'makruk'}`;
      palettes[i].setAttribute('aria-label', t(color === 'white' ? 'editor.whitePieces' : 'editor.blackPieces'));
      palettes[i].dataset.color = color;
      palettes[i].replaceChildren(...palettePieces(variant, color).map(p => {
        const name = `${p.role[0]}${p.promoted ? '~' : ''}`;
        const el = h('piece', { class: `${p.role} ${color}${p.promoted ? ' promoted' : ''}`, 'data-piece': `${color}-${name}`, title: tMaybe(`editor.piece.${variant === 'makhos' ? 'makhos-' : ''}${p.role[0]}${p.promoted ? 'p' : ''}`, name) });
        const grab = (ev: Event) => { ev.preventDefault(); cg.dragNewPiece({ ...p }, false, ev as MouseEvent, true); };
        el.addEventListener('mousedown', grab);
        el.addEventListener('touchstart', grab, { passive: false });
        return h('div', { class: 'editor-spare' }, el);
      }));
    });
  }

  /** The position the editor shows, as the FEN (Mak-hot: position text) the server reads. */
  function currentFen(): string {
    const turn = turnSel.value as 'w' | 'b';
    if (variant === 'makhos') return makhosText(cg.state.boardState.pieces, turn);
    return makrukFen(cg.getFen().split(' ')[0] || '8/8/8/8/8/8/8/8', {
      turn, rights: variant === 'cambodian' ? rightsBox.value.trim() : '', limit: +limitBox.value || 0, ply: +plyBox.value || 0, fullmove: +fullmoveBox.value || 1,
    });
  }

  /** Shows `text` on the board and in the fields (the board part read leniently; the server judges it). */
  function load(text: string): void {
    err.textContent = '';
    fen = text.trim();
    const x = variant === 'makhos' ? { ...readFields(''), turn: (fen.startsWith('B') ? 'b' : 'w') as 'w' | 'b' } : readFields(fen);
    turnSel.value = x.turn;
    rightsBox.value = x.rights;
    limitBox.value = String(x.limit);
    plyBox.value = String(x.ply);
    fullmoveBox.value = String(x.fullmove);
    cg.set({ fen: boardFen(variant, fen).split(' ')[0] });
    changed(fen);
  }

  let checked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The position changed: the FEN box, the address and (shortly) the server's verdict follow. */
  function changed(typed?: string): void {
    fen = typed ?? currentFen();
    if (typed === undefined || document.activeElement !== fenBox) fenBox.value = fen;
    const q = new URLSearchParams({ variant });
    if (variant === 'makhos') q.set('rules', rules);
    q.set('fen', fen);
    history.replaceState(null, '', `/editor?${q.toString()}`);
    analyse.href = analysisUrl(variant, variant === 'makhos' ? rules : 'default', fen);
    rightsRow.style.display = variant === 'cambodian' ? '' : 'none';
    countRow.style.display = variant === 'makhos' ? 'none' : '';
    fullmoveBox.parentElement!.style.display = variant === 'makhos' ? 'none' : '';
    rulesRow.style.display = variant === 'makhos' ? '' : 'none';
    // The last verdict was about another position: it is not shown as this one's.
    show('checking', t('editor.checking'));
    clearTimeout(timer);
    timer = setTimeout(check, 150);
  }

  /** The verdict on the position shown and, with it, whether Continue is on
   * (only on a position the server called playable) and the reason if not. */
  function show(state: 'checking' | 'ok' | 'error', text: string): void {
    verdict.textContent = text;
    verdict.className = state;
    playComputer.disabled = playChallenge.disabled = state !== 'ok';
    why.textContent = state === 'ok' ? '' : text;
    if (state !== 'ok') practice.hide();
  }

  /** Asks the server (the rules crates) whether the position can be played. */
  async function check(): Promise<void> {
    const mine = ++checked;
    const q = new URLSearchParams({ variant, rules: variant === 'makhos' ? rules : 'default', fen });
    try {
      const a = await api.call<PositionAnswer>('GET', `/api/position?${q.toString()}`);
      if (mine !== checked) return;
      if (a.result !== 'ongoing') {
        show('error', t('editor.over', { result: a.result, reason: tMaybe(`reason.${a.reason}`, a.reason ?? '') }));
        return;
      }
      show('ok', t('editor.legal'));
      // The endgame tables: whether this ending can be practised against them.
      const tq = new URLSearchParams({ variant, rules: q.get('rules') ?? 'default', fen: a.fen });
      const tables = await api.call<TablebaseAnswer>('GET', `/api/tablebase?${tq.toString()}`).catch(e => ({ refused: e }));
      if (mine === checked) practice.show(variant, tq.get('rules')!, a.fen, tables);
    } catch (e) {
      if (mine !== checked) return;
      show('error', t('editor.refused', { reason: (e as Error).message }));
    }
  }

  async function start(how: 'computer' | 'challenge'): Promise<void> {
    err.textContent = '';
    playComputer.disabled = playChallenge.disabled = true;
    const body: Record<string, unknown> = { variant, fen, color: colorSel.value };
    if (variant === 'makhos') body.rules = rules;
    try {
      let g: api.Game;
      if (how === 'computer') g = await api.engineGame({ ...body, level: +level.value });
      else {
        const tc = tcSel.value;
        if (tc === 'corr') body.time_control = { kind: 'correspondence', days: 3, increment_days: 3, max_days: 3 };
        else if (tc !== 'none') body.time_control = { kind: 'live', minutes: +tc.split('+')[0], increment: +tc.split('+')[1] };
        if (opponent.value.trim()) body.opponent = opponent.value.trim();
        g = await api.challenge(body);
      }
      location.href = `/game/${g.id}`;
    } catch (e) {
      err.textContent = (e as Error).message;
      playComputer.disabled = playChallenge.disabled = false;
    }
  }

  variantSel.addEventListener('change', () => {
    variant = variantSel.value;
    boardCol.className = `board-col ${variant === 'makhos' ? 'makhos' : 'makruk'}`;
    drawPalettes();
    load(STARTS[variant]);
  });
  rulesSel.addEventListener('change', () => { rules = rulesSel.value; changed(); });
  for (const el of [turnSel, rightsBox, limitBox, plyBox, fullmoveBox]) el.addEventListener('change', () => changed());
  fenBox.addEventListener('keydown', ev => { if (ev.key === 'Enter') load(fenBox.value); });
  window.addEventListener('notationchange', () => { cg.set({ notation: boardNotation() }); cg.redrawAll(); });

  boardCol.className = `board-col ${variant === 'makhos' ? 'makhos' : 'makruk'}`;
  rulesSel.value = rules;
  drawPalettes();
  load(fen);
}
