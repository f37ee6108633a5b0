// The hexwar browser client: `/` is the lobby, `/play/GAME#token=T` a game.

import { showLobby } from './lobby.js';
import { showGame } from './game.js';
import { showReplay } from './replay.js';

function route() {
  const app = document.getElementById('app');
  const match = location.pathname.match(/^\/play\/([0-9a-f]{12})\/?$/);
  const replay = location.pathname.match(/^\/replay\/([0-9a-f]{12})\/?$/);
  if (match) {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    showGame(app, match[1], token);
  } else if (replay) {
    showReplay(app, replay[1]);
  } else {
    showLobby(app);
  }
}

route();
// Another invite link pasted into this tab: open it afresh.
window.addEventListener('hashchange', () => location.reload());
