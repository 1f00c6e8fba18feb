import * as v from "valibot";
import type { MediaSourceMode } from "../../../schema/plugin-manifest";
import type { PluginInstallationsTable } from "../../db/database";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { installationGrant, manifestOf } from "./installations";
import { callPlugin, type RemoteAnswer, type RemoteEnv } from "./remote-call";
import { remoteRefusal } from "./remote-refusal";
import { activeInstallations } from "./active-installations";

/**
 * Media sources (spec 2 "Plugin items"; docs/media.md, "Media sources"): libraries of files an
 * active plugin holding `media:source` offers to the site's media library. The service lists them,
 * asks the plugin for a page of items (signed call, 5000 ms, at most 24 items) and for one item's
 * file address when it is imported.
 */

/** Spec 2 Limits: media source items per page. */
export const MEDIA_SOURCE_PAGE = 24;

export interface MediaSourceView {
  installation_id: string;
  plugin_id: string;
  plugin_name: string;
  source_id: string;
  label: string;
  modes: MediaSourceMode[];
}

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** A thumbnail a browser loads: https, or http on loopback (a plugin in local development, as its endpoint may be). */
const thumbnailUrl = v.pipe(
  v.string(),
  v.maxLength(2000),
  v.check((s) => {
    if (!URL.canParse(s)) return false;
    const url = new URL(s);
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  }, "expected an https URL"),
);

/** One item as the plugin describes it and the service answers it. */
const SourceItemSchema = v.strictObject({
  id: text(200),
  title: text(200),
  file_name: text(255),
  kind: v.picklist(["image", "document", "audio", "video", "file"]),
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  thumbnail_url: v.nullable(thumbnailUrl),
  attribution: v.nullable(v.pipe(v.string(), v.maxLength(500))),
});
export type MediaSourceItem = v.InferOutput<typeof SourceItemSchema>;

const ItemsAnswerSchema = v.strictObject({
  items: v.pipe(v.array(SourceItemSchema), v.maxLength(MEDIA_SOURCE_PAGE)),
  next_cursor: v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(500))),
});

/**
 * The file of one item, for an import: `url` is where its bytes are (copy: fetched under the
 * outbound address policy; reference: what the library links to). Loopback http only where the
 * outbound policy allows it (local development), as for the endpoint.
 */
const ResolveAnswerSchema = v.strictObject({
  item: SourceItemSchema,
  url: v.pipe(v.string(), v.maxLength(2000), v.check((s) => URL.canParse(s), "expected a URL")),
});
export type ResolvedItem = v.InferOutput<typeof ResolveAnswerSchema>;

function viewsOf(row: PluginInstallationsTable): MediaSourceView[] {
  if (row.state !== "active" || !installationGrant(row).capabilities.includes("media:source")) return [];
  const manifest = manifestOf(row);
  return (manifest.media_sources ?? []).map((s) => ({ installation_id: row.id, plugin_id: row.plugin_id, plugin_name: manifest.name, source_id: s.id, label: s.label, modes: [...s.modes] }));
}

/** GET /media/sources: every source of the site's active installations granted `media:source`, oldest installation first. */
export async function listMediaSources(ctx: LifecycleContext): Promise<MediaSourceView[]> {
  const rows = await activeInstallations(ctx.db, ctx.site.id);
  return rows.flatMap(viewsOf);
}

export interface FoundSource {
  row: PluginInstallationsTable;
  source: MediaSourceView;
}

/**
 * One source of this site by installation id (or plugin id) and source id. An installation of
 * another site, none, or a source it does not offer: 404 `not_found`; installed but not active:
 * 409 `plugin_unavailable`; active without `media:source` granted: 404 (the source is not offered).
 */
export async function findMediaSource(ctx: LifecycleContext, installation: string, sourceId: string): Promise<FoundSource> {
  const row = await ctx.db
    .selectFrom("plugin_installations")
    .selectAll()
    .where("site_id", "=", ctx.site.id)
    .where((eb) => eb.or([eb("id", "=", installation), eb("plugin_id", "=", installation)]))
    .executeTakeFirst();
  if (!row) throw new AppError("not_found", "No such media source.");
  if (row.state !== "active") throw new AppError("plugin_unavailable", "The plugin offering this media source is not active.", { state: row.state });
  const source = viewsOf(row).find((s) => s.source_id === sourceId);
  if (!source) throw new AppError("not_found", "No such media source.");
  return { row, source };
}

async function ask(env: RemoteEnv, found: FoundSource, path: string, body: Record<string, unknown>, now: number): Promise<RemoteAnswer & { ok: true }> {
  const secret = found.row.event_secret;
  if (!secret) throw new AppError("plugin_unavailable", "The plugin has no signing secret; rotate its token.");
  const manifest = manifestOf(found.row);
  const answer = await callPlugin(env, {
    endpoint: manifest.endpoint,
    path: `/media-sources/${found.source.source_id}${path}`,
    secret,
    now,
    body: { installation_id: found.row.id, source: found.source.source_id, ...body },
  });
  if (!answer.ok) throw remoteRefusal(answer);
  return answer;
}

function invalid(detail: string): AppError {
  return new AppError("plugin_response_invalid", "The plugin's answer is not valid.", { detail });
}

/** GET …/items: one page (at most 24) of the source's items matching `q`, after `cursor`. */
export async function listSourceItems(env: RemoteEnv, found: FoundSource, query: { q: string | null; cursor: string | null }, now: number): Promise<{ data: MediaSourceItem[]; next_cursor: string | null }> {
  const answer = await ask(env, found, "/items", { kind: "media_source_items", q: query.q, cursor: query.cursor, limit: MEDIA_SOURCE_PAGE }, now);
  if (answer.status !== 200) throw invalid(`HTTP ${answer.status}`);
  const parsed = v.safeParse(ItemsAnswerSchema, answer.body);
  if (!parsed.success) throw invalid(parsed.issues[0].message);
  return { data: parsed.output.items, next_cursor: parsed.output.next_cursor };
}

/** The item to import and where its file is; an item the plugin does not know (404): 404 `not_found`. */
export async function resolveSourceItem(env: RemoteEnv, found: FoundSource, itemId: string, mode: MediaSourceMode, now: number): Promise<ResolvedItem> {
  const answer = await ask(env, found, "/resolve", { kind: "media_source_item", item_id: itemId, mode }, now);
  if (answer.status === 404) throw new AppError("not_found", "The media source has no such item.", { item_id: itemId });
  if (answer.status !== 200) throw invalid(`HTTP ${answer.status}`);
  const parsed = v.safeParse(ResolveAnswerSchema, answer.body);
  if (!parsed.success) throw invalid(parsed.issues[0].message);
  if (parsed.output.item.id !== itemId) throw invalid("the answer names another item");
  return parsed.output;
}
