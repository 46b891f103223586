import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ToastProvider } from "../../lib/toast";
import type { CampaignReport } from "./api";
import { CampaignsPanel } from "./CampaignsPanel";

/** The week's leads by day of November and source; the other days brought none. */
const LEADS: Record<string, Record<string, number>> = { "24": { Instagram: 2, Direto: 1 }, "25": { Instagram: 1 } };

const NOTHING = { visits: 0, leads: 0, delivered: 0, duplicates: 0, meta_sent: 0, spend: null };

const WEEK: CampaignReport = {
  period: {
    from: "2026-11-20",
    to: "2026-11-26",
    today: "2026-11-26",
    first_day: "2026-10-01",
    previous: { from: "2026-11-13", to: "2026-11-19" },
  },
  totals: { visits: 60, leads: 4, delivered: 3, duplicates: 1, meta_sent: 2, spend: null },
  previous_totals: NOTHING,
  unmatched: [],
  days: ["20", "21", "22", "23", "24", "25", "26"].map((d) => ({
    day: `2026-11-${d}`,
    visits: d === "24" ? 30 : 5,
    leads: LEADS[d] ?? {},
  })),
  sources: ["Instagram", "Direto"],
  rows: [
    {
      platform: "Meta",
      source: "Instagram",
      campaign: "lancamento",
      content: "video-1",
      visits: 5,
      leads: 2,
      delivered: 2,
      duplicates: 0,
      meta_sent: 2,
      spend: null,
      previous: NOTHING,
    },
    {
      platform: "Meta",
      source: "Instagram",
      campaign: "lancamento",
      content: "",
      visits: 10,
      leads: 1,
      delivered: 0,
      duplicates: 1,
      meta_sent: 0,
      spend: null,
      previous: NOTHING,
    },
    {
      platform: "Direto",
      source: "Direto",
      campaign: "",
      content: "",
      visits: 45,
      leads: 1,
      delivered: 1,
      duplicates: 0,
      meta_sent: 0,
      spend: null,
      previous: NOTHING,
    },
  ],
  limits: [],
  ads: { meta: false, google_ads: null },
};

/** The worker's answers, in order; every request's path is kept. */
function answering(...answers: { status: number; body: unknown }[]) {
  const asked: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      // The spend imports under the report have tests of their own.
      if (path.startsWith("/api/campaigns/spend")) {
        return new Response(JSON.stringify({ success: true, imports: [], may_import: false }), {
          headers: { "Content-Type": "application/json" },
        });
      }
      // So has the time to first contact under it.
      if (path.startsWith("/api/first-contact")) {
        const none = { leads: 0, contacted: 0, median_ms: null, within_target: 0, waiting: 0 };
        return new Response(
          JSON.stringify({ success: true, target_minutes: 5, overall: none, days: [], campaigns: [], colleagues: [] }),
          { headers: { "Content-Type": "application/json" } },
        );
      }
      asked.push(path);
      const answer = answers.shift() ?? answers.at(-1) ?? { status: 500, body: {} };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "Content-Type": "application/json" },
      });
    }),
  );
  return asked;
}

const ok = (report: CampaignReport) => ({ status: 200, body: { success: true, ...report } });

function openReport(address: string) {
  window.history.replaceState(null, "", address);
  render(
    <ToastProvider>
      <CampaignsPanel />
    </ToastProvider>,
  );
}

const link = (name: string) => screen.getByRole("link", { name });

beforeEach(() => {
  // Only the clock's date: 26/11/2026 in Brasília (Testing Library's waits keep real timers).
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-26T15:00:00Z"));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
});

