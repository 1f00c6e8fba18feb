import { useEffect, useRef, useState } from "preact/hooks";
import { admin, ApiError, manage } from "../api/client";
import { fieldIssues } from "../api/error-words";
import type { Entry } from "../fields/types";
import { paths } from "../router";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button, Link, Loading, StateBadge } from "../ui/controls";
import { AssignDialog } from "./assign-dialog";
import { clock, holderName, LeaseBanner } from "./lease-banner";
import { dropRecovery, keepRecovery, readRecovery, type RecoveryDraft } from "./recovery-drafts";
import { RecoveryPanel, recoveryTitle } from "./recovery-panel";
import { ScheduleDialog } from "./schedule-dialog";
import { sameValues, useKeptWhileTyping } from "./unsaved-text";
import { RefusalPanel, type Dependent } from "./refusal-panel";
import { useAction } from "../ui/use-action";
import type { LeaseState } from "./use-lease";
import "../styles/lifecycle.css";

/**
 * The entry editor's lifecycle bar (issue #15 items 5 and 6; docs/admin-ui-lifecycle.md): save
 * draft, publish / unpublish this language, workflow moves and assignment, Trash and restore,
 * preview, versions; the lease banner (observer, take over) and the personal recovery draft.
 * No business rule lives here: the buttons follow what the entry answer offers
 * (`workflow.transitions`), and every refusal of the service is shown in words.
 */
export interface EntryActionsProps {
  site: string;
  entry: Entry;
  /** The form's current values (what a save sends) and whether they differ from the entry's. */
  values: Record<string, unknown>;
  dirty: boolean;
  lease: LeaseState;
  /** A write answered with the entry: the editor shows it and resets its form to it. */
  onEntry: (entry: Entry) => void;
  /** A refusal naming fields (`field_validation_failed`): the editor shows each under its field. */
  onIssues: (issues: Map<string, string[]>) => void;
  /** "Restore my text": put the recovery draft's values back into the form. Without it, the panel only offers Discard. */
  onRestore?: (values: Record<string, unknown>) => void;
  /** The slug the form holds, when the editor edits it (sent with a save when it changed). */
  slug?: string | null;
  /** Field labels by key, to name fields in refusals. */
  fieldLabels?: Record<string, string>;
  /** Hide the Versions link (on the versions screen itself). */
  hideVersionsLink?: boolean;
}

const STATE_NAMES: Record<string, string> = { draft: "Draft", in_review: "In review", published: "Published", unpublished: "Unpublished" };
const stateName = (state: string) => STATE_NAMES[state] ?? state.replace(/_/g, " ");

type Ask = null | "unpublish" | "trash" | "restore" | "assign" | "schedule";

let publicOrigin: Promise<string | null> | null = null;
/** Where the site's public API answers (its first host, on this page's protocol and port). */
export function siteOrigin(): Promise<string | null> {
  publicOrigin ??= admin("listSiteHosts")
    .then((answer) => {
      const host = answer.data[0]?.host;
      return host ? `${window.location.protocol}//${host}${window.location.port ? `:${window.location.port}` : ""}` : null;
    })
    .catch(() => null);
  return publicOrigin;
}

