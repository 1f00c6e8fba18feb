import { AppError } from "../../shared/errors";
import type { Env } from "../../shared/env";
import type { Site } from "../../shared/repositories/site-repository";
import { json } from "../http/respond";

/** The one answer for everything the public API refuses to show, so refusals cannot be told apart. */
export function publicNotFound(): AppError {
  return new AppError("not_found", "Not found.");
}

/** Public read API of the site that owns the Host. */
export async function handlePublic(request: Request, _env: Env, site: Site | undefined): Promise<Response> {
  if (!site) throw publicNotFound();
  if (request.method !== "GET" && request.method !== "HEAD") throw publicNotFound();
  const url = new URL(request.url);
  if (url.pathname === "/health") return json({ ok: true, site: site.slug });
  throw publicNotFound();
}
