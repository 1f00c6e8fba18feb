import { useEffect, useRef, useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { navigate, paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Loading, PageHeader } from "../ui/controls";
import { Meter } from "./import-screen";
import { OutcomeNotice, SiteNav, blobAddress, readWhole, useOutcome } from "./shared";
import "../styles/site.css";

type Export = ManageAnswer<"getExportJob">["export"];

const SECTION_WORDS: Record<Export["section"], string> = {
  header: "models and roles",
  entries: "entries",
  media: "media records",
  end: "the end record",
  seal: "the checksum",
};

/**
 * Export (issue #28 item 6, docs/exports.md): a whole-site export built by this screen one page
 * at a time (`advanceExport`, progress in pages and bytes), then read range by range, its SHA-256
 * checked, and offered as a file to save. The export's id is in the address (`?job=`).
 */
export default function ExportScreen({ site, search }: ScreenProps) {
  const jobId = search.get("job");
  const note = useOutcome();
  const [job, setJob] = useState<Export | null>(null);
  const [building, setBuilding] = useState(false);
  const [reading, setReading] = useState<{ done: number; total: number } | null>(null);
  const [file, setFile] = useState<{ href: string; bytes: number; sha256: string } | null>(null);
  const stop = useRef(false);
  const loaded = useLoad((signal) => (jobId ? manage("getExportJob", { params: { id: jobId }, signal }) : Promise.resolve(null)), [jobId]);
  useEffect(() => {
    if (loaded.data) setJob(loaded.data.export);
  }, [loaded.data]);
  useEffect(() => () => void (stop.current = true), []);

  const build = async (from?: Export) => {
    setBuilding(true);
    setFile(null);
    try {
      let current = from ?? (await manage("createExport", { body: {}, key: newActionKey() })).export;
      setJob(current);
      while (current.state === "building" && !stop.current) {
        current = (await manage("advanceExport", { params: { id: current.id }, body: {}, key: newActionKey() })).export;
        setJob(current);
        note.say(`Building: page ${current.pages} written (${SECTION_WORDS[current.section]}).`, "info");
      }
      // The address names the export once built, so a reload finds it.
      if (current.id !== jobId) navigate(paths.siteExport(site, current.id), { replace: true });
      if (current.state === "finished") note.say(`The export is ready: ${current.total_bytes.toLocaleString()} bytes in ${current.pages} pages.`);
    } catch (error) {
      note.fail(error);
    } finally {
      setBuilding(false);
    }
  };

  const download = async (exportId: string) => {
    setReading({ done: 0, total: job?.total_bytes ?? 0 });
    try {
      const whole = await readWhole(
        (offset) => manage("readExportChunk", { params: { id: exportId }, query: { offset: String(offset) } }),
        (done, total) => setReading({ done, total }),
      );
      setFile({ href: blobAddress(whole.bytes, "application/x-ndjson"), bytes: whole.bytes.length, sha256: whole.sha256 });
      note.say("The file is read and its SHA-256 checked. Save it with the link below.");
    } catch (error) {
      note.fail(error);
    } finally {
      setReading(null);
    }
  };

  return (
    <>
      <PageHeader title="Export" />
      <SiteNav site={site} />
      <section class="stack site-panel" aria-labelledby="export-heading">
        <h2 id="export-heading">Export the whole site</h2>
        <p class="muted">Models, entries in every language (published and current versions), relations, media records and roles, in Driftwood's export format (version 1). Never secrets. Another Driftwood site imports it.</p>
        <OutcomeNotice outcome={note.outcome} />
        {jobId && loaded.loading && !job ? <Loading label="Loading the export…" /> : null}
        {job ? (
          <>
            <dl class="site-facts">
              <dt>State</dt>
              <dd>{job.state === "finished" ? "Ready" : job.state === "building" ? `Building (${SECTION_WORDS[job.section]})` : "Cancelled"}</dd>
              <dt>Pages</dt>
              <dd>{job.pages}</dd>
              <dt>Size</dt>
              <dd>{job.total_bytes.toLocaleString()} bytes</dd>
              {job.sha256 ? (
                <>
                  <dt>SHA-256</dt>
                  <dd class="mono">{job.sha256}</dd>
                </>
              ) : null}
            </dl>
            {reading ? <Meter label="Download" value={reading.done} max={reading.total} text={`${reading.done.toLocaleString()} of ${reading.total.toLocaleString()} bytes read`} /> : null}
          </>
        ) : null}
        <div class="row">
          {!job || job.state !== "building" ? (
            <Button variant={job?.state === "finished" ? undefined : "primary"} busy={building} onClick={() => void build()}>
              Build a new export
            </Button>
          ) : (
            <Button variant="primary" busy={building} onClick={() => void build(job)}>
              Go on building
            </Button>
          )}
          {job?.state === "finished" && !file ? (
            <Button variant="primary" busy={reading !== null} onClick={() => void download(job.id)}>
              Download
            </Button>
          ) : null}
          {file ? (
            <a class="button button-primary" href={file.href} download={`${site}-export-${job?.id ?? ""}.ndjson`}>
              Save the export file ({file.bytes.toLocaleString()} bytes)
            </a>
          ) : null}
        </div>
      </section>
    </>
  );
}
