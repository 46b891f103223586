import { describe, expect, it } from "vitest";
import { findRoute, type RouteDef, routeParam } from "./routeMatch";

const page = async () => ({ default: () => null });
const ROUTES: RouteDef[] = [
  { path: "/", title: "Início", load: page, prerender: "page" },
  { path: "/admin", title: "Painel", load: page, prerender: "shell" },
  { path: "/admin/leads/:id", title: "Lead", load: page, prerender: "none" },
];

const pathOf = (path: string) => findRoute(ROUTES, path)?.path;

describe("findRoute", () => {
  it("finds a route by its own path, with or without trailing slashes", () => {
    expect(pathOf("/")).toBe("/");
    expect(pathOf("/admin")).toBe("/admin");
    expect(pathOf("/admin/")).toBe("/admin");
    expect(pathOf("/admin//")).toBe("/admin");
  });

  it("finds the route of a path with a parameter", () => {
    expect(pathOf("/admin/leads/0b6c7f1e-1111")).toBe("/admin/leads/:id");
    expect(pathOf("/admin/leads/0b6c7f1e-1111/")).toBe("/admin/leads/:id");
  });

  it("finds none for a path that is no page, as the worker serves none for it", () => {
    expect(pathOf("/nada")).toBeUndefined();
    expect(pathOf("/admin/leads")).toBeUndefined();
    expect(pathOf("/admin/leads/")).toBeUndefined();
    expect(pathOf("/admin/leads/a/b")).toBeUndefined();
    expect(pathOf("/admin/equipe")).toBeUndefined();
  });
});

describe("routeParam", () => {
  it("reads the parameter, decoded, with or without a trailing slash", () => {
    expect(routeParam("/admin/leads/:id", "/admin/leads/0b6c7f1e-1111")).toBe("0b6c7f1e-1111");
    expect(routeParam("/admin/leads/:id", "/admin/leads/0b6c7f1e-1111/")).toBe("0b6c7f1e-1111");
    expect(routeParam("/admin/leads/:id", "/admin/leads/a%20b")).toBe("a b");
  });

  it("is null for a path that is not the pattern's, or cannot be decoded", () => {
    expect(routeParam("/admin/leads/:id", "/admin/leads/")).toBeNull();
    expect(routeParam("/admin/leads/:id", "/admin/leads/a/b")).toBeNull();
    expect(routeParam("/admin/leads/:id", "/admin/equipe")).toBeNull();
    expect(routeParam("/admin/leads/:id", "/admin/leads/%E0%A4%A")).toBeNull();
    expect(routeParam("/admin", "/admin")).toBeNull();
  });
});
