// Talking to the hexwar server: every call returns JSON or throws an ApiError that
// carries the server's reason (code, rule section, message).

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.rule = body && body.rule;
  }

  /** The reason in words, with the rule section when the rules refused it. */
  explain() {
    return this.rule ? `${this.message} (rule ${this.rule})` : this.message;
  }
}

async function call(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let json = null;
  try {
    json = await response.json();
  } catch {
    json = null;
  }
  if (!response.ok) throw new ApiError(response.status, json);
  return json;
}

export const api = {
  catalog: () => call('GET', '/api/catalog'),
  games: (status) => call('GET', `/api/games?status=${status}`),
  create: (request) => call('POST', '/api/games', { body: request }),
  state: (id, token) => call('GET', `/api/games/${id}`, { token }),
  act: (id, token, version, action) =>
    call('POST', `/api/games/${id}/actions`, { token, body: { version, action } }),
  undo: (id, token, version) => call('POST', `/api/games/${id}/undo`, { token, body: { version } }),
  join: (id, token, name) => call('POST', `/api/games/${id}/join`, { token, body: { name } }),
  claim: (id, seat, name) => call('POST', `/api/games/${id}/seats/${seat}/claim`, { body: { name } }),
  resign: (id, token) => call('POST', `/api/games/${id}/resign`, { token, body: {} }),
  notify: (id, token, email, webhook) =>
    call('POST', `/api/games/${id}/notify`, { token, body: { email, webhook } }),
  messages: (id) => call('GET', `/api/games/${id}/messages`),
  say: (id, token, text) => call('POST', `/api/games/${id}/messages`, { token, body: { text } }),
  steps: (id, token, since) => call('GET', `/api/games/${id}/steps?since=${since}`, { token }),
  at: (id, version, token) => call('GET', `/api/games/${id}/at/${version}`, { token }),
  history: (id, token) => call('GET', `/api/games/${id}/history`, { token }),
  board: (id) => call('GET', `/api/games/${id}/board`),
};

/** Opens the live feed of a game; `onMessage` gets each parsed message. Reconnects
 *  with the last version heard, so nothing is missed. Returns a function that closes it. */
export function live(id, token, since, onMessage) {
  let version = since;
  let closed = false;
  let socket = null;
  const open = () => {
    // A reconnection timer that fires after the feed was closed opens nothing.
    if (closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = new URLSearchParams({ since: String(version) });
    if (token) query.set('token', token);
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/live?${query}`);
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (typeof message.version === 'number') version = Math.max(version, message.version);
      onMessage(message);
    };
    socket.onclose = () => {
      if (!closed) setTimeout(open, 1000);
    };
  };
  open();
  return () => {
    closed = true;
    if (socket) socket.close();
  };
}

/** The seats this browser holds, by game: {gameId: {seat: token}} in localStorage. */
export const seats = {
  all() {
    try {
      return JSON.parse(localStorage.getItem('hexwar.seats') || '{}');
    } catch {
      return {};
    }
  },
  of(game) {
    return this.all()[game] || {};
  },
  /** Drops a game (the server no longer has it). */
  forget(game) {
    const all = this.all();
    delete all[game];
    localStorage.setItem('hexwar.seats', JSON.stringify(all));
  },
  remember(game, seat, token) {
    const all = this.all();
    all[game] = { ...(all[game] || {}), [seat]: token };
    localStorage.setItem('hexwar.seats', JSON.stringify(all));
  },
};
