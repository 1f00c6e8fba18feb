/**
 * Refusals of the OAuth endpoints (docs/oauth.md). They do not use the service's
 * `{ error: { code, … } }` envelope: RFC 6749 §5.2, RFC 7591 §3.2.2 and RFC 7009 §2.2.1 fix the
 * wire shape `{ "error": "<code>", "error_description": "…" }`, which off-the-shelf clients parse.
 */

/** The OAuth error codes this service answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied"
  | "temporarily_unavailable";

/** An OAuth refusal: its code, a description for people, and the HTTP status. */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = code === "invalid_client" ? 401 : 400,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = "OAuthError";
  }

  /** The RFC 6749 §5.2 body. */
  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}
