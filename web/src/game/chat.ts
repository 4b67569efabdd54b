// The game page's chat: the players' room for the players, the spectators'
// room for everyone else (and for the players once the game is over). Lines
// arrive over the game socket and are shown as text, never as HTML. A mute
// (remembered in this browser) hides the chat; any line can be reported.
import * as api from '../api';
import { h } from '../dom';
import { t } from '../i18n';
import type { GameState } from './state';

type Room = 'player' | 'spectator';
interface ChatView { rooms: { room: Room; lines: api.ChatLine[] }[]; writes: Room | null }

/** Longest line, as the server allows. */
const MAX_CHARS = 140;
const MUTE_KEY = 'thaiboard.chatMuted';

export type GameChat = ReturnType<typeof gameChat>;

export function gameChat(state: GameState) {
  const lines = h('div', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite' });
  const input = h('input', { id: 'chat-input', maxlength: String(MAX_CHARS), autocomplete: 'off', placeholder: t('chat.placeholder') }) as HTMLInputElement;
  const err = h('div', { class: 'error', id: 'chat-error' });
  const mute = h('input', { type: 'checkbox', id: 'chat-mute' }) as HTMLInputElement;
  mute.checked = localStorage.getItem(MUTE_KEY) === '1';
  const title = h('span', { id: 'chat-title' }, t('chat.title'));
  const form = h('form', { class: 'row chat-form', onsubmit: (ev: Event) => { ev.preventDefault(); send(); } },
    input, h('button', { type: 'submit', id: 'chat-send' }, t('chat.send')));
  const body = h('div', { class: 'chat-body' }, lines, form, err);
  const el = h('div', { class: 'panel chat', id: 'chat' },
    h('div', { class: 'row chat-head' }, title, h('label', { class: 'muted' }, mute, ' ', t('chat.mute'))), body);
  let view: ChatView = { rooms: [], writes: null };

  function lineEl(line: api.ChatLine): HTMLElement {
    const report = h('button', { class: 'chat-report', title: t('chat.report'), 'aria-label': t('chat.report'), onclick: async () => {
      const reason = prompt(t('chat.reportWhy'));
      if (reason === null) return;
      try { await api.call('POST', `/api/games/${state.id}/chat/${line.seq}/report`, { reason }); report.textContent = '✓'; report.setAttribute('disabled', ''); }
      catch (e) { err.textContent = (e as Error).message; }
    } }, '⚑');
    const room = view.rooms.length > 1 ? h('span', { class: 'muted chat-room' }, t(line.room === 'player' ? 'chat.roomPlayers' : 'chat.roomSpectators')) : null;
    // textContent only: a line is text, whatever it holds.
    return h('div', { class: 'chat-line', 'data-seq': String(line.seq) }, room, h('b', {}, line.username), ' ', h('span', { class: 'chat-text' }, line.text), ' ', state.me.guest ? null : report);
  }

  function render(): void {
    const muted = mute.checked;
    body.style.display = muted ? 'none' : '';
    const all = view.rooms.flatMap(r => r.lines).sort((a, b) => a.at - b.at || a.seq - b.seq);
    lines.replaceChildren(...all.map(lineEl));
    lines.scrollTop = lines.scrollHeight;
    form.style.display = view.writes ? '' : 'none';
    title.textContent = view.rooms.length === 1 && view.rooms[0].room === 'spectator' ? t('chat.spectators') : t('chat.title');
  }

  async function load(): Promise<void> {
    try { view = await api.call<ChatView>('GET', `/api/games/${state.id}/chat`); } catch { view = { rooms: [], writes: null }; }
    render();
  }

  async function send(): Promise<void> {
    const text = input.value.trim();
    if (!text || !view.writes) return;
    err.textContent = '';
    try {
      await api.call('POST', `/api/games/${state.id}/chat`, { room: view.writes, text });
      input.value = '';
    } catch (e) { err.textContent = (e as Error).message; }
  }

  mute.addEventListener('change', () => { localStorage.setItem(MUTE_KEY, mute.checked ? '1' : '0'); render(); });

  return {
    el,
    load,
    /** A line arrived over the socket. */
    received(line: api.ChatLine): void {
      const room = view.rooms.find(r => r.room === line.room);
      if (!room || room.lines.some(l => l.seq === line.seq)) return;
      room.lines.push(line);
      render();
    },
    /** The game's status changed: who reads and writes what may have too. */
    statusChanged(): void { load(); },
  };
}
