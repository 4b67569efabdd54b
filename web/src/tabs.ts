// The information tabs under a game's board: overview (moves with comments
// and times), material, engine analysis (finished games only), the opening explorer,
// my tags, share (PGN, FEN, GIF, PNG) and the rules of the game being played.
import * as api from './api';
import { h } from './dom';
import { dateText, t, tMaybe } from './i18n';
import { explorerPanel } from './explorer';
import { leaveRange } from './labels';
import { makhosMaterial, makrukMaterial } from './material';
import { showEngineMove, showMove, splitMoves } from './notation';
import { type TablebaseAnswer, tablebaseText } from './tablebase';

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
  /** Called when the engine's judgements of the moves change (the move list marks them). */
  onAnalysis?: () => void;
}

export interface Comment { id: string; ply: number; author: string; private: boolean; text: string; at: number }
interface Eval { cp?: number; mate?: number }
interface PositionAnalysis { ply: number; eval: Eval; best: string; pv: string[]; pv_san: string[]; pv_thai?: api.ThaiText[]; depth: number; loss?: number; judgement?: string; symbol?: string; end?: string }
interface Analysis { status: 'none' | 'queued' | 'running' | 'done'; done: number; total: number; positions: PositionAnalysis[]; accuracy?: { white: number; black: number } | null }

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
  makruk: () => makrukRules(t('variant.makruk')),
  cambodian: () => [
    ...makrukRules(t('variant.cambodian')),
    h('p', {}, t('rules.cambodian')),
  ],
  makhos: () => [
    h('p', {}, t('rules.makhos1')),
    h('p', {}, t('rules.makhos2')),
    h('p', {}, t('rules.makhos3')),
    h('p', {}, t('rules.makhos4')),
  ],
};

function makrukRules(name: string): Node[] {
  const row = (...cells: string[]) => h('tr', {}, ...cells.map(c => h('td', {}, c)));
  return [
    h('p', {}, t('rules.makruk', { name })),
    h('p', {}, t('rules.counting')),
    h('table', { class: 'count-table' },
      h('tr', {}, h('th', {}, t('rules.stronger')), h('th', {}, t('rules.limit'))),
      row(t('rules.twoRueas'), '8'), row(t('rules.oneRuea'), '16'), row(t('rules.twoKhons'), '22'), row(t('rules.twoMas'), '32'), row(t('rules.oneKhon'), '44'), row(t('rules.anythingElse'), '64'),
      row(t('rules.boardHonour'), '64')),
    h('p', {}, t('rules.countRunsOut')),
  ];
}

