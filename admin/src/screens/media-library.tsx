import { useEffect, useRef, useState } from "preact/hooks";
import { admin, ApiError, manage } from "../api/client";
import { describeError } from "../api/error-words";
import { DetailsPanel } from "../media/details-panel";
import { FolderTreePanel, selectedFolder } from "../media/folder-tree";
import { MediaGrid } from "../media/media-grid";
import { SelectionBar } from "../media/selection-bar";
import { SourceImport } from "../media/source-import";
import { UploadPanel } from "../media/upload-panel";
import { folderPath, KINDS, type FolderFilter, type FolderTree, type MediaItem, type MediaKind } from "../media/types";
import { Field, Loading, Notice, PageHeader } from "../ui/controls";
import type { ScreenProps } from "./types";
import "../styles/media.css";

const PAGE_SIZE = 40;

/**
 * The media library (issue #15 item 8; docs/admin-ui-media.md): folders, a grid of files with
 * filters (kind, folder, file name) and cursor paging, upload with progress and the duplicate
 * prompt, "Add from …" a plugin's media source, and the chosen file's details. Every rule is the service's: this screen asks and shows.
 */
export default function MediaLibrary({ site, search }: ScreenProps) {
  const [languages, setLanguages] = useState<string[]>([]);
  const [maxBytes, setMaxBytes] = useState<number | null>(null);
  const [tree, setTree] = useState<FolderTree | null>(null);
  const [filter, setFilter] = useState<FolderFilter>({ kind: "all" });
  const [kind, setKind] = useState<MediaKind | "">("");
  const [q, setQ] = useState("");
  const [query, setQuery] = useState("");
  const [items, setItems] = useState<MediaItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [selected, setSelected] = useState<MediaItem | null>(null);
  const [notice, setNotice] = useState("");
  // Files ticked for moving several at once (cleared when the filters change).
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const listRun = useRef(0);

  const loadTree = async () => {
    try {
      setTree(await manage("listMediaFolders"));
    } catch (error) {
      setFailure(error);
    }
  };

  const listQuery = (after?: string) => ({
    limit: String(PAGE_SIZE),
    ...(kind ? { kind } : {}),
    ...(filter.kind === "unfiled" ? { folder_id: "unfiled" } : filter.kind === "folder" ? { folder_id: filter.id } : {}),
    ...(query ? { q: query } : {}),
    ...(after ? { cursor: after } : {}),
  });

  /** The first page for the filters; `fresh` (a filter changed) blanks the grid while it loads, a refresh keeps it. */
  const loadItems = async (fresh = false) => {
    const run = ++listRun.current;
    if (fresh) setItems(null);
    try {
      const page = await manage("listMedia", { query: listQuery() });
      if (run !== listRun.current) return;
      setItems(page.data);
      setCursor(page.page.has_more ? page.page.next_cursor : null);
      setFailure(null);
    } catch (error) {
      if (run !== listRun.current) return;
      setItems([]);
      setFailure(error);
    }
  };

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    const run = listRun.current;
    try {
      const page = await manage("listMedia", { query: listQuery(cursor) });
      if (run !== listRun.current) return;
      setItems((all) => [...(all ?? []), ...page.data]);
      setCursor(page.page.has_more ? page.page.next_cursor : null);
    } catch (error) {
      setFailure(error);
    } finally {
      setLoadingMore(false);
    }
  };

  useEffect(() => {
    void manage("getSite").then(
      (answer) => setLanguages(answer.languages),
      (error: unknown) => setFailure(error),
    );
    void admin("getMediaLimits").then(
      (answer) => setMaxBytes(answer.limits.streamed_max_bytes),
      () => setMaxBytes(null),
    );
    void loadTree();
    // An address naming a file opens it (links from elsewhere in the admin).
    const wanted = search.get("item");
    if (wanted) void manage("getMedia", { params: { id: wanted } }).then((answer) => setSelected(answer.media), () => undefined);
  }, [site]);

  // Typing in the search box lists after a short pause.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(q.trim()), 300);
    return () => clearTimeout(timer);
  }, [q]);

  useEffect(() => {
    setPicked(new Set());
    void loadItems(true);
  }, [site, filter.kind, filter.kind === "folder" ? filter.id : "", kind, query]);

  const replaceItem = (next: MediaItem) => {
    setItems((all) => {
      if (!all) return all;
      // A file moved out of the folder being viewed leaves the grid.
      const fits = filter.kind === "all" || (filter.kind === "unfiled" ? next.folder_id === null : next.folder_id === filter.id);
      return fits ? all.map((i) => (i.id === next.id ? next : i)) : all.filter((i) => i.id !== next.id);
    });
    setSelected(next);
  };

  const current = selectedFolder(tree, filter);
  const uploadFolder = current ? current.id : null;
  const uploadLabel = current ? folderPath(tree?.folders ?? [], current.id) : "Unfiled";
  const failed = failure ? describeError(failure) : null;

  return (
    <>
      <PageHeader title="Media" />
      <p class="visually-hidden" role="status" aria-live="polite">
        {notice}
      </p>
      {failed ? (
        <Notice kind="error" title={failed.title}>
          {failed.detail ? <p class="muted">{failed.detail}</p> : null}
        </Notice>
      ) : null}
      <div class={`media-layout${selected ? " with-details" : ""}`}>
        <FolderTreePanel
          tree={tree}
          filter={filter}
          onFilter={(next) => setFilter(next)}
          onChanged={async (removed) => {
            await loadTree();
            if (removed && filter.kind === "folder" && removed.includes(filter.id)) setFilter({ kind: "all" });
            else await loadItems();
            if (selected) {
              try {
                setSelected((await manage("getMedia", { params: { id: selected.id } })).media);
              } catch {
                setSelected(null);
              }
            }
          }}
        />
        <div class="media-main">
          <UploadPanel
            maxBytes={maxBytes}
            folderId={uploadFolder}
            folderLabel={uploadLabel}
            onUploaded={(media, how) => {
              setSelected(media);
              void loadTree();
              void loadItems();
              setNotice(how === "reused" ? `Showing ${media.file_name}, already in the library.` : `${media.file_name} added.`);
            }}
          />
          <SourceImport
            onImported={(media, words) => {
              setSelected(media);
              void loadTree();
              void loadItems();
              setNotice(words);
            }}
          />
          <form class="media-filters" role="search" aria-label="Filter files" onSubmit={(e) => { e.preventDefault(); setQuery(q.trim()); }}>
            <Field label="Search file names">
              {({ id }) => <input id={id} type="search" value={q} maxLength={255} onInput={(e) => setQ((e.currentTarget as HTMLInputElement).value)} />}
            </Field>
            <Field label="Kind">
              {({ id }) => (
                <select id={id} value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as MediaKind | "")}>
                  <option value="">All kinds</option>
                  {KINDS.map((k) => (
                    <option value={k.id}>{k.label}</option>
                  ))}
                </select>
              )}
            </Field>
          </form>
          <h2 class="grid-title">
            {filter.kind === "all" ? "All files" : filter.kind === "unfiled" ? "Unfiled" : (current?.name ?? "Folder")}
          </h2>
          {items === null ? (
            <Loading label="Loading files…" />
          ) : items.length === 0 ? (
            <p class="muted">{query || kind ? "No file matches these filters." : "No files here yet. Upload some above."}</p>
          ) : (
            <>
              {picked.size > 0 ? (
                <SelectionBar
                  ids={[...picked]}
                  folders={tree?.folders ?? []}
                  onClear={() => setPicked(new Set())}
                  onMoved={(moved, words) => {
                    setPicked(new Set());
                    const chosen = selected ? moved.find((m) => m.id === selected.id) : undefined;
                    if (chosen) setSelected(chosen);
                    void loadTree();
                    void loadItems();
                    setNotice(words);
                  }}
                />
              ) : null}
              <MediaGrid
                items={items}
                selectedId={selected?.id ?? null}
                onSelect={setSelected}
                hasMore={cursor !== null}
                loadingMore={loadingMore}
                onMore={() => void loadMore()}
                picked={picked}
                onPick={(item, on) =>
                  setPicked((all) => {
                    const next = new Set(all);
                    if (on) next.add(item.id);
                    else next.delete(item.id);
                    return next;
                  })
                }
              />
            </>
          )}
        </div>
        {selected ? (
          <DetailsPanel
            key={selected.id}
            site={site}
            item={selected}
            languages={languages}
            folders={tree?.folders ?? []}
            onChanged={(next) => {
              const moved = next.folder_id !== selected.folder_id;
              replaceItem(next);
              if (moved) {
                // Folder counts change, and the file may join or leave the folder being viewed.
                void loadTree();
                void loadItems();
              }
            }}
            onReload={async (id) => {
              try {
                replaceItem((await manage("getMedia", { params: { id } })).media);
              } catch (error) {
                if (error instanceof ApiError && error.status === 404) setSelected(null);
                setFailure(error);
              }
            }}
            onRemoved={(gone) => {
              setSelected(null);
              setItems((all) => all?.filter((i) => i.id !== gone.id) ?? all);
              void loadTree();
              setNotice(`${gone.file_name} removed.`);
            }}
          />
        ) : null}
      </div>
    </>
  );
}
