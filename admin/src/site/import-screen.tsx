import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { navigate, paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, Notice, PageHeader } from "../ui/controls";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ImportFindings, ImportReceipt, ImportReview } from "./import-parts";
import { OutcomeNotice, SiteNav, sha256Hex, toBase64, useOutcome } from "./shared";
import "../styles/site.css";

type Job = ManageAnswer<"getImportJob">["import"];

/** The part size of an import upload (spec 2: 5 MiB parts; schema/manage-imports.ts IMPORT_PART_BYTES). */
const PART_BYTES = 5 * 1024 * 1024;
/** States in which the screen drives `advanceImport` step by step. */
const RUNNING: readonly Job["state"][] = ["uploaded", "parsing", "writing"];

const STATE_WORDS: Record<Job["state"], string> = {
  awaiting_upload: "Waiting for its file",
  uploaded: "File received",
  parsing: "Reading the file",
  review: "Waiting for your review",
  writing: "Writing content",
  paused: "Paused",
  done: "Done",
  cancelled: "Cancelled",
  failed: "Failed: the file was refused",
  undoing: "Undoing",
  undone: "Undone",
};

/**
 * Import (issue #28 item 6, docs/admin-ui-site.md): a WordPress export (WXR) uploaded in 5 MiB
 * parts with a progress bar and its SHA-256 checked, then the job driven by this screen one
 * bounded step at a time (`advanceImport`), stopping at the review (the mapping and new slugs for
 * taken addresses), with pause / resume / cancel / undo, its findings and its receipt. The job's
 * id is in the address (`?job=`), so a reload picks the job up where it is.
 */
export default function ImportScreen({ site, search }: ScreenProps) {
  const jobId = search.get("job");
  return (
    <>
      <PageHeader title="Import" />
      <SiteNav site={site} />
      {jobId ? <JobView site={site} jobId={jobId} /> : <UploadForm site={site} />}
    </>
  );
}

function UploadForm({ site }: { site: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<{ done: number; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const note = useOutcome();

  const start = async (event: Event) => {
    event.preventDefault();
    if (!file || busy) return;
    setBusy(true);
    note.say(`Uploading ${file.name}…`, "info");
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const { source } = await manage("createImportSource", { body: { kind: "wordpress", name: file.name.slice(0, 200) }, key: newActionKey() });
      const { import: job } = await manage("createImport", { body: { source_id: source.id, file_name: file.name.slice(0, 255) }, key: newActionKey() });
      const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
      setSent({ done: 0, total: bytes.length });
      for (let part = 1; part <= parts; part++) {
        const slice = bytes.subarray((part - 1) * PART_BYTES, part * PART_BYTES);
        // A part's key follows from its bytes: sending the same part again is the same write.
        const key = `ui-part-${job.id}-${part}-${(await sha256Hex(slice)).slice(0, 32)}`;
        const body = { content_base64: toBase64(slice) };
        await again(() => manage("uploadImportPart", { params: { id: job.id, part: String(part) }, body, key }));
        setSent({ done: Math.min(bytes.length, part * PART_BYTES), total: bytes.length });
      }
      const complete = { sha256: await sha256Hex(bytes) };
      const completeKey = newActionKey();
      await again(() => manage("completeImportUpload", { params: { id: job.id }, body: complete, key: completeKey }));
      navigate(paths.siteImport(site, job.id), { replace: true });
    } catch (error) {
      note.fail(error);
      setBusy(false);
    }
  };

  return (
    <form class="stack site-panel" aria-labelledby="upload-heading" onSubmit={(e) => void start(e)}>
      <h2 id="upload-heading">Import a WordPress export</h2>
      <p class="muted">In WordPress: Tools › Export › All content. Nothing is written before you approve the review.</p>
      <OutcomeNotice outcome={note.outcome} />
      <Field label="WordPress export file (WXR)" hint="An .xml file of at most 100 MiB, sent in parts of 5 MiB.">
        {({ id, describedBy }) => <input id={id} type="file" accept=".xml,application/xml,text/xml" aria-describedby={describedBy} onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />}
      </Field>
      {sent ? <Meter label="Upload" value={sent.done} max={sent.total} text={`${sent.done.toLocaleString()} of ${sent.total.toLocaleString()} bytes sent`} /> : null}
      <div class="row">
        <Button type="submit" variant="primary" busy={busy} disabled={!file}>
          Upload and read the file
        </Button>
      </div>
    </form>
  );
}

/**
 * A write that may be sent again with the same key: tried up to three times while it fails without
 * a refusal the service decided (no answer, or a 5xx such as a runtime restarted mid-request).
 */
async function again<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const decided = error instanceof ApiError && error.status < 500;
      if (decided || attempt >= 3) throw error;
    }
  }
}

