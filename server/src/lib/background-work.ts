// Work a request starts but does not wait for: it runs once the request has been answered, so what it finds (whether
// an email has accounts) and how long it takes (building and sending mail) never show in the answer, and its failure
// is logged, never the request's. The server waits for it when it closes.
import type { Logger } from 'pino';

export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  /** Starts `work` after the current request's answer; `what` names it in the log if it fails. */
  run(what: string, work: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => { setImmediate(resolve); })
      .then(work)
      .catch((error: unknown) => { this.log.error({ err: error }, `${what} failed`); })
      .finally(() => { this.pending.delete(done); });
    this.pending.add(done);
  }

  /** Resolves when no work is left, including work that the work it waited for started. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
