import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from "../../shared/services/exports/jobs";
import { seedSite } from "../helpers/fixtures";
import { advanceWhile, allFindings, newImport, uploadFile } from "../helpers/imports-api";
import { credential } from "../helpers/manage-api";

/**
 * Probe finding (session 17): a Driftwood export line larger than a D1 row may hold failed the
 * parse step with 500 `internal` (SQLITE_TOOBIG) at every advance, the job stuck in `parsing`. A
 * Driftwood export never writes such a record, so the file is refused like any malformed one
 * (docs/imports.md, "Driftwood exports").
 */
describe("Driftwood import: a record too large to stage", () => {
  it("fails the job with import_file_invalid (record_too_large), nothing staged", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const lines = [
      { format: EXPORT_FORMAT, version: EXPORT_FORMAT_VERSION },
      { type: "model", slug: "note", name: "Note" },
      { type: "entry", instance_id: "ent_big", model: "note", lang: "en", fields: { title: "x".repeat(3_200_000) } },
      { type: "end" },
    ];
    const job = await newImport(token, "driftwood", "export.jsonl");
    expect((await uploadFile(token, job.id, new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n"))).status).toBe(200);
    const failed = await advanceWhile(token, job.id, ["uploaded", "parsing"]);
    expect(failed.state).toBe("failed");
    expect(failed.failure).toMatchObject({ code: "import_file_invalid", reason: "record_too_large" });
    expect((await allFindings(token, job.id)).map((f) => [f.code, f.details.reason])).toEqual([["import_file_invalid", "record_too_large"]]);
    const staged = await env.DB.prepare("SELECT count(*) AS n FROM import_items WHERE job_id = ?").bind(job.id).first<{ n: number }>();
    expect(staged?.n).toBe(0);
  });
});
