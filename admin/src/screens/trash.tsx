import { useEffect, useRef, useState } from "preact/hooks";
import { admin, ApiError, manage, type AdminAnswer, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { useMemberNames } from "../editor/person-names";
import { languageLabel } from "../media/types";
import { When } from "../review/words";
import { navigate, paths } from "../router";
import { session } from "../state/session";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button, Link, Notice, PageHeader } from "../ui/controls";
import { useAction } from "../ui/use-action";
import type { ScreenProps } from "./types";
import "../styles/content.css";

type Page = AdminAnswer<"listTrash">;
type Item = Page["data"][number];
type Check = ManageAnswer<"checkEntryRestore">;
type Outcome = { kind: "success" | "error"; title: string; detail?: string; results?: { name: string; ok: boolean; words: string }[] };

/** The bulk routes' cap (docs/bulk-actions.md). */
const BULK_MAX = 25;

const itemName = (item: Pick<Item, "label" | "slug" | "lang">) => `${item.label ?? item.slug ?? "(untitled)"} (${languageLabel(item.lang)})`;

/**
 * The site's Trash (issue #27 "Done when"; docs/admin-ui-trash.md): every language in Trash across
 * models, or one model (`?model=`), newest first — when it was trashed, when retention deletes it
 * for good, who trashed it — with Restore (what the restore would meet shown first: busy addresses
 * and broken links), Delete permanently, and Restore selected (the bulk route, 25 at a time). Both
 * actions need delete on the model: without it the buttons are disabled and the row says why.
 * Trash is never mixed into the content lists (issue #30 item 10): this screen is its own.
 */
