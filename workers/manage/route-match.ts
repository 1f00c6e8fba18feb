import type { RouteSpec } from "../../schema/contract";

export interface MatchedRoute {
  route: RouteSpec;
  params: Record<string, string>;
}

interface Compiled {
  route: RouteSpec;
  pattern: RegExp;
  names: string[];
}

/** Compiles `/entries/{id}` paths of a route table into matchers, once. */
export function routeMatcher(routes: readonly RouteSpec[]): (method: string, path: string) => MatchedRoute | "method_not_allowed" | undefined {
  const compiled: Compiled[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
  return (method, path) => {
    let pathMatched = false;
    for (const c of compiled) {
      const m = c.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (c.route.method !== method.toLowerCase()) continue;
      const params: Record<string, string> = {};
      c.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1] ?? "")));
      return { route: c.route, params };
    }
    return pathMatched ? "method_not_allowed" : undefined;
  };
}