/** A labelled progress bar with its figures in words beside it. */
export function Meter({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  return (
    <div class="meter">
      <label>
        <span>{label}</span>
        <progress value={value} max={Math.max(1, max)} aria-valuetext={text} />
      </label>
      <span class="muted">{text}</span>
    </div>
  );
}

function JobView({ site, jobId }: { site: string; jobId: string }) {
  const [job, setJob] = useState<Job | null>(null);
  const [running, setRunning] = useState<null | "advance" | "undo">(null);
  const [confirm, setConfirm] = useState<null | "cancel" | "undo">(null);
  const [round, setRound] = useState(0);
  const stop = useRef(false);
  const loop = useRef<Promise<void> | null>(null);
  const note = useOutcome();
  const loaded = useLoad((signal) => manage("getImportJob", { params: { id: jobId }, signal }), [jobId]);
  useEffect(() => {
    if (loaded.data) setJob(loaded.data.import);
  }, [loaded.data]);
  useEffect(() => () => void (stop.current = true), []);

  /** Steps the job until it waits for a person, ends, or is stopped; each step a new action. */
  const drive = (how: "advance" | "undo", first?: () => Promise<{ import: Job }>) => {
    if (loop.current) return;
    stop.current = false;
    setRunning(how);
    note.say(how === "advance" ? "Importing…" : "Undoing…", "info");
    loop.current = (async () => {
      try {
        let current = first ? (await first()).import : job;
        if (current) setJob(current);
        // The first step may leave a waiting state: an approved review, a finished job to undo.
        let opening = true;
        while (current && !stop.current) {
          const step =
            how === "advance"
              ? RUNNING.includes(current.state) || (opening && current.state === "review" && Boolean(first))
              : current.state === "undoing" || (opening && (current.state === "done" || current.state === "cancelled"));
          if (!step) break;
          current = (await manage(how === "advance" ? "advanceImport" : "advanceImportUndo", { params: { id: jobId }, body: {}, key: newActionKey() })).import;
          opening = false;
          setJob(current);
          note.say(progressWords(current), "info");
        }
        if (current) note.say(stop.current ? `Stopped: ${progressWords(current)}` : endWords(current), current.state === "failed" ? "error" : "success");
      } catch (error) {
        note.fail(error);
      } finally {
        loop.current = null;
        setRunning(null);
        setRound((n) => n + 1);
      }
    })();
  };

  const once = async (operation: "pauseImport" | "resumeImport" | "cancelImport", done: string) => {
    if (loop.current) {
      stop.current = true;
      await loop.current;
    }
    try {
      const answer = await manage(operation, { params: { id: jobId }, body: {}, key: newActionKey() });
      setJob(answer.import);
      note.say(done);
      if (operation === "resumeImport" && RUNNING.includes(answer.import.state)) drive("advance");
    } catch (error) {
      note.fail(error);
    } finally {
      setRound((n) => n + 1);
    }
  };

  if (loaded.error && !job) return <OutcomeNotice outcome={{ kind: "error", title: "This import could not be read.", detail: (loaded.error as Error).message }} />;
  if (!job) return <Loading label="Loading the import…" />;
  const p = job.progress;
  const canPause = ["uploaded", "parsing", "review", "writing"].includes(job.state);
  const canUndo = job.state === "done" || job.state === "cancelled" || job.state === "undoing";
  const settled = ["done", "cancelled", "failed", "undone", "paused"].includes(job.state);

  return (
    <div class="stack">
      <section class="stack site-panel" aria-labelledby="job-heading">
        <h2 id="job-heading">{job.file.name}</h2>
        <dl class="site-facts">
          <dt>State</dt>
          <dd>{STATE_WORDS[job.state]}</dd>
          <dt>File</dt>
          <dd>{job.file.bytes === null ? "not received" : `${job.file.bytes.toLocaleString()} bytes`}</dd>
          <dt>Findings</dt>
          <dd>{p.findings}</dd>
        </dl>
        <Meter label="Items" value={p.items_done} max={p.items_total} text={`${p.items_done} of ${p.items_total} items`} />
        {job.file.bytes ? <Meter label="File read" value={p.parsed_bytes} max={job.file.bytes} text={`${Math.round((100 * p.parsed_bytes) / Math.max(1, job.file.bytes))} % of the file read`} /> : null}
        {job.failure ? <Notice kind="warning" title={`The file was refused: ${job.failure.message}`} /> : null}
        <OutcomeNotice outcome={note.outcome} />
        <div class="row">
          {RUNNING.includes(job.state) ? (
            <Button variant="primary" busy={running === "advance"} onClick={() => drive("advance")}>
              {job.state === "writing" ? "Go on importing" : "Read the file"}
            </Button>
          ) : null}
          {canPause ? (
            <Button disabled={job.state === "paused"} onClick={() => void once("pauseImport", "The import is paused. Resume it to go on.")}>
              Pause
            </Button>
          ) : null}
          {job.state === "paused" ? (
            <Button variant="primary" onClick={() => void once("resumeImport", "The import goes on where it was.")}>
              Resume
            </Button>
          ) : null}
          {["awaiting_upload", "uploaded", "parsing", "review", "writing", "paused"].includes(job.state) ? (
            <Button variant="danger" onClick={() => setConfirm("cancel")}>
              Cancel the import
            </Button>
          ) : null}
          {canUndo ? (
            <Button variant="danger" busy={running === "undo"} onClick={() => setConfirm("undo")}>
              Undo the import
            </Button>
          ) : null}
          {running ? (
            <Button variant="ghost" onClick={() => (stop.current = true)}>
              Stop after this step
            </Button>
          ) : null}
        </div>
      </section>
      {job.state === "review" ? (
        <ImportReview
          jobId={jobId}
          onApproved={(approve) => drive("advance", approve)}
          onError={(error) => note.fail(error)}
          busy={running !== null}
        />
      ) : null}
      <ImportFindings jobId={jobId} round={`${round}-${job.position}-${running ? "run" : "idle"}`} skip={running !== null} />
      {settled ? <ImportReceipt jobId={jobId} position={job.position} /> : null}
      <p>
        <a href={paths.siteImport(site)} onClick={(e) => (e.preventDefault(), navigate(paths.siteImport(site)))}>
          Start another import
        </a>
      </p>
      <ConfirmDialog
        open={confirm === "cancel"}
        title="Cancel this import?"
        confirm="Cancel the import"
        cancel="Keep it"
        danger
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          void once("cancelImport", "The import is cancelled. What it wrote stays until you undo it.");
        }}
      >
        <p>It stops for good. Entries already written stay until you undo the import.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === "undo"}
        title="Undo this import?"
        confirm="Undo the import"
        danger
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          drive("undo");
        }}
      >
        <p>Everything the import created is removed, except what someone changed since (the findings list it).</p>
      </ConfirmDialog>
    </div>
  );
}

function progressWords(job: Job): string {
  return `${STATE_WORDS[job.state]}: ${job.progress.items_done} of ${job.progress.items_total} items, ${job.progress.findings} findings.`;
}

function endWords(job: Job): string {
  if (job.state === "review") return `The file is read: ${job.progress.items_total} items. Review what will be created, then approve.`;
  if (job.state === "done") return `The import is done: ${job.progress.items_done} of ${job.progress.items_total} items, ${job.progress.findings} findings.`;
  if (job.state === "undone") return "The import is undone.";
  return progressWords(job);
}
