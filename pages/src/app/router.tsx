import {
  type AnchorHTMLAttributes,
  type ComponentType,
  createContext,
  type MouseEvent,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";

/**
 * A small client router: four routes do not need a library. Each route's
 * component is loaded on demand, so the landing page ships no staff code.
 */
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

type RouterState = {
  path: string;
  navigate: (to: string, options?: { replace?: boolean }) => void;
};

const RouterContext = createContext<RouterState>({ path: "/", navigate: () => {} });

export function useRouter(): RouterState {
  return useContext(RouterContext);
}

/** The route for `path`: its own, or one whose pattern ends in a `:parameter` segment. */
export function findRoute(routes: RouteDef[], path: string): RouteDef | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return routes.find((r) => r.path === clean) ?? routes.find((r) => routeParam(r.path, clean) !== null);
}

/** The value of the pattern's last `:parameter` segment in `path`, or null if the path is not the pattern's. */
export function routeParam(pattern: string, path: string): string | null {
  const at = pattern.lastIndexOf("/:");
  if (at < 0) return null;
  const prefix = pattern.slice(0, at + 1);
  if (!path.startsWith(prefix)) return null;
  const value = path.slice(prefix.length);
  if (!value || value.includes("/")) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

type RouterProps = {
  routes: RouteDef[];
  notFound: ComponentType;
  notFoundTitle: string;
  initialPath: string;
  /** The component of `initialPath`, already loaded (hydration needs it synchronously). */
  initialPage: ComponentType;
};

export function Router({ routes, notFound: NotFound, notFoundTitle, initialPath, initialPage }: RouterProps) {
  /** `arrived`: the page was reached without a reload (its heading takes the focus). */
  const [state, setState] = useState<{ path: string; page: ComponentType; arrived: boolean }>({
    path: initialPath,
    page: initialPage,
    arrived: false,
  });
  const pending = useRef<string | null>(null);

  // The current page stays on screen until the next one's code has loaded,
  // so a redirect keeps saying what it is doing instead of flashing a spinner.
  // `focus`: a link to a #fragment scrolls there instead; the list's own
  // Back and Forward (its filters) stay on the same page.
  const show = useCallback(
    (path: string, focus: boolean) => {
      pending.current = path;
      const shown = (page: ComponentType) => setState((now) => ({ path, page, arrived: focus && now.path !== path }));
      const route = findRoute(routes, path);
      if (!route) {
        shown(NotFound);
        return;
      }
      route.load().then(
        (m) => {
          if (pending.current === path) shown(m.default);
        },
        () => window.location.assign(path),
      );
    },
    [routes, NotFound],
  );

  const navigate = useCallback(
    (to: string, options?: { replace?: boolean }) => {
      const url = new URL(to, window.location.href);
      if (url.origin !== window.location.origin) {
        window.location.assign(to);
        return;
      }
      const target = url.pathname + url.search + url.hash;
      if (options?.replace) window.history.replaceState(null, "", target);
      else window.history.pushState(null, "", target);
      show(url.pathname, !url.hash);
      if (!url.hash) window.scrollTo(0, 0);
      else scrollToHash(url.hash);
    },
    [show],
  );

  useEffect(() => {
    const onPop = () => show(window.location.pathname, true);
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [show]);

  // A page reached without a reload names itself too: in the tab, the history and a screen reader.
  useEffect(() => {
    document.title = findRoute(routes, state.path)?.title ?? notFoundTitle;
  }, [routes, notFoundTitle, state.path]);

  // Where keyboard and screen reader go on: the new page's heading, not the
  // <body> the link that was pressed left behind with the page it was on.
  useEffect(() => {
    if (state.arrived) return focusHeading();
  }, [state]);

  const value = useMemo(() => ({ path: state.path, navigate }), [state.path, navigate]);
  const Page = state.page;
  return (
    <RouterContext.Provider value={value}>
      <Page />
    </RouterContext.Provider>
  );
}

/**
 * Focuses the page's <h1 tabIndex={-1}> once it is on screen (a staff page
 * shows it once the session is checked), unless focus has gone somewhere
 * meanwhile. Answers what stops waiting for it.
 */
function focusHeading(): () => void {
  const before = document.activeElement;
  const focus = () => {
    const heading = document.querySelector<HTMLElement>("h1");
    if (!heading) return false;
    const now = document.activeElement;
    if (now === before || now === document.body || now === null) heading.focus({ preventScroll: true });
    return true;
  };
  if (focus()) return () => {};
  const observer = new MutationObserver(() => {
    if (focus()) observer.disconnect();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** Scrolls to the element a `#fragment` names, once the next page has rendered it. */
function scrollToHash(hash: string, tries = 20) {
  const target = document.getElementById(decodeURIComponent(hash.slice(1)));
  if (target) target.scrollIntoView({ block: "center" });
  else if (tries > 0) window.setTimeout(() => scrollToHash(hash, tries - 1), 50);
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

/** An ordinary link that navigates without reloading the page. */
export function Link({ to, onClick, children, ...rest }: LinkProps) {
  const { navigate } = useRouter();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      rest.target
    ) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={handleClick} {...rest}>
      {children}
    </a>
  );
}
