import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage } from "../api/client";
import { describeError } from "../api/error-words";
import { memberNames } from "./person-names";

/**
 * The editing lease of an entry language (spec 3, "Editing locks"; issue #15 item 5): taken when
 * the editor opens, renewed while the tab is visible, released on close; observers see the holder
 * and may take over (docs/admin-ui-lifecycle.md).
 *
 * - Taken with `startEditing` (an entry id is one language instance, so the lease is per language).
 * - Renewed with `renewEditing` every {@link RENEW_EVERY_MS} only while `document.visibilityState`
 *   is `visible`, and at once when the tab becomes visible again; a hidden tab lets it lapse after
 *   2 minutes. A renewal answered `lock_lost` tries to take the lease again: free (it only lapsed)
 *   → held with a new token; someone else's → `lost` (the editor keeps the text, see EntryActions).
 * - Released with `stopEditing` on unmount and on `pagehide` (a `keepalive` request carrying the
 *   CSRF header, so it outlives the page); a page restored from the back-forward cache takes it again.
 * - Observers (423 `locked`) re-read every {@link OBSERVE_EVERY_MS} (spec: 10 seconds) while the tab
 *   is visible, by asking for the lease again: still held → who and until when; free → this editor
 *   now holds it (`gained`); `checkedAt` changes each time, so the editor re-reads the entry too.
 * - Writes under the lease send its token as `X-Editing-Token` (docs/management-api.md): a lease
 *   taken over is then answered 423 `lock_lost` rather than written.
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

/** Renewal period: well inside the 2-minute lease, so one missed renewal does not lose it. */
export const RENEW_EVERY_MS = 30_000;
/** Observers re-read this often (spec 3, "Editing locks"). */
export const OBSERVE_EVERY_MS = 10_000;

type Inner = Omit<LeaseState, "takeOver" | "markLost" | "headers">;

const LOADING: Inner = { status: "loading", holder: null, token: null, since: null, expiresAt: null, refusal: null, checkedAt: 0, gained: false };

const visible = () => document.visibilityState === "visible";

export function useLease(site: string, entryId: string, lang: string): LeaseState {
  const [state, setState] = useState<Inner>(LOADING);
  const current = useRef<Inner>(LOADING);
  const alive = useRef(true);

  const apply = useCallback((next: Inner) => {
    if (!alive.current) return;
    current.current = next;
    setState(next);
    // Name the holder once the members' names are known (a courtesy: "another person" otherwise).
    const id = next.holder?.id;
    if (id && next.holder?.name === undefined) {
      void memberNames(site, [id]).then((names) => {
        const name = names.get(id);
        if (name && alive.current && current.current.holder?.id === id) apply({ ...current.current, holder: { id, name } });
      });
    }
  }, [site]);

  /** Someone else holds it: observer (or `lost` when this editor held it before). */
  const sawOther = useCallback(
    (error: ApiError, lost: boolean) => {
      const prev = current.current;
      const heldBy = typeof error.details.held_by === "string" ? error.details.held_by : "";
      const sameHolder = prev.holder?.id === heldBy && (prev.status === "other" || prev.status === "lost");
      apply({
        status: lost || prev.status === "lost" ? "lost" : "other",
        holder: sameHolder && prev.holder ? prev.holder : heldBy ? { id: heldBy } : null,
        token: null,
        since: sameHolder ? (prev.since ?? null) : new Date().toISOString(),
        expiresAt: typeof error.details.expires_at === "string" ? error.details.expires_at : null,
        refusal: null,
        checkedAt: Date.now(),
        gained: false,
      });
    },
    [apply],
  );

  /** Asks for the lease: on open, when observing, and after a lapse. */
  const start = useCallback(
    async (why: "open" | "observe" | "lapsed") => {
      try {
        const { lease } = await manage("startEditing", { params: { id: entryId }, body: {} });
        if (!alive.current) {
          // The editor closed while the lease was being taken: give it straight back.
          void manage("stopEditing", { params: { id: entryId }, body: { token: lease.token }, keepalive: true }).catch(() => {});
          return;
        }
        const wasOther = current.current.status === "other" || current.current.status === "lost";
        apply({ status: "held", holder: { id: lease.holder }, token: lease.token, since: null, expiresAt: lease.expires_at, refusal: null, checkedAt: Date.now(), gained: why === "observe" && wasOther });
      } catch (error) {
        if (error instanceof ApiError && error.code === "locked") sawOther(error, why === "lapsed");
        else if (why === "open") apply({ ...LOADING, status: "none", refusal: describeError(error) });
        // An observer's failed re-read (network) keeps what it showed; the next one tries again.
      }
    },
    [entryId, apply, sawOther],
  );

  const renew = useCallback(async () => {
    const token = current.current.token;
    if (current.current.status !== "held" || !token) return;
    try {
      const { lease } = await manage("renewEditing", { params: { id: entryId }, body: { token } });
      if (current.current.token === token) apply({ ...current.current, expiresAt: lease.expires_at });
    } catch (error) {
      // Lapsed (hidden tab) or taken over: take it again if it is free, else this editor lost it.
      if (error instanceof ApiError && error.code === "lock_lost") await start("lapsed");
    }
  }, [entryId, apply, start]);

  const release = useCallback(
    (keepalive: boolean) => {
      const token = current.current.token;
      if (current.current.status !== "held" || !token) return;
      current.current = { ...current.current, token: null, status: "none" };
      void manage("stopEditing", { params: { id: entryId }, body: { token }, keepalive }).catch(() => {});
    },
    [entryId],
  );

  // Open: take the lease; close: give it back.
  useEffect(() => {
    alive.current = true;
    current.current = LOADING;
    setState(LOADING);
    void start("open");
    const onHide = () => release(true);
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) void start("open");
    };
    window.addEventListener("pagehide", onHide);
    window.addEventListener("pageshow", onShow);
    return () => {
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("pageshow", onShow);
      release(true);
      alive.current = false;
    };
    // The lease is the entry language's (an entry id is one language instance): `lang` names it, it does not change it.
  }, [site, entryId]);

  // Renew while visible (holder); re-read every 10 s while visible (observer).
  useEffect(() => {
    const tick = () => {
      if (!visible()) return;
      if (current.current.status === "held") void renew();
    };
    const observe = () => {
      const status = current.current.status;
      if (visible() && (status === "other" || status === "lost")) void start("observe");
    };
    const renewTimer = window.setInterval(tick, RENEW_EVERY_MS);
    const observeTimer = window.setInterval(observe, OBSERVE_EVERY_MS);
    const onVisibility = () => {
      if (!visible()) return;
      if (current.current.status === "held") void renew();
      else observe();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearInterval(renewTimer);
      window.clearInterval(observeTimer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [renew, start]);

  const takeOver = useCallback(async () => {
    const { lease } = await manage("takeOverEditing", { params: { id: entryId }, body: {} });
    apply({ status: "held", holder: { id: lease.holder }, token: lease.token, since: null, expiresAt: lease.expires_at, refusal: null, checkedAt: Date.now(), gained: false });
  }, [entryId, apply]);

  const markLost = useCallback(() => {
    if (current.current.status === "lost") return;
    // Stop sending the dead token; asking for the lease again says who holds it now (`locked`), or
    // gives it back when nobody does (the draft's version check still guards what was saved since).
    apply({ ...current.current, status: "lost", token: null });
    void start("lapsed");
  }, [apply, start]);

  return {
    ...state,
    takeOver,
    markLost,
    headers: state.status === "held" && state.token ? { "x-editing-token": state.token } : {},
  };
}
