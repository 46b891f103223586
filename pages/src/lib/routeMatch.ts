import type { RouteDef } from "./router";

/** `path` without trailing slashes: '/admin/' is '/admin'. */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/** The route for `path`: its own, or one whose pattern ends in a `:parameter` segment. */
export function findRoute(routes: RouteDef[], path: string): RouteDef | undefined {
  const clean = withoutTrailingSlash(path);
  return routes.find((r) => r.path === clean) ?? routes.find((r) => routeParam(r.path, clean) !== null);
}

/**
 * The value of the pattern's last `:parameter` segment in `path`, or null if
 * the path is not the pattern's. A trailing slash is ignored, as `findRoute`
 * ignores it: the page it found reads its parameter.
 */
export function routeParam(pattern: string, path: string): string | null {
  const at = pattern.lastIndexOf("/:");
  if (at < 0) return null;
  const prefix = pattern.slice(0, at + 1);
  const clean = withoutTrailingSlash(path);
  if (!clean.startsWith(prefix)) return null;
  const value = clean.slice(prefix.length);
  if (!value || value.includes("/")) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
