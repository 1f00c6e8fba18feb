import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { MediaSourceBrowser, type MediaSource } from "../plugins/media-source-browser";
import { PLUGIN_WORDS } from "../plugins/words";
import { Button } from "../ui/controls";
import { PickerDialog } from "../ui/picker-dialog";
import { Refusal } from "./refusal";
import type { MediaItem } from "./types";
// The pickers' dialog layout (picker-dialog, picker-body, picker-foot).
import "../styles/fields.css";

/**
 * "Add from …" in the media library (issue #26; docs/admin-ui-media.md, "Plugin media sources"):
 * one button per media source of the site's active plugins (`listMediaSources`), opening a dialog
 * that lists the source's items at once (search, "More items"); Import brings a copy into the
 * library, Link a linked item (mode reference). The dialog closes on an import and the library
 * shows the item. Nothing is drawn when no plugin offers media.
 */
export function SourceImport({ onImported }: { onImported: (media: MediaItem, words: string) => void }) {
  const [sources, setSources] = useState<MediaSource[]>([]);
  const [open, setOpen] = useState<MediaSource | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    // A list that cannot be read offers nothing: uploads still work.
    manage("listMediaSources").then(
      (answer) => live && setSources(answer.data),
      () => live && setSources([]),
    );
    return () => {
      live = false;
    };
  }, []);

  if (sources.length === 0) return null;
  // Two plugins may name their sources alike: the plugin's name then tells them apart.
  const title = (s: MediaSource) => (sources.filter((o) => o.label === s.label).length > 1 ? `Add from ${s.label} (${s.plugin_name})` : `Add from ${s.label}`);
  const close = () => {
    setOpen(null);
    setFailure(null);
  };

  return (
    <div class="row media-sources" role="group" aria-label="Add from plugin media sources">
      {sources.map((source) => (
        <Button aria-haspopup="dialog" onClick={() => setOpen(source)}>
          {title(source)}
        </Button>
      ))}
      <PickerDialog
        open={open !== null}
        wide
        title={open ? title(open) : ""}
        onClose={close}
        footer={
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
        }
      >
        {failure ? <Refusal error={failure} words={PLUGIN_WORDS} /> : null}
        {open ? (
          <MediaSourceBrowser
            key={`${open.installation_id}/${open.source_id}`}
            source={open}
            browseAtOnce
            onStart={() => setFailure(null)}
            onFailed={setFailure}
            onDone={(words, media) => {
              close();
              onImported(media, words);
            }}
          />
        ) : null}
      </PickerDialog>
    </div>
  );
}
