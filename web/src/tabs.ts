// The information tabs under a game's board: overview (moves with comments
// and times), material, engine analysis (finished games only), opening book,
// my tags, share (PGN, FEN, GIF, PNG) and the rules of the game being played.
import * as api from './api';
import { h } from './dom';
import { makhosMaterial, makrukMaterial } from './material';

/** One position of the game as the board shows it. */
export interface Ply { fen: string; san: string; last: string[]; turn: 'white' | 'black' }

/** What the tabs need from the game page. */
export interface TabContext {
  game: () => api.Game;
  actions: () => api.Action[];
  plies: () => Ply[];
  /** Index into `plies()` of the position on the board. */
  shown: () => number;
  /** Shows a position on the board. */
  goTo: (index: number) => void;
  /** Whether the board is seen from Black's side. */
  flipped: () => boolean;
  /** Called when the comments change (the move list shows them). */
  onComments?: () => void;
}

export interface Comment { id: string; ply: number; author: string; private: boolean; text: string; at: number }
interface Eval { cp?: number; mate?: number }
interface PositionAnalysis { ply: number; eval: Eval; best: string; pv: string[]; depth: number; loss?: number; judgement?: string }
interface Analysis { status: 'none' | 'queued' | 'running' | 'done'; done: number; total: number; positions: PositionAnalysis[] }
interface BookMove { uci: string; san: string; games: number; white_wins: number; draws: number; black_wins: number }
interface Book { games: number; moves: BookMove[] }

const enc = encodeURIComponent;

export function evalText(e: Eval): string {
  if (e.mate !== undefined) return e.mate > 0 ? `#${e.mate}` : `#-${-e.mate}`;
  const cp = e.cp ?? 0;
  return (cp > 0 ? '+' : '') + (cp / 100).toFixed(2);
}

/** Centipawns for the graph, mates at the edge. */
export function evalCp(e: Eval, cap = 1000): number {
  if (e.mate !== undefined) return e.mate > 0 ? cap : -cap;
  return Math.max(-cap, Math.min(cap, e.cp ?? 0));
}

/** The move number and side label of the move leading to ply index `i` (1-based plies). */
function moveLabel(i: number): string {
  const n = Math.ceil(i / 2);
  return i % 2 === 1 ? `${n}.` : `${n}...`;
}

const VARIANT_RULES: Record<string, () => Node[]> = {
  makruk: () => makrukRules('Makruk'),
  cambodian: () => [
    ...makrukRules('Ouk Chatrang'),
    h('p', {}, 'Ouk Chatrang (Cambodian rules): the khun may once leap like a ma (not capturing, not out of or through check) and the met may once step two squares straight forward, each only until its first move; the khun loses the right once it is checked.'),
  ],
  makhos: () => [
    h('p', {}, 'Mak-hot (Thai checkers): play on the dark squares, eight men each. A man moves one square diagonally forward and becomes a king (hot) on the far rank; a king moves any distance along a diagonal.'),
    h('p', {}, 'Capturing is compulsory. A man captures forward only, jumping an adjacent piece; a king captures at a distance and lands on the square just beyond the piece. A capture goes on from its landing square while it can; captured pieces leave at once. Any capturing sequence may be chosen.'),
    h('p', {}, 'A player who cannot move loses. Draws: agreement; one king each and nothing else; the same position three times; 16 moves by each side without a capture or a man move.'),
    h('p', {}, 'Rule option: "default" lets a king turn back along the line it came during a capture; "no-reverse" allows only the same or a perpendicular direction.'),
  ],
};