export function EntryActions(props: EntryActionsProps) {
  const { site, entry, values, dirty, lease } = props;
  const id = entry.instance_id;
  const lang = entry.lang;
  const action = useAction();
  const [error, setError] = useState<unknown>(null);
  const [dependents, setDependents] = useState<Dependent[] | null>(null);
  const [status, setStatus] = useState("");
  const [ask, setAsk] = useState<Ask>(null);
  const [languageOnly, setLanguageOnly] = useState(true);
  const [recovery, setRecovery] = useState<RecoveryDraft | null>(null);
  const [reloading, setReloading] = useState(false);
  const [restored, setRestored] = useState(false);
  const lastTry = useRef<null | (() => void)>(null);

  // The person's recovery draft is on the server (any browser, any surface that lost the lease).
  useEffect(() => {
    let live = true;
    setRecovery(null);
    setRestored(false);
    void readRecovery(id).then((draft) => {
      if (live && draft) setRecovery((kept) => kept ?? draft);
    });
    return () => {
      live = false;
    };
  }, [site, id, lang]);

  const keep = (reason: RecoveryDraft["reason"]) => {
    const draft: RecoveryDraft = { values: structuredClone(values), base_version_id: entry.current_version_id, saved_at: new Date().toISOString(), reason };
    typing.queue(() =>
      keepRecovery(id, draft).then((kept) => {
        if (!kept) setStatus("The recovery draft could not be stored; copy your text before leaving.");
      }),
    );
    setRestored(false);
    setRecovery(draft);
  };

  // A lease lost without a save (a renewal found it taken): keep the unsaved text at once.
  useEffect(() => {
    if (lease.status === "lost" && dirty && !recovery) keep("lock_lost");
  }, [lease.status]);

  // Observers re-read the entry whenever the lease is re-read (every 10 s), and once the lease is
  // theirs. A form holding the person's own unsaved (or restored) text is never overwritten: they
  // are told a newer version exists and reload when they choose.
  const [newer, setNewer] = useState(false);
  useEffect(() => {
    if (!lease.checkedAt || (lease.status === "held" && !lease.gained)) return;
    let live = true;
    manage("getEntry", { params: { id } })
      .then((fresh) => {
        if (!live || (fresh.current_version_id === entry.current_version_id && fresh.workflow.revision === entry.workflow.revision && fresh.trashed_at === entry.trashed_at)) return;
        if (dirty) setNewer(true);
        else props.onEntry(fresh);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [lease.checkedAt]);

  const reread = async () => props.onEntry(await manage("getEntry", { params: { id } }));

  // Text typed and not saved yet is kept on the server as the person's recovery draft while they
  // type (issue #30 item 7): a reload, a closed tab or a crash loses nothing; it is offered back here.
  const typing = useKeptWhileTyping({ id, values, slug: props.slug ?? null, dirty, baseVersionId: entry.current_version_id, active: lease.status === "held" && !(recovery && !restored) });

  /** Runs one user action: one key per click, the refusal in words, lock lost and conflicts kept. */
  async function act<T>(name: string, write: (key: string) => Promise<T>, done: (answer: T) => void | Promise<void>, retrying = false) {
    setError(null);
    setDependents(null);
    // A new action's outcome replaces the last one's words: no "Draft saved at…" beside a refusal.
    setStatus("");
    lastTry.current = () => void act(name, write, done, true);
    try {
      const answer = await action.run(name, write, { retrying });
      if (answer === undefined) return;
      await done(answer);
    } catch (e) {
      setError(e);
      if (e instanceof ApiError) {
        if (e.code === "lock_lost") {
          if (dirty || name === "save") keep("lock_lost");
          lease.markLost?.();
        }
        if (e.code === "version_conflict" && dirty) keep("version_conflict");
        if (e.code === "field_validation_failed") props.onIssues(fieldIssues(e));
        if (e.code === "dependent_content") setDependents(((e.details.dependents as string[] | undefined) ?? []).map((d) => ({ instance_id: d })));
      }
    }
  }

  const save = () =>
    act(
      "save",
      (key) =>
        manage("saveEntry", {
          params: { id },
          body: { expected_version_id: entry.current_version_id ?? "", fields: values, ...(props.slug != null && props.slug !== entry.slug ? { slug: props.slug } : {}) },
          key,
          headers: lease.headers,
        }),
      (saved) => {
        props.onIssues(new Map());
        props.onEntry(saved);
        // The kept text (typed, or a restored draft) is in the entry now: dropped after any keep under way.
        if (recovery && restored) setRecovery(null);
        typing.saved(Boolean(recovery && restored));
        setStatus(`Draft saved at ${clock(saved.updated_at)}${saved.replayed ? " (this save had already been made)" : ""}.`);
      },
    );

  const transition = (kind: "publish" | "unpublish") =>
    act(
      kind,
      (key) =>
        kind === "publish"
          ? manage("publishEntry", { params: { id }, body: { expected_version_id: entry.current_version_id ?? undefined, expected_workflow_revision: entry.workflow.revision }, key, headers: lease.headers })
          : manage("unpublishEntry", { params: { id }, body: { expected_published_version_id: entry.published_version_id ?? undefined, expected_workflow_revision: entry.workflow.revision }, key, headers: lease.headers }),
      (answer) => {
        setAsk(null);
        props.onIssues(new Map());
        props.onEntry(answer);
        setStatus(kind === "publish" ? `Published (${lang}) at ${clock(answer.published_at ?? answer.updated_at)}.` : `Unpublished (${lang}): it is no longer served.`);
      },
    );

  const move = (to: string) =>
    act(
      `move:${to}`,
      (key) => manage("moveEntry", { params: { id }, body: { to, expected_workflow_revision: entry.workflow.revision }, key, headers: lease.headers }),
      (answer) => {
        props.onEntry(answer);
        setStatus(`Moved to ${stateName(answer.workflow.state)}.`);
      },
    );

  const trash = () =>
    act(
      "trash",
      (key) => manage("trashEntry", { params: { id }, body: { language_only: languageOnly }, key, headers: lease.headers }),
      async () => {
        setAsk(null);
        await reread();
        setStatus("Moved to Trash.");
      },
    );

  const restore = () =>
    act(
      "restore",
      (key) => manage("restoreEntry", { params: { id }, body: {}, key }),
      async () => {
        setAsk(null);
        await reread();
        setStatus("Restored from Trash.");
      },
    );

  const preview = async () => {
    // Opened at the click (a window opened after an await is a blocked pop-up), pointed at the link once known.
    const opened = window.open("about:blank", "_blank");
    setError(null);
    try {
      const [link, origin] = await Promise.all([manage("previewEntry", { params: { id }, body: {} }), siteOrigin()]);
      const href = origin ? origin + link.url : link.url;
      if (opened) {
        opened.opener = null;
        opened.location.href = href;
      }
      setStatus(`Preview opened in a new tab (the link works until ${clock(link.expires_at)}).`);
    } catch (e) {
      opened?.close();
      // The preview's invalid_slug means the entry has no slug (no public address), not a bad one typed.
      setError(e instanceof ApiError && e.code === "invalid_slug" ? new ApiError(e.status, "preview_without_slug", "This entry has no slug, so it has no public address to preview.", e.details) : e);
    }
  };

  const askUnpublish = () => {
    setAsk("unpublish");
    setDependents(null);
    manage("listEntryDependents", { params: { id } })
      .then((answer) => setDependents(answer.data.filter((d) => d.published)))
      .catch(() => setDependents([]));
  };

  const reload = async () => {
    // The form's own text survives a reload as the recovery draft (kept now if not kept yet).
    if (dirty && !recovery) keep("version_conflict");
    setRestored(false);
    setReloading(true);
    try {
      await reread();
      setError(null);
      setStatus("Reloaded: the form shows the latest saved version.");
    } catch (e) {
      setError(e);
    } finally {
      setReloading(false);
    }
  };

  // Reload or closing the tab with text the server does not keep yet asks first (the browser's own
  // question). Text already kept (while typing, or by a take-over) is offered back on return, so
  // the page goes without a question: nothing is lost.
  const unkept = dirty && !(recovery && !restored) && !(recovery && restored && sameValues(values, recovery.values)) && !typing.keeps(values);
  useEffect(() => {
    if (!unkept) return;
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onUnload);
    return () => window.removeEventListener("beforeunload", onUnload);
  }, [unkept]);

  // Ctrl/Cmd+S saves (issue #30 item 8): the browser's "save page" never opens on the editor.
  const saveKey = useRef<() => void>(() => {});
  saveKey.current = () => {
    if (entry.trashed_at !== null || lease.status !== "held" || action.busy !== null) setStatus("Nothing can be saved here right now.");
    else if (!dirty) setStatus("No changes to save.");
    else void save();
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        saveKey.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const trashed = entry.trashed_at !== null;
  const held = lease.status === "held";
  const observing = lease.status === "other" || lease.status === "lost";
  const busy = action.busy;
  const writeBlocked = observing || lease.status === "loading";
  // While the lease is being taken the buttons wait (disabled); watching someone else, or with no lease possible, they are not offered.
  const canWrite = !observing && lease.status !== "none";
  const transitions = entry.workflow.transitions;
  const canPublish = transitions.some((t) => t.kind === "publish");
  const canUnpublish = transitions.some((t) => t.kind === "unpublish");
  const moves = transitions.filter((t) => t.kind === "move");
  const changed = entry.published_version_id !== null && entry.current_version_id !== entry.published_version_id;

  return (
    <section class="entry-actions" aria-label="Entry lifecycle">
      <div class="row entry-state">
        <StateBadge state={trashed ? "trash" : entry.workflow.state} />
        {changed && !trashed ? <StateBadge state="changed" /> : null}
        <span class="muted">Language: {lang}</span>
        {held ? <span class="muted lease-note">You are editing (others see you as the editor).</span> : null}
        {lease.status === "loading" && !trashed ? <Loading label="Checking who is editing…" /> : null}
      </div>

      {recovery && !restored && observing ? (
        // A take-over: one banner says who edits now and that the text is kept, with every action.
        <LeaseBanner lease={lease} title={recoveryTitle(recovery, holderName(lease))}>
          {(takeOverButton) => (
            <RecoveryPanel
              bare
              draft={recovery}
              holder={holderName(lease)}
              canRestore={Boolean(props.onRestore)}
              onRestore={() => {
                props.onRestore?.(structuredClone(recovery.values));
                setRestored(true);
                setStatus("Your text is back in the form. Take over editing to save it.");
              }}
              onDiscard={() => {
                void dropRecovery(id);
                setRecovery(null);
                setStatus("Recovery draft discarded.");
              }}
            >
              {takeOverButton}
            </RecoveryPanel>
          )}
        </LeaseBanner>
      ) : (
        <LeaseBanner lease={lease} />
      )}

      {recovery && !restored && !observing ? (
        <RecoveryPanel
          draft={recovery}
          holder={lease.status === "lost" || lease.status === "other" ? holderName(lease) : null}
          canRestore={Boolean(props.onRestore)}
          onRestore={() => {
            props.onRestore?.(structuredClone(recovery.values));
            setRestored(true);
            setStatus(held ? "Your text is back in the form. Save to keep it." : "Your text is back in the form. Take over editing to save it.");
          }}
          onDiscard={() => {
            void dropRecovery(id);
            setRecovery(null);
            setStatus("Recovery draft discarded.");
          }}
        />
      ) : null}

      {newer ? (
        <div class="notice notice-info" role="status">
          <strong>A newer version was saved while you watched.</strong>
          <p>Your form keeps your own text. Reload to see the saved version (keep a copy of your text first, or restore it afterwards from the recovery draft).</p>
          <Button onClick={() => void reload().then(() => setNewer(false))} busy={reloading}>
            Reload
          </Button>
        </div>
      ) : null}

      {error && !(recovery && error instanceof ApiError && error.code === "lock_lost") ? (
        <RefusalPanel site={site} error={error} dependents={dependents ?? undefined} fieldLabels={props.fieldLabels} onReload={() => void reload()} reloading={reloading} onRetry={action.retry ? () => lastTry.current?.() : undefined} />
      ) : null}

      {/* Sticky: save and publish stay in reach however long the form is (issue #30 item 8). */}
      <div class="row action-bar sticky-actions">
        {trashed ? (
          <Button variant="primary" busy={busy === "restore"} disabled={busy !== null} onClick={() => setAsk("restore")}>
            Restore from Trash
          </Button>
        ) : (
          <>
            {/* Actions an observer (or a role that cannot edit here) cannot take are not offered. */}
            {canWrite ? (
              <Button variant="primary" busy={busy === "save"} disabled={busy !== null || writeBlocked} aria-keyshortcuts="Control+S Meta+S" title="Save draft (Ctrl+S)" onClick={() => void save()}>
                Save draft
              </Button>
            ) : null}
            {canWrite && canPublish ? (
              <Button busy={busy === "publish"} disabled={busy !== null || writeBlocked || dirty} aria-describedby={dirty ? `publish-hint-${id}` : undefined} onClick={() => void transition("publish")}>
                Publish {lang}
              </Button>
            ) : null}
            {canWrite && canUnpublish ? (
              <Button busy={busy === "unpublish"} disabled={busy !== null || writeBlocked} onClick={askUnpublish}>
                Unpublish {lang}
              </Button>
            ) : null}
            {canWrite && (canPublish || canUnpublish) ? (
              <Button disabled={busy !== null || writeBlocked} onClick={() => setAsk("schedule")}>
                Schedule…
              </Button>
            ) : null}
            {canWrite
              ? moves.map((t) => (
                  <Button busy={busy === `move:${t.to}`} disabled={busy !== null || writeBlocked} onClick={() => void move(t.to)}>
                    Move to {stateName(t.to)}
                  </Button>
                ))
              : null}
            {canWrite ? (
              <Button disabled={busy !== null || writeBlocked} onClick={() => setAsk("assign")}>
                Assign…
              </Button>
            ) : null}
            <Button disabled={busy !== null} onClick={() => void preview()}>
              Preview
            </Button>
            {props.hideVersionsLink ? null : (
              <Link class="button" href={paths.versions(site, id, lang)}>
                Versions
              </Link>
            )}
            {canWrite ? (
              <Button variant="danger" disabled={busy !== null || writeBlocked} onClick={() => setAsk("trash")}>
                Move to Trash…
              </Button>
            ) : null}
          </>
        )}
        {typing.keptAt && dirty ? <span class="muted autosave-note">Unsaved text kept at {clock(typing.keptAt)}</span> : null}
      </div>
      {dirty && canPublish && canWrite && !trashed ? (
        <p class="hint muted" id={`publish-hint-${id}`}>
          Publishing publishes the saved draft: save your changes first.
        </p>
      ) : null}

      <p class="action-status" role="status" aria-live="polite">
        {busy ? "Working…" : status}
      </p>

      <ConfirmDialog open={ask === "unpublish"} title={`Unpublish ${lang}?`} confirm={`Unpublish ${lang}`} danger busy={busy === "unpublish"} onConfirm={() => void transition("unpublish")} onClose={() => setAsk(null)}>
        <p>This language stops being served by the public API. The draft and its versions stay.</p>
        {dependents === null ? <Loading label="Looking for content that links here…" /> : null}
        {dependents && dependents.length > 0 ? (
          <>
            <p>Published content links to this entry; those links stop pointing here:</p>
            <ul>
              {dependents.map((d) => (
                <li>
                  {d.label ?? d.instance_id} ({d.lang})
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {dependents && dependents.length === 0 ? <p class="muted">No published content links to it.</p> : null}
      </ConfirmDialog>

      <ConfirmDialog open={ask === "trash"} title="Move to Trash?" confirm="Move to Trash" danger busy={busy === "trash"} onConfirm={() => void trash()} onClose={() => setAsk(null)}>
        <p>It can be restored from Trash until Trash is emptied.</p>
        <label class="check">
          <input type="checkbox" checked={languageOnly} onChange={(event) => setLanguageOnly((event.currentTarget as HTMLInputElement).checked)} />
          Only this language ({lang}); leave the other languages as they are
        </label>
      </ConfirmDialog>

      <ConfirmDialog open={ask === "restore"} title="Restore from Trash?" confirm="Restore" busy={busy === "restore"} onConfirm={() => void restore()} onClose={() => setAsk(null)}>
        <p>It comes back as it was when it went to Trash.</p>
      </ConfirmDialog>

      <ScheduleDialog
        open={ask === "schedule"}
        entry={entry}
        canPublish={canPublish}
        canUnpublish={canUnpublish}
        onClose={() => setAsk(null)}
        onScheduled={(words) => {
          setAsk(null);
          setStatus(words);
          void reread().catch(() => {});
        }}
      />

      <AssignDialog
        open={ask === "assign"}
        entry={entry}
        headers={lease.headers}
        onClose={() => setAsk(null)}
        onAssigned={() => {
          setAsk(null);
          setStatus("Assignment saved.");
          void reread().catch(() => {});
        }}
      />
    </section>
  );
}
