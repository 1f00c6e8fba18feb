/**
 * The editing lease of an entry language (spec 3, "Editing locks"; issue #15 item 5): taken when
 * the editor opens, renewed while the tab is visible, released on close; observers see the holder
 * and may take over. Stub until the lease work lands: the editor compiles against this shape.
 */
export interface LeaseState {
  /** `held`: this editor holds it; `other`: someone else does (observer); `lost`: taken over; `none`: not taken (read-only role, trash). */
  status: "loading" | "held" | "other" | "lost" | "none";
  holder: { id: string; name?: string } | null;
  /** The lease token saves and transitions send, while held. */
  token: string | null;
  takeOver: () => Promise<void>;
  /** When this screen first saw the current other holder (the lease view has no start time). */
  since?: string | null;
  /** When the lease ends unless renewed. */
  expiresAt?: string | null;
  /** Why no lease could be taken (`none`), in words. */
  refusal?: { title: string; detail?: string; code?: string } | null;
  /** Changes on every observer re-read (every 10 s): the editor re-reads the entry then. */
  checkedAt?: number;
  /** The lease came free while observing and this editor took it. */
  gained?: boolean;
  /** A write was answered `lock_lost`: stop renewing, learn who holds it now. */
  markLost?: () => void;
  /** Headers a write under this lease sends (`X-Editing-Token`), empty when not held. */
  headers?: Record<string, string>;
}

export function useLease(_site: string, _entryId: string, _lang: string): LeaseState {
  return { status: "none", holder: null, token: null, takeOver: async () => {} };
}
