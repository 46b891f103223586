import {
  type ComponentType,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { focusHeading, scrollToHash } from "./pageArrival";
import { findRoute, type RouteDef } from "./routeMatch";

export type { PageModule, RouteDef } from "./routeMatch";

/**
 * A small client router: the site's few routes (app/routes.ts) do not need a
 * library. Each route's page is loaded on demand, so the landing page ships
 * no staff code; `Link` (Link.tsx) navigates without a reload.
 */
/**
 * `replace`: in place of the current history entry. `inPlace`: the page
 * changes its address where it stands (the landing's 'Sucesso!'): no scroll
 * to the top, and the page moves the focus itself.
 */
export type NavigateOptions = { replace?: boolean; inPlace?: boolean };

type RouterState = {
  path: string;
  navigate: (to: string, options?: NavigateOptions) => void;
};

const RouterContext = createContext<RouterState>({ path: "/", navigate: () => {} });

export function useRouter(): RouterState {
  return useContext(RouterContext);
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
    (to: string, options?: NavigateOptions) => {
      const url = new URL(to, window.location.href);
      if (url.origin !== window.location.origin) {
        window.location.assign(to);
        return;
      }
      const target = url.pathname + url.search + url.hash;
      if (options?.replace) window.history.replaceState(null, "", target);
      else window.history.pushState(null, "", target);
      const moves = !url.hash && !options?.inPlace;
      show(url.pathname, moves);
      if (moves) window.scrollTo(0, 0);
      else if (url.hash) scrollToHash(url.hash);
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
