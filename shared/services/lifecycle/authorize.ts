import { AppError } from "../../errors";
import { decide, type AccessQuestion } from "../../auth/permissions";
import type { Actor } from "./context";

/** Throws the permission refusal for a question the actor may not ask; nothing has been written yet. */
export function authorize(actor: Actor, question: Omit<AccessQuestion, "actorId">): void {
  const answer = decide(actor.permissions, { ...question, actorId: actor.id });
  if (answer.allowed) return;
  const details: Record<string, unknown> = {};
  if (answer.fields) details.fields = answer.fields;
  if (answer.lang) details.lang = answer.lang;
  throw new AppError(answer.code, answer.message, Object.keys(details).length > 0 ? details : undefined);
}
