// thaiboard web board: the entry point. Loads the session, draws the top bar
// and the page the address names:
//
//   /                   lobby.ts
//   /game/{id}          game/page.ts
//   /my-games           my-games.ts
//   /analysis           analysis-board.ts
//   /editor             editor.ts (the board editor)
//   /tournaments[/{id}] tournaments.ts
//   /@/{name}           players.ts (a player's page)
//   /leaderboard        players.ts (the leaderboards)
//   /tv[/{variant}]     social.ts (TV: the highest-rated game in progress)
//   /account            account.ts
//   /reset-password     account-security.ts (the mailed link's page)
//   /settings           settings-page.ts (settings.ts keeps them, sounds.ts plays)
//   /puzzle[/{id}]      puzzle.ts (puzzles, the streak, /puzzle/daily)
//   anything else       a "page not found" page (the server answers 404)
import { accountPage } from './account';
import { resetPasswordPage } from './account-security';
import * as api from './api';
import { analysisPage } from './analysis-board';
import { editorPage } from './editor';
import { h } from './dom';
import { gamePage } from './game/page';
import { renderHeader } from './header';
import { applyLang, t } from './i18n';
import { lobbyPage } from './lobby';
import { myGamesPage } from './my-games';
import { startNotifications } from './notifications';
import { settingsPage } from './settings-page';
import { tvPage } from './social';
import { loadSettings } from './settings';
import { played } from './sounds';
import { puzzlePage } from './puzzle';
import { leaderboardPage, playerPage } from './players';
import { tournamentPage, tournamentsPage } from './tournaments';

const app = document.getElementById('app')!;
const topBar = document.getElementById('top')!;

async function main(): Promise<void> {
  applyLang();
  try {
    await api.loadSession();
  } catch (e) {
    app.textContent = t('common.cannotReach', { message: (e as Error).message });
    return;
  }
  await loadSettings();
  // The sounds played, for the browser tests.
  (window as unknown as { thaiboardSounds: string[] }).thaiboardSounds = played;
  renderHeader(topBar);
  startNotifications();
  const path = location.pathname;
  const m = path.match(/^\/game\/([A-Za-z0-9]+)$/);
  try {
    if (m) await gamePage(app, m[1]);
    else if (path === '/my-games') await myGamesPage(app);
    else if (path === '/analysis') await analysisPage(app);
    else if (path === '/editor') editorPage(app);
    else if (path === '/leaderboard') await leaderboardPage(app);
    else if (path === '/tv' || path.match(/^\/tv\/[a-z]+$/)) await tvPage(app, path.split('/')[2] ?? null);
    else if (path === '/account') await accountPage(app);
    else if (path === '/reset-password') resetPasswordPage(app);
    else if (path === '/settings') settingsPage(app);
    else if (path === '/puzzle') await puzzlePage(app);
    else if (path.match(/^\/puzzle\/[A-Za-z0-9]+$/)) await puzzlePage(app, path.split('/')[2]);
    else if (path.startsWith('/@/')) await playerPage(app, decodeURIComponent(path.slice(3)));
    else if (path === '/tournaments') await tournamentsPage(app);
    else if (path.match(/^\/tournaments\/[A-Za-z0-9]+$/)) await tournamentPage(app, path.split('/')[2]);
    else if (path === '/' || path === '/lobby' || path === '/login') lobbyPage(app);
    else notFoundPage(app, path);
  } catch (e) {
    app.replaceChildren(h('div', { class: 'error' }, (e as Error).message));
  }
}

/** An address that is no page of ours (the server answered 404). */
function notFoundPage(root: HTMLElement, path: string): void {
  document.title = `${t('notFound.title')} · thaiboard`;
  root.replaceChildren(h('div', { class: 'panel not-found', id: 'not-found' },
    h('h2', {}, t('notFound.title')),
    h('p', {}, t('notFound.text', { path })),
    h('p', {}, h('a', { href: '/' }, t('notFound.toLobby')))));
}

main();
