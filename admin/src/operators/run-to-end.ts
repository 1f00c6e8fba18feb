import { ApiError } from "../api/client";

/**
 * Runs a long operators' write to its end (copySite, deleteSite: docs/site-copy.md,
 * docs/site-delete.md). Each call does one bounded share and answers 202 while work remains; the
 * same Idempotency-Key goes on from the stored position, so the screen calls again with it until
 * the answer is final, reporting each share's progress. A network failure ends the loop: the same
 * action tried again resumes with the same key (ui/use-action.ts).
 */
export async function runToEnd<T extends { state: "running" | "done" }>(call: () => Promise<T>, onProgress: (answer: T) => void): Promise<T> {
  for (;;) {
    let answer: T;
    try {
      answer = await call();
    } catch (error) {
      // Another share of the same key is still running (a double submit): ask again shortly.
      if (error instanceof ApiError && error.code === "idempotency_in_progress") {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      throw error;
    }
    onProgress(answer);
    if (answer.state === "done") return answer;
  }
}
