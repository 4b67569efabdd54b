// In-page notifications for a logged-in player, on every page: a challenge
// made to them, a correspondence game waiting for their move, the end of
// one. They come over /api/notifications/ws and show for a while in the
// corner, each a link to its game (not for the game already on the screen).
import * as api from './api';
import { h } from './dom';
import { t, tMaybe } from './i18n';
import { describeTc } from './labels';

interface Note {
  type: 'notify'; kind: 'challenge' | 'your_turn' | 'game_over'; game: string; text: string;
  /** A challenge's parts, said in the reader's language. */
  from?: string; variant?: string; time_control?: { kind: string; initial_ms: number; increment_ms: number };
}

/** How long a note stays, ms. */
const SHOWN_MS = 12000;

/** A note's words: a challenge says who, which game (its name) and the time control. */
function text(n: Note): string {
  if (n.kind !== 'challenge' || !n.from || !n.variant || !n.time_control) return n.text;
  const tc = n.time_control;
  return t('notify.challengeText', { who: n.from, variant: tMaybe(`variant.${n.variant}`, n.variant), tc: describeTc(tc.kind, tc.initial_ms, tc.increment_ms) });
}

/** Opens the notifications socket (again after a drop) and shows what it sends. */
export function startNotifications(): void {
  if (!api.me || api.me.guest) return;
  const box = h('div', { id: 'notifications', role: 'status', 'aria-live': 'polite' });
  document.body.append(box);
  const show = (n: Note) => {
    if (location.pathname === `/game/${n.game}` && n.kind !== 'challenge') return;
    const title = t(n.kind === 'challenge' ? 'notify.challenge' : n.kind === 'your_turn' ? 'notify.yourTurn' : 'notify.gameOver');
    const close = h('button', { class: 'note-close', 'aria-label': t('notify.close'), onclick: () => el.remove() }, '×');
    const el = h('div', { class: `note-item ${n.kind}`, 'data-kind': n.kind },
      h('a', { href: `/game/${n.game}` }, h('b', {}, title), ' ', text(n)), close);
    box.append(el);
    setTimeout(() => el.remove(), SHOWN_MS);
  };
  const open = () => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/notifications/ws`);
    ws.onmessage = ev => { try { const n = JSON.parse(ev.data) as Note; if (n.type === 'notify') show(n); } catch { /* not ours */ } };
    ws.onclose = () => setTimeout(open, 3000);
  };
  open();
}
