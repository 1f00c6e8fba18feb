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
}

export function useLease(_site: string, _entryId: string, _lang: string): LeaseState {
  return { status: "none", holder: null, token: null, takeOver: async () => {} };
}
