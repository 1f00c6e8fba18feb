import script from "../../cli/manage.mjs";
import { methodNotAllowed } from "../http/route-table";

/** Where the admin host serves the generated command line (docs/cli.md). */
export const MANAGE_SCRIPT_PATH = "/manage.mjs";

/**
 * GET (and HEAD) /manage.mjs on the admin host: the generated `cli/manage.mjs`, byte for byte, as
 * a download, so a user needs nothing from the repository. Public: it holds no secret.
 */
export function manageScript(request: Request): Response {
  if (request.method !== "GET" && request.method !== "HEAD") {
    throw methodNotAllowed(["GET", "HEAD"]);
  }
  return new Response(request.method === "HEAD" ? null : script, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "content-disposition": 'attachment; filename="manage.mjs"',
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
    },
  });
}
