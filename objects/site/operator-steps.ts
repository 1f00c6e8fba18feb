import type { Clock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import { AppError, toOutcome, type Outcome } from "../../shared/errors";
import { cloudflarePurger } from "../../shared/public/cache-purge";
import type { CopyProgress } from "../../shared/services/site-copy/progress";
import { runCopyStep } from "../../shared/services/site-copy/step";
import { runDeleteStep, type DeleteProgress } from "../../shared/services/sites/site-delete";
import { moveSite, type MoveAnswer } from "../../shared/services/sites/site-move";
import type { WriteQueue } from "./write-queue";

/**
 * The operators' whole-site work (POST /api/ops/sites/{id}/database, /copy, /delete), each run in the
 * site's write queue so no write of the site interleaves; refusals come back as Failures (thrown
 * errors lose their code over RPC). `SiteObject` exposes them as RPC methods.
 */
export class OperatorSteps {
  constructor(
    private readonly env: Env,
    private readonly clock: Clock,
    private readonly queue: WriteQueue,
  ) {}

  /** Moves the site's content to another site database: no write runs between the copy and the flip. */
  moveDatabase(siteId: string, binding: string): Promise<Outcome<MoveAnswer>> {
    return this.queue.run(async () => {
      try {
        return { ok: true as const, value: await moveSite(this.env, this.clock, siteId, binding) };
      } catch (error) {
        if (error instanceof AppError) return { ok: false as const, error: error.toFailure() };
        throw error;
      }
    });
  }

  /** One bounded share of a site copy into this site (docs/site-copy.md); null when the copy's row is unknown. */
  copySite(key: string): Promise<Outcome<CopyProgress | null>> {
    return this.queue.run(() => toOutcome(() => runCopyStep(this.env, this.clock, cloudflarePurger(this.env), key)));
  }

  /**
   * One bounded share of deleting this site (docs/site-delete.md). Its last share calls
   * `clearObjectStorage` (alarm first, then every table): nothing of the site is left in the object.
   */
  deleteSite(siteId: string, clearObjectStorage: () => Promise<void>): Promise<Outcome<DeleteProgress | null>> {
    return this.queue.run(() => toOutcome(() => runDeleteStep(this.env, this.clock, siteId, clearObjectStorage)));
  }
}
