import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import type { Entry } from "../fields/types";
import type { LeaseState } from "./use-lease";

/**
 * Observers re-read the entry whenever the lease is re-read (every 10 s), and once the lease is
 * theirs. A form holding the person's own unsaved (or restored) text is never overwritten: the
 * answer is `true` (a newer version exists) and they reload when they choose; a clean form is
 * given the fresh entry through `onEntry`.
 */
export function useNewerVersion(entry: Entry, lease: LeaseState, dirty: boolean, onEntry: (entry: Entry) => void): [boolean, (newer: boolean) => void] {
  const [newer, setNewer] = useState(false);
  useEffect(() => {
    if (!lease.checkedAt || (lease.status === "held" && !lease.gained)) return;
    let live = true;
    manage("getEntry", { params: { id: entry.instance_id } })
      .then((fresh) => {
        if (!live || (fresh.current_version_id === entry.current_version_id && fresh.workflow.revision === entry.workflow.revision && fresh.trashed_at === entry.trashed_at)) return;
        if (dirty) setNewer(true);
        else onEntry(fresh);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [lease.checkedAt]);
  return [newer, setNewer];
}
