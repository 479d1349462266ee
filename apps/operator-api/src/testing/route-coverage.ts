import type { Express } from "express";
import { documentedPath } from "../route.ts";

/** The parts of Express 5's router stack walked here (not in its types). */
interface Layer {
  name?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: unknown[] };
}

/**
 * What the app really serves, read from Express's own router, so a route mounted outside
 * route-list.ts is seen too: `METHOD /path/{param}` per route. A nested router cannot be walked to
 * full paths (Express 5 keeps no mount path string): it is listed as `ROUTER <name>`, and so fails
 * the comparison, which is the point: every route is mounted on the app, from the list.
 */
export function servedRoutes(app: Express): string[] {
  return (app.router.stack as Layer[]).flatMap((layer) => {
    const { route } = layer;
    if (route)
      return Object.keys(route.methods).map(
        (method) => `${method.toUpperCase()} ${documentedPath(route.path)}`,
      );
    return layer.handle?.stack ? [`ROUTER ${layer.name ?? "anonymous"}`] : [];
  });
}

/** Every `METHOD /path` the document lists. */
export function documentedRoutes(document: { paths: Record<string, object> }): string[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** Served but not documented, and documented but not served; `exempt` are served on purpose without. */
export function routeCoverage(app: Express, document: { paths: Record<string, object> }, exempt: string[]) {
  const served = servedRoutes(app).filter((route) => !exempt.includes(route));
  const documented = documentedRoutes(document);
  return {
    undocumented: served.filter((route) => !documented.includes(route)),
    unserved: documented.filter((route) => !served.includes(route)),
  };
}
