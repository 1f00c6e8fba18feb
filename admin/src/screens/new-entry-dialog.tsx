import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { navigate, paths } from "../router";
import { Button, Field, Notice } from "../ui/controls";

type Model = ManageAnswer<"getModel">;

/**
 * "New entry": a native dialog asking the title (the model's title field, when it has one), the
 * language and an optional slug, then `createEntry` and the editor. One Idempotency-Key per
 * dialog, kept when the create is retried after a failure the service did not decide.
 */
export function NewEntryDialog({ site, model, languages, defaultLang, onClose }: { site: string; model: Model; languages: string[]; defaultLang: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const key = useRef(newActionKey());
  const titleField = (model.definition.fields as { key: string; label?: string; title?: boolean; type: string }[]).find((f) => f.title === true) ?? null;
  const [title, setTitle] = useState("");
  const [slug, setSlug] = useState("");
  const [lang, setLang] = useState(languages.includes(defaultLang) ? defaultLang : (languages[0] ?? ""));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const issues = fieldIssues(error);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const fields = titleField && title.trim() ? { [titleField.key]: title } : {};
      const entry = await manage("createEntry", { body: { model_id: model.id, lang: model.i18n ? lang : undefined, slug: slug.trim() || undefined, fields }, key: key.current });
      dialog.current?.close();
      navigate(paths.entry(site, entry.instance_id, entry.lang));
    } catch (e) {
      // A refusal the service decided is final for this key: the next try is a new action.
      if (e instanceof ApiError && e.status < 500) key.current = newActionKey();
      setError(e);
      setBusy(false);
    }
  };
  const words = error ? describeError(error) : null;
  return (
    <dialog ref={dialog} aria-labelledby="new-entry-title" onClose={onClose} class="new-entry">
      <form method="dialog" class="stack" onSubmit={(e) => void submit(e)}>
        <h2 id="new-entry-title">New {model.name.toLowerCase()} entry</h2>
        {words && issues.size === 0 ? <Notice kind="error" title={words.title}>{words.detail}</Notice> : null}
        {titleField ? (
          <Field label={titleField.label ?? "Title"} errors={issues.get(titleField.key)}>
            {({ id, describedBy, invalid }) => <input id={id} type="text" value={title} required aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} onInput={(e) => {
              setTitle((e.currentTarget as HTMLInputElement).value);
              setError(null);
            }} />}
          </Field>
        ) : null}
        {model.i18n && languages.length > 1 ? (
          <Field label="Language">
            {({ id }) => (
              <select id={id} value={lang} onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value)}>
                {languages.map((l) => (
                  <option value={l}>{l}</option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <Field label="Slug (address, optional)" hint="Lower-case letters, digits and single hyphens. Left empty, the service makes one from the title." errors={issues.get("slug")}>
          {({ id, describedBy, invalid }) => <input id={id} type="text" class="mono" value={slug} maxLength={200} autoCapitalize="off" spellcheck={false} aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} onInput={(e) => {
              setSlug((e.currentTarget as HTMLInputElement).value);
              setError(null);
            }} />}
        </Field>
        {words && issues.size > 0 ? <Notice kind="error" title={words.title} /> : null}
        <div class="row">
          <Button type="submit" variant="primary" busy={busy}>
            Create and edit
          </Button>
          <Button onClick={() => dialog.current?.close()}>Cancel</Button>
        </div>
      </form>
    </dialog>
  );
}
