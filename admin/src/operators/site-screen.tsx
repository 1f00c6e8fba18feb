import { useState } from "preact/hooks";
import { ops } from "../api/client";
import { describeError } from "../api/error-words";
import { navigate, paths } from "../router";
import type { OperatorScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button, Link, Loading, Notice, PageHeader } from "../ui/controls";
import { useAction } from "../ui/use-action";
import { CopySiteDialog } from "./copy-site-dialog";
import { DeleteSiteDialog } from "./delete-site-dialog";
import { InviteAdministrator } from "./invite-administrator";
import { SiteHosts } from "./site-hosts";
import { entryFigures, formatBytes, formatWhen, OPERATOR_WORDS, type OpsSite } from "./words";
import "../styles/operators.css";

/**
 * One site, for a superadmin (issue #23 item 5, docs/admin-ui-operators.md): its figures, hosts,
 * administrator invitation, suspend and resume, copy, and delete (suspended sites only, with the
 * slug typed to confirm).
 */
export default function SiteScreen({ params }: OperatorScreenProps) {
  const ref = params.site ?? "";
  const loaded = useLoad((signal) => ops("getSite", { params: { id: ref }, signal }), [ref]);
  const [site, setSite] = useState<OpsSite | null>(null);
  const [said, setSaid] = useState("");
  const [asking, setAsking] = useState<"suspend" | "copy" | "delete" | null>(null);
  const state = useAction();
  const shown = site && site.slug === ref ? site : (loaded.data ?? null);

  if (loaded.error) {
    return (
      <>
        <PageHeader title="Site" />
        <Notice kind="error" title={describeError(loaded.error, OPERATOR_WORDS).title} />
        <p>
          <Link href={paths.operatorSites()}>All sites</Link>
        </p>
      </>
    );
  }
  if (!shown) return <Loading label="Loading the site…" />;

  const changed = (next: OpsSite, words: string) => {
    setSite(next);
    setSaid(words);
  };

  const setSuspended = async (suspend: boolean) => {
    const outcome = await state.attempt(suspend ? "suspend" : "resume", (key) => ops(suspend ? "suspendSite" : "resumeSite", { params: { id: shown.id }, body: {}, key }));
    if (outcome?.ok) {
      setAsking(null);
      changed(outcome.value, suspend ? `${shown.name} is suspended: its public API and admin are read-only.` : `${shown.name} is active again.`);
    }
  };

  const f = shown.figures;
  return (
    <>
      <p>
        <Link href={paths.operatorSites()}>← All sites</Link>
      </p>
      <PageHeader title={shown.name}>{shown.suspended ? <span class="badge badge-suspended">Suspended</span> : <span class="badge badge-active">Active</span>}</PageHeader>
      <p class="operators-said" role="status" aria-live="polite">
        {said}
      </p>
      <dl class="operators-facts">
        <dt>Slug</dt>
        <dd>
          <code>{shown.slug}</code>
        </dd>
        <dt>Id</dt>
        <dd>
          <code>{shown.id}</code>
        </dd>
        <dt>Languages</dt>
        <dd>
          {shown.languages.join(", ")} (default {shown.default_lang})
        </dd>
        <dt>Database</dt>
        <dd>{shown.database}</dd>
        <dt>Entries</dt>
        <dd>{entryFigures(f.entries)}</dd>
        <dt>Media</dt>
        <dd>
          {f.media.files} {f.media.files === 1 ? "file" : "files"}, {formatBytes(f.media.bytes)}
        </dd>
        <dt>Members</dt>
        <dd>{f.members}</dd>
        <dt>Last change</dt>
        <dd>{formatWhen(f.last_write_at)}</dd>
        <dt>Created</dt>
        <dd>{formatWhen(shown.created_at)}</dd>
        {shown.suspended ? (
          <>
            <dt>Suspended</dt>
            <dd>{formatWhen(shown.suspended_at)}</dd>
          </>
        ) : null}
      </dl>

      <SiteHosts site={shown} onChanged={changed} />
      <InviteAdministrator site={shown} />

      <section class="stack operators-section" aria-labelledby="operators-state">
        <h2 id="operators-state">Suspend, copy or delete</h2>
        {state.error && asking === null ? <Notice kind="error" title={describeError(state.error, OPERATOR_WORDS).title} /> : null}
        <div class="row">
          {shown.suspended ? (
            <Button busy={state.busy === "resume"} onClick={() => void setSuspended(false)}>
              Resume site
            </Button>
          ) : (
            <Button onClick={() => setAsking("suspend")}>Suspend site…</Button>
          )}
          <Button onClick={() => setAsking("copy")}>Copy site…</Button>
          <Button variant="danger" disabled={!shown.suspended} aria-describedby="operators-delete-hint" onClick={() => setAsking("delete")}>
            Delete site…
          </Button>
        </div>
        <p id="operators-delete-hint" class="muted">
          {shown.suspended ? "Deleting removes the site and everything in it for good." : "Only a suspended site can be deleted: suspend it first."}
        </p>
      </section>

      <ConfirmDialog
        open={asking === "suspend"}
        title={`Suspend ${shown.name}?`}
        confirm="Suspend site"
        busy={state.busy === "suspend"}
        error={state.error}
        onConfirm={() => void setSuspended(true)}
        onClose={() => {
          state.clearError();
          setAsking(null);
        }}
      >
        <p>Its public API keeps serving what is published, but nobody can change anything — in the admin, through credentials or plugins — until it is resumed.</p>
      </ConfirmDialog>
      <CopySiteDialog open={asking === "copy"} template={shown} onClose={() => setAsking(null)} onCopied={(copy) => navigate(paths.operatorSite(copy.slug))} />
      <DeleteSiteDialog
        open={asking === "delete"}
        site={shown}
        onClose={() => setAsking(null)}
        onDeleted={(receipt) => navigate(`${paths.operatorSites()}?deleted=${encodeURIComponent(receipt.slug)}`)}
      />
    </>
  );
}
