/**
 * Strict FIFO for a Durable Object's writes.
 *
 * The runtime's input gate only holds other calls off while the object waits on its own storage;
 * once a method awaits D1 (or any fetch), other calls run. Chaining every write through one queue
 * keeps a site's writes one at a time, in arrival order, across those awaits.
 *
 * Do not `run` on the same queue from inside a job: the inner job waits for the outer one to
 * finish, which waits for the inner one, so both hang.
 */
export class WriteQueue {
  // The settled end of the chain. Always fulfils (never rejects), so a failing job cannot
  // poison the jobs queued behind it.
  #tail: Promise<void> = Promise.resolve();
  #depth = 0;

  /**
   * Runs `work` after every job queued before it has settled, and resolves or rejects with its
   * result. A job's failure reaches only its own caller.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    this.#depth += 1;
    // `() => work()` rather than `work`: then() would pass the previous value as an argument,
    // and a synchronous throw inside work still becomes this job's rejection.
    const result = this.#tail.then(() => work());
    const settled = (): void => {
      this.#depth -= 1;
    };
    this.#tail = result.then(settled, settled);
    return result;
  }

  /** Jobs queued or running, not yet settled. Useful for back-pressure and for draining checks. */
  get depth(): number {
    return this.#depth;
  }
}
