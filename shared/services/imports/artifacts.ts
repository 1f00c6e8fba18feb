import { hex } from "../../crypto/digest";
import { AppError } from "../../errors";
import { resolveByteRange, type ByteRange } from "../exports/byte-range";
import type { LifecycleContext } from "../lifecycle/context";
import { loadImportJob, requireImportPermission, type ImportJobRow, type ImportState } from "./jobs";
import { rows } from "./statements";

/** What readImportArtifact reads: the receipt (what the import did, item by item) or the problem file (its findings). */
export const IMPORT_ARTIFACTS = ["receipt", "problems"] as const;
export type ImportArtifact = (typeof IMPORT_ARTIFACTS)[number];

export const ARTIFACT_CONTENT_TYPE = "application/x-ndjson";
/** The largest byte range one read answers (as readExportChunk). */
export const ARTIFACT_CHUNK_MAX = 1024 * 1024;
/** Rows read per query while an artifact is built. */
const BUILD_PAGE = 1000;

/** States in which no step of the job can be running, so an artifact of its position never changes. */
const SETTLED: readonly ImportState[] = ["done", "cancelled", "failed", "undone", "paused"];

/** R2 key of an artifact at a job position: a later move of the job makes a new one. */
const artifactKey = (job: ImportJobRow, name: ImportArtifact) => `imports/${job.site_id}/${job.id}/artifacts/${name}-${job.position}.ndjson`;

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** The lines of the receipt: a header with the job and its counts, then one line per item the file held. */
async function* receiptLines(ctx: Pick<LifecycleContext, "d1" | "site">, job: ImportJobRow): AsyncGenerator<string> {
  const counts = await rows<{ kind: string; state: string; n: number }>(ctx.d1, "SELECT kind, state, count(*) AS n FROM import_items WHERE site_id = ? AND job_id = ? GROUP BY kind, state ORDER BY kind, state", [ctx.site.id, job.id]);
  const byKind: Record<string, Record<string, number>> = {};
  for (const c of counts) (byKind[c.kind] ??= {})[c.state] = c.n;
  yield line({
    type: "receipt",
    format: 1,
    import_id: job.id,
    source_id: job.source_id,
    kind: job.kind,
    state: job.state,
    position: job.position,
    file: { name: job.file_name, bytes: job.file_bytes, sha256: job.file_sha256 },
    items: { total: job.items_total, done: job.items_done, by_kind: byKind },
    findings: job.findings_count,
    decisions: job.decisions ? (JSON.parse(job.decisions) as unknown) : null,
  });
  for (let after = 0; ; ) {
    const page = await rows<{ seq: number; kind: string; source_key: string; state: string; instance_id: string | null; media_id: string | null; media_created: number; lang: string | null; creator: string | null }>(
      ctx.d1,
      `SELECT i.seq, i.kind, i.source_key, i.state, i.instance_id, i.media_id, i.media_created, e.lang, json_extract(i.payload, '$.creator') AS creator
       FROM import_items i LEFT JOIN entries e ON e.site_id = i.site_id AND e.instance_id = i.instance_id
       WHERE i.site_id = ? AND i.job_id = ? AND i.seq > ? ORDER BY i.seq LIMIT ?`,
      [ctx.site.id, job.id, after, BUILD_PAGE],
    );
    for (const r of page) {
      yield line({
        type: "item",
        item_seq: r.seq,
        kind: r.kind,
        source_key: r.source_key,
        state: r.state,
        instance_id: r.instance_id,
        lang: r.lang,
        media_id: r.media_id,
        ...(r.media_id ? { media: r.media_created === 1 ? "created" : "reused" } : {}),
        ...(r.creator ? { author: r.creator } : {}),
      });
    }
    if (page.length < BUILD_PAGE) break;
    after = page[page.length - 1]?.seq ?? after;
  }
}

/** The lines of the problem file: one per finding, with the item's kind and WordPress key. */
async function* problemLines(ctx: Pick<LifecycleContext, "d1" | "site">, job: ImportJobRow): AsyncGenerator<string> {
  for (let after = 0; ; ) {
    const page = await rows<{ seq: number; item_seq: number | null; code: string; message: string; details: string; kind: string | null; source_key: string | null }>(
      ctx.d1,
      `SELECT f.seq, f.item_seq, f.code, f.message, f.details, i.kind, i.source_key FROM import_findings f
       LEFT JOIN import_items i ON i.job_id = f.job_id AND i.seq = f.item_seq
       WHERE f.site_id = ? AND f.job_id = ? AND f.seq > ? ORDER BY f.seq LIMIT ?`,
      [ctx.site.id, job.id, after, BUILD_PAGE],
    );
    for (const f of page) {
      yield line({ seq: f.seq, item_seq: f.item_seq, kind: f.kind, source_key: f.source_key, code: f.code, message: f.message, details: JSON.parse(f.details) as unknown });
    }
    if (page.length < BUILD_PAGE) break;
    after = page[page.length - 1]?.seq ?? after;
  }
}