describe("CampaignsPanel", () => {
  it("shows each source, campaign and ad of the period, each linked to its leads in the list", async () => {
    const asked = answering(ok(WEEK));
    openReport("/admin/campanhas?periodo=7d");

    expect(
      await screen.findByText("4 leads em 7 dias; o dia com mais leads foi 24/11 (3). Instagram trouxe 3."),
    ).toBeTruthy();
    expect(asked).toEqual(["/api/campaigns?de=2026-11-20&ate=2026-11-26"]);
    expect(screen.getByText("20/11/2026 – 26/11/2026")).toBeTruthy();

    const period = "de=2026-11-20&ate=2026-11-26";
    expect(link("Leads de Instagram").getAttribute("href")).toBe(`/admin?${period}&fonte=Instagram`);
    expect(link("Leads de Instagram › lancamento").getAttribute("href")).toBe(
      `/admin?${period}&fonte=Instagram&campanha=lancamento`,
    );
    expect(link("Leads de Instagram › lancamento › video-1").getAttribute("href")).toBe(
      `/admin?${period}&fonte=Instagram&campanha=lancamento&anuncio=video-1`,
    );
    expect(link("Leads de Instagram › lancamento › (sem anúncio)").getAttribute("href")).toBe(
      `/admin?${period}&fonte=Instagram&campanha=lancamento&anuncio=`,
    );
    expect(link("Total: leads do período").getAttribute("href")).toBe(`/admin?${period}`);

    const cells = (name: string) =>
      within(link(name).closest("tr") as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.querySelector(".campaign-table__value")?.textContent);
    expect(cells("Leads de Instagram")).toEqual(["15", "3", "20%", "2", "—", "—", "—"]);
    expect(cells("Leads de Instagram › lancamento › video-1")).toEqual(["5", "2", "40%", "2", "—", "—", "—"]);
    expect(cells("Total: leads do período")).toEqual(["60", "4", "6,7%", "3", "—", "—", "—"]);

    // 'Direto' has no campaign: no '(sem campanha) › (sem anúncio)' rows repeating its numbers.
    expect(cells("Leads de Direto (sem origem)")).toEqual(["45", "1", "2,2%", "1", "—", "—", "—"]);
    expect(screen.queryByRole("link", { name: /^Leads de Direto \(sem origem\) ›/ })).toBeNull();
    // Meta's Conversions API is off: no column of what it took.
    expect(screen.queryByRole("columnheader", { name: /Enviados ao Meta/ })).toBeNull();
  });

  it("with Meta's Conversions API on, counts the leads it took beside those Jetimob took", async () => {
    answering(ok({ ...WEEK, ads: { meta: true, google_ads: null } }));
    openReport("/admin/campanhas?periodo=7d");
    const link = async (name: string) => screen.findByRole("link", { name });
    const cells = async (name: string) =>
      within((await link(name)).closest("tr") as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.querySelector(".campaign-table__value")?.textContent);
    expect(await cells("Leads de Instagram › lancamento › video-1")).toEqual([
      "5",
      "2",
      "40%",
      "2",
      "2",
      "—",
      "—",
      "—",
    ]);
    expect(await cells("Total: leads do período")).toEqual(["60", "4", "6,7%", "3", "2", "—", "—", "—"]);
    expect(screen.getByRole("columnheader", { name: /Enviados ao Meta/ })).toBeTruthy();
  });

  it("says on which day the limit of new campaigns was reached, and what went to 'Outras origens'", async () => {
    const flooded: CampaignReport = {
      ...WEEK,
      rows: [
        ...WEEK.rows,
        {
          platform: "Outras origens",
          source: "(outras)",
          campaign: "",
          content: "",
          visits: 80,
          leads: 0,
          delivered: 0,
          duplicates: 0,
          meta_sent: 0,
          spend: null,
          previous: NOTHING,
        },
      ],
      limits: [{ day: "2026-11-24", overflow: 80, uncounted: 400 }],
    };
    answering(ok(flooded));
    openReport("/admin/campanhas?periodo=7d");
    const note = await screen.findByRole("note", { name: "Limite de campanhas novas" });
    expect(note.textContent).toContain(
      "Em 24/11 o limite de campanhas novas foi atingido: 80 visitas contadas em Outras origens; " +
        "400 visitas de redes que passaram do limite diário não foram contadas.",
    );
    expect(within(note).getByText(/campanhas já vistas/)).toBeTruthy();
  });

  it("says nothing of limits in a period that reached none", async () => {
    answering(ok(WEEK));
    openReport("/admin/campanhas?periodo=7d");
    await screen.findByRole("link", { name: "Leads de Instagram" });
    expect(screen.queryByRole("note", { name: "Limite de campanhas novas" })).toBeNull();
  });

  it("puts the period picked in the address and shows its report", async () => {
    const asked = answering(ok(WEEK), ok({ ...WEEK, period: { ...WEEK.period, from: "2026-11-26" } }));
    openReport("/admin/campanhas");
    await screen.findByText("4 leads em 7 dias; o dia com mais leads foi 24/11 (3). Instagram trouxe 3.");
    expect(asked).toEqual(["/api/campaigns?de=2026-10-28&ate=2026-11-26"]);

    await userEvent.click(screen.getByRole("button", { name: "Hoje" }));
    expect(window.location.search).toBe("?periodo=hoje");
    expect(screen.getByRole("button", { name: "Hoje" }).getAttribute("aria-pressed")).toBe("true");
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toBe("/api/campaigns?de=2026-11-26&ate=2026-11-26");
  });

  it("asks the first day of 'Todo o lançamento' of the worker before its report", async () => {
    const asked = answering(
      ok(WEEK),
      ok({
        ...WEEK,
        period: { ...WEEK.period, from: "2026-10-01" },
        rows: [],
        totals: { ...WEEK.totals, visits: 0, leads: 0 },
      }),
    );
    openReport("/admin/campanhas?periodo=tudo");
    expect(await screen.findByText("Nenhuma visita ou lead neste período.")).toBeTruthy();
    expect(asked).toEqual(["/api/campaigns", "/api/campaigns?de=2026-10-01&ate=2026-11-26"]);
  });

  it("says what the worker found wrong with the days chosen beside them", async () => {
    answering({
      status: 422,
      body: { success: false, error: "Período inválido.", fields: { ate: "A data final vem antes da inicial." } },
    });
    openReport("/admin/campanhas?de=2026-11-26&ate=2026-11-20");
    expect(await screen.findByText("Período inválido.")).toBeTruthy();
    const to = screen.getByLabelText("Até");
    expect(to.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("A data final vem antes da inicial.").id).toBe(to.getAttribute("aria-describedby"));
  });

  it("says when the report could not be loaded, and loads it again on 'Tentar novamente'", async () => {
    answering({ status: 500, body: { success: false, error: "erro interno" } }, ok(WEEK));
    openReport("/admin/campanhas");
    expect(await screen.findByText("Erro ao carregar campanhas")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("link", { name: "Leads de Instagram" })).toBeTruthy();
  });
});
