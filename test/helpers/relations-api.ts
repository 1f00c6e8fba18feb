import { expect } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { seedSite, type SeededSite } from "./fixtures";
import { credential, manage } from "./manage-api";

/*
 * The relation tests' management API (docs/content-rules-relations.md): a site with a rotating
 * credential, model and entry helpers, model redefinition, and the tag/article fixture.
 */
export type Err = { error: { code: string; message: string; [k: string]: unknown } };
export type ModelWrite = { model_id: string; revision: number };
export type ModelRead = { id: string; revision: number; definition: { fields: Record<string, unknown>[] } };

export interface Api {
  s: SeededSite;
  /** A management call; a fresh credential every 30 calls (tests run with MANAGE_RATE_LIMIT 40 a minute). */
  call<T = unknown>(method: string, path: string, options?: { body?: unknown }): Promise<{ status: number; body: T }>;
  model(slug: string, fields: Record<string, unknown>[], extra?: Record<string, unknown>): Promise<string>;
  create(modelId: string, fields: Record<string, unknown>, extra?: Record<string, unknown>): Promise<EntryView>;
  save(id: string, fields: Record<string, unknown>): Promise<{ status: number; body: EntryView & Err }>;
  get(id: string): Promise<EntryView>;
  publish(id: string): Promise<void>;
}

export async function api(languages?: string[]): Promise<Api> {
  const s = await seedSite(languages ? { languages } : {});
  let token = await credential(s);
  let calls = 0;
  const call = async <T,>(method: string, path: string, options: { body?: unknown } = {}) => {
    if (++calls % 30 === 0) token = await credential(s);
    return manage<T>(token, method, path, options);
  };
  const self: Api = {
    s,
    call,
    async model(slug, fields, extra = {}) {
      const res = await call<ModelWrite & Err>("POST", "/models", { body: { definition: { model: { name: slug, slug, ...extra }, fields } } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.model_id;
    },
    async create(modelId, fields, extra = {}) {
      const res = await call<EntryView & Err>("POST", "/entries", { body: { model_id: modelId, fields, ...extra } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    },
    async save(id, fields) {
      const current = await self.get(id);
      return call<EntryView & Err>("PUT", `/entries/${id}`, { body: { expected_version_id: current.current_version_id, fields } });
    },
    async get(id) {
      return (await call<EntryView>("GET", `/entries/${id}`)).body;
    },
    async publish(id) {
      const e = await self.get(id);
      const res = await call<Err>("POST", `/entries/${id}/publish`, { body: { expected_version_id: e.current_version_id, expected_workflow_revision: e.workflow.revision } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
  };
  return self;
}

/** A model definition replaced through PUT /models/{id}/definition with `change` applied to its fields. */
type Definition = { model: Record<string, unknown>; fields: Record<string, unknown>[] };
export async function redefine(a: Api, modelId: string, change: (fields: Record<string, unknown>[]) => Record<string, unknown>[]) {
  const read = await a.call<{ revision: number; definition: Definition }>("GET", `/models/${modelId}`);
  const { definition } = read.body;
  return a.call<Err & { error: { changes?: Record<string, unknown>[] } }>("PUT", `/models/${modelId}/definition`, {
    body: { expected_revision: read.body.revision, definition: { model: definition.model, fields: change(definition.fields) } },
  });
}
export const setField = (key: string, patch: Record<string, unknown>) => (fields: Record<string, unknown>[]) => fields.map((f) => (f.key === key ? { ...f, ...patch } : f));

export const fieldOf = (e: EntryView, key: string) => (e.fields as Record<string, unknown>)[key];

/** tag (target), article (ordered many_to_many tags), all public. */
export async function tagged(languages?: string[]) {
  const a = await api(languages);
  const tag = await a.model("tag", [{ key: "name", label: "Name", type: "text", title: true }]);
  const article = await a.model("article", [
    { key: "title", label: "Title", type: "text", title: true },
    { key: "tags", label: "Tags", type: "relation", relation: "many_to_many", targets: [tag], validation: { max_items: 4, min_items: 2 } },
    { key: "lead", label: "Lead tag", type: "relation", relation: "many_to_one", targets: [tag] },
  ]);
  const tags: string[] = [];
  for (const name of ["t0", "t1", "t2", "t3", "t4"]) {
    const t = await a.create(tag, { name });
    await a.publish(t.instance_id);
    tags.push(t.instance_id);
  }
  return { a, tag, article, tags };
}