/** Builds the tab strip and panel. Call `refresh()` after every change of game or shown position. */
export function gameTabs(ctx: TabContext): { el: HTMLElement; refresh: () => void; commentsAt: (ply: number) => Comment[]; judgementAt: (index: number) => { symbol: string; judgement: string } | null; hideComments: () => boolean } {
  const game = ctx.game;
  let comments: Comment[] = [];
  let active = 'overview';
  let analysis: Analysis | null = null;
  let poll: number | undefined;
  /** Requests for the analysis so far: only the latest one's reply is kept. */
  let analysisSeq = 0;
  let hide = localStorage.getItem('hideComments') === '1';

  const strip = h('div', { class: 'tabs', role: 'tablist' });
  const panel = h('div', { class: 'tab-panel', id: 'tab-panel' });
  /** The boxes the user typed into since they were drawn (what a redraw must keep). */
  const typedIn = new WeakSet<EventTarget>();
  panel.addEventListener('input', ev => { if (ev.target) typedIn.add(ev.target); });
  const el = h('div', { class: 'game-tabs' }, strip, panel);

  // Conditional moves are for correspondence games only.
  const correspondence = game().time_control.kind === 'correspondence';
  const tabs: [string, string, () => Node[] | Promise<Node[]>][] = [
    ['overview', t('tabs.overview'), overview],
    ['material', t('tabs.material'), material],
    ['analysis', t('tabs.analysis'), analysisTab],
    ['explorer', t('tabs.explorer'), explorer],
    ['tags', t('tabs.tags'), tags],
    ...(correspondence ? [['conditional', t('tabs.conditional'), conditional] as [string, string, () => Promise<Node[]>]] : []),
    ['share', t('tabs.share'), share],
    ['rules', t('tabs.rules'), () => [...(VARIANT_RULES[game().variant] ?? (() => [h('p', {}, t('tabs.testGame'))]))(),
      h('p', { id: 'rules-public' }, t('rules.publicGames')), h('p', {}, t('rules.leave'))]],
  ];

  async function loadComments(): Promise<void> {
    try { comments = await api.call<Comment[]>('GET', `/api/games/${game().id}/comments`); } catch { comments = []; }
  }

  function overview(): Node[] {
    const acts = ctx.actions().filter(a => a.kind === 'move');
    const rows: Node[] = [];
    const commentRows = (ply: number) => hide ? [] : comments.filter(c => c.ply === ply).map(c =>
      h('tr', { class: c.private ? 'comment private' : 'comment' }, h('td', {}, ''), h('td', { colspan: '2' },
        `${c.private ? t('game.note') : c.author}: ${c.text}`)));
    const g = game();
    // Leave taken, after the move it followed (SchemingMind's "leave taken").
    const leaveRows = (ply: number) => g.leave.filter(l => l.ply === ply).map(l => {
      const p = l.side === 'white' ? g.white : g.black;
      return h('tr', { class: 'leave-taken' }, h('td', {}, ''), h('td', { colspan: '2' },
        t('leave.taken', { name: p?.username ?? t(`common.${l.side}`), range: leaveRange(l.first_day, l.last_day, l.days) })));
    });
    rows.push(...commentRows(0), ...leaveRows(0));
    acts.forEach((a, i) => {
      const ply = i + 1;
      rows.push(h('tr', { class: ply === ctx.shown() ? 'current' : '', onclick: () => ctx.goTo(ply) },
        h('td', {}, moveLabel(ply)), h('td', {}, showMove(a)), h('td', { class: 'muted' }, dateText(a.at))));
      rows.push(...commentRows(ply), ...leaveRows(ply));
    });
    const me = api.me;
    const isPlayer = !!me && (g.white?.id === me.id || g.black?.id === me.id);
    const text = h('textarea', { id: 'comment-text', rows: '2', maxlength: '2000', placeholder: isPlayer ? t('tabs.commentPlaceholder') : t('tabs.notePlaceholder') }) as HTMLTextAreaElement;
    const priv = h('input', { type: 'checkbox', id: 'comment-private' }) as HTMLInputElement;
    if (!isPlayer) { priv.checked = true; priv.disabled = true; }
    const msg = h('span', { class: 'error' });
    const form = me ? h('div', { class: 'comment-form' }, text, h('label', {}, priv, t('tabs.privateNote')),
      h('button', { id: 'comment-send', onclick: async () => {
        msg.textContent = '';
        try {
          await api.call('POST', `/api/games/${g.id}/comments`, { ply: ctx.shown(), text: text.value, private: priv.checked });
          text.value = '';
          await loadComments();
          ctx.onComments?.();
          render();
        } catch (e) { msg.textContent = (e as Error).message; }
      } }, t('tabs.add')), msg) : null;
    const hideBox = h('input', { type: 'checkbox', id: 'hide-comments', onchange: (ev: Event) => {
      hide = (ev.target as HTMLInputElement).checked;
      localStorage.setItem('hideComments', hide ? '1' : '0');
      ctx.onComments?.();
      render();
    } }) as HTMLInputElement;
    hideBox.checked = hide;
    return [h('label', {}, hideBox, t('tabs.hideComments')), h('table', { class: 'overview', id: 'overview' }, ...rows), ...(form ? [form] : []), ...publicity(isPlayer)];
  }

  /** Whether spectators read the players' comments, and a correspondence player's mark to make the game public. */
  function publicity(isPlayer: boolean): Node[] {
    const g = game();
    if (g.time_control.kind !== 'correspondence') return [];
    const mine = isPlayer ? (g.white?.id === api.me?.id ? 'white' : 'black') : null;
    const other = mine === 'white' ? g.black : g.white;
    const msg = h('span', { class: 'error' });
    const mark = (pub: boolean) => h('button', { id: 'public-mark', onclick: async () => {
      msg.textContent = '';
      try { await api.call('POST', `/api/games/${g.id}/public`, { public: pub }); await loadComments(); ctx.onComments?.(); } catch (e) { msg.textContent = (e as Error).message; }
    } }, pub ? t('tabs.makePublic') : t('tabs.makePrivate'));
    const lines: Node[] = [h('p', { id: 'game-publicity', class: 'muted' }, g.public ? t('tabs.publicGame') : t('tabs.privateGame'))];
    if (mine && !g.public) {
      if (g.public_marks.includes(mine)) lines.push(h('p', {}, t('tabs.publicWaiting', { name: other?.username ?? '' })), mark(false));
      else {
        if (other && g.public_marks.length > 0) lines.push(h('p', {}, t('tabs.publicAsked', { name: other.username })));
        lines.push(mark(true));
      }
    } else if (mine && g.public && g.public_marks.includes(mine)) lines.push(mark(false));
    return [h('div', { class: 'publicity' }, ...lines, msg)];
  }

  function material(): Node[] {
    const fen = ctx.plies()[ctx.shown()].fen;
    const makhos = game().variant === 'makhos';
    const m = makhos ? makhosMaterial(fen) : makrukMaterial(fen);
    const img = (color: string, role: string) => h('img', { class: 'captured', alt: role, src: `/assets/pieces/${color}-${makhos ? 'makhos-' : ''}${role}.svg` });
    const bal = m.balance === 0 ? t('tabs.level')
      : t(makhos ? 'tabs.aheadMen' : 'tabs.aheadBia', { side: m.balance > 0 ? t('common.white') : t('common.black'), n: Math.abs(m.balance) });
    return [
      h('div', { id: 'captured-by-white' }, t('tabs.capturedByWhite'), ...(m.captured.black.length ? m.captured.black.map(r => img('black', r)) : [t('common.none')])),
      h('div', { id: 'captured-by-black' }, t('tabs.capturedByBlack'), ...(m.captured.white.length ? m.captured.white.map(r => img('white', r)) : [t('common.none')])),
      h('p', { id: 'balance' }, bal),
    ];
  }

  /** Reads the game's analysis, and polls it while it runs and its tab is open. */
  async function fetchAnalysis(): Promise<void> {
    const seq = ++analysisSeq;
    const fresh = await api.call<Analysis>('GET', `/api/games/${game().id}/analysis`);
    // A reply overtaken by a later request (or by the request to analyse)
    // is stale: it must neither undo the newer state nor stop its polling.
    if (seq !== analysisSeq) return;
    const before = analysis?.positions.map(p => p.symbol ?? '').join();
    analysis = fresh;
    if (analysis.positions.map(p => p.symbol ?? '').join() !== before) ctx.onAnalysis?.();
    window.clearTimeout(poll);
    if ((analysis.status === 'queued' || analysis.status === 'running') && active === 'analysis') pollAnalysis(1000);
  }

  /** Reads the analysis again in `ms`; a reply lost on the way (a network blip, a restarting server) is asked for again. */
  function pollAnalysis(ms: number): void {
    window.clearTimeout(poll);
    poll = window.setTimeout(async () => {
      try { await fetchAnalysis(); } catch { pollAnalysis(3000); return; }
      render();
    }, ms);
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
    // The scale: pawns up or down (the graph stops at ±10), and move numbers along the bottom.
    const label = (text: string, lx: number, ly: number, anchor: string, cls: string) => {
      const el = document.createElementNS(NS, 'text');
      for (const [k, v] of [['x', lx.toFixed(1)], ['y', ly.toFixed(1)], ['text-anchor', anchor], ['class', cls]]) el.setAttribute(k, v);
      el.textContent = text;
      return el;
    };
    const yOf = (cp: number) => H / 2 - (cp / 1000) * (H / 2 - 4);
    const scale: Node[] = [];
    for (const cp of [1000, 500, -500, -1000]) {
      const grid = document.createElementNS(NS, 'line');
      for (const [k, v] of [['x1', '0'], ['x2', String(W)], ['y1', yOf(cp).toFixed(1)], ['y2', yOf(cp).toFixed(1)], ['stroke', '#e6dccb']]) grid.setAttribute(k, v);
      scale.push(grid, label(`${cp > 0 ? '+' : '−'}${Math.abs(cp) / 100}`, 2, yOf(cp) + (cp > 0 ? 9 : -2), 'start', 'eval-scale'));
    }
    scale.push(label(t('tabs.whiteBetter'), W - 2, 9, 'end', 'eval-scale side'), label(t('tabs.blackBetter'), W - 2, H - 3, 'end', 'eval-scale side'));
    const step = Math.max(1, Math.ceil(n / 2 / 6));
    for (let m = step; m * 2 <= n; m += step) scale.push(label(String(m), x(m * 2 - 1), H / 2 + 10, 'middle', 'eval-scale move'));
    svg.append(...scale, mid, line);
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

  /** A position's best line in the chosen notation (the server writes SAN and both Thai forms). */
  function lineMoves(p: PositionAnalysis): string[] {
    if (!p.pv_san.length) return p.pv.map(showEngineMove);
    return p.pv_san.map((san, i) => showMove({ san, thai: p.pv_thai?.[i] }));
  }

  /** A position's best line, numbered from its ply ("12. e4 d5 13. Nf3"). */
  function lineText(p: PositionAnalysis): string {
    const moves = lineMoves(p);
    return moves.map((text, i) => {
      const ply = p.ply + i + 1;
      const num = ply % 2 === 1 ? `${(ply + 1) / 2}. ` : i === 0 ? `${ply / 2}… ` : '';
      return num + text;
    }).join(' ');
  }

  /** The best move of a position, as [`lineText`] writes it. */
  function bestText(p: PositionAnalysis): string {
    return lineMoves(p)[0] ?? showEngineMove(p.best);
  }

  /** The endgame tables' verdicts by position (null: outside the tables, or none on the server). */
  const tablebaseCache = new Map<string, string | null>();
  async function tablebaseVerdict(variant: string, rules: string, fen: string): Promise<string | null> {
    if (!tablebaseCache.has(fen)) {
      const q = new URLSearchParams({ variant, rules, fen });
      const a = await api.call<TablebaseAnswer>('GET', `/api/tablebase?${q.toString()}`).catch(() => null);
      tablebaseCache.set(fen, a && tablebaseText(variant, fen, a));
    }
    return tablebaseCache.get(fen) ?? null;
  }

  async function analysisTab(): Promise<Node[]> {
    const g = game();
    if (g.status !== 'finished') return [h('p', { id: 'analysis-unavailable' }, t('tabs.analysisAfter'))];
    if (!analysis) await fetchAnalysis();
    const a = analysis;
    // Overtaken by a newer request for the analysis, whose caller draws the tab.
    if (!a) return [];
    if (a.status === 'none') {
      return [h('button', { id: 'analyse', class: 'primary', onclick: async () => {
        analysisSeq++;
        analysis = await api.call<Analysis>('POST', `/api/games/${g.id}/analysis`);
        await fetchAnalysis();
        render();
      } }, t('tabs.analyse'))];
    }
    const out: Node[] = [];
    if (a.status !== 'done') out.push(h('div', { id: 'analysis-progress' }, t('tabs.analysing', { done: a.done, total: a.total }), h('progress', { max: String(a.total), value: String(a.done) })));
    if (a.positions.length) out.push(graph(a));
    if (a.accuracy) out.push(h('p', { id: 'accuracy' }, t('tabs.accuracy', { white: a.accuracy.white.toFixed(1), black: a.accuracy.black.toFixed(1) })));
    const here = a.positions[ctx.shown()];
    // A position where the game is over on the board says how, not an evaluation.
    if (here) out.push(h('p', { id: 'analysis-here' }, here.end ? tMaybe(`tabs.end.${here.end}`, here.end) : t('tabs.evaluation', { eval: evalText(here.eval), depth: here.depth }), here.best ? t('tabs.bestLine', { line: lineText(here) }) : ''));
    const verdict = await tablebaseVerdict(g.variant, g.rules, ctx.plies()[ctx.shown()].fen);
    if (verdict) out.push(h('p', { id: 'analysis-tablebase' }, h('b', {}, `${t('tb.title')}: `), verdict));
    const acts = ctx.actions().filter(x => x.kind === 'move');
    const marked = a.positions.filter(p => p.judgement);
    out.push(h('ul', { id: 'judgements' }, ...marked.map(p => h('li', { class: p.judgement!, onclick: () => ctx.goTo(p.ply + 1) },
      t('tabs.judgementLine', {
        move: `${moveLabel(p.ply + 1)} ${acts[p.ply] ? showMove(acts[p.ply]) : ''}${p.symbol ?? ''}`,
        judgement: tMaybe(`tabs.${p.judgement}`, p.judgement!), loss: ((p.loss ?? 0) / 100).toFixed(1), best: bestText(p),
      })))));
    if (a.status === 'done' && !marked.length) out.push(h('p', {}, t('tabs.noInaccuracies')));
    return out;
  }

  async function explorer(): Promise<Node[]> {
    const g = game();
    const plies = ctx.plies();
    const at = ctx.shown();
    // A move clicked in the explorer is shown when the game went on with it.
    const panel = explorerPanel(uci => { if (ctx.actions().filter(x => x.kind === 'move')[at]?.uci === uci) ctx.goTo(at + 1); });
    await panel.show(g.variant, g.rules, plies[at].fen);
    return [panel.el];
  }

  async function tags(): Promise<Node[]> {
    if (!api.me) return [h('p', {}, t('tabs.tagsSignIn'))];
    const g = game();
    const mine = await api.call<{ games: Record<string, string[]>; tags: Record<string, number> }>('GET', '/api/tags');
    const input = h('input', { id: 'tags-input', value: (mine.games[g.id] ?? []).join(', '), placeholder: t('tabs.tagsPlaceholder') }) as HTMLInputElement;
    const msg = h('span', { class: 'error' });
    return [h('p', {}, t('tabs.tagsHelp')), input,
      h('button', { id: 'tags-save', onclick: async () => {
        msg.textContent = '';
        try {
          await api.call('PUT', `/api/games/${g.id}/tags`, { tags: input.value.split(',').map(t => t.trim()).filter(Boolean) });
          msg.textContent = t('common.saved');
        } catch (e) { msg.textContent = (e as Error).message; }
      } }, t('common.save')), msg];
  }

  async function conditional(): Promise<Node[]> {
    const g = game();
    const me = api.me;
    const mine = !!me && (g.white?.id === me.id || g.black?.id === me.id);
    if (g.time_control.kind !== 'correspondence' || g.status !== 'ongoing' || !mine) {
      return [h('p', {}, t('tabs.conditionalAbout'))];
    }
    const cur = await api.call<{ ply: number; lines: string[][]; display: string[][]; display_thai: api.ThaiText[][] }>('GET', `/api/games/${g.id}/conditional`);
    const box = h('textarea', { id: 'conditional-lines', rows: '4', placeholder: t('tabs.conditionalPlaceholder') }) as HTMLTextAreaElement;
    box.value = cur.display.map((l, i) => l.map((san, k) => showMove({ san, thai: cur.display_thai[i]?.[k] })).join(' ')).join('\n');
    const msg = h('span', { class: 'error', id: 'conditional-msg' });
    return [h('p', {}, t('tabs.conditionalHelp')), box,
      h('button', { id: 'conditional-save', onclick: async () => {
        msg.textContent = '';
        // Moves go as typed (Thai too: the server reads it); the long Thai form keeps its piece letter.
        const lines = box.value.split('\n').map(splitMoves).filter(l => l.length);
        try {
          const saved = await api.call<{ display: string[][] }>('PUT', `/api/games/${g.id}/conditional`, { lines });
          msg.textContent = t(saved.display.length === 1 ? 'tabs.savedLine' : 'tabs.savedLines', { n: saved.display.length });
        } catch (e) { msg.textContent = (e as Error).message; }
      } }, t('common.save')), msg];
  }

  function share(): Node[] {
    const g = game();
    const fen = ctx.plies()[ctx.shown()].fen;
    const flip = ctx.flipped() ? '&flip=1' : '';
    const fenBox = h('input', { class: 'fen', id: 'share-fen', readonly: true, value: fen, 'aria-label': t('label.fen') }) as HTMLInputElement;
    return [
      h('p', {}, h('a', { id: 'share-pgn', href: `/api/games/${g.id}/pgn`, download: '' }, g.variant === 'makhos' ? t('game.downloadPdn') : t('game.downloadPgn'))),
      h('p', {}, h('a', { id: 'share-gif', href: `/api/games/${g.id}/gif?size=56${flip}`, download: `thaiboard-${g.id}.gif` }, t('tabs.downloadGif'))),
      h('p', {}, h('a', { id: 'share-png', href: `/api/games/${g.id}/png?ply=${ctx.shown()}${flip}`, download: `thaiboard-${g.id}-${ctx.shown()}.png` }, t('tabs.downloadPng'))),
      h('p', {}, t('tabs.fen'), fenBox, h('button', { id: 'share-copy', onclick: () => { fenBox.select(); navigator.clipboard?.writeText(fen).catch(() => {}); } }, t('common.copy'))),
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
    if (seq === renderSeq) show(nodes);
  }

  /**
   * Puts `nodes` in the panel. A redraw that would change nothing leaves the
   * panel as it is, so a click or a selection in progress there is not lost
   * to a redraw that replaces the element under the pointer (every update
   * of the game redraws the tabs). One that changes something keeps what
   * the user was typing into a box that is drawn again.
   */
  function show(nodes: Node[]): void {
    const next = document.createElement('div');
    next.append(...nodes);
    if (next.innerHTML === panel.innerHTML) return;
    const focused = document.activeElement;
    let refocus: HTMLInputElement | HTMLTextAreaElement | null = null;
    for (const old of panel.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('textarea[id], input[id]:not([type=checkbox])')) {
      const twin = next.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${CSS.escape(old.id)}`);
      if (!twin) continue;
      // Only typing is kept: a box the page filled shows what the page fills now.
      if (typedIn.has(old)) { twin.value = old.value; typedIn.add(twin); }
      if (old === focused) refocus = twin;
    }
    panel.replaceChildren(...next.childNodes);
    refocus?.focus();
  }

  loadComments().then(() => { ctx.onComments?.(); render(); });
  // A finished game's judgements, if it was analysed, mark the move list.
  if (game().status === 'finished') fetchAnalysis().catch(() => {});
  return {
    el,
    refresh: () => { render(); },
    commentsAt: (ply: number) => (hide ? [] : comments.filter(c => c.ply === ply)),
    /** The engine's judgement of the move that leads to position `index` (1: the first move), if costly. */
    judgementAt: (index: number) => {
      const p = analysis?.positions[index - 1];
      return p?.symbol && p.judgement ? { symbol: p.symbol, judgement: p.judgement } : null;
    },
    hideComments: () => hide,
  };
}
