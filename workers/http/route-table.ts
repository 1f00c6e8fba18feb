import { IttyRouter, type IRequest } from "itty-router";
import type { RouteSpec } from "../../schema/contract";
import { AppError } from "../../shared/errors";

/**
 * The one way a request finds its route on every surface (public, management, plugin, admin):
 * itty-router, driven by a route table of `schema/`. Matching, percent-decoding of path
 * parameters and "path known, method not" are decided here; each surface only chooses how to
 * answer the non-matches (its own envelope and order of checks).
 */
export type RouteMatch<R extends RouteSpec> =
  | { kind: "matched"; route: R; params: Record<string, string> }
  /** The path names a route but a parameter is not valid percent-encoded UTF-8 (`%ZZ`, `%E0%A4%A`). */
  | { kind: "malformed"; route: R }
  /** The path names routes, none with this method; `allow` lists the methods it has. */
  | { kind: "method_not_allowed"; allow: string[] }
  | { kind: "none" };

export interface RouteTableOptions {
  /** Answer HEAD like GET (the public read API). */
  headAsGet?: boolean;
}

const PARAM = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `/entries/{id}` → `/entries/:id`, itty's parameter syntax. */
function ittyPath(path: string): string {
  return path.replace(PARAM, ":$1");
}

/** The parameter names of a table path, in path order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1] ?? "");
}

function isParamSegment(segment: string): boolean {
  return segment.startsWith("{");
}

/**
 * A literal segment is more specific than a parameter at the same position, so `/models/proposals`
 * wins over `/models/{id}` and `/v1/_search` over `/v1/{model}` whatever order the table lists them.
 */
function bySpecificity(a: string, b: string): number {
  const sa = a.split("/");
  const sb = b.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = isParamSegment(sa[i] ?? "");
    const pb = isParamSegment(sb[i] ?? "");
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

/** Percent-decodes every captured parameter; undefined when one is not valid UTF-8 percent-encoding. */
function decodeParams(raw: Record<string, string> | undefined): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return params;
}

/**
 * Builds the matcher of one surface from its route table, once per isolate. Paths match exactly
 * (no trailing slash), parameters capture one segment each and arrive percent-decoded.
 */
export function routeTable<R extends RouteSpec>(basePath: string, routes: readonly R[], options: RouteTableOptions = {}): (request: Pick<Request, "method" | "url">) => Promise<RouteMatch<R>> {
  const router = IttyRouter<IRequest, []>({ base: basePath });
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of [...routes].sort((a, b) => bySpecificity(a.path, b.path))) {
    const handle = (request: IRequest): RouteMatch<R> => {
      const params = decodeParams(request.params);
      return params ? { kind: "matched", route, params } : { kind: "malformed", route };
    };
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methodsByPath.set(route.path, methods);
    router[route.method](ittyPath(route.path), handle);
    methods.add(route.method.toUpperCase());
    if (options.headAsGet && route.method === "get") {
      router.head(ittyPath(route.path), handle);
      methods.add("HEAD");
    }
  }
  // Registered after every method route: reached only when the path is known and the method is not.
  for (const path of [...methodsByPath.keys()].sort(bySpecificity)) {
    const allow = [...(methodsByPath.get(path) ?? [])].sort();
    router.all(ittyPath(path), (): RouteMatch<R> => ({ kind: "method_not_allowed", allow }));
  }
  return async (request) => {
    const pathname = new URL(request.url).pathname;
    // itty tolerates trailing slashes; the contract's paths are exact.
    if (pathname.length > 1 && pathname.endsWith("/")) return { kind: "none" };
    // A copy, so that itty's `params`/`query` bookkeeping never touches the real Request.
    const found: RouteMatch<R> | undefined = await router.fetch({ method: request.method, url: request.url });
    return found ?? { kind: "none" };
  };
}

/** 405 for a known path asked with another method; `allow` also becomes the Allow header. */
export function methodNotAllowed(allow: readonly string[]): AppError {
  return new AppError("method_not_allowed", "This path does not answer this method.", { allow: [...allow] });
}

/** 400 for a path whose parameters are not valid percent-encoded UTF-8. */
export function malformedPath(): AppError {
  return new AppError("invalid_request", "The path is not valid percent-encoding.");
}
