import { env } from "cloudflare:test";
import { blogModels, seedSite } from "./fixtures";
import { credential, manage } from "./manage-api";

/** A site whose object has run one create through the management API (so it exists and knows its site). */
export async function siteWithOneCreate(title: string) {
  const s = await seedSite();
  const { article } = await blogModels(s.ctx());
  const token = await credential(s);
  const created = await manage(token, "POST", "/entries", { body: { model_id: article.id, fields: { title } } });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  return { s, stub: env.SITE.getByName(s.site.id) };
}

/** An outbox row committed but never handed to the queue — as after a stop between a commit and its send. */
export async function insertUnsentEvent(siteId: string, eventId: string): Promise<void> {
  await env.DB.prepare("INSERT INTO outbox_events (id, site_id, name, payload, created_at, enqueued_at) VALUES (?, ?, 'entry.updated', '{}', ?, NULL)")
    .bind(eventId, siteId, new Date().toISOString())
    .run();
}
