import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage } from "../api/client";
import { fieldIssues } from "../api/error-words";
import type { Entry } from "../fields/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button, Loading, StateBadge } from "../ui/controls";
import { stateName } from "../ui/state-names";
import { AssignDialog } from "./assign-dialog";
import { LifecycleBar, type LifecycleAsk } from "./lifecycle-bar";
import { TrashDialog, UnpublishDialog } from "./lifecycle-dialogs";
import { clock, holderName, LeaseBanner } from "./lease-banner";
import { dropRecovery, keepRecovery, readRecovery, type RecoveryDraft } from "./recovery-drafts";
import { RecoveryPanel, recoveryTitle } from "./recovery-panel";
import { ScheduleDialog } from "./schedule-dialog";
import { siteOrigin } from "./site-origin";
import { sameValues, useKeptWhileTyping } from "./unsaved-text";
import { RefusalPanel, type Dependent } from "./refusal-panel";
import { useAction } from "../ui/use-action";
import type { LeaseState } from "./use-lease";
import { useSaveShortcut, useUnloadQuestion } from "./use-leave-guards";
import { useNewerVersion } from "./use-newer-version";
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

type Ask = null | LifecycleAsk;

export function EntryActions(props: EntryActionsProps) {
  const { site, entry, values, dirty, lease } = props;
  const id = entry.instance_id;
  const lang = entry.lang;
  const action = useAction();
  const [error, setError] = useState<unknown>(null);
  const [dependents, setDependents] = useState<Dependent[] | null>(null);
  const [status, setStatus] = useState("");
  const [ask, setAsk] = useState<Ask>(null);
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

  // A newer version saved while the person watched (observers re-read the entry with the lease).
  const [newer, setNewer] = useNewerVersion(entry, lease, dirty, props.onEntry);

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

  const trash = (languageOnly: boolean) =>
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

  // Leaving with text the server does not keep yet asks first (kept text is offered back on return).
  const unkept = dirty && !(recovery && !restored) && !(recovery && restored && sameValues(values, recovery.values)) && !typing.keeps(values);
  useUnloadQuestion(unkept);
  useSaveShortcut(() => {
    if (entry.trashed_at !== null || lease.status !== "held" || action.busy !== null) setStatus("Nothing can be saved here right now.");
    else if (!dirty) setStatus("No changes to save.");
    else void save();
  });

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

      <LifecycleBar
        site={site}
        entry={entry}
        dirty={dirty}
        busy={busy}
        writeBlocked={writeBlocked}
        canWrite={canWrite}
        hideVersionsLink={props.hideVersionsLink}
        keptAt={typing.keptAt}
        onSave={() => void save()}
        onPublish={() => void transition("publish")}
        onAskUnpublish={askUnpublish}
        onMove={(to) => void move(to)}
        onPreview={() => void preview()}
        onAsk={setAsk}
      />

      <p class="action-status" role="status" aria-live="polite">
        {busy ? "Working…" : status}
      </p>

      <UnpublishDialog open={ask === "unpublish"} lang={lang} busy={busy === "unpublish"} dependents={dependents} onConfirm={() => void transition("unpublish")} onClose={() => setAsk(null)} />

      <TrashDialog open={ask === "trash"} lang={lang} busy={busy === "trash"} onConfirm={(languageOnly) => void trash(languageOnly)} onClose={() => setAsk(null)} />

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
