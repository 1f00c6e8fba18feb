import { computed, signal } from "@preact/signals";
import { admin, ApiError, setRequestContext, type AdminAnswer } from "../api/client";

export type SessionAnswer = AdminAnswer<"getSession">;
export type SiteSummary = SessionAnswer["sites"][number];

/** The signed-in person and their sites; `undefined` while loading, `null` when signed out. */
export const session = signal<SessionAnswer | null | undefined>(undefined);

/** The site the screens work on (from the address), once the person is known to belong to it. */
export const currentSiteId = signal<string | null>(null);

export const currentSite = computed<SiteSummary | null>(() => session.value?.sites.find((s) => s.id === currentSiteId.value) ?? null);

function adopt(answer: SessionAnswer | null): void {
  session.value = answer;
  setRequestContext({ csrf: answer?.csrf_token ?? "" });
}

/** Reads the current session (null when signed out). */
export async function loadSession(): Promise<void> {
  try {
    adopt(await admin("getSession"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) adopt(null);
    else throw error;
  }
}

export async function signIn(email: string, password: string): Promise<void> {
  adopt(await admin("signIn", { body: { email, password } }));
}

export async function signOut(): Promise<void> {
  try {
    await admin("signOut");
  } finally {
    adopt(null);
    currentSiteId.value = null;
  }
}

/** Makes a site current for the API calls that follow (X-Site-Id). */
export function chooseSite(siteId: string | null): void {
  currentSiteId.value = siteId;
  setRequestContext({ site: siteId ?? "" });
}

/** Takes a fresh session answer (e.g. after accepting an invitation, which signs the person in). */
export function adoptSession(answer: SessionAnswer): void {
  adopt(answer);
}
