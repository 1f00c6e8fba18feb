/**
 * Strict FIFO for a Durable Object's writes.
 *
 * The runtime's input gate only holds other calls off while the object waits on its own storage;
 * once a method awaits D1 (or any fetch), other calls run. Chaining every write through one queue
 * keeps a site's writes one at a time, in arrival order, across those awaits.
 *
 * Arrival order means the order the calls reached the object, not the order their first awaits
 * came back: a write takes its {@link Place} synchronously, before anything it awaits (its policy
 * read, a stale claim's look-up), and the queue waits at that place for its work
 * (docs/write-fairness.md). Admission by completion order let a write whose read came back late be
 * passed by every write behind it, again and again: some connections starved (issue #27, item 9).
 *
 * Between two queued jobs the queue yields to the runtime's event loop (a macrotask, {@link
 * betweenJobs}): the next job starts only after timers and I/O ready meanwhile were served. Locally
 * (Miniflare) D1 and the site object run in workerd's one thread and a job never waits on real I/O,
 * so a queue that handed each job straight to the next kept the runtime's event queue from ever
 * emptying — and workerd reads its sockets only when it empties. Requests that came in meanwhile then
 * sat unread, some for seconds, until the site's queue ran dry, and kept-alive connections whose
 * pipeline timer (KJ's 5 s) expired unread were reset: the c50 tail and starved connections of issue
 * #27 item 9 (docs/write-fairness.md, "Session 17"). A job at an idle queue starts at once.
 *
 * Do not `run` on the same queue from inside a job: the inner job waits for the outer one to
 * finish, which waits for the inner one, so both hang.
 */
export class WriteQueue {
  // The settled end of the chain. Always fulfils (never rejects), so a failing job cannot
  // poison the jobs queued behind it.
  #tail: Promise<void> = Promise.resolve();
  #depth = 0;
  #reserved = 0;

  /**
   * Runs `work` after every job queued before it has settled, and resolves or rejects with its
   * result. A job's failure reaches only its own caller.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.reserve().run(work);
  }

  /**
   * Takes the next place in the queue now; the work comes later ({@link Place.run}). Jobs queued
   * after it wait until it ran or was left ({@link Place.leave}): every place must end one way or
   * the other, or the queue stops (callers leave in a `finally`).
   */
  reserve(): Place {
    this.#depth += 1;
    this.#reserved += 1;
    const ticket = this.#reserved;
    const turn = this.#tail;
    let settle: () => void = () => undefined;
    // A place left before its turn still ends after the places before it: the jobs behind it keep
    // waiting for those (resolving with `turn` adopts its settlement).
    this.#tail = new Promise<void>((resolve) => {
      settle = () => resolve(turn);
    });
    let ended = false;
    // A job that ran hands over after a macrotask; a place left unused hands over at once (nothing
    // ran on the thread in its name).
    const end = (ran: boolean): void => {
      if (ended) return;
      ended = true;
      this.#depth -= 1;
      if (ran) void betweenJobs().then(settle);
      else settle();
    };
    let used = false;
    return {
      ticket,
      run: <T>(work: () => Promise<T>): Promise<T> => {
        if (used || ended) return Promise.reject(new Error("this place in the write queue was already used or left"));
        used = true;
        // `() => work()` rather than `work`: then() would pass the previous value as an argument,
        // and a synchronous throw inside work still becomes this job's rejection.
        const result = turn.then(() => work());
        // The caller has its result at once; only the next job waits for the macrotask.
        const ranOut = () => end(true);
        result.then(ranOut, ranOut);
        return result;
      },
      leave: () => {
        if (!used) end(false);
      },
      get open() {
        return !used && !ended;
      },
    };
  }

  /** Jobs queued or running (places taken), not yet settled. Useful for back-pressure and for draining checks. */
  get depth(): number {
    return this.#depth;
  }
}

/**
 * One macrotask: resolves once the runtime's event loop has gone round, serving the timers and
 * socket reads that were ready (on workerd, the poll of its sockets happens only then).
 */
function betweenJobs(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/** A place taken in a {@link WriteQueue}: run one job there, or leave it so the jobs behind go on. */
export interface Place {
  /**
   * The place's number in reservation order (1, 2, 3…): two places whose tickets follow each other
   * have nothing queued between them (group commit, write-runner.ts, reads this).
   */
  readonly ticket: number;
  /** Runs `work` when every place before this one has ended; once only. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place up (no-op once its work was given): the jobs behind it no longer wait for it. */
  leave(): void;
  /** Whether work can still be given to this place (neither run nor left). */
  readonly open: boolean;
}
