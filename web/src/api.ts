// The server's JSON API and the game WebSocket.
import { t } from './i18n';

// The types the server sends, generated from its Rust types (api-types.ts).
import type { Action, ClockView, CountView, GameSummary, GameView, LegalMove, PlayerView, ThaiText, TimeControl, User } from './api-types';
export type { Action, LegalMove, ThaiText, TimeControl, User };
export type Game = GameView;
export type Player = PlayerView;
export type Clock = ClockView;
export type CountInfo = CountView;
export type Summary = GameSummary;
export interface ApiError { error: string; message: string }

let csrf = '';
/** The session's CSRF token (for requests made outside `call`, such as a `keepalive` one as the page closes). */
export const csrfToken = (): string => csrf;
export let me: User | null = null;

export class RequestError extends Error {
  constructor(public status: number, public body: ApiError) { super(body.message || body.error); }
}

/** A fresh `Idempotency-Key`: random hex (crypto.randomUUID needs a secure context). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map(b => b.toString(16).padStart(2, '0')).join('');
}

/** Paths a visitor without a session may POST to (they make the session). */
const SESSIONLESS = ['/api/login', '/api/register'];

/**
 * The one request helper. A state-changing request of a visitor who has no
 * session yet first makes one (a guest: reading the site makes none). Every
 * POST carries an `Idempotency-Key`; if its answer is lost on the way (the
 * network failed), it is sent once more with the same key, and the server
 * answers what it answered the first time instead of doing it twice.
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  if (method !== 'GET' && !csrf && !SESSIONLESS.includes(path)) await ensureSession();
  const headers: Record<string, string> = {};
  if (method !== 'GET') { headers['x-csrf-token'] = csrf; headers['content-type'] = 'application/json'; }
  if (method === 'POST') headers['idempotency-key'] = newIdempotencyKey();
  const init: RequestInit = { method, headers, body: method === 'GET' ? undefined : JSON.stringify(body ?? {}), credentials: 'same-origin' };
  let resp: Response;
  try { resp = await fetch(path, init); } catch (e) {
    if (method !== 'POST') throw e;
    await new Promise(r => setTimeout(r, 500));
    resp = await fetch(path, init);
  }
  const text = await resp.text();
  let data: any;
  try { data = JSON.parse(text); } catch { data = { error: 'http_' + resp.status, message: text }; }
  if (!resp.ok) throw new RequestError(resp.status, data);
  return data as T;
}

/** The visitor who has no session: no id, no name, treated as a guest. */
const VISITOR: User = { id: '', username: '', guest: true };

/** Whether this page's reader has a session (a guest's or an account's). */
export const hasSession = () => me !== null && me.id !== '';

/** Reads the session, if the browser has one; makes none (a visitor who only reads needs none). */
export async function loadSession(): Promise<User> {
  const s = await call<{ user: User | null; csrf: string | null }>('GET', '/api/session?guest=no');
  csrf = s.csrf ?? ''; me = s.user ?? VISITOR;
  return me;
}

/**
 * Makes this visitor's guest session, on the first action that needs one.
 * When the address's guest budget is spent, the error says to log in or
 * register, and the login form opens.
 */
export async function ensureSession(): Promise<void> {
  if (csrf) return;
  try {
    const s = await call<{ user: User; csrf: string }>('GET', '/api/session');
    csrf = s.csrf; me = s.user;
  } catch (e) {
    if (e instanceof RequestError && e.body.error === 'too_many_guests') {
      document.getElementById('login-box')?.setAttribute('open', '');
      throw new RequestError(e.status, { error: e.body.error, message: t('common.guestBudget') });
    }
    throw e;
  }
}