export default function Trash({ site, search }: ScreenProps) {
  const modelId = search.get("model") ?? "";
  const [page, setPage] = useState<Page | null>(null);
  const [rows, setRows] = useState<Item[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [restoring, setRestoring] = useState<{ item: Item; check: Check | null; error: unknown } | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  const [bulkAsking, setBulkAsking] = useState(false);
  const action = useAction();
  const names = useMemberNames(site, rows.map((r) => r.trashed_by?.person_id));
  const generation = useRef(0);

  const load = async (cursor: string | null) => {
    if (!cursor) generation.current += 1;
    const mine = generation.current;
    setLoading(true);
    try {
      const answer = await admin("listTrash", { query: { model_id: modelId || undefined, cursor: cursor ?? undefined } });
      if (mine !== generation.current) return;
      setPage(answer);
      setRows((prior) => (cursor ? [...prior, ...answer.data] : answer.data));
      setLoadError(null);
    } catch (e) {
      if (mine === generation.current) setLoadError(e);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  };
  useEffect(() => {
    setSelected(new Set());
    void load(null);
  }, [modelId]);

  /** Rows of the same item leave together: a restore or delete acts on every language of it in Trash. */
  const dropGroups = (groups: Set<string>) => setRows((prior) => prior.filter((r) => !groups.has(r.translation_group_id)));

  const askRestore = async (item: Item) => {
    setRestoring({ item, check: null, error: null });
    try {
      const check = await manage("checkEntryRestore", { params: { id: item.instance_id } });
      setRestoring({ item, check, error: null });
    } catch (e) {
      setRestoring({ item, check: null, error: e });
    }
  };

  const restore = async (item: Item) => {
    const done = await action.attempt(`restore ${item.instance_id}`, (key) => manage("restoreEntry", { params: { id: item.instance_id }, body: {}, key }));
    if (!done) return;
    if (!done.ok) {
      setRestoring((prior) => (prior ? { ...prior, error: done.error } : prior));
      return;
    }
    setRestoring(null);
    dropGroups(new Set([item.translation_group_id]));
    setOutcome({ kind: "success", title: `Restored “${itemName(item)}” from Trash (every language of it that was in Trash).` });
  };

  const purge = async (item: Item) => {
    const done = await action.attempt(`purge ${item.instance_id}`, (key) => manage("purgeEntry", { params: { id: item.instance_id }, body: {}, key }));
    if (!done || !done.ok) return;
    setDeleting(null);
    dropGroups(new Set([item.translation_group_id]));
    setOutcome({ kind: "success", title: `Deleted “${itemName(item)}” for good.` });
  };

  // One id per item (a restore brings back every language of it in Trash), at most the bulk cap.
  const chosen = rows.filter((r) => selected.has(r.instance_id) && r.can_delete);
  const bulkIds = [...new Map(chosen.map((r) => [r.translation_group_id, r])).values()].slice(0, BULK_MAX);
  const restoreSelected = async () => {
    const done = await action.attempt("bulk restore", (key) => manage("bulkRestoreEntries", { body: { ids: bulkIds.map((r) => r.instance_id) }, key }));
    if (!done || !done.ok) return;
    setBulkAsking(false);
    const byId = new Map(bulkIds.map((r) => [r.instance_id, r]));
    const results = done.value.results.map((r) => {
      const item = byId.get(r.id);
      const name = item ? itemName(item) : r.id;
      if (r.status === 200) return { name, ok: true, words: "Restored" };
      const words = describeError(new ApiError(r.status, r.code ?? "refused", r.message ?? "", r.details ?? {}));
      return { name, ok: false, words: `Not restored: ${words.title}${words.detail ? ` ${words.detail}` : ""}` };
    });
    const back = new Set(done.value.results.filter((r) => r.status === 200).map((r) => byId.get(r.id)?.translation_group_id ?? ""));
    dropGroups(back);
    setSelected(new Set());
    const ok = results.filter((r) => r.ok).length;
    setOutcome({ kind: ok === results.length ? "success" : "error", title: `${ok} of ${results.length} restored.`, results });
  };

  const models = page?.models ?? [];
  const days = page?.retention_days ?? 30;
  const selectable = rows.filter((r) => r.can_delete);
  const me = session.value?.person.id;
  const who = (item: Item) => {
    const by = item.trashed_by;
    if (!by) return "Not recorded";
    if (by.surface === "system") return "The site (automatic)";
    if (by.surface === "plugin") return "A plugin";
    const person = by.person_id ? (by.person_id === me ? "You" : (names.get(by.person_id) ?? "Another person")) : "Someone";
    return by.surface === "admin" ? person : `${person}, through ${by.surface === "oauth_app" ? "a connected app" : "an API credential"}`;
  };

  return (
    <>
      <p class="breadcrumb">
        <Link href={paths.content(site)}>Content</Link> / Trash
      </p>
      <PageHeader title="Trash" />
      <p class="muted">
        Items moved to Trash are deleted for good {days} days after they were moved here. Restoring or deleting needs delete permission on the item's model.
      </p>
      <div class="row">
        <label for="trash-model">Model</label>
        <select id="trash-model" value={modelId} onChange={(e) => navigate(paths.trash(site, e.currentTarget.value || undefined), { replace: true })}>
          <option value="">Every model</option>
          {models.map((m) => (
            <option value={m.id}>{m.name}</option>
          ))}
        </select>
      </div>
      {/* The Notice is the screen's one live region: outcomes and refusals in words. */}
      {outcome ? (
        <Notice kind={outcome.kind} title={outcome.title}>
          {outcome.detail ? <p>{outcome.detail}</p> : null}
          {outcome.results ? (
            <ul class="bulk-outcomes">
              {outcome.results.map((r) => (
                <li class={r.ok ? "bulk-ok" : "bulk-refused"}>
                  <span aria-hidden="true">{r.ok ? "✓ " : "✕ "}</span>
                  {r.name}: {r.words}
                </li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}
      {loadError ? <Notice kind="error" title={describeError(loadError).title}>{describeError(loadError).detail}</Notice> : null}
      {!loading && !loadError && rows.length === 0 ? <p class="muted">Trash is empty{modelId ? " for this model" : ""}.</p> : null}
      {selectable.length > 0 ? (
        <div class="row bulk-bar" role="group" aria-label="Bulk actions">
          <span>
            {chosen.length} selected{bulkIds.length < chosen.length ? ` (${bulkIds.length} ${bulkIds.length === 1 ? "item" : "items"})` : ""}
          </span>
          <Button disabled={bulkIds.length === 0 || action.busy !== null} onClick={() => setBulkAsking(true)}>
            Restore selected…
          </Button>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <table class="list responsive entries" aria-busy={loading ? "true" : undefined}>
          <caption class="visually-hidden">Trash, most recently trashed first</caption>
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select every item you may restore"
                  checked={selectable.length > 0 && selectable.every((r) => selected.has(r.instance_id))}
                  disabled={selectable.length === 0}
                  onChange={(e) => setSelected(e.currentTarget.checked ? new Set(selectable.map((r) => r.instance_id)) : new Set())}
                />
              </th>
              <th scope="col">Item</th>
              <th scope="col">Model</th>
              <th scope="col">Trashed</th>
              <th scope="col">Deleted for good</th>
              <th scope="col">Trashed by</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((item) => {
              const name = itemName(item);
              const reason = `trash-reason-${item.instance_id}`;
              return (
                <tr>
                  <td data-label="Select">
                    <input
                      type="checkbox"
                      aria-label={`Select ${name}`}
                      disabled={!item.can_delete}
                      aria-describedby={item.can_delete ? undefined : reason}
                      checked={selected.has(item.instance_id)}
                      onChange={(e) => {
                        const next = new Set(selected);
                        if (e.currentTarget.checked) next.add(item.instance_id);
                        else next.delete(item.instance_id);
                        setSelected(next);
                      }}
                    />
                  </td>
                  <td data-label="Item">
                    <Link href={paths.entry(site, item.instance_id, item.lang)}>{name}</Link>
                  </td>
                  <td data-label="Model">{item.model_name}</td>
                  <td data-label="Trashed">
                    <When at={item.trashed_at} />
                  </td>
                  <td data-label="Deleted for good">
                    <When at={item.purge_at} />
                  </td>
                  <td data-label="Trashed by">{who(item)}</td>
                  <td data-label="Actions">
                    <span class="row">
                      <Button disabled={!item.can_delete || action.busy !== null} aria-describedby={item.can_delete ? undefined : reason} aria-label={`Restore ${name}`} onClick={() => void askRestore(item)}>
                        Restore…
                      </Button>
                      <Button variant="danger" disabled={!item.can_delete || action.busy !== null} aria-describedby={item.can_delete ? undefined : reason} aria-label={`Delete permanently ${name}`} onClick={() => setDeleting(item)}>
                        Delete permanently…
                      </Button>
                    </span>
                    {item.refusal ? (
                      <p class="muted" id={reason}>
                        {item.refusal}
                      </p>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {page?.next_cursor ? (
        <p>
          <Button busy={loading} onClick={() => void load(page.next_cursor)}>
            Load more
          </Button>
        </p>
      ) : null}
      <ConfirmDialog
        open={restoring !== null}
        title={restoring ? `Restore “${itemName(restoring.item)}”?` : ""}
        confirm={restoring?.check && !restoring.check.restorable ? "Close" : "Restore"}
        busy={action.busy !== null || (restoring !== null && restoring.check === null && restoring.error === null)}
        error={restoring?.error ?? null}
        onConfirm={() => {
          if (restoring?.check?.restorable) void restore(restoring.item);
          else setRestoring(null);
        }}
        onClose={() => {
          action.clearError();
          setRestoring(null);
        }}
      >
        {restoring && !restoring.check && !restoring.error ? <p>Checking what the restore would meet…</p> : null}
        {restoring?.check ? <RestoreCheckWords check={restoring.check} /> : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete “${itemName(deleting)}” for good?` : ""}
        confirm="Delete permanently"
        danger
        initialFocus="cancel"
        busy={action.busy !== null}
        error={action.error}
        onConfirm={() => deleting && void purge(deleting)}
        onClose={() => {
          action.clearError();
          setDeleting(null);
        }}
      >
        <p>Every language of this item in Trash is deleted now, with its versions. This cannot be undone.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={bulkAsking}
        title={`Restore ${bulkIds.length} ${bulkIds.length === 1 ? "item" : "items"}?`}
        confirm={`Restore ${bulkIds.length}`}
        busy={action.busy !== null}
        error={action.error}
        onConfirm={() => void restoreSelected()}
        onClose={() => {
          action.clearError();
          setBulkAsking(false);
        }}
      >
        <p>Each item comes back with every language it has in Trash; one refused (its address taken meanwhile) does not stop the others.</p>
        <ul>
          {bulkIds.map((r) => (
            <li>{itemName(r)}</li>
          ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}

/** What a restore would meet (GET /entries/{id}/restore-check), in words, before the Restore button acts. */
function RestoreCheckWords({ check }: { check: Check }) {
  if (check.busy_addresses.length === 0 && check.broken_links.length === 0) return <p>Nothing stands in the way: the item comes back as it was, with every language it has in Trash.</p>;
  return (
    <>
      {check.busy_addresses.length > 0 ? (
        <>
          <p>
            <strong>Busy addresses.</strong> Another live entry took these addresses meanwhile; the restore is refused until they are free:
          </p>
          <ul>
            {check.busy_addresses.map((b) => (
              <li>
                /{b.slug} ({languageLabel(b.lang)})
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {check.broken_links.length > 0 ? (
        <>
          <p>
            <strong>Broken links.</strong> These links point to items in Trash or gone; they come back as they are and are not served until their targets are live:
          </p>
          <ul>
            {check.broken_links.map((l) => (
              <li>
                {l.field} ({languageLabel(l.lang)}): {l.reason === "in_trash" ? "its target is in Trash" : "its target was deleted"}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {check.restorable ? null : <p>Restore is not possible until the addresses are free.</p>}
    </>
  );
}
