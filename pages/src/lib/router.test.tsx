import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ComponentType } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Link } from "./Link";
import { routeParam } from "./routeMatch";
import { type RouteDef, Router, useRouter } from "./router";

function Home() {
  return (
    <main>
      <h1 tabIndex={-1}>Início</h1>
      <Link to="/privacidade">Política de Privacidade</Link>
      <Link to="/admin/leads/lead-7">Um lead</Link>
      <Link to="/sumiu">Um link quebrado</Link>
    </main>
  );
}

function Privacy() {
  return <h1 tabIndex={-1}>Privacidade</h1>;
}

/** A page with a parameter shows what it read from the path. */
function LeadStub() {
  const { path } = useRouter();
  return <h1 tabIndex={-1}>Lead {routeParam("/admin/leads/:id", path) ?? "(nenhum)"}</h1>;
}

/** A page that sends the visitor on, in place of itself in the history. */
function Redirect() {
  const { navigate } = useRouter();
  return (
    <button type="button" onClick={() => navigate("/privacidade", { replace: true })}>
      Ir
    </button>
  );
}

function NotFound() {
  return <h1 tabIndex={-1}>404</h1>;
}

const ROUTES: RouteDef[] = [
  { path: "/", title: "Início – Vinhedo", load: async () => ({ default: Home }), prerender: "page" },
  { path: "/privacidade", title: "Privacidade – Vinhedo", load: async () => ({ default: Privacy }), prerender: "page" },
  { path: "/admin/leads/:id", title: "Lead – Vinhedo", load: async () => ({ default: LeadStub }), prerender: "none" },
];
const NOT_FOUND_TITLE = "Página não encontrada – Vinhedo";

/** The router as the browser starts it at `path`, with that page already loaded. */
function openAt(path: string, page: ComponentType) {
  window.history.replaceState(null, "", path);
  return render(
    <Router
      routes={ROUTES}
      notFound={NotFound}
      notFoundTitle={NOT_FOUND_TITLE}
      initialPath={path}
      initialPage={page}
    />,
  );
}

const heading = () => screen.getByRole("heading", { level: 1 });

afterEach(() => {
  document.body.innerHTML = "";
  document.title = "";
  window.history.replaceState(null, "", "/");
});

describe("Router", () => {
  it("shows the page it starts on and names it in the title", () => {
    openAt("/", Home);
    expect(heading().textContent).toBe("Início");
    expect(document.title).toBe("Início – Vinhedo");
  });

  it("goes to a link's page without a reload: a new history entry, its title, its heading focused", async () => {
    openAt("/", Home);
    const entries = window.history.length;
    await userEvent.click(screen.getByRole("link", { name: "Política de Privacidade" }));
    expect(await screen.findByRole("heading", { name: "Privacidade" })).toBeTruthy();
    expect(window.location.pathname).toBe("/privacidade");
    expect(window.history.length).toBe(entries + 1);
    expect(document.title).toBe("Privacidade – Vinhedo");
    expect(document.activeElement).toBe(heading());
  });

  it("replaces the history entry when asked to, and shows the page of the address on Back", async () => {
    openAt("/", Redirect);
    const entries = window.history.length;
    await userEvent.click(screen.getByRole("button", { name: "Ir" }));
    await screen.findByRole("heading", { name: "Privacidade" });
    expect(window.history.length).toBe(entries);

    window.history.pushState(null, "", "/");
    act(() => {
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    expect(await screen.findByRole("heading", { name: "Início" })).toBeTruthy();
    expect(document.title).toBe("Início – Vinhedo");
  });

  it("shows a page with a parameter, which reads it from the path, with or without a trailing slash", async () => {
    openAt("/", Home);
    await userEvent.click(screen.getByRole("link", { name: "Um lead" }));
    expect(await screen.findByRole("heading", { name: "Lead lead-7" })).toBeTruthy();
    expect(document.title).toBe("Lead – Vinhedo");
    document.body.innerHTML = "";

    openAt("/admin/leads/lead-8/", LeadStub);
    expect(heading().textContent).toBe("Lead lead-8");
    expect(document.title).toBe("Lead – Vinhedo");
  });

  it("shows the 404 page and its title for a path that is no page", async () => {
    openAt("/", Home);
    await userEvent.click(screen.getByRole("link", { name: "Um link quebrado" }));
    expect(await screen.findByRole("heading", { name: "404" })).toBeTruthy();
    expect(window.location.pathname).toBe("/sumiu");
    expect(document.title).toBe(NOT_FOUND_TITLE);
  });

  it("takes a trailing slash to the page without it", () => {
    openAt("/privacidade/", Privacy);
    expect(document.title).toBe("Privacidade – Vinhedo");
  });
});
