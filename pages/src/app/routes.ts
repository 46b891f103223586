import Landing from "../features/landing/Landing";
import type { RouteDef } from "./router";

/**
 * The site's routes. The landing page is in the main bundle; every other page
 * is its own chunk, loaded only when visited.
 */
export const routes: RouteDef[] = [
  { path: "/", load: async () => ({ default: Landing }), prerender: "page" },
  {
    path: "/privacidade",
    load: () => import("../features/privacy/Privacy"),
    prerender: "page",
    module: "src/features/privacy/Privacy.tsx",
  },
  {
    path: "/obrigado",
    load: () => import("../features/form-result/FormSent"),
    prerender: "page",
    module: "src/features/form-result/FormSent.tsx",
  },
  {
    path: "/cadastro-nao-enviado",
    load: () => import("../features/form-result/FormFailed"),
    prerender: "page",
    module: "src/features/form-result/FormFailed.tsx",
  },
  { path: "/auth", load: () => import("../features/staff-auth/AuthPage"), prerender: "shell" },
  {
    path: "/admin",
    load: () => import("../features/leads-admin/AdminPage"),
    prerender: "shell",
    shellText: "Verificando autenticação...",
  },
  {
    path: "/admin/leads/:id",
    load: () => import("../features/leads-admin/LeadPage"),
    prerender: "none",
  },
  {
    path: "/admin/equipe",
    load: () => import("../features/team/TeamPage"),
    prerender: "shell",
    shellText: "Verificando autenticação...",
  },
  {
    path: "/admin/atividade",
    load: () => import("../features/activity/ActivityPage"),
    prerender: "shell",
    shellText: "Verificando autenticação...",
  },
];
