import { useEffect, useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, PageHeader } from "../ui/controls";
import { SettingsLoadFailed } from "./load-failed";
import { SettingsNav } from "./nav";
import { OutcomeNotice, useOutcome } from "./outcome";
import { useSettingsSave } from "./use-settings-save";
import "../styles/settings.css";

type Comments = ManageAnswer<"getCommentSettings">["comments"];

/**
 * Settings › Comments (issue #30 item 3, docs/admin-ui-lists.md; the API is docs/comments.md):
 * whether readers may comment, on which models, where a new comment starts, and the spam brakes
 * (proof-of-work difficulty, longest comment, comments per hour). Saved whole with the revision
 * read: someone else's change meanwhile is refused in words (`settings_changed`), never overwritten.
 * Bounds are the service's; the form leaves checking to it so a refusal lists every issue in words.
 */
export default function CommentSettings({ site }: ScreenProps) {
  const loaded = useLoad((signal) => Promise.all([manage("getCommentSettings", { signal }), manage("listModels", { signal })]), []);
  const [draft, setDraft] = useState<Comments | null>(null);
  const said = useOutcome();
  const { outcome } = said;
  const { busy, run } = useSettingsSave(said, () => loaded.reload());
  const saved = loaded.data?.[0];
  const models = loaded.data?.[1].data ?? [];
  useEffect(() => {
    if (saved) setDraft(saved.comments);
  }, [saved]);

  if (loaded.error) return <SettingsLoadFailed site={site} title="Comments" error={loaded.error} />;
  if (!saved || !draft) return <Loading label="Loading comment settings…" />;
  const set = (patch: Partial<Comments>) => setDraft({ ...draft, ...patch });
  const number = (value: string) => (value.trim() === "" ? Number.NaN : Number(value));

  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const moderation = draft.moderation === "approved" ? "approved" : "pending";
      await manage("putCommentSettings", {
        body: { enabled: draft.enabled, model_ids: draft.model_ids, moderation, difficulty: draft.difficulty, max_length: draft.max_length, per_hour: draft.per_hour, expected_revision: saved.revision },
        key: newActionKey(),
      });
      return "Comment settings saved.";
    });
  };

  return (
    <>
      <PageHeader title="Comments" />
      <SettingsNav site={site} />
      <OutcomeNotice outcome={outcome} />
      <form class="settings-form" onSubmit={save} noValidate>
        <section aria-labelledby="comments-heading" class="settings-section">
          <h2 id="comments-heading">Reader comments</h2>
          <label class="row">
            <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
            Readers may post comments
          </label>
          <fieldset>
            <legend>Models whose published entries take comments</legend>
            {models.length === 0 ? <p class="muted">No models yet.</p> : null}
            {models.map((m) => (
              <label class="row">
                <input
                  type="checkbox"
                  checked={draft.model_ids.includes(m.id)}
                  onChange={(e) => set({ model_ids: e.currentTarget.checked ? [...draft.model_ids, m.id] : draft.model_ids.filter((id) => id !== m.id) })}
                />
                {m.name}
              </label>
            ))}
          </fieldset>
          <Field label="A new comment starts" hint="Waiting: a moderator approves it before readers see it (Comments screen).">
            {(f) => (
              <select id={f.id} aria-describedby={f.describedBy} value={draft.moderation} onChange={(e) => set({ moderation: e.currentTarget.value })}>
                <option value="pending">Waiting for a moderator</option>
                <option value="approved">Approved (shown at once)</option>
              </select>
            )}
          </Field>
        </section>
        <section aria-labelledby="spam-heading" class="settings-section">
          <h2 id="spam-heading">Spam brakes</h2>
          <Field label="Proof-of-work difficulty" hint="8 to 24. The reader's browser solves a puzzle before posting; 18 takes about a quarter second, each step up doubles it.">
            {(f) => <input id={f.id} type="number" inputMode="numeric" aria-describedby={f.describedBy} value={Number.isNaN(draft.difficulty) ? "" : draft.difficulty} onInput={(e) => set({ difficulty: number(e.currentTarget.value) })} />}
          </Field>
          <Field label="Longest comment (characters)" hint="100 to 10000.">
            {(f) => <input id={f.id} type="number" inputMode="numeric" aria-describedby={f.describedBy} value={Number.isNaN(draft.max_length) ? "" : draft.max_length} onInput={(e) => set({ max_length: number(e.currentTarget.value) })} />}
          </Field>
          <Field label="Comments per hour from one address" hint="1 to 1000.">
            {(f) => <input id={f.id} type="number" inputMode="numeric" aria-describedby={f.describedBy} value={Number.isNaN(draft.per_hour) ? "" : draft.per_hour} onInput={(e) => set({ per_hour: number(e.currentTarget.value) })} />}
          </Field>
        </section>
        <div class="row settings-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Save comment settings
          </Button>
          <Button variant="ghost" onClick={() => setDraft(saved.comments)}>
            Undo changes
          </Button>
        </div>
      </form>
    </>
  );
}
