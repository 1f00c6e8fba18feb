/**
 * The CMS's management API as the generated-backend suite's modules use it to build edge-case
 * models and content before the backend is generated (they flow through the real generator).
 */
import { request } from "../../../scripts/lib/dev-server.mjs";

let serial = 0;

/** `manage(method, path, body)` on the demo site: `{ status, body }`. */
export function manageClient(port, token) {
  return async (method, pathname, body) => {
    const res = await request(port, {
      method,
      host: "demo.localhost",
      path: `/api/manage/v1${pathname}`,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(method === "GET" ? {} : { "idempotency-key": `gb-${process.pid}-${(serial += 1)}` }) },
    });
    return { status: res.status, body: res.text ? JSON.parse(res.text) : null };
  };
}

/** Creates a model (201 expected) and answers its view. */
export async function createModel(manage, model, fields) {
  const created = await manage("POST", "/models", { definition: { model, fields } });
  if (created.status !== 201) throw new Error(`createModel ${model.slug}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}
