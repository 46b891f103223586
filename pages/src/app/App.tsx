import { type ComponentType, useEffect } from "react";
import { ToastProvider } from "../components/toast";
import NotFound from "../features/not-found/NotFound";
import { Router } from "../lib/router";
import { notFoundTitle, routes } from "./routes";
import "../styles/base.css";

export function App({ path, page }: { path: string; page: ComponentType }) {
  useEffect(() => {
    // Marks the moment the page is interactive (used by the browser tests).
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <ToastProvider>
      <Router routes={routes} notFound={NotFound} notFoundTitle={notFoundTitle} initialPath={path} initialPage={page} />
    </ToastProvider>
  );
}
