// thaiboard web board: lobby, game page, my games.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key } from 'chessgroundx/types';
import * as api from './api';
import { analysisPage, analysisUrl } from './analysis-board';
import { makhosBoardFen } from './boardfen';
import { h } from './dom';
import { gameTabs } from './tabs';

const app = document.getElementById('app')!;
const topBar = document.getElementById('top')!;

const VARIANT_NAMES: Record<string, string> = { makruk: 'Makruk', cambodian: 'Ouk Chatrang', makhos: 'Mak-hot', test: 'Test' };

function describeTc(kind: string, initial: number, inc: number): string {
  if (kind === 'live') return `${+(initial / 60000).toFixed(2)}+${inc / 1000}`;
  if (kind === 'correspondence') return `${+(initial / 86400000).toFixed(2)} days +${+(inc / 86400000).toFixed(2)}`;
  return 'unlimited';
}

function renderHeader(): void {
  const me = api.me!;
  const err = h('span', { class: 'error', id: 'auth-error' });
  const right = h('div', { class: 'who' });
  if (me.guest) {
    const user = h('input', { name: 'username', placeholder: 'username', autocomplete: 'username' }) as HTMLInputElement;
    const pass = h('input', { name: 'password', type: 'password', placeholder: 'password', autocomplete: 'current-password' }) as HTMLInputElement;
    const go = async (fn: typeof api.login) => {
      try { await fn(user.value.trim(), pass.value); location.reload(); } catch (e) { err.textContent = (e as Error).message; }
    };
    right.append(h('span', {}, `Playing as ${me.username}`), user, pass,
      h('button', { id: 'login', onclick: () => go(api.login) }, 'Log in'),
      h('button', { id: 'register', onclick: () => go(api.register) }, 'Register'), err);
  } else {
    right.append(h('span', { id: 'username' }, `Signed in as ${me.username}`),
      h('button', { id: 'logout', onclick: async () => { await api.logout(); location.href = '/'; } }, 'Log out'));
  }
  topBar.replaceChildren(h('a', { href: '/' }, 'thaiboard'), h('a', { href: '/' }, 'Lobby'), h('a', { href: '/my-games' }, 'My games'), right);
}

// ---------------------------------------------------------------- lobby

/** The settings a new game needs (variant, rule option, colour, time control), as form fields. */
function gameSettings(defaultTc: string): { nodes: HTMLElement[]; body: () => Record<string, unknown> } {
  const sel = (name: string, options: [string, string][], value?: string) => {
    const el = h('select', { name }, ...options.map(([v, t]) => h('option', { value: v }, t))) as HTMLSelectElement;
    if (value) el.value = value;
    return el;
  };
  const variant = sel('variant', [['makruk', 'Makruk'], ['cambodian', 'Ouk Chatrang'], ['makhos', 'Mak-hot']]);
  const rules = sel('rules', [['default', 'default rules'], ['no-reverse', 'no-reverse (kings never turn straight back)']]);
  const color = sel('color', [['random', 'random colour'], ['white', 'white'], ['black', 'black']]);
  const kind = sel('tc', [['live', 'live'], ['correspondence', 'correspondence'], ['none', 'no clock']], defaultTc);
  const num = (name: string, value: string, step = '1') => h('input', { name, type: 'number', value, step, min: '0', style: 'width:5em' }) as HTMLInputElement;
  const minutes = num('minutes', '10', 'any'), increment = num('increment', '5', 'any');
  const days = num('days', '3', 'any'), incDays = num('increment_days', '1', 'any'), maxDays = num('max_days', '10', 'any');
  const live = h('span', { class: 'row' }, 'minutes', minutes, '+ seconds', increment);
  const corr = h('span', { class: 'row' }, 'days', days, '+ days per move', incDays, 'max days', maxDays);
  const sync = () => {
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
    return b;
  };
  return { nodes: [variant, rules, color, kind, live, corr], body };
}

