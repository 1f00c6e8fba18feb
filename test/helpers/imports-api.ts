import { manage, newKey, type ManageResult } from "./manage-api";

/** An import job as the API answers it. */
export interface ImportJob {
  id: string;
  source_id: string;
  kind: string;
  state: string;
  paused_from: string | null;
  position: number;
  file: { name: string; bytes: number | null; sha256: string | null };
  progress: { items_total: number; items_done: number; findings: number; parsed_bytes: number };
  next: string[];
  failure: { code: string; message: string; reason?: string } | null;
}
export type JobAnswer = { import: ImportJob; replayed?: true; error?: { code: string; retry_after?: number } & Record<string, unknown> };
export interface FindingBody {
  seq: number;
  item_seq: number | null;
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export const PART = 5 * 1024 * 1024;

export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function sha256(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A source of `kind` and an import of it waiting for its file. */
export async function newImport(token: string, kind: "wordpress" | "driftwood" = "wordpress", fileName = "export.xml"): Promise<ImportJob> {
  const source = await manage<{ source: { id: string } }>(token, "POST", "/imports/sources", { body: { kind, name: `My ${kind} site` } });
  if (source.status !== 201) throw new Error(`source: ${source.status} ${JSON.stringify(source.body)}`);
  const created = await manage<JobAnswer>(token, "POST", "/imports", { body: { source_id: source.body.source.id, file_name: fileName } });
  if (created.status !== 201) throw new Error(`import: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.import;
}

export const putPart = (token: string, id: string, part: number, bytes: Uint8Array, key?: string) =>
  manage<{ import_id: string; part: number; byte_length: number; sha256: string; error?: { code: string } }>(token, "PUT", `/imports/${id}/parts/${part}`, { body: { content_base64: base64(bytes) }, ...(key ? { key } : {}) });

export const step = (token: string, id: string, name: string, body: Record<string, unknown> = {}, key: string = newKey()): Promise<ManageResult<JobAnswer>> =>
  manage<JobAnswer>(token, "POST", `/imports/${id}/${name}`, { body, key });

/** Uploads `bytes` in 5 MiB parts and completes the upload with their SHA-256. */
export async function uploadFile(token: string, id: string, bytes: Uint8Array): Promise<ManageResult<JobAnswer>> {
  for (let offset = 0, part = 1; offset < bytes.length; offset += PART, part++) {
    const sent = await putPart(token, id, part, bytes.subarray(offset, offset + PART));
    if (sent.status !== 200) throw new Error(`part ${part}: ${sent.status} ${JSON.stringify(sent.body)}`);
  }
  return step(token, id, "complete", { sha256: await sha256(bytes) });
}

/** Advances until the job leaves `while` states (or `max` steps), answering the last job. */
export async function advanceWhile(token: string, id: string, states: readonly string[], max = 40): Promise<ImportJob> {
  let job: ImportJob | undefined;
  for (let i = 0; i < max; i++) {
    const r = await step(token, id, "advance");
    if (r.status !== 200) throw new Error(`advance: ${r.status} ${JSON.stringify(r.body)}`);
    job = r.body.import;
    if (!states.includes(job.state)) return job;
  }
  throw new Error(`still ${job?.state} after ${max} steps`);
}

export async function allFindings(token: string, id: string): Promise<FindingBody[]> {
  const out: FindingBody[] = [];
  let cursor: string | null = null;
  do {
    const page: ManageResult<{ findings: FindingBody[]; next_cursor: string | null }> = await manage(token, "GET", `/imports/${id}/findings${cursor ? `?cursor=${cursor}` : ""}`);
    out.push(...page.body.findings);
    cursor = page.body.next_cursor;
  } while (cursor);
  return out;
}

export const getJob = async (token: string, id: string) => (await manage<JobAnswer>(token, "GET", `/imports/${id}`)).body.import;

/**
 * A whole-site export built to its end through the management API and its file read chunk by
 * chunk (for round trips: the file is then imported into another site). `state` is the job's
 * last state (`finished` when the build ended within its ten steps).
 */
export async function exportWholeSite(token: string): Promise<{ state: string; file: Uint8Array }> {
  type ExportAnswer = { export: { id: string; state: string } };
  type Chunk = { content_base64: string; next_offset: number | null };
  let job = (await manage<ExportAnswer>(token, "POST", "/exports", { body: {} })).body.export;
  for (let i = 0; i < 10 && job.state === "building"; i++) job = (await manage<ExportAnswer>(token, "POST", `/exports/${job.id}/advance`, { body: {} })).body.export;
  const parts: string[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const chunk: ManageResult<Chunk> = await manage<Chunk>(token, "GET", `/exports/${job.id}/file?offset=${offset}`);
    parts.push(atob(chunk.body.content_base64));
    offset = chunk.body.next_offset;
  }
  return { state: job.state, file: Uint8Array.from(parts.join(""), (c) => c.charCodeAt(0)) };
}
