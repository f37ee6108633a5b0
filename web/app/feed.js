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
//   of, and an answer older than the state on screen is dropped;
// - whatever fails is tried again, sooner and then every few seconds, until the state
//   and the log have caught up.
//
// The page renders from the model only (`onChange`), so a late or reordered answer can
// never leave it behind the server.

/** How long to wait before asking again for what the server has not caught up to. */
const RETRY_MS = 250;
/** The longest wait between two tries. */
const RETRY_MAX_MS = 5000;
/** How long a new live connection may take to send its catch-up. */
const CATCH_UP_MS = 5000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Feed {
  /**
   * `fetchState()` → the seat's `GET /api/games/ID`; `fetchSteps(since)` → its
   * `/steps?since=`; `onSteps(steps)` hears each new step once, in order;
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
    /** The state request out, if any: `{again}` asks for one more after it. */
    this.fetching = null;
    this.filling = false;
    /** While a live connection's catch-up is on its way, the log waits for it. */
    this.catchingUp = false;
    this.closed = false;
  }

  /** A live connection opens: its catch-up (then `hello`) will bring the missed steps. */
  connecting() {
    this.catchingUp = true;
    // A connection that does not come up in time does not hold the log back.
    clearTimeout(this.catchUpTimer);
    this.catchUpTimer = setTimeout(() => {
      this.catchingUp = false;
      this.fill();
    }, CATCH_UP_MS);
  }

  /** A batch of steps from the live stream: queued while a move is being sent. */
  live(batch) {
    if (this.closed) return;
    if (this.sending) this.queue.push(batch);
    else this.apply(batch);
  }

  /** The live connection's `hello`: everything up to `version` has been sent. */
  hello(version) {
    clearTimeout(this.catchUpTimer);
    this.catchingUp = false;
    this.live({ from: version, version, steps: [] });
    this.resync();
  }

  /** Applies a batch `{from, version, steps}`: the new steps go to `onSteps`. */
  apply(batch) {
    if (this.closed) return;
    this.take(batch);
    // A batch that starts beyond the log is a gap: `fill` fetches the steps between.
    this.fill();
    this.sync();
  }

  /**
   * Adds what `batch` has beyond the log (step i of a batch is the audience's step
   * number `from + i + 1`); a batch that starts beyond the log adds nothing. Returns
   * whether the log grew.
   */
  take(batch) {
    const version = Number(batch.version);
    const steps = batch.steps || [];
    const from = batch.from !== undefined ? Number(batch.from) : version - steps.length;
    this.heard = Math.max(this.heard, version);
    if (from > this.logVersion || version <= this.logVersion) return false;
    const fresh = steps.slice(this.logVersion - from);
    this.logVersion = version;
    if (fresh.length) this.onSteps(fresh);
    return true;
  }

  /** Fetches the steps the log lacks, one request at a time, until it has them all. */
  async fill() {
    if (this.filling || this.catchingUp || this.closed) return;
    this.filling = true;
    let wait = RETRY_MS;
    try {
      while (!this.closed && this.logVersion < Math.max(this.heard, this.state ? this.state.version : 0)) {
        const before = this.logVersion;
        try {
          if (this.take(await this.fetchSteps(this.logVersion))) this.onChange();
          // The server had nothing newer yet: wait a little before asking again.
          if (this.logVersion === before) {
            await sleep(wait);
            wait = Math.min(wait * 2, RETRY_MAX_MS);
          } else {
            wait = RETRY_MS;
          }
        } catch (e) {
          this.onError(e);
          await sleep(wait);
          wait = Math.min(wait * 2, RETRY_MAX_MS);
        }
      }
    } finally {
      this.filling = false;
    }
  }

  /**
   * Brings the state up to every version heard of. One request at a time; if a
   * newer version is heard (or `resync` is asked) while it is out, another follows.
   * It keeps trying, more and more slowly, while the state is behind.
   */
  sync(force = false) {
    if (this.closed || this.sending) return;
    if (!force && this.state && this.state.version >= this.heard) {
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
      let wait = RETRY_MS;
      for (;;) {
        let fresh = null;
        try {
          fresh = await this.fetchState();
        } catch (e) {
          this.onError(e);
        }
        if (this.closed) return;
        if (fresh && (!this.state || fresh.version >= this.state.version)) this.accept(fresh);
        const behind = !this.state || this.state.version < this.heard;
        if (!behind && !attempt.again) break;
        attempt.again = false;
        if (behind) {
          await sleep(wait);
          wait = Math.min(wait * 2, RETRY_MAX_MS);
        }
      }
      this.fetching = null;
      this.onChange();
    })();
  }

  /** Takes a fetched state; if it is ahead of the log, the missing steps are fetched. */
  accept(state) {
    this.state = state;
    this.heard = Math.max(this.heard, state.version);
    this.fill();
    this.onChange();
  }

  /**
   * Sends a move: `post()` is the POST; its reply (`{version, steps, state}`) is
   * applied, then whatever the live stream brought meanwhile; then the reply's state
   * is taken, and the state fetched only if it is behind (or the reply had none).
   */
  async send(post) {
    this.sending = true;
    // The state the reply carries (an acknowledged move or take-back: the seat's state
    // as of its own move); without it (a refusal, a failure) the state is fetched.
    let state = null;
    try {
      const reply = await post();
      if (reply && typeof reply.version === 'number') this.apply({ version: reply.version, steps: reply.steps || [] });
      if (reply && reply.state && typeof reply.state.version === 'number') state = reply.state;
      return reply;
    } finally {
      this.sending = false;
      if (state && (!this.state || state.version >= this.state.version)) this.accept(state);
      const queued = this.queue;
      this.queue = [];
      for (const batch of queued) this.apply(batch);
      // A state that came with the reply is fetched again only if something newer was
      // heard meanwhile.
      this.sync(!state);
    }
  }

  /** Asks for the state again even if no newer version was heard (seats changed, a
   *  reconnection, the tab coming back into view). */
  resync() {
    this.sync(true);
  }

  /** Stops: nothing more is applied or fetched. */
  close() {
    this.closed = true;
    clearTimeout(this.catchUpTimer);
  }
}
