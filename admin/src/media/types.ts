import type { ManageAnswer } from "../api/client";

/** A media item and a folder as the management API answers them (schema/manage-media*.ts). */
export type MediaItem = ManageAnswer<"getMedia">["media"];
export type MediaFolder = ManageAnswer<"listMediaFolders">["folders"][number];
export type FolderTree = ManageAnswer<"listMediaFolders">;
export type MediaUsage = ManageAnswer<"getMediaUsage">;
export type MediaKind = MediaItem["kind"];

export const KINDS: readonly { id: MediaKind; label: string }[] = [
  { id: "image", label: "Images" },
  { id: "document", label: "Documents" },
  { id: "audio", label: "Audio" },
  { id: "video", label: "Video" },
  { id: "file", label: "Other files" },
];

/** The folder filter of the grid: every file, files in no folder, or one folder's own files. */
export type FolderFilter = { kind: "all" } | { kind: "unfiled" } | { kind: "folder"; id: string };

/** A byte count in words, in decimal units as the service's limits are set ("100 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A language's name in the reader's language ("fr" → "French"), or null when the browser has none. */
export function languageName(code: string): string | null {
  try {
    const name = new Intl.DisplayNames([navigator.language || "en"], { type: "language" }).of(code);
    return name && name.toLowerCase() !== code.toLowerCase() ? name : null;
  } catch {
    return null;
  }
}

/** A language for labels: "French (fr)", or "fr" when the browser knows no name. */
export function languageLabel(code: string): string {
  const name = languageName(code);
  return name ? `${name} (${code})` : code;
}

/** A folder's path from the top ("Photos / Beach"), from the depth-first tree. */
export function folderPath(folders: readonly MediaFolder[], id: string | null): string {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const names: string[] = [];
  let at = id ? byId.get(id) : undefined;
  let guard = 0;
  while (at && guard++ < 10) {
    names.unshift(at.name);
    at = at.parent_id ? byId.get(at.parent_id) : undefined;
  }
  return names.join(" / ");
}