/**
 * The artifact of the job at its position, built once into R2 (with its SHA-256 in the object's
 * metadata): two readers building it at once write the same bytes. Building reads the job's rows
 * in pages, so a receipt of 20,000 items is about 20 reads and 3 MB.
 */
async function artifactObject(ctx: Pick<LifecycleContext, "d1" | "site">, files: R2Bucket, job: ImportJobRow, name: ImportArtifact): Promise<{ key: string; size: number; sha256: string }> {
  const key = artifactKey(job, name);
  const head = await files.head(key);
  if (head?.customMetadata?.sha256) return { key, size: head.size, sha256: head.customMetadata.sha256 };
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const text of name === "receipt" ? receiptLines(ctx, job) : problemLines(ctx, job)) {
    const bytes = encoder.encode(text);
    parts.push(bytes);
    size += bytes.length;
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    whole.set(p, at);
    at += p.length;
  }
  const sha256 = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", whole)));
  await files.put(key, whole, { httpMetadata: { contentType: ARTIFACT_CONTENT_TYPE }, customMetadata: { sha256 }, sha256 });
  return { key, size, sha256 };
}

export interface ArtifactChunk {
  /** The range's bytes (none when read `withBytes: false`: `length` still says how many). */
  bytes: Uint8Array;
  name: ImportArtifact;
  content_type: string;
  offset: number;
  length: number;
  total: number;
  next_offset: number | null;
  sha256: string;
  /** Always null: the fields of readExportChunk's answer, which spec 2 gives both reads. */
  page: null;
  next_page: null;
  position: number;
}

/** The artifact of a settled job, built (once per job position) and ready to read. */
export interface ArtifactFile {
  key: string;
  name: ImportArtifact;
  size: number;
  sha256: string;
  position: number;
}

/**
 * The receipt or problem file of a job that is settled (done, cancelled, failed, undone, paused;
 * else 409 `import_state_conflict`), built at the job's position if it was not yet.
 */
export async function settledArtifact(ctx: Pick<LifecycleContext, "d1" | "site" | "actor">, files: R2Bucket, jobId: string, name: ImportArtifact): Promise<ArtifactFile> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, jobId);
  if (!SETTLED.includes(job.state)) throw new AppError("import_state_conflict", "The receipt and problem file are read once the job is done, cancelled, failed, undone or paused.", { state: job.state, position: job.position });
  return { ...(await artifactObject(ctx, files, job, name)), name, position: job.position };
}

/** The whole artifact, streamed from R2: the answer to a byte read whose `If-Range` no longer matches. */
export async function artifactStream(files: R2Bucket, file: ArtifactFile): Promise<ReadableStream<Uint8Array>> {
  const object = await files.get(file.key);
  if (!object) throw new AppError("import_state_conflict", "The artifact is gone; read it again.", { position: file.position });
  return object.body;
}

/**
 * readImportArtifact (docs/imports.md, "Receipt and problem file"): one byte range (at most 1 MiB)
 * of a settled job's artifact, with the whole file's SHA-256 and the job position it describes. A
 * range no byte satisfies is 416 `range_not_satisfiable` (exports/byte-range.ts). `withBytes: false`
 * (a HEAD) answers everything but the bytes, reading nothing from R2.
 */
export async function readImportArtifact(files: R2Bucket, file: ArtifactFile, range: ByteRange, fromHeader: boolean, withBytes = true): Promise<ArtifactChunk> {
  const { offset, length: want } = resolveByteRange(range, file.size, ARTIFACT_CHUNK_MAX, fromHeader);
  let bytes = new Uint8Array(0);
  if (want > 0 && withBytes) {
    const read = await files.get(file.key, { range: { offset, length: want } });
    if (!read) throw new AppError("import_state_conflict", "The artifact is gone; read it again.", { position: file.position });
    bytes = new Uint8Array(await read.arrayBuffer());
  }
  const end = offset + want;
  return { bytes, name: file.name, content_type: ARTIFACT_CONTENT_TYPE, offset, length: want, total: file.size, next_offset: end < file.size ? end : null, sha256: file.sha256, page: null, next_page: null, position: file.position };
}
