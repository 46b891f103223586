import {
  type AnchorHTMLAttributes,
  type ComponentType,
  createContext,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
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
  /** "page": the prerendered HTML is this page (hydrate it); "shell": a neutral placeholder (render over it). */
  prerender: "page" | "shell";
};

type RouterState = {
  path: string;
  navigate: (to: string, options?: { replace?: boolean }) => void;
};

const RouterContext = createContext<RouterState>({ path: "/", navigate: () => {} });

export function useRouter(): RouterState {
  return useContext(RouterContext);
}

export function findRoute(routes: RouteDef[], path: string): RouteDef | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return routes.find((r) => r.path === clean);
}

type RouterProps = {
  routes: RouteDef[];
  notFound: ComponentType;
  initialPath: string;
  /** The component of `initialPath`, already loaded (hydration needs it synchronously). */
  initialPage: ComponentType;
  fallback: ReactNode;
};

export function Router({ routes, notFound: NotFound, initialPath, initialPage, fallback }: RouterProps) {
  const [state, setState] = useState<{ path: string; page: ComponentType | null }>({
    path: initialPath,
    page: initialPage,
  });

  const show = useCallback(
    (path: string) => {
      const route = findRoute(routes, path);
      if (!route) {
        setState({ path, page: NotFound });
        return;
      }
      setState((s) => ({ path, page: s.path === path ? s.page : null }));
      route.load().then(
        (m) => setState((s) => (s.path === path ? { path, page: m.default } : s)),
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
      show(url.pathname);
      if (!url.hash) window.scrollTo(0, 0);
    },
    [show],
  );

  useEffect(() => {
    const onPop = () => show(window.location.pathname);
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [show]);

  const value = useMemo(() => ({ path: state.path, navigate }), [state.path, navigate]);
  const Page = state.page;
  return <RouterContext.Provider value={value}>{Page ? <Page /> : fallback}</RouterContext.Provider>;
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