function lobbyPage(): void {
  const err = h('div', { class: 'error', id: 'lobby-error' });
  const submit = (make: () => Promise<api.Game>) => async (ev: Event) => {
    ev.preventDefault();
    try { const g = await make(); location.href = `/game/${g.id}`; } catch (e) { err.textContent = (e as Error).message; }
  };
  const people = gameSettings('live');
  const opponent = h('input', { name: 'opponent', placeholder: 'opponent (optional)' }) as HTMLInputElement;
  const form = h('form', { class: 'row', id: 'create', onsubmit: submit(() => {
    const body = people.body();
    if (opponent.value.trim()) body.opponent = opponent.value.trim();
    return api.challenge(body);
  }) }, ...people.nodes, opponent, h('button', { class: 'primary', type: 'submit' }, 'Create game'));
  const computer = gameSettings('none');
  const level = h('select', { name: 'level' }, ...[1, 2, 3, 4, 5, 6, 7, 8].map(l => h('option', { value: String(l) }, `level ${l}`))) as HTMLSelectElement;
  level.value = '3';
  const engineForm = h('form', { class: 'row', id: 'engine', onsubmit: submit(() => api.engineGame({ ...computer.body(), level: +level.value })) },
    ...computer.nodes, level, h('button', { class: 'primary', type: 'submit' }, 'Play the computer'));
  const list = h('tbody');
  const live = h('span', { class: 'muted', id: 'lobby-live' });
  const show = (games: api.Summary[]) => {
    list.replaceChildren(...games.map(g => {
      const mine = g.creator === api.me!.username;
      const act = mine
        ? h('button', { class: 'cancel', onclick: async () => { await api.cancel(g.id).catch(e => err.textContent = e.message); if (!connected) refresh(); } }, 'Cancel')
        : h('button', { class: 'primary accept', onclick: async () => {
            try { await api.accept(g.id); location.href = `/game/${g.id}`; } catch (e) { err.textContent = (e as Error).message; }
          } }, 'Accept');
      return h('tr', { 'data-id': g.id }, h('td', {}, g.creator), h('td', {}, VARIANT_NAMES[g.variant] + (g.rules !== 'default' ? ` (${g.rules})` : '')),
        h('td', {}, describeTc(g.tc_kind, g.tc_initial_ms, g.tc_increment_ms)), h('td', {}, g.creator_color),
        h('td', {}, h('a', { href: `/game/${g.id}` }, 'view'), ' ', act));
    }));
    if (!games.length) list.append(h('tr', {}, h('td', { colspan: '5' }, 'No open challenges. Create one!')));
  };
  // The list comes live over the lobby socket; while it is down, it is fetched now and then.
  let connected = false;
  const refresh = async () => show(await api.lobby().catch(() => [] as api.Summary[]));
  new api.LobbySocket(show, ok => { connected = ok; live.textContent = ok ? '(live)' : '(reconnecting…)'; });
  setInterval(() => { if (!connected) refresh(); }, 5000);
  app.replaceChildren(
    h('div', { class: 'panel' }, h('h2', {}, 'Play the computer'), engineForm),
    h('div', { class: 'panel' }, h('h2', {}, 'New game'), api.me!.guest ? h('p', {}, 'Register or log in (top right) to play other players.') : null, form, err),
    h('div', { class: 'panel' }, h('h2', {}, 'Open challenges ', live), h('table', { id: 'lobby' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Game'), h('th', {}, 'Time'), h('th', {}, 'Their colour'), h('th', {}, ''))), list)));
}

// ---------------------------------------------------------------- my games

async function myGamesPage(): Promise<void> {
  const [games, tags] = await Promise.all([api.myGames(), api.call<{ games: Record<string, string[]>; tags: Record<string, number> }>('GET', '/api/tags')]);
  let filter = new URLSearchParams(location.search).get('tag') ?? '';
  const body = h('tbody', {});
  const row = (g: api.Summary) => h('tr', { class: g.your_move ? 'your-move' : '' },
    h('td', {}, h('a', { href: `/game/${g.id}` }, `${g.white ?? '?'} – ${g.black ?? '?'}`)),
    h('td', {}, VARIANT_NAMES[g.variant] ?? g.variant), h('td', {}, describeTc(g.tc_kind, g.tc_initial_ms, g.tc_increment_ms)),
    h('td', {}, g.status === 'ongoing' ? (g.your_move ? 'Your move' : 'Their move') : g.status === 'open' ? 'Waiting for an opponent' : `${g.result ?? ''} ${g.reason ?? ''}`),
    h('td', {}, String(Math.ceil(g.ply / 2))),
    h('td', { class: 'tags' }, (tags.games[g.id] ?? []).join(', ')));
  const show = () => body.replaceChildren(...games.filter(g => !filter || (tags.games[g.id] ?? []).includes(filter)).map(row));
  const select = h('select', { id: 'tag-filter', onchange: (ev: Event) => {
    filter = (ev.target as HTMLSelectElement).value;
    history.replaceState(null, '', filter ? `/my-games?tag=${encodeURIComponent(filter)}` : '/my-games');
    show();
  } }, h('option', { value: '' }, 'all games'), ...Object.entries(tags.tags).map(([t, n]) => h('option', { value: t, selected: t === filter }, `${t} (${n})`))) as HTMLSelectElement;
  show();
  app.replaceChildren(h('div', { class: 'panel' }, h('h2', {}, 'My games'),
    h('div', { class: 'row' }, h('label', {}, 'Tag: ', select),
      h('button', { id: 'next-game', onclick: async () => {
        const n = await api.call<{ id: string | null }>('GET', '/api/next-game');
        if (n.id) location.href = `/game/${n.id}`;
      } }, 'Next game where it is my move')),
    games.length ? h('table', { id: 'my-games' }, h('thead', {}, h('tr', {}, h('th', {}, 'Players'), h('th', {}, 'Game'), h('th', {}, 'Time'), h('th', {}, 'State'), h('th', {}, 'Moves'), h('th', {}, 'Tags'))),
      body) : h('p', {}, 'No games yet.')));
}

// ---------------------------------------------------------------- game page

interface Ply { fen: string; san: string; last: string[]; turn: 'white' | 'black' }

function fmtClock(ms: number, kind: string): string {
  ms = Math.max(0, ms);
  if (kind === 'correspondence') {
    const d = Math.floor(ms / 86400000), hh = Math.floor((ms % 86400000) / 3600000), mm = Math.floor((ms % 3600000) / 60000);
    return d > 0 ? `${d}d ${hh}h` : `${hh}h ${String(mm).padStart(2, '0')}m`;
  }
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const base = m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}` : `${m}:${String(s % 60).padStart(2, '0')}`;
  return ms < 10000 ? `${base}.${Math.floor((ms % 1000) / 100)}` : base;
}

async function gamePage(id: string): Promise<void> {
  let game = await api.getGame(id);
  let actions: api.Action[] = game.actions ?? [];
  let received = Date.now();
  const colorOf = (): 'white' | 'black' | null =>
    game.white?.id === api.me!.id ? 'white' : game.black?.id === api.me!.id ? 'black' : null;
  let myColor = colorOf();
  let orientation: 'white' | 'black' = myColor ?? (game.creator.id === api.me!.id && game.creator_color === 'black' ? 'black' : 'white');
  let view = -1; // index into plies; -1 follows the latest
  let animTimer: number | undefined;
  const isMakhos = game.variant === 'makhos';
  const toBoard = (fen: string) => (isMakhos ? makhosBoardFen(fen) : fen);

  const boardEl = h('div', { class: 'cg-wrap', id: 'board' });
  const wrapper = h('div', { class: `board-col ${isMakhos ? 'makhos' : 'makruk'}` });
  const topPlayer = h('div', { class: 'player' }), bottomPlayer = h('div', { class: 'player' });
  wrapper.append(topPlayer, boardEl, h('div', { style: 'height:18px' }), bottomPlayer);
  const status = h('div', { class: 'status', id: 'status' });
  const countBox = h('div', { class: 'count', id: 'count' });
  const movesEl = h('div', { class: 'moves', id: 'moves' });
  const err = h('div', { class: 'error', id: 'game-error' });
  const chooser = h('div', { class: 'chooser' });
  const input = h('input', { id: 'move-input', placeholder: isMakhos ? 'move, e.g. c3-d4 or c3xe5xc7' : 'move, e.g. e4 or e3e4', autocomplete: 'off' }) as HTMLInputElement;
  const fenBox = h('input', { class: 'fen', id: 'fen', readonly: true }) as HTMLInputElement;
  const controls = h('div', { class: 'row', id: 'controls' });
  const conn = h('span', { class: 'muted', id: 'conn' });

  const plies = (): Ply[] => {
    const start: Ply = { fen: game.start_fen, san: '', last: [], turn: 'white' };
    const list = [start];
    for (const a of actions) {
      if (a.kind !== 'move') { list[list.length - 1] = { ...list[list.length - 1], fen: a.fen }; continue; }
      const last = isMakhos ? a.uci.match(/../g) ?? [] : [a.uci.slice(0, 2), a.uci.slice(2, 4)];
      list.push({ fen: a.fen, san: a.san, last, turn: list.length % 2 === 1 ? 'black' : 'white' });
    }
    return list;
  };
  const shownIndex = () => (view < 0 ? plies().length - 1 : view);
  const atLatest = () => shownIndex() === plies().length - 1;

  const cg: Api = Chessground(boardEl, {
    dimensions: { width: 8, height: 8 },
    orientation,
    coordinates: true,
    kingRoles: isMakhos ? [] : ['k-piece'],
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 200 },
    draggable: { enabled: true, showGhost: true },
    selectable: { enabled: true },
    premovable: { enabled: false },
    movable: { free: false, showDests: true, events: { after: (orig: Key, dest: Key) => onBoardMove(orig, dest) } },
  });

  // Mak-hot captures are entered square by square: the squares clicked so far.
  let stepPath: string[] = [];
  const lastSq = (m: api.LegalMove) => m.path[m.path.length - 1];
  const following = (prefix: string[]) => game.legal.filter(m => prefix.every((sq, i) => m.path[i] === sq));

  function dests(): Map<Key, Key[]> {
    const map = new Map<Key, Key[]>();
    const add = (from: string, to: string) => {
      const list = map.get(from as Key) ?? [];
      if (!list.includes(to as Key)) list.push(to as Key);
      map.set(from as Key, list);
    };
    if (isMakhos) {
      // The next landing square of each move, and its final square (dropping there plays it whole).
      const n = Math.max(stepPath.length, 1);
      for (const m of following(stepPath)) if (m.path.length > n) { add(m.path[n - 1], m.path[n]); add(m.path[n - 1], lastSq(m)); }
      return map;
    }
    for (const m of game.legal) {
      const from = (isMakhos ? m.path[0] : m.uci.slice(0, 2)) as Key;
      const to = (isMakhos ? m.path[m.path.length - 1] : m.uci.slice(2, 4)) as Key;
      const list = map.get(from) ?? [];
      if (!list.includes(to)) list.push(to);
      map.set(from, list);
    }
    return map;
  }

  function myTurn(): boolean { return game.status === 'ongoing' && myColor === game.turn; }

  function drawBoard(): void {
    stepPath = [];
    const list = plies();
    const p = list[shownIndex()];
    const canMove = myTurn() && atLatest();
    const checked = !isMakhos && /[+#]$/.test(p.san);
    cg.set({
      fen: toBoard(p.fen),
      orientation,
      turnColor: shownIndex() % 2 === 0 ? 'white' : 'black',
      lastMove: p.last as Key[],
      check: checked ? (shownIndex() % 2 === 0 ? 'white' : 'black') : false,
      movable: { color: canMove ? myColor! : undefined, dests: canMove ? dests() : new Map() },
    });
    fenBox.value = p.fen;
  }

  async function sendMove(text: string): Promise<void> {
    chooser.replaceChildren();
    err.textContent = '';
    const reply = await socket.send({ type: 'move', move: text, ply: game.ply });
    if (reply.type !== 'ack') { err.textContent = reply.message ?? 'move refused'; drawBoard(); }
  }

  function chooseAmong(moves: api.LegalMove[]): void {
    chooser.replaceChildren('Which capture? ', ...moves.map(m => h('button', { onclick: () => sendMove(m.uci) }, m.san)));
  }

  /** A Mak-hot board move: one step of a capture path, or a whole move dropped on its final square. */
  function onMakhosStep(orig: string, dest: string): void {
    const prefix = stepPath.length ? stepPath : [orig];
    const next = [...prefix, dest];
    const stepping = following(next);
    if (stepping.length === 1) { sendMove(stepping[0].uci); return; }
    const complete = stepping.filter(m => m.path.length === next.length);
    if (stepping.length > 0 && complete.length === stepping.length) { chooseAmong(complete); return; }
    if (stepping.length > 0) {
      // Several ways go on from here: show the next landing squares and wait for the next click.
      stepPath = next;
      cg.set({ turnColor: myColor!, movable: { color: myColor!, dests: dests() } });
      cg.selectSquare(dest as Key);
      chooser.replaceChildren(h('span', { id: 'capture-path' }, `Capture ${next.join('x')}: click the next landing square`), ' ',
        ...complete.map(m => h('button', { onclick: () => sendMove(m.uci) }, `stop: ${m.san}`)),
        h('button', { id: 'capture-cancel', onclick: () => { chooser.replaceChildren(); drawBoard(); } }, 'cancel'));
      return;
    }
    const ending = following(prefix).filter(m => lastSq(m) === dest);
    if (ending.length === 1) sendMove(ending[0].uci);
    else if (ending.length) chooseAmong(ending);
    else { chooser.replaceChildren(); drawBoard(); }
  }

  function onBoardMove(orig: string, dest: string): void {
    if (isMakhos) { onMakhosStep(orig, dest); return; }
    const cands = game.legal.filter(m => isMakhos
      ? m.path[0] === orig && m.path[m.path.length - 1] === dest
      : m.uci.slice(0, 2) === orig && m.uci.slice(2, 4) === dest);
    if (cands.length === 1) { sendMove(cands[0].uci); return; }
    if (!cands.length) { drawBoard(); return; }
    // Several captures end on the same square: let the player pick the path.
    chooser.replaceChildren('Which capture? ', ...cands.map(m => h('button', { onclick: () => sendMove(m.uci) }, m.san)));
  }

  function renderMoves(): void {
    const list = plies();
    const cur = shownIndex();
    const cells: HTMLElement[] = tabs.commentsAt(0).map(c => h('div', { class: `note comment${c.private ? ' private' : ''}` }, `${c.private ? 'note' : c.author}: ${c.text}`));
    let ply = 0;
    for (const a of actions) {
      if (a.kind !== 'move') { cells.push(h('div', { class: 'note' }, a.san)); continue; }
      ply++;
      if (ply % 2 === 1) cells.push(h('div', {}, `${(ply + 1) / 2}.`));
      const idx = ply;
      cells.push(h('div', { class: `mv${idx === cur ? ' current' : ''}`, 'data-ply': String(idx), onclick: () => go(idx) }, a.san));
      for (const c of tabs.commentsAt(idx)) cells.push(h('div', { class: `note comment${c.private ? ' private' : ''}` }, `${c.private ? 'note' : c.author}: ${c.text}`));
    }
    movesEl.replaceChildren(...cells);
    const curEl = movesEl.querySelector('.current');
    if (curEl && atLatest()) (curEl as HTMLElement).scrollIntoView({ block: 'nearest' });
    void list;
  }

  function go(idx: number): void {
    const n = plies().length - 1;
    idx = Math.max(0, Math.min(n, idx));
    view = idx === n ? -1 : idx;
    drawBoard(); renderMoves(); tabs.refresh();
  }

  function stopAnim(): void { if (animTimer !== undefined) { clearInterval(animTimer); animTimer = undefined; } renderControls(); }
  function animate(): void {
    if (animTimer !== undefined) { stopAnim(); return; }
    go(0);
    animTimer = window.setInterval(() => { if (atLatest()) stopAnim(); else go(shownIndex() + 1); }, 700);
    renderControls();
  }

  function playerBar(color: 'white' | 'black'): HTMLElement[] {
    const p = color === 'white' ? game.white : game.black;
    const clock = h('span', { class: 'clock', id: `clock-${color}` });
    return [h('span', {}, `${color === 'white' ? '○' : '●'} ${p?.username ?? '(waiting)'}`), game.time_control.kind === 'none' ? h('span') : clock];
  }

  function timeLeft(color: 'white' | 'black'): number {
    const ms = color === 'white' ? game.clock.white_ms : game.clock.black_ms;
    return game.clock.running === color ? ms - (Date.now() - received) : ms;
  }

  let claimShown = false;
  function tickClocks(): void {
    // The opponent's time ran out and the server has not ended the game yet: offer the claim.
    const other = myColor === 'white' ? 'black' : 'white';
    const claimable = game.status === 'ongoing' && !!myColor && game.clock.running === other && timeLeft(other) <= 0;
    if (claimable !== claimShown) { claimShown = claimable; renderControls(); }
    for (const color of ['white', 'black'] as const) {
      const el = document.getElementById(`clock-${color}`);
      if (!el) continue;
      const ms = timeLeft(color);
      const running = game.clock.running === color;
      el.textContent = fmtClock(ms, game.time_control.kind);
      el.classList.toggle('running', running);
      el.classList.toggle('low', running && ms < 10000 && game.time_control.kind === 'live');
    }
  }

  function renderPlayers(): void {
    const bottom = orientation, top = bottom === 'white' ? 'black' : 'white';
    topPlayer.replaceChildren(...playerBar(top));
    bottomPlayer.replaceChildren(...playerBar(bottom));
    tickClocks();
  }

  function renderStatus(): void {
    const reasonText: Record<string, string> = {
      checkmate: 'checkmate', stalemate: 'stalemate', counting: 'the count ran out', insufficient_material: 'only the kings are left',
      resign: 'resignation', agreement: 'agreement', timeout: 'time', timeout_vs_insufficient_material: 'time, but the opponent cannot win',
      no_moves: 'no moves left', repetition: 'threefold repetition', kings: 'one king each', no_progress: '16 moves without progress', last_stone: 'last stone',
    };
    if (game.status === 'finished') {
      status.replaceChildren(h('span', { class: 'result', id: 'result' }, `${game.result} — ${reasonText[game.reason ?? ''] ?? game.reason}`));
    } else if (game.status === 'open') {
      status.textContent = 'Waiting for an opponent to accept this challenge.';
    } else if (game.status === 'aborted') {
      status.replaceChildren(h('span', { class: 'result', id: 'result' }, 'Game aborted (no result)'));
    } else if (game.status === 'cancelled') {
      status.textContent = 'This challenge was withdrawn.';
    } else {
      const toMove = game.turn === 'white' ? game.white : game.black;
      const computer = !!toMove && /^engine[1-8]$/.test(toMove.id);
      status.textContent = myColor ? (myTurn() ? 'Your move' : computer ? "Opponent's move: the computer is thinking…" : "Opponent's move") : `${game.turn} to move`;
    }
    if (game.count) {
      const c = game.count;
      const who = c.side ? `${c.side} counts` : 'count';
      countBox.textContent = `${who} (${c.kind === 'board' ? "board's honour" : "pieces' honour"}): ${c.ply} of ${c.limit} plies`;
      countBox.style.display = '';
    } else countBox.style.display = 'none';
  }

  function renderControls(): void {
    const b = (label: string, id: string, fn: () => void, primary = false) => h('button', { id, class: primary ? 'primary' : '', onclick: fn }, label);
    const act = async (cmd: Record<string, unknown>) => {
      err.textContent = '';
      const r = await socket.send(cmd);
      if (r.type !== 'ack') err.textContent = r.message ?? 'refused';
    };
    const nav = h('div', { class: 'row nav' },
      b('|<', 'nav-start', () => go(0)), b('<', 'nav-back', () => go(shownIndex() - 1)),
      b('>', 'nav-forward', () => go(shownIndex() + 1)), b('>|', 'nav-end', () => go(plies().length - 1)),
      b('flip', 'flip', () => { orientation = orientation === 'white' ? 'black' : 'white'; renderPlayers(); drawBoard(); }),
      b(animTimer !== undefined ? 'stop' : 'animate', 'animate', animate));
    const items: (HTMLElement | null)[] = [];
    if (game.status === 'open' && game.creator.id !== api.me!.id && !api.me!.guest)
      items.push(b('Accept challenge', 'accept', async () => { try { onGame(await api.accept(id), null, true); } catch (e) { err.textContent = (e as Error).message; } }, true));
    if (game.status === 'ongoing' && myColor) {
      const other = myColor === 'white' ? 'black' : 'white';
      if (game.ply < 2) items.push(b('Abort game', 'abort', () => act({ type: 'abort' })));
      else items.push(b('Resign', 'resign', () => { if (confirm('Resign this game?')) act({ type: 'resign' }); }));
      if (game.clock.running === other && timeLeft(other) <= 0) items.push(b('Claim win on time', 'claim', () => act({ type: 'claim' }), true));
      if (game.draw_offer === other) {
        items.push(h('span', {}, 'Your opponent offers a draw:'), b('Accept draw', 'draw-accept', () => act({ type: 'draw', action: 'accept' }), true),
          b('Decline', 'draw-decline', () => act({ type: 'draw', action: 'decline' })));
      } else if (game.draw_offer === myColor) items.push(h('span', {}, 'Draw offered'));
      else items.push(b('Offer draw', 'draw-offer', () => act({ type: 'draw', action: 'offer' })));
      if (game.can_start_count.includes(myColor)) items.push(b("Start counting (board's honour)", 'count-start', () => act({ type: 'count', action: 'start' })));
      if (game.can_stop_count.includes(myColor)) items.push(b('Stop counting', 'count-stop', () => act({ type: 'count', action: 'stop' })));
    }
    controls.replaceChildren(nav, ...items.filter((x): x is HTMLElement => !!x));
  }

  function renderAll(): void { renderPlayers(); renderStatus(); renderControls(); renderMoves(); drawBoard(); tabs.refresh(); }

  const onGame = (g: api.Game, action: api.Action | null, full: boolean) => {
    received = Date.now();
    if (full) actions = g.actions ?? [];
    else if (action && !actions.some(a => a.seq === action.seq)) actions.push(action);
    const moves = actions.filter(a => a.kind === 'move').length;
    game = { ...g, actions };
    const before = myColor;
    myColor = colorOf();
    if (!before && myColor) orientation = myColor;
    if (moves !== g.ply) { api.getGame(id).then(fresh => onGame(fresh, null, true)); return; }
    renderAll();
  };
  const tabs = gameTabs({ game: () => game, actions: () => actions, plies, shown: shownIndex, goTo: go, flipped: () => orientation === 'black', onComments: () => renderMoves() });
  const socket = new api.GameSocket(id, onGame, s => { conn.textContent = s; });

  const typed = (ev: Event) => { ev.preventDefault(); const t = input.value.trim(); if (t) { sendMove(t); input.value = ''; } };
  app.replaceChildren(h('div', { class: 'game' }, wrapper,
    h('div', { class: 'side-col' },
      h('div', { class: 'panel' },
        h('div', {}, `${VARIANT_NAMES[game.variant] ?? game.variant}${game.rules !== 'default' ? ` (${game.rules})` : ''} · ${describeTc(game.time_control.kind, game.time_control.initial_ms, game.time_control.increment_ms)} · `, conn),
        status, countBox, controls, chooser, err,
        h('form', { class: 'row', id: 'move-form', onsubmit: typed }, input, h('button', { type: 'submit' }, 'Play'))),
      h('div', { class: 'panel' }, movesEl),
      h('div', { class: 'panel' }, h('div', { class: 'row' },
        h('a', { href: `/api/games/${id}/pgn`, download: `thaiboard-${id}.${isMakhos ? 'pdn' : 'pgn'}`, id: 'export-pgn' }, isMakhos ? 'Download PDN' : 'Download PGN'),
        h('button', { id: 'copy-fen', onclick: () => { fenBox.select(); navigator.clipboard?.writeText(fenBox.value); } }, isMakhos ? 'Copy position' : 'Copy FEN'),
        h('a', { id: 'open-analysis', href: '#', onclick: (ev: Event) => { ev.preventDefault(); location.href = analysisUrl(game.variant, game.rules, plies()[shownIndex()].fen); } }, 'Analysis board'),
        h('button', { id: 'next-game', onclick: async () => {
          const n = await api.call<{ id: string | null }>('GET', `/api/next-game?after=${id}`);
          if (n.id) location.href = `/game/${n.id}`; else err.textContent = 'No other game waits for your move.';
        } }, 'Next game')),
        fenBox),
      h('div', { class: 'panel' }, tabs.el))));
  renderAll();
  setInterval(tickClocks, 100);
  document.addEventListener('keydown', ev => {
    if (document.activeElement === input) return;
    if (ev.key === 'ArrowLeft') go(shownIndex() - 1);
    if (ev.key === 'ArrowRight') go(shownIndex() + 1);
  });
}

// ---------------------------------------------------------------- start

async function main(): Promise<void> {
  try {
    await api.loadSession();
  } catch (e) {
    app.textContent = `Cannot reach the server: ${(e as Error).message}`;
    return;
  }
  renderHeader();
  const path = location.pathname;
  const m = path.match(/^\/game\/([A-Za-z0-9]+)$/);
  try {
    if (m) await gamePage(m[1]);
    else if (path === '/my-games') await myGamesPage();
    else if (path === '/analysis') await analysisPage(app);
    else lobbyPage();
  } catch (e) {
    app.replaceChildren(h('div', { class: 'error' }, (e as Error).message));
  }
}

main();
