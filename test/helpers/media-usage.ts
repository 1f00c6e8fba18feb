import { expect } from "vitest";
import type { Model } from "../../shared/repositories/model-repository";
import { addModel, type SeededSite } from "./fixtures";
import { manage } from "./manage-api";
import { uploadMedia, type MediaItemBody } from "./media-api";
import { png } from "./media-samples";

/** An entry as the management API answers it (the fields these tests read). */
export interface EntryBody {
  instance_id: string;
  model_id: string;
  lang: string;
  current_version_id: string;
  published_version_id: string | null;
}

/** A usage answer (GET /media/{id}/usage; docs/media.md, "Usage"). */
export interface UsageBody {
  media_id: string;
  used_by: { instance_id: string; model_id: string; lang: string; label: string | null; field_ids: string[]; current: boolean; published: boolean; in_trash: boolean }[];
  hidden: number;
  at_least: number;
  total: number | null;
  more: boolean;
  unreadable: boolean;
}

/** A model with a single and a multiple media field and a rich-text body, titled by `title`. */
export async function mediaModel(s: SeededSite, slug = "post"): Promise<Model> {
  return addModel(s.ctx(), {
    slug,
    name: slug,
    i18n: false,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "cover", label: "Cover", type: "media" },
      { key: "gallery", label: "Gallery", type: "media", multiple: true },
      { key: "body", label: "Body", type: "rich_text" },
    ],
  });
}

/** The id of a model's field by key. */
export function fieldId(model: Model, key: string): string {
  const field = model.fields.find((f) => f.key === key);
  if (!field) throw new Error(`no field ${key}`);
  return field.id;
}

/** Uploads a small distinct PNG and answers the item. */
export async function uploadPng(token: string, note: string): Promise<MediaItemBody & { revision: number }> {
  const up = await uploadMedia(token, { bytes: png(2, 2, note), name: `${note}.png` });
  expect(up.status).toBe(201);
  return up.body.media as MediaItemBody & { revision: number };
}

/** Creates an entry through the management API. */
export async function createEntry(token: string, model: Model, fields: Record<string, unknown>): Promise<EntryBody> {
  const res = await manage<EntryBody>(token, "POST", "/entries", { body: { model_id: model.id, fields } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Saves a new draft through the management API. */
export async function saveEntry(token: string, entry: EntryBody, fields: Record<string, unknown>): Promise<EntryBody> {
  const res = await manage<EntryBody>(token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: entry.current_version_id, fields } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** GET /media/{id}/usage. */
export function usageOf<T = UsageBody>(token: string, mediaId: string) {
  return manage<T>(token, "GET", `/media/${mediaId}/usage`);
}
