import { renderToString } from "react-dom/server";
import { App } from "./app/App";
import { notFoundTitle, routes } from "./app/routes";
import { PageStatus } from "./components/PageStatus";
import NotFound from "./features/not-found/NotFound";
import { type AdsDisclosure, ALL_VARIANTS, NO_ADS, variantName } from "./lib/disclosure";
import { findRoute } from "./lib/routeMatch";

/** Pages written to HTML at build time: path → file under pages/dist. */
export const prerendered = [
  ...routes
    .filter((r) => r.prerender !== "none")
    .map((r) => ({
      path: r.path,
      file: r.path === "/" ? "index.html" : `${r.path.slice(1)}.html`,
      module: r.prerender === "page" ? r.module : undefined,
      title: r.title,
    })),
  { path: "/404", file: "404.html", title: notFoundTitle },
];

/** The public pages that speak of the ads: written once more for each of the ads' combinations. */
export const disclosed = ["/", "/privacidade", "/obrigado", "/cadastro-nao-enviado"];

/** Each combination that sends something, with its name (the worker's, worker/src/site/disclosure.rs). */
export const adsVariants = ALL_VARIANTS.map((disclosure) => ({ disclosure, name: variantName(disclosure) ?? "" }));

/** The HTML of the page at `path`, before any script runs, saying `disclosure` of the ads. */
export async function render(path: string, disclosure: AdsDisclosure = NO_ADS): Promise<string> {
  const route = findRoute(routes, path);
  if (route?.prerender === "shell") {
    return renderToString(<PageStatus text={route.shellText ?? "Carregando..."} />);
  }
  const Page = route ? (await route.load()).default : NotFound;
  return renderToString(<App path={path} page={Page} disclosure={disclosure} />);
}
