/** Refusals of the row API: `{ error: { code, message, … } }` like the CMS. */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string, path?: string): HttpError => new HttpError(400, "invalid_request", message, path !== undefined ? { path } : {});

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

export function errorResponse(error: HttpError): Response {
  return json({ error: { code: error.code, message: error.message, ...error.details } }, error.status, error.headers);
}

/** A database refusal as the API's: unique → 409 record_exists, foreign key → 422/409. */
export function databaseError(error: unknown, operation: "create" | "update" | "delete"): HttpError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  // libsql: "UNIQUE constraint failed: article.slug"; D1 adds ": SQLITE_CONSTRAINT" after it.
  const unique = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/.exec(message);
  if (unique) {
    const columns = (unique[1] ?? "").split(",").map((c) => c.trim().split(".").pop() ?? c);
    return new HttpError(409, "record_exists", "A row already holds this unique value.", { columns });
  }
  if (/FOREIGN KEY constraint failed/.test(message)) {
    return operation === "delete"
      ? new HttpError(409, "relation_target_referenced", "Other rows still link to this row.")
      : new HttpError(422, "relation_target_missing", "A linked row does not exist.");
  }
  if (/relation_hierarchy_cycle/.test(message)) return new HttpError(422, "relation_hierarchy_cycle", "The parent link would make a loop.");
  return undefined;
}