function makrukRules(name: string): Node[] {
  const row = (...cells: string[]) => h('tr', {}, ...cells.map(c => h('td', {}, c)));
  return [
    h('p', {}, `${name}: the khun moves one square any way; the met one square diagonally; the khon one square diagonally or straight forward; the ma as a knight; the ruea as a rook; the bia one square forward, capturing diagonally forward, and becomes a met on the sixth rank (third for Black). Stalemate is a draw; there is no repetition or 50-move rule.`),
    h('p', {}, 'Counting: once no unpromoted bia is left, the weaker side may count. With more than its khun it counts the board\'s honour (64 moves, started and stopped by that side). With a bare khun the pieces\' honour starts by itself, from the number of pieces on the board, to the limit set by the stronger side\'s material:'),
    h('table', { class: 'count-table' },
      h('tr', {}, h('th', {}, 'stronger side has'), h('th', {}, 'limit (moves)')),
      row('two rueas', '8'), row('one ruea', '16'), row('two khons', '22'), row('two mas', '32'), row('one khon', '44'), row('anything else', '64'),
      row('board\'s honour', '64')),
    h('p', {}, 'If the count passes its limit before mate, the game is drawn.'),
  ];
}

/** Builds the tab strip and panel. Call `refresh()` after every change of game or shown position. */
export function gameTabs(ctx: TabContext): { el: HTMLElement; refresh: () => void; commentsAt: (ply: number) => Comment[]; hideComments: () => boolean } {
  const game = ctx.game;
  let comments: Comment[] = [];
  let active = 'overview';
  let analysis: Analysis | null = null;
  let poll: number | undefined;
  const bookCache = new Map<string, Book>();
  let hide = localStorage.getItem('hideComments') === '1';

  const strip = h('div', { class: 'tabs', role: 'tablist' });
  const panel = h('div', { class: 'tab-panel', id: 'tab-panel' });
  const el = h('div', { class: 'game-tabs' }, strip, panel);

  const tabs: [string, string, () => Node[] | Promise<Node[]>][] = [
    ['overview', 'Overview', overview],
    ['material', 'Material', material],
    ['analysis', 'Analysis', analysisTab],
    ['book', 'Book', book],
    ['tags', 'Tags', tags],
    ['conditional', 'Conditional moves', conditional],
    ['share', 'Share', share],
    ['rules', 'Rules', () => (VARIANT_RULES[game().variant] ?? (() => [h('p', {}, 'A test game.')]))()],
  ];

  async function loadComments(): Promise<void> {
    try { comments = await api.call<Comment[]>('GET', `/api/games/${game().id}/comments`); } catch { comments = []; }
  }

  function overview(): Node[] {
    const acts = ctx.actions().filter(a => a.kind === 'move');
    const rows: Node[] = [];
    const commentRows = (ply: number) => hide ? [] : comments.filter(c => c.ply === ply).map(c =>
      h('tr', { class: c.private ? 'comment private' : 'comment' }, h('td', {}, ''), h('td', { colspan: '2' },
        `${c.private ? 'note' : c.author}: ${c.text}`)));
    rows.push(...commentRows(0));
    acts.forEach((a, i) => {
      const ply = i + 1;
      rows.push(h('tr', { class: ply === ctx.shown() ? 'current' : '', onclick: () => ctx.goTo(ply) },
        h('td', {}, moveLabel(ply)), h('td', {}, a.san), h('td', { class: 'muted' }, new Date(a.at).toLocaleString())));
      rows.push(...commentRows(ply));
    });
    const me = api.me;
    const g = game();
    const isPlayer = !!me && (g.white?.id === me.id || g.black?.id === me.id);
    const text = h('textarea', { id: 'comment-text', rows: '2', maxlength: '2000', placeholder: isPlayer ? 'comment on the position shown' : 'a private note on the position shown' }) as HTMLTextAreaElement;
    const priv = h('input', { type: 'checkbox', id: 'comment-private' }) as HTMLInputElement;
    if (!isPlayer) { priv.checked = true; priv.disabled = true; }
    const msg = h('span', { class: 'error' });
    const form = me ? h('div', { class: 'comment-form' }, text, h('label', {}, priv, ' private note (only you see it)'),
      h('button', { id: 'comment-send', onclick: async () => {
        msg.textContent = '';
        try {
          await api.call('POST', `/api/games/${g.id}/comments`, { ply: ctx.shown(), text: text.value, private: priv.checked });
          text.value = '';
          await loadComments();
          ctx.onComments?.();
          render();
        } catch (e) { msg.textContent = (e as Error).message; }
      } }, 'Add'), msg) : null;
    const hideBox = h('input', { type: 'checkbox', id: 'hide-comments', onchange: (ev: Event) => {
      hide = (ev.target as HTMLInputElement).checked;
      localStorage.setItem('hideComments', hide ? '1' : '0');
      ctx.onComments?.();
      render();
    } }) as HTMLInputElement;
    hideBox.checked = hide;
    return [h('label', {}, hideBox, ' hide comments'), h('table', { class: 'overview', id: 'overview' }, ...rows), ...(form ? [form] : [])];
  }

  function material(): Node[] {
    const fen = ctx.plies()[ctx.shown()].fen;
    const makhos = game().variant === 'makhos';
    const m = makhos ? makhosMaterial(fen) : makrukMaterial(fen);
    const img = (color: string, role: string) => h('img', { class: 'captured', alt: role, src: `/assets/pieces/${color}-${makhos ? 'makhos-' : ''}${role}.svg` });
    const bal = m.balance === 0 ? 'material is level' : `${m.balance > 0 ? 'White' : 'Black'} is ahead by ${Math.abs(m.balance)} ${makhos ? 'men' : 'bia'}`;
    return [
      h('div', { id: 'captured-by-white' }, 'Captured by White: ', ...(m.captured.black.length ? m.captured.black.map(r => img('black', r)) : ['none'])),
      h('div', { id: 'captured-by-black' }, 'Captured by Black: ', ...(m.captured.white.length ? m.captured.white.map(r => img('white', r)) : ['none'])),
      h('p', { id: 'balance' }, bal),
    ];
  }

  async function fetchAnalysis(): Promise<void> {
    analysis = await api.call<Analysis>('GET', `/api/games/${game().id}/analysis`);
    window.clearTimeout(poll);
    if ((analysis.status === 'queued' || analysis.status === 'running') && active === 'analysis') {
      poll = window.setTimeout(async () => { await fetchAnalysis(); render(); }, 1000);
    }
  }

  function graph(a: Analysis): Node {
    const W = 320, H = 120, n = Math.max(a.total - 1, 1);
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'eval-graph');
    svg.setAttribute('id', 'eval-graph');
    const y = (p: PositionAnalysis) => H / 2 - (evalCp(p.eval) / 1000) * (H / 2 - 4);
    const x = (ply: number) => (ply / n) * W;
    const line = document.createElementNS(NS, 'polyline');
    line.setAttribute('points', a.positions.map(p => `${x(p.ply).toFixed(1)},${y(p).toFixed(1)}`).join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', '#3a2a1a');
    const mid = document.createElementNS(NS, 'line');
    for (const [k, v] of [['x1', '0'], ['x2', String(W)], ['y1', String(H / 2)], ['y2', String(H / 2)], ['stroke', '#aaa']]) mid.setAttribute(k, v);
    svg.append(mid, line);
    for (const p of a.positions) {
      if (!p.judgement || p.ply + 1 >= a.total) continue;
      const dot = document.createElementNS(NS, 'circle');
      const next = a.positions[p.ply + 1];
      dot.setAttribute('cx', x(p.ply + 1).toFixed(1));
      dot.setAttribute('cy', (next ? y(next) : H / 2).toFixed(1));
      dot.setAttribute('r', '3');
      dot.setAttribute('class', p.judgement);
      svg.append(dot);
    }
    const cursor = document.createElementNS(NS, 'line');
    for (const [k, v] of [['x1', x(ctx.shown()).toFixed(1)], ['x2', x(ctx.shown()).toFixed(1)], ['y1', '0'], ['y2', String(H)], ['stroke', '#8a6a4a']]) cursor.setAttribute(k, v);
    svg.append(cursor);
    svg.addEventListener('click', (ev: MouseEvent) => {
      const r = svg.getBoundingClientRect();
      ctx.goTo(Math.max(0, Math.min(a.total - 1, Math.round(((ev.clientX - r.left) / r.width) * n))));
    });
    return svg;
  }

  async function analysisTab(): Promise<Node[]> {
    const g = game();
    if (g.status !== 'finished') return [h('p', { id: 'analysis-unavailable' }, 'Engine analysis is available once the game is over, to keep play fair.')];
    if (!analysis) await fetchAnalysis();
    const a = analysis!;
    if (a.status === 'none') {
      return [h('button', { id: 'analyse', class: 'primary', onclick: async () => {
        analysis = await api.call<Analysis>('POST', `/api/games/${g.id}/analysis`);
        await fetchAnalysis();
        render();
      } }, 'Analyse with the engine')];
    }
    const out: Node[] = [];
    if (a.status !== 'done') out.push(h('div', { id: 'analysis-progress' }, `Analysing: ${a.done} of ${a.total} positions `, h('progress', { max: String(a.total), value: String(a.done) })));
    if (a.positions.length) out.push(graph(a));
    const here = a.positions[ctx.shown()];
    if (here) out.push(h('p', { id: 'analysis-here' }, `Evaluation ${evalText(here.eval)} (depth ${here.depth})`, here.best ? `, best line: ${here.pv.join(' ')}` : ''));
    const acts = ctx.actions().filter(x => x.kind === 'move');
    const marked = a.positions.filter(p => p.judgement);
    out.push(h('ul', { id: 'judgements' }, ...marked.map(p => h('li', { class: p.judgement!, onclick: () => ctx.goTo(p.ply + 1) },
      `${moveLabel(p.ply + 1)} ${acts[p.ply]?.san ?? ''}: ${p.judgement} (${((p.loss ?? 0) / 100).toFixed(1)}), best was ${p.best}`))));
    if (a.status === 'done' && !marked.length) out.push(h('p', {}, 'No inaccuracies found.'));
    return out;
  }

  async function book(): Promise<Node[]> {
    const g = game();
    if (g.variant === 'test') return [h('p', {}, 'No book for this game.')];
    const fen = ctx.plies()[ctx.shown()].fen;
    let b = bookCache.get(fen);
    if (!b) {
      b = await api.call<Book>('GET', `/api/book?variant=${enc(g.variant)}&rules=${enc(g.rules)}&fen=${enc(fen)}`);
      bookCache.set(fen, b);
    }
    if (!b.moves.length) return [h('p', { id: 'book-empty' }, 'No finished game on this server went on from this position.')];
    const pct = (n: number, of: number) => `${Math.round((100 * n) / of)}%`;
    return [h('table', { class: 'book', id: 'book' },
      h('tr', {}, h('th', {}, 'move'), h('th', {}, 'games'), h('th', {}, 'White wins'), h('th', {}, 'draws'), h('th', {}, 'Black wins')),
      ...b.moves.map(m => h('tr', {}, h('td', {}, m.san), h('td', {}, String(m.games)), h('td', {}, pct(m.white_wins, m.games)),
        h('td', {}, pct(m.draws, m.games)), h('td', {}, pct(m.black_wins, m.games)))))];
  }

  async function tags(): Promise<Node[]> {
    if (!api.me) return [h('p', {}, 'Sign in to tag games.')];
    const g = game();
    const mine = await api.call<{ games: Record<string, string[]>; tags: Record<string, number> }>('GET', '/api/tags');
    const input = h('input', { id: 'tags-input', value: (mine.games[g.id] ?? []).join(', '), placeholder: 'e.g. opening, ruea ending' }) as HTMLInputElement;
    const msg = h('span', { class: 'error' });
    return [h('p', {}, 'Your own labels on this game, searchable from My games. Separate them with commas.'), input,
      h('button', { id: 'tags-save', onclick: async () => {
        msg.textContent = '';
        try {
          await api.call('PUT', `/api/games/${g.id}/tags`, { tags: input.value.split(',').map(t => t.trim()).filter(Boolean) });
          msg.textContent = 'saved';
        } catch (e) { msg.textContent = (e as Error).message; }
      } }, 'Save'), msg];
  }

  async function conditional(): Promise<Node[]> {
    const g = game();
    const me = api.me;
    const mine = !!me && (g.white?.id === me.id || g.black?.id === me.id);
    if (g.time_control.kind !== 'correspondence' || g.status !== 'ongoing' || !mine) {
      return [h('p', {}, 'Conditional moves are for your ongoing correspondence games: while you wait, write "if they play X, I reply Y" lines, played for you when their move matches.')];
    }
    const cur = await api.call<{ ply: number; lines: string[][]; display: string[][] }>('GET', `/api/games/${g.id}/conditional`);
    const box = h('textarea', { id: 'conditional-lines', rows: '4', placeholder: 'one line per row, their move first: d5 exd5 c5 Nd2' }) as HTMLTextAreaElement;
    box.value = cur.display.map(l => l.join(' ')).join('\n');
    const msg = h('span', { class: 'error', id: 'conditional-msg' });
    return [h('p', {}, 'One line per row: their move, your reply, their next move, your reply… A line whose first move they do not play is cancelled.'), box,
      h('button', { id: 'conditional-save', onclick: async () => {
        msg.textContent = '';
        const lines = box.value.split('\n').map(l => l.trim().split(/\s+/).filter(Boolean)).filter(l => l.length);
        try {
          const saved = await api.call<{ display: string[][] }>('PUT', `/api/games/${g.id}/conditional`, { lines });
          msg.textContent = `saved ${saved.display.length} line${saved.display.length === 1 ? '' : 's'}`;
        } catch (e) { msg.textContent = (e as Error).message; }
      } }, 'Save'), msg];
  }

  function share(): Node[] {
    const g = game();
    const fen = ctx.plies()[ctx.shown()].fen;
    const flip = ctx.flipped() ? '&flip=1' : '';
    const fenBox = h('input', { class: 'fen', id: 'share-fen', readonly: true, value: fen }) as HTMLInputElement;
    return [
      h('p', {}, h('a', { id: 'share-pgn', href: `/api/games/${g.id}/pgn`, download: '' }, g.variant === 'makhos' ? 'Download PDN' : 'Download PGN')),
      h('p', {}, h('a', { id: 'share-gif', href: `/api/games/${g.id}/gif?size=56${flip}`, download: `thaiboard-${g.id}.gif` }, 'Download animated GIF')),
      h('p', {}, h('a', { id: 'share-png', href: `/api/games/${g.id}/png?ply=${ctx.shown()}${flip}`, download: `thaiboard-${g.id}-${ctx.shown()}.png` }, 'Download PNG of this position')),
      h('p', {}, 'FEN: ', fenBox, h('button', { id: 'share-copy', onclick: () => { fenBox.select(); navigator.clipboard?.writeText(fen).catch(() => {}); } }, 'Copy')),
    ];
  }

  let renderSeq = 0;
  async function render(): Promise<void> {
    const seq = ++renderSeq;
    strip.replaceChildren(...tabs.map(([key, label]) => h('button', {
      class: key === active ? 'tab active' : 'tab', role: 'tab', id: `tab-${key}`,
      onclick: () => { active = key; if (key === 'analysis') analysis = null; render(); },
    }, label)));
    let nodes: Node[];
    try { nodes = await tabs.find(t => t[0] === active)![2](); } catch (e) { nodes = [h('p', { class: 'error' }, (e as Error).message)]; }
    if (seq === renderSeq) panel.replaceChildren(...nodes);
  }

  loadComments().then(() => { ctx.onComments?.(); render(); });
  return {
    el,
    refresh: () => { render(); },
    commentsAt: (ply: number) => (hide ? [] : comments.filter(c => c.ply === ply)),
    hideComments: () => hide,
  };
}
