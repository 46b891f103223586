import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import { development, site } from "../config/agency";
import FormFailed from "../features/form-result/FormFailed";
import Privacy from "../features/privacy/Privacy";
import AuthPage from "../features/staff-auth/AuthPage";
import { findRoute } from "../lib/routeMatch";
import Landing from "./landing/Landing";
import { notFoundTitle, routes } from "./routes";
import ActivityPage from "./staff/ActivityPage";
import AdminPage from "./staff/AdminPage";
import CampaignsPage from "./staff/CampaignsPage";
import LeadPage from "./staff/LeadPage";
import TeamPage from "./staff/TeamPage";

const titled = (page: string) => `${page} – ${development.name}`;

/** Every page of the site: a path that reaches it, its page and the document's title there. */
const PAGES: { path: string; page: ComponentType; title: string }[] = [
  { path: "/", page: Landing, title: site.title },
  { path: "/privacidade", page: Privacy, title: titled("Política de Privacidade") },
  { path: "/obrigado", page: Landing, title: titled("Cadastro recebido") },
  { path: "/cadastro-nao-enviado", page: FormFailed, title: titled("Cadastro não enviado") },
  { path: "/auth", page: AuthPage, title: titled("Acesso Administrativo") },
  { path: "/admin", page: AdminPage, title: titled("Painel Administrativo") },
  { path: "/admin/leads/0b6c7f1e-1111", page: LeadPage, title: titled("Lead") },
  { path: "/admin/campanhas", page: CampaignsPage, title: titled("Campanhas") },
  { path: "/admin/equipe", page: TeamPage, title: titled("Equipe") },
  { path: "/admin/atividade", page: ActivityPage, title: titled("Atividade") },
];

describe("the site's routes", () => {
  it.each(PAGES)("$path shows its page, titled '$title'", async ({ path, page, title }) => {
    const route = findRoute(routes, path);
    expect(route?.title).toBe(title);
    expect((await route?.load())?.default).toBe(page);
  });

  it("are every one of them, each once", () => {
    expect(routes.map((r) => findRoute(routes, r.path.replace(":id", "0b6c7f1e-1111")))).toEqual(routes);
    expect(routes).toHaveLength(PAGES.length);
  });

  it("reach the same page with a trailing slash", () => {
    expect(findRoute(routes, "/admin/")?.path).toBe("/admin");
    expect(findRoute(routes, "/admin/leads/0b6c7f1e-1111/")?.path).toBe("/admin/leads/:id");
  });

  it("leave a path that is no page to the 404 page, with its own title", () => {
    expect(findRoute(routes, "/admin/leads/")).toBeUndefined();
    expect(findRoute(routes, "/admin/nada")).toBeUndefined();
    expect(findRoute(routes, "/wp-login.php")).toBeUndefined();
    expect(notFoundTitle).toBe(titled("Página não encontrada"));
  });
});
