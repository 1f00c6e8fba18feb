import { useState } from "preact/hooks";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Loading } from "../ui/controls";
import type { Dependent } from "./refusal-panel";

/**
 * "Unpublish {lang}?" with what it breaks: the published entries linking here (listed before the
 * person confirms, so a link that stops working is never a surprise).
 */
export function UnpublishDialog(props: { open: boolean; lang: string; busy: boolean; dependents: readonly Dependent[] | null; onConfirm: () => void; onClose: () => void }) {
  const { lang, dependents } = props;
  return (
    <ConfirmDialog open={props.open} title={`Unpublish ${lang}?`} confirm={`Unpublish ${lang}`} danger busy={props.busy} onConfirm={props.onConfirm} onClose={props.onClose}>
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
  );
}

/** "Move to Trash?": this language only (the default), or the whole entry with every language. */
export function TrashDialog(props: { open: boolean; lang: string; busy: boolean; onConfirm: (languageOnly: boolean) => void; onClose: () => void }) {
  const [languageOnly, setLanguageOnly] = useState(true);
  return (
    <ConfirmDialog open={props.open} title="Move to Trash?" confirm="Move to Trash" danger busy={props.busy} onConfirm={() => props.onConfirm(languageOnly)} onClose={props.onClose}>
      <p>It can be restored from Trash until Trash is emptied.</p>
      <label class="check">
        <input type="checkbox" checked={languageOnly} onChange={(event) => setLanguageOnly((event.currentTarget as HTMLInputElement).checked)} />
        Only this language ({props.lang}); leave the other languages as they are
      </label>
    </ConfirmDialog>
  );
}
