import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import type { Entry } from "../fields/types";
import { Button, Field, Notice, StateBadge } from "../ui/controls";
import { Tabs } from "../ui/tabs";

type Sibling = ManageAnswer<"listEntries">["data"][number] | Entry;

/** The item's languages as tabs, each with its publish state in words; "Add language" beside them. */
export function LanguageTabs({ group, current, canAdd, onSelect, onAdd }: { group: Sibling[]; current: Entry; canAdd: boolean; onSelect: (sibling: Sibling) => void; onAdd: () => void }) {
  const ordered = [...group].sort((a, b) => (a.instance_id === a.primary_instance_id ? -1 : b.instance_id === b.primary_instance_id ? 1 : a.lang.localeCompare(b.lang)));
  return (
    <div class="language-bar">
      <Tabs
        label="Languages"
        panelId="entry-panel"
        selected={current.lang}
        onSelect={(lang) => {
          const sibling = group.find((e) => e.lang === lang);
          if (sibling && sibling.instance_id !== current.instance_id) onSelect(sibling);
        }}
        tabs={ordered.map((e) => ({
          id: e.lang,
          label: (
            <span class="row language-tab">
              <span lang={e.lang}>{e.lang}</span>
              <StateBadge state={e.trashed_at ? "trash" : e.published_version_id ? "published" : e.workflow.state} />
            </span>
          ),
        }))}
      />
      {canAdd ? <Button onClick={onAdd}>Add language</Button> : null}
    </div>
  );
}

/** "Add language": a native dialog choosing one of the site's languages the item lacks → `addEntryLanguage`. */
export function AddLanguageDialog({ entry, languages, onClose, onAdded }: { site: string; entry: Entry; languages: string[]; onClose: () => void; onAdded: (added: Entry) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const key = useRef(newActionKey());
  const [lang, setLang] = useState(languages[0] ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const added = await manage("addEntryLanguage", { params: { id: entry.instance_id }, body: { lang }, key: key.current });
      dialog.current?.close();
      onAdded(added);
    } catch (e) {
      if (e instanceof ApiError && e.status < 500) key.current = newActionKey();
      setError(e);
      setBusy(false);
    }
  };
  const words = error ? describeError(error) : null;
  return (
    <dialog ref={dialog} aria-labelledby="add-language-title" onClose={onClose}>
      <form method="dialog" class="stack" onSubmit={(e) => void submit(e)}>
        <h2 id="add-language-title">Add a language</h2>
        {words ? <Notice kind="error" title={words.title}>{words.detail}</Notice> : null}
        <Field label="Language">
          {({ id }) => (
            <select id={id} value={lang} onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value)}>
              {languages.map((l) => (
                <option value={l}>{l}</option>
              ))}
            </select>
          )}
        </Field>
        <div class="row">
          <Button type="submit" variant="primary" busy={busy} disabled={!lang}>
            Add language
          </Button>
          <Button onClick={() => dialog.current?.close()}>Cancel</Button>
        </div>
      </form>
    </dialog>
  );
}
