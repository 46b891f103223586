import { development, site } from "../config/agency";
import type { RouteDef } from "../lib/routeMatch";
import Landing from "./landing/Landing";

const titled = (page: string) => `${page} – ${development.name}`;

/** The title of a path that is no page. */
export const notFoundTitle = titled("Página não encontrada");

/**
 * The site's routes. The landing page is in the main bundle; every other page
 * is its own chunk, loaded only when visited.
 */
export const routes: RouteDef[] = [
  { path: "/", title: site.title, load: async () => ({ default: Landing }), prerender: "page" },
  {
    path: "/privacidade",
    title: titled("Política de Privacidade"),
    load: () => import("../features/privacy/Privacy"),
    prerender: "page",
    module: "src/features/privacy/Privacy.tsx",
  },
  // 'Sucesso!' in the form's place: the landing, at an address of its own.
  {
    path: "/obrigado",
    title: titled("Cadastro recebido"),
    load: async () => ({ default: Landing }),
    prerender: "page",
  },
  {
    path: "/cadastro-nao-enviado",
    title: titled("Cadastro não enviado"),
    load: () => import("../features/form-result/FormFailed"),
    prerender: "page",
    module: "src/features/form-result/FormFailed.tsx",
  },
  {
    path: "/auth",
    title: titled("Acesso Administrativo"),
    load: () => import("../features/staff-auth/AuthPage"),
    prerender: "shell",
  },
  {
    path: "/admin",
    title: titled("Painel Administrativo"),
    load: () => import("./staff/AdminPage"),
    prerender: "shell",
    shellText: "Verificando autenticação...",
  },
  {
    path: "/admin/leads/:id",
    title: titled("Lead"),
    load: () => import("./staff/LeadPage"),
    prerender: "none",
  },
  {
    path: "/admin/campanhas",
    title: titled("Campanhas"),
    load: () => import("./staff/CampaignsPage"),
    prerender: "shell",
    shellText: "Verificando autenticação...",
  },
  {
    path: "/admin/equipe",
    title: titled("Equipe"),
    load: () => import("./staff/TeamPage"),
    prerender: "shell",
    shellText: "Verificando autenticação...",
  },
  {
    path: "/admin/atividade",
    title: titled("Atividade"),
    load: () => import("./staff/ActivityPage"),
    prerender: "shell",
    shellText: "Verificando autenticação...",
  },
];
