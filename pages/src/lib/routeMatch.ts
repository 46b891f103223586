import type { ComponentType } from "react";

/** The site's routes: what each path loads and how it is prerendered. */
export type PageModule = { default: ComponentType };

export type RouteDef = {
  path: string;
  load: () => Promise<PageModule>;
  /**
   * "page": the prerendered HTML is this page (hydrate it); "shell": a neutral
   * placeholder (render over it); "none": a path with a parameter, served the
   * shell of another page by the worker.
   */
  prerender: "page" | "shell" | "none";
  /** The document's title on this page: the prerendered HTML's, and set again on every navigation. */
  title: string;
  /** What the prerendered shell says while the page's code loads. */
  shellText?: string;
  /** The page's source file, for a lazy page prerendered as "page": its chunk's CSS goes into that HTML. */
  module?: string;
};

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
