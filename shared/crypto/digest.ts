const encoder = new TextEncoder();

/** Lower-case hex of bytes. */
export function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Lower-case hex SHA-256 of a text (or bytes). Secrets are stored and looked up only by this digest. */
export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", typeof input === "string" ? encoder.encode(input) : input);
  return hex(new Uint8Array(digest));
}

/** base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function base64urlDecode(text: string): Uint8Array {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A secret in the service's formats: prefix + 43 base64url characters (32 random bytes). */
export function newSecret(prefix: "dwm_" | "dw_site_" | "dwp_" | "dwl_" | "dwo_" | "dwr_" | "dws_" | "dwi_" | "dwb_" | "dwpw_" | "whsec_"): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return prefix + base64url(bytes);
}
