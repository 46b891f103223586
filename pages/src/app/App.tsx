import { type ComponentType, useEffect } from "react";
import NotFound from "../features/not-found/NotFound";
import { type AdsDisclosure, DisclosureContext, NO_ADS } from "../lib/disclosure";
import { Router } from "../lib/router";
import { ToastProvider } from "../lib/toast";
import { notFoundTitle, routes } from "./routes";
import "../styles/base.css";

/** `disclosure`: what the page says of the ads, as its prerendered HTML said it (`#root[data-anuncios]`). */
export function App({
  path,
  page,
  disclosure = NO_ADS,
}: {
  path: string;
  page: ComponentType;
  disclosure?: AdsDisclosure;
}) {
  useEffect(() => {
    // Marks the moment the page is interactive (used by the browser tests).
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <DisclosureContext.Provider value={disclosure}>
      <ToastProvider>
        <Router
          routes={routes}
          notFound={NotFound}
          notFoundTitle={notFoundTitle}
          initialPath={path}
          initialPage={page}
        />
      </ToastProvider>
    </DisclosureContext.Provider>
  );
}
