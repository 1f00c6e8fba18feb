import { env } from "cloudflare:test";

/**
 * The fake plugin bound as `PLUGIN_FETCH` (vitest.config.ts, `fakePlugin`): what it received and
 * the answers tests give it. Paths are the endpoint's path plus `/operations/<id>` or
 * `/policies/<id>`; tests use an endpoint path of their own so that files sharing a runtime never
 * read each other's calls.
 */

export interface FakePluginCall {
  host: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

function control(): Fetcher {
  const binding = (env as { PLUGIN_FETCH?: Fetcher }).PLUGIN_FETCH;
  if (!binding) throw new Error("PLUGIN_FETCH is not bound (vitest.config.ts)");
  return binding;
}

/** Calls the fake received on `path`, oldest first. */
export async function pluginCalls(path: string): Promise<FakePluginCall[]> {
  const response = await control().fetch(`http://plugin.control/calls?path=${encodeURIComponent(path)}`);
  return (await response.json()) as FakePluginCall[];
}

/** Makes the fake answer `path` with `status` and `body` (after `delay_ms`), until {@link clearAnswer}. */
export async function answerWith(path: string, answer: { status: number; body: unknown; delay_ms?: number }): Promise<void> {
  await control().fetch(`http://plugin.control/answer?path=${encodeURIComponent(path)}`, { method: "PUT", body: JSON.stringify(answer) });
}

export async function clearAnswer(path: string): Promise<void> {
  await control().fetch(`http://plugin.control/answer?path=${encodeURIComponent(path)}`, { method: "DELETE" });
}

/** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, as the plugin checks it. */
export async function expectedSignature(secret: string, timestamp: string, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`)));
  return `v1=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

let endpoints = 0;
/** A fresh endpoint path (`/p<n>-<time>`): each test's calls are its own. */
export function freshEndpoint(): { endpoint: string; path: string } {
  const path = `/p${endpoints++}-${Date.now()}`;
  return { endpoint: `https://plugins.example.test${path}`, path };
}