async function authCall(path: string, username: string, password: string, totp?: string): Promise<User> {
  const s = await call<{ user: User; csrf: string }>('POST', path, totp ? { username, password, totp } : { username, password });
  csrf = s.csrf; me = s.user;
  return s.user;
}
export const register = (u: string, p: string) => authCall('/api/register', u, p);
/** Logs in; `totp`: the two-factor code, for an account that has it. */
export const login = (u: string, p: string, totp?: string) => authCall('/api/login', u, p, totp);
export async function logout(): Promise<void> { await call('POST', '/api/logout'); await loadSession(); }
export const lobby = () => call<Summary[]>('GET', '/api/lobby');
export const myGames = () => call<Summary[]>('GET', '/api/my-games');
export const getGame = (id: string) => call<Game>('GET', `/api/games/${id}`);
export const challenge = (body: unknown) => call<Game>('POST', '/api/challenges', body);
export const accept = (id: string) => call<Game>('POST', `/api/games/${id}/accept`);
export const cancel = (id: string) => call<unknown>('POST', `/api/games/${id}/cancel`);
export const engineGame = (body: unknown) => call<Game>('POST', '/api/engine-games', body);

/** The live lobby: calls `onList` with the open challenges on connect and after every change. */
export class LobbySocket {
  private ws!: WebSocket;
  private closed = false;
  constructor(private onList: (games: Summary[]) => void, private onStatus: (connected: boolean) => void) { this.open(); }
  private open() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.ws = new WebSocket(`${proto}//${location.host}/api/lobby/ws`);
    this.ws.onopen = () => this.onStatus(true);
    this.ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === 'lobby') this.onList(msg.games);
    };
    this.ws.onclose = () => { this.onStatus(false); if (!this.closed) setTimeout(() => this.open(), 2000); };
  }
  close() { this.closed = true; this.ws.close(); }
}

/** The live connection to one game. */
/** A chat line of a game, as the server sends it. */
export interface ChatLine { seq: number; username: string; room: 'player' | 'spectator'; text: string; at: number }

export class GameSocket {
  /** Called with each chat line that arrives (set by the chat panel). */
  onChat: (line: ChatLine) => void = () => {};
  /** Called with the game's spectator count when it connects and whenever it changes. */
  onSpectators: (count: number) => void = () => {};
  private ws!: WebSocket;
  private nextId = 1;
  private pending = new Map<number, (reply: any) => void>();
  private closed = false;
  constructor(private id: string, private onGame: (g: Game, action: Action | null, full: boolean) => void, private onStatus: (s: string) => void) {
    this.open();
  }
  private open() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.ws = new WebSocket(`${proto}//${location.host}/api/games/${this.id}/ws`);
    this.ws.onopen = () => this.onStatus(t('game.connected'));
    this.ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === 'snapshot') this.onGame(msg.game, null, true);
      else if (msg.type === 'update') this.onGame(msg.game, msg.action ?? null, false);
      else if (msg.type === 'chat') this.onChat(msg.line);
      else if (msg.type === 'spectators') this.onSpectators(msg.count);
      else if ((msg.type === 'ack' || msg.type === 'error' || msg.type === 'pong') && this.pending.has(msg.id)) {
        this.pending.get(msg.id)!(msg);
        this.pending.delete(msg.id);
      } else if (msg.type === 'error') this.onStatus(msg.message);
    };
    this.ws.onclose = () => {
      this.onStatus(t('game.reconnecting'));
      for (const cb of this.pending.values()) cb({ type: 'error', error: 'disconnected', message: t('game.connectionLost') });
      this.pending.clear();
      if (!this.closed) setTimeout(() => this.open(), this.soon ? 0 : 1000);
      this.soon = false;
    };
  }
  private soon = false;
  /** Connects again at once (what the server sends this viewer, such as its chat rooms, is decided on connecting). */
  reconnect() { this.soon = true; this.ws.close(); }
  /** Sends a command; resolves with the server's ack or error. */
  send(cmd: Record<string, unknown>): Promise<{ type: string; error?: string; message?: string }> {
    const id = this.nextId++;
    return new Promise(resolve => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ ...cmd, id }));
    });
  }
  close() { this.closed = true; this.ws.close(); }
}
