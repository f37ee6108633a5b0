// The game page's model of what the server has told one seat (or a spectator): the
// steps of its feed in order, and the newest game state fetched for it. The server's
// versions count the steps this audience was told (docs/server.md, "What leaves the
// server for a seat"), so the model only ever moves forward:
//
// - a batch of steps (`{from, version, steps}`, from the live stream, a POST reply or
//   `/steps`) is applied from where the log stands; what the log has already is
//   skipped, and a batch that starts beyond it is a gap, filled from `/steps`;
// - while a move is being sent, batches are queued and applied once its reply is in;
// - the state is fetched again until it is at least as new as every version heard
//   of, and an answer older than the state on screen is dropped.
//
// The page renders from the model only (`onChange`), so a late or reordered answer can
// never leave it behind the server.

/** How long to wait before asking again for a state the server has not caught up to. */
const RETRY_MS = 250;

export class Feed {
  /**
   * `fetchState()` → the seat's `GET /api/games/ID`; `fetchSteps(since)` → its
   * `/steps?since=`; `onSteps(steps, from)` hears each new step once, in order;
   * `onChange()` is called whenever the state or the log changed.
   */
  constructor({ fetchState, fetchSteps, onSteps, onChange, onError }) {
    this.fetchState = fetchState;
    this.fetchSteps = fetchSteps;
    this.onSteps = onSteps;
    this.onChange = onChange;
    this.onError = onError || (() => {});
    /** The version up to which the log holds this audience's steps. */
    this.logVersion = 0;
    /** The newest version heard of, from any source. */
    this.heard = 0;
    /** The newest state fetched (`null` before the first). */
    this.state = null;
    this.sending = false;
    this.queue = [];
    this.fetching = null;
    this.filling = null;
    this.closed = false;
  }

  /** A batch of steps from the live stream: queued while a move is being sent. */
  live(batch) {
    if (this.closed) return;
    if (this.sending) this.queue.push(batch);
    else this.apply(batch);
  }

  /** Applies a batch `{from, version, steps}`: the new steps go to `onSteps`. */
  apply(batch) {
    if (this.closed) return;
    const version = Number(batch.version);
    const steps = batch.steps || [];
    const from = batch.from !== undefined ? Number(batch.from) : version - steps.length;
    this.heard = Math.max(this.heard, version);
    if (from > this.logVersion) {
      // A gap: the steps in between were never heard. Fetch them (the batch's own are
      // among them).
      this.fill();
      return;
    }
    // Step i of the batch is the audience's step number from + i + 1.
    const fresh = steps.slice(Math.max(0, this.logVersion - from));
    if (version > this.logVersion && fresh.length) {
      this.logVersion = version;
      this.onSteps(fresh, version - fresh.length);
    }
    this.sync();
  }

  /** Fetches the steps after the log's version (one request at a time). */
  async fill() {
    if (this.filling) return;
    this.filling = (async () => {
      try {
        const batch = await this.fetchSteps(this.logVersion);
        this.filling = null;
        this.apply(batch);
      } catch (e) {
        this.filling = null;
        this.onError(e);
      }
    })();
  }

  /**
   * Brings the state up to every version heard of. One request at a time; if a
   * newer version is heard while it is out, another follows.
   */
  sync() {
    if (this.closed || this.sending) return;
    // A state ahead of the log is fine: `accept` has asked for the missing steps.
    if (this.state && this.state.version >= this.heard) {
      this.onChange();
      return;
    }
    if (this.fetching) {
      this.fetching.again = true;
      return;
    }
    const attempt = { again: false };
    this.fetching = attempt;
    (async () => {
      let tries = 0;
      for (;;) {
        let fresh = null;
        try {
          fresh = await this.fetchState();
        } catch (e) {
          this.onError(e);
        }
        if (this.closed) return;
        if (fresh && (!this.state || fresh.version >= this.state.version)) this.accept(fresh);
        tries += 1;
        const behind = !this.state || this.state.version < this.heard;
        if ((!behind && !attempt.again) || tries >= 20) break;
        attempt.again = false;
        await new Promise((resolve) => setTimeout(resolve, behind ? RETRY_MS * Math.min(tries, 8) : 0));
      }
      this.fetching = null;
      this.onChange();
    })();
  }

  /** Takes a fetched state; if it is ahead of the log, the missing steps are fetched. */
  accept(state) {
    this.state = state;
    this.heard = Math.max(this.heard, state.version);
    if (state.version > this.logVersion) this.fill();
    this.onChange();
  }

  /**
   * Sends a move: `post()` is the POST; its reply (`{version, steps}`) is applied,
   * then whatever the live stream brought meanwhile, then the state is fetched.
   */
  async send(post) {
    this.sending = true;
    try {
      const reply = await post();
      if (reply && typeof reply.version === 'number') this.apply({ version: reply.version, steps: reply.steps || [] });
      return reply;
    } finally {
      this.sending = false;
      const queued = this.queue;
      this.queue = [];
      for (const batch of queued) this.apply(batch);
      this.sync();
    }
  }

  /** Asks for the state again (a reconnect, the tab coming back into view). */
  resync() {
    if (this.closed) return;
    if (this.fetching) {
      this.fetching.again = true;
      return;
    }
    this.fetching = { again: false };
    this.fetchState().then((fresh) => {
      this.fetching = null;
      if (!this.closed && fresh && (!this.state || fresh.version >= this.state.version)) this.accept(fresh);
      this.sync();
    }, (e) => {
      this.fetching = null;
      this.onError(e);
    });
  }

  /** Stops: nothing more is applied or fetched. */
  close() {
    this.closed = true;
  }
}
