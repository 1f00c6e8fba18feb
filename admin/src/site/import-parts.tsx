import { useEffect, useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, Notice } from "../ui/controls";
import { blobAddress, readWhole } from "./shared";

type Job = ManageAnswer<"getImportJob">["import"];
const KINDS = [
  { kind: "post", label: "Posts" },
  { kind: "page", label: "Pages" },
  { kind: "category", label: "Categories" },
  { kind: "tag", label: "Tags" },
] as const;
type Kind = (typeof KINDS)[number]["kind"];

/**
 * The WordPress review (getWordPressReview, decideWordPressReview): what the file holds by kind
 * and status, the model each kind goes into (the proposal chosen, changeable, or left out), and a
 * new slug for each address already taken — nothing is written before "Approve and import".
 */
export function ImportReview({ jobId, onApproved, onError, busy }: { jobId: string; onApproved: (approve: () => Promise<{ import: Job }>) => void; onError: (error: unknown) => void; busy: boolean }) {
  const loaded = useLoad(async (signal) => {
    const [review, models] = await Promise.all([manage("getWordPressReview", { params: { id: jobId }, signal }), manage("listModels", { signal })]);
    return { review, models: models.data };
  }, [jobId]);
  const [mapping, setMapping] = useState<Record<Kind, string>>({ post: "", page: "", category: "", tag: "" });
  const [renames, setRenames] = useState<Record<string, string>>({});
  useEffect(() => {
    const r = loaded.data?.review;
    if (!r) return;
    const pick = (k: Kind) => (r.mapping.chosen?.[k] ?? r.mapping.proposed[k] ?? "") || "";
    setMapping({ post: pick("post"), page: pick("page"), category: pick("category"), tag: pick("tag") });
  }, [loaded.data]);

  if (loaded.error) return <Notice kind="error" title={describeError(loaded.error).title} />;
  if (!loaded.data) return <Loading label="Loading the review…" />;
  const { review, models } = loaded.data;

  const approve = () =>
    manage("decideWordPressReview", {
      params: { id: jobId },
      body: {
        mapping: { post: mapping.post || null, page: mapping.page || null, category: mapping.category || null, tag: mapping.tag || null },
        renames: Object.fromEntries(Object.entries(renames).filter(([, slug]) => slug.trim() !== "").map(([seq, slug]) => [seq, slug.trim()])),
        approve: true,
      },
      key: newActionKey(),
    });

  return (
    <section class="stack site-panel" aria-labelledby="review-heading">
      <h2 id="review-heading">Review before anything is written</h2>
      <table class="list">
        <caption>What the file holds</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Items</th>
            <th scope="col">By WordPress status</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(review.counts).map(([kind, c]) => (
            <tr>
              <th scope="row">{kind}</th>
              <td>{c.total}</td>
              <td>
                {Object.entries(c.by_status)
                  .map(([status, n]) => `${status}: ${n}`)
                  .join(", ")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <fieldset class="stack">
        <legend>Where each kind goes</legend>
        {KINDS.map(({ kind, label }) => (
          <Field label={`${label} go into`}>
            {({ id }) => (
              <select id={id} value={mapping[kind]} onChange={(e) => setMapping({ ...mapping, [kind]: (e.currentTarget as HTMLSelectElement).value })}>
                <option value="">Leave out</option>
                {models.map((m) => (
                  <option value={m.id}>{m.name}</option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </fieldset>
      {review.conflicts.length > 0 ? (
        <fieldset class="stack">
          <legend>Addresses already taken ({review.conflicts.length})</legend>
          <p class="muted">Give each a new slug, or leave it empty to skip the item (it is reported, never renamed silently).</p>
          {review.conflicts.map((c) => (
            <Field label={`New slug for ${c.kind} “${c.slug}” (item ${c.item_seq})`}>
              {({ id }) => <input id={id} type="text" class="mono" value={renames[String(c.item_seq)] ?? ""} onInput={(e) => setRenames({ ...renames, [String(c.item_seq)]: (e.currentTarget as HTMLInputElement).value })} />}
            </Field>
          ))}
        </fieldset>
      ) : (
        <p class="muted">No address of the file is taken on this site.</p>
      )}
      <div class="row">
        <Button
          variant="primary"
          busy={busy}
          onClick={() =>
            onApproved(async () => {
              try {
                return await approve();
              } catch (error) {
                onError(error);
                throw error;
              }
            })
          }
        >
          Approve and import
        </Button>
      </div>
    </section>
  );
}

/** The job's findings, first page (100), oldest first; re-read when the job has moved. */
export function ImportFindings({ jobId, round, skip }: { jobId: string; round: string; skip: boolean }) {
  const [pages, setPages] = useState<ManageAnswer<"getImportFindings">["findings"][]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (skip) return;
    const abort = new AbortController();
    manage("getImportFindings", { params: { id: jobId }, signal: abort.signal }).then(
      (page) => {
        setPages([page.findings]);
        setNext(page.next_cursor);
      },
      (e: unknown) => !abort.signal.aborted && setError(e),
    );
    return () => abort.abort();
  }, [jobId, round, skip]);
  const more = async () => {
    if (!next) return;
    const page = await manage("getImportFindings", { params: { id: jobId }, query: { cursor: next } });
    setPages([...pages, page.findings]);
    setNext(page.next_cursor);
  };
  const findings = pages.flat();
  return (
    <section class="stack site-panel" aria-labelledby="findings-heading">
      <h2 id="findings-heading">Findings</h2>
      {error ? <Notice kind="error" title={describeError(error).title} /> : null}
      {findings.length === 0 ? (
        <p class="muted">No finding yet.</p>
      ) : (
        <table class="list responsive">
          <caption class="visually-hidden">Findings, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Code</th>
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody>
            {findings.map((f) => (
              <tr>
                <td>{f.item_seq ?? "the file"}</td>
                <td class="mono">{f.code}</td>
                <td>{f.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next ? <Button onClick={() => void more()}>More findings</Button> : null}
    </section>
  );
}

type ReceiptHeader = { state: string; items: { total: number; done: number; by_kind: Record<string, Record<string, number>> }; findings: number };

/**
 * The receipt of a settled job (readImportArtifact, read range by range, its SHA-256 checked):
 * counts by kind and outcome on screen, the whole NDJSON file (and the problem file) to save.
 */
export function ImportReceipt({ jobId, position }: { jobId: string; position: number }) {
  const [receipt, setReceipt] = useState<{ header: ReceiptHeader; href: string; problems: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setReceipt(null), [position]);
  const read = async () => {
    setBusy(true);
    setError(null);
    try {
      const file = (name: "receipt" | "problems") => readWhole((offset) => manage("readImportArtifact", { params: { id: jobId, name }, query: { offset: String(offset) } }));
      const [r, p] = await Promise.all([file("receipt"), file("problems")]);
      const text = new TextDecoder().decode(r.bytes);
      const header = JSON.parse(text.slice(0, text.indexOf("\n"))) as ReceiptHeader;
      setReceipt({ header, href: blobAddress(r.bytes, "application/x-ndjson"), problems: p.bytes.length ? blobAddress(p.bytes, "application/x-ndjson") : null });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="stack site-panel" aria-labelledby="receipt-heading">
      <h2 id="receipt-heading">Receipt</h2>
      {error ? <Notice kind="error" title={describeError(error).title} /> : null}
      {receipt ? (
        <>
          <table class="list">
            <caption>What the import did ({receipt.header.items.done} of {receipt.header.items.total} items, {receipt.header.findings} findings)</caption>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(receipt.header.items.by_kind).map(([kind, states]) => (
                <tr>
                  <th scope="row">{kind}</th>
                  <td>
                    {Object.entries(states)
                      .map(([state, n]) => `${state}: ${n}`)
                      .join(", ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="row">
            <a href={receipt.href} download={`import-${jobId}-receipt.ndjson`}>
              Save the receipt
            </a>
            {receipt.problems ? (
              <a href={receipt.problems} download={`import-${jobId}-problems.ndjson`}>
                Save the problem file
              </a>
            ) : null}
          </p>
        </>
      ) : (
        <Button busy={busy} onClick={() => void read()}>
          Show the receipt
        </Button>
      )}
    </section>
  );
}
