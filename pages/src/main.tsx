import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/App";
import { routes } from "./app/routes";
import NotFound from "./features/not-found/NotFound";
import { fromVariantName } from "./lib/disclosure";
import { findRoute } from "./lib/routeMatch";

// Not a top-level await: lazy pages import this entry's chunk, which must
// finish evaluating before they can load.
async function start() {
  const container = document.getElementById("root");
  if (!container) throw new Error("#root is missing from the page");

  const path = window.location.pathname;
  const route = findRoute(routes, path);
  const Page = route ? (await route.load()).default : NotFound;
  const disclosure = fromVariantName(container.dataset.anuncios);
  const app = (
    <StrictMode>
      <App path={path} page={Page} disclosure={disclosure} />
    </StrictMode>
  );

  // Prerendered pages are hydrated; pages prerendered as a neutral shell are rendered over it.
  if (container.hasChildNodes() && (!route || route.prerender === "page")) {
    hydrateRoot(container, app);
  } else {
    createRoot(container).render(app);
  }
}

void start();
