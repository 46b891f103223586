import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LeadsPage } from "./api";
import { LeadsPanel } from "./LeadsPanel";

const EMPTY: LeadsPage = {
  leads: [],
  page: 1,
  page_size: 50,
  total: 0,
  pages: 0,
  first: null,
  last: null,
  counts: {
    total: 0,
    sent: 0,
    pending: 0,
    failed: 0,
    attention: 0,
    duplicates: 0,
    delivered: 0,
    uncontacted: 0,
    mine: 0,
  },
  pending_changes: 0,
  refused: 0,
  crm_configured: true,
  incident: null,
  rights: { export: true, delete: true, mark_sent: true },
};

/** Every list the panel asks the worker for, as its query's parameters. */
let asked: URLSearchParams[] = [];

beforeEach(() => {
  asked = [];
  // Only the clock's date: 26/11/2026 in Brasília (Testing Library's waits keep real timers).
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-26T15:00:00Z"));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      asked.push(new URL(path, "http://site").searchParams);
      return new Response(JSON.stringify({ success: true, ...EMPTY }), {
        headers: { "Content-Type": "application/json" },
      });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
});

describe("the lead list narrowed by 'Campanhas'", () => {
  it("asks for the period and campaign in its address and shows each as a removable chip", async () => {
    window.history.replaceState(
      null,
      "",
      "/admin?de=2026-11-20&ate=2026-11-26&fonte=instagram&campanha=lancamento&anuncio=&page=2",
    );
    render(<LeadsPanel />);
    await screen.findByText("Nenhum lead encontrado");
    expect(Object.fromEntries(asked[0] ?? [])).toEqual({
      de: "2026-11-20",
      ate: "2026-11-26",
      fonte: "instagram",
      campanha: "lancamento",
      anuncio: "",
      page: "2",
    });

    const period = screen.getByRole("button", { name: "Remover filtro Período: 20/11/2026 – 26/11/2026" });
    const campaign = screen.getByRole("button", {
      name: "Remover filtro Campanha: Instagram › lancamento › (sem anúncio)",
    });
    expect(screen.getByLabelText("Período")).toHaveProperty("value", "7d");

    await userEvent.click(campaign);
    expect(window.location.search).toBe("?de=2026-11-20&ate=2026-11-26");
    expect(document.activeElement).toBe(period);
    await userEvent.click(period);
    expect(window.location.search).toBe("");
  });

  it("sets the period from the toolbar, back to the first page", async () => {
    window.history.replaceState(null, "", "/admin?page=3");
    render(<LeadsPanel />);
    await screen.findByText("Nenhum lead encontrado");
    await userEvent.selectOptions(screen.getByLabelText("Período"), "30 dias");
    expect(window.location.search).toBe("?de=2026-10-28&ate=2026-11-26");
    expect(screen.getByRole("button", { name: "Remover filtro Período: 28/10/2026 – 26/11/2026" })).toBeTruthy();
  });
});
