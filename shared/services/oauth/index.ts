/** OAuth 2.1 app connections (docs/oauth.md). */
export { OAuthError, type OAuthErrorCode } from "./errors";
export { FORBIDDEN_SCHEMES, MAX_REDIRECT_URIS, redirectUriProblem } from "./redirect-uris";
export { parseScopeParameter, resolveScopes, scopeString } from "./scopes";
export { checkRegistration, clientNameProblem, displayClientName, findClient, registerClient, REGISTRATION_LIMIT, type OAuthClient, type RegisteredClient } from "./clients";
export {
  ACCESS_TOKEN_TTL_MS,
  authorizationErrorRedirect,
  checkAuthorizationClient,
  CODE_TTL_MS,
  exchangeAuthorizationCode,
  issueAuthorizationCode,
  issuerBelongsToSite,
  REFRESH_TOKEN_TTL_MS,
  refreshTokens,
  revokeToken,
  s256,
  type AuthorizationGrant,
  type IssuedCode,
  type TokenAnswer,
} from "./tokens";
export { listConnections, revokeConnection, type ConnectionView } from "./connections";
