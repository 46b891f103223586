import { describe, expect, it } from "vitest";
import type { DayLimit, ReportDay, ReportRow } from "./api";
import {
  byNames,
  chartSummary,
  costPer,
  dailySeries,
  formatChange,
  formatConversion,
  formatMoney,
  groupRows,
  limitNotes,
} from "./report";

const NOTHING = { visits: 0, leads: 0, delivered: 0, duplicates: 0, meta_sent: 0, spend: null };

const row = (source: string, campaign: string, content: string, visits: number, leads: number): ReportRow => ({
  platform: source === "Direto" ? "Direto" : source === "google" ? "Google" : "Meta",
  source,
  campaign,
  content,
  visits,
  leads,
  delivered: leads,
  duplicates: 0,
  meta_sent: 0,
  spend: null,
  previous: NOTHING,
});

describe("groupRows", () => {
  it("groups the leaves platform → source → campaign → ad, each group with the sums under it", () => {
    const platforms = groupRows([
      row("Instagram", "lancamento", "video-1", 5, 2),
      row("Direto", "", "", 40, 1),
      row("Instagram", "lancamento", "carrossel", 10, 1),
      row("Instagram", "", "", 3, 0),
      row("Instagram", "verao", "video-2", 7, 2),
    ]);
    expect(platforms.map((p) => [p.platform, p.visits, p.leads])).toEqual([
      ["Meta", 25, 5],
      ["Direto", 40, 1],
    ]);
    const groups = platforms.flatMap((p) => p.sources);
    const [instagram] = groups;
    expect(instagram?.campaigns.map((c) => [c.campaign, c.visits, c.leads, c.delivered])).toEqual([
      ["lancamento", 15, 3, 3],
      ["verao", 7, 2, 2],
      ["", 3, 0, 0],
    ]);
    expect(instagram?.campaigns[0]?.ads.map((a) => [a.content, a.visits, a.leads])).toEqual([
      ["video-1", 5, 2],
      ["carrossel", 10, 1],
    ]);
  });

  it("puts the unnamed ('(sem campanha)') after the named among equals", () => {
    const [google] = groupRows([row("google", "", "", 4, 1), row("google", "busca", "", 4, 1)])[0]?.sources ?? [];
    expect(google?.campaigns.map((c) => c.campaign)).toEqual(["busca", ""]);
  });
});

describe("one order with the campaign CSV (worker/src/campaigns/order.rs's cases)", () => {
  it("goes at each level by leads, then visits, then name", () => {
    const on = (platform: string, r: ReportRow): ReportRow => ({ ...r, platform });
    const lines = [
      on("Google", row("Google", "busca", "", 50, 2)),
      on("Meta", row("Instagram", "verao", "video-2", 10, 1)),
      on("Meta", row("Facebook", "verao", "", 10, 2)),
      on("Meta", row("Instagram", "verao", "video-1", 30, 1)),
      on("Meta", row("Instagram", "", "", 30, 1)),
      on("Meta", row("Instagram", "Lançamento", "", 30, 1)),
      on("Meta", row("Instagram", "lancamento", "", 30, 1)),
      on("Orgânico", row("WhatsApp", "amigos", "", 3, 0)),
    ];
    const shown = groupRows(lines).flatMap((p) =>
      p.sources.flatMap((s) => s.campaigns.flatMap((c) => c.ads.map((a) => `${s.source} ${c.campaign} ${a.content}`))),
    );
    expect(shown).toEqual([
      "Instagram verao video-1",
      "Instagram verao video-2",
      "Instagram Lançamento ",
      "Instagram lancamento ",
      "Instagram  ",
      "Facebook verao ",
      "Google busca ",
      "WhatsApp amigos ",
    ]);
  });

  it("reads names without case or accents, the unnamed last", () => {
    expect(byNames("Ônibus", "outono")).toBeLessThan(0);
    expect(byNames("ação", "acaso")).toBeLessThan(0);
    expect(byNames("Peña", "penca")).toBeLessThan(0);
    expect(byNames("", "zebra")).toBeGreaterThan(0);
    expect(byNames("Verão", "verao")).toBeLessThan(0);
  });
});

describe("sorting, money and the period before", () => {
  it("sorts each level by a column, the lines without a figure last", () => {
    const rows = [
      { ...row("Instagram", "a", "", 10, 1), spend: 5_000 },
      { ...row("Instagram", "b", "", 10, 5), spend: 5_000 },
      row("Instagram", "c", "", 2, 2),
    ];
    const by = (key: "conversion" | "cpl", descending: boolean) =>
      groupRows(rows, { key, descending })[0]?.sources[0]?.campaigns.map((c) => c.campaign);
    expect(by("conversion", true)).toEqual(["c", "b", "a"]);
    expect(by("conversion", false)).toEqual(["a", "b", "c"]);
    expect(by("cpl", false)).toEqual(["b", "a", "c"]);
  });

  it("writes reais the Brazilian way and each change with its arrow", () => {
    expect(formatMoney(5_000)).toBe("R$ 50,00");
    expect(formatMoney(123_456)).toBe("R$ 1.234,56");
    expect(formatMoney(null)).toBe("—");
    expect(costPer(10_000, 2)).toBe(5_000);
    expect(costPer(10_000, 0)).toBeNull();
    expect(formatChange(12, 10)).toBe("▲ 20%");
    expect(formatChange(5, 10)).toBe("▼ 50%");
    expect(formatChange(10, 10)).toBe("= 0%");
    expect(formatChange(3, 0)).toBe("novo");
    expect(formatChange(null, null)).toBeNull();
  });
});

describe("formatConversion", () => {
  it("writes leads per visit as a pt-BR percentage with at most one decimal", () => {
    expect(formatConversion({ visits: 5, leads: 2 })).toBe("40%");
    expect(formatConversion({ visits: 30, leads: 1 })).toBe("3,3%");
    expect(formatConversion({ visits: 12, leads: 0 })).toBe("0%");
  });

  it("rounds as the campaign CSV does (worker/src/campaigns/export.rs's cases): tenths, half up", () => {
    expect(formatConversion({ visits: 3, leads: 2 })).toBe("66,7%");
    expect(formatConversion({ visits: 3, leads: 3 })).toBe("100%");
    expect(formatConversion({ visits: 80, leads: 3 })).toBe("3,8%");
    expect(formatConversion({ visits: 2000, leads: 1 })).toBe("0,1%");
    expect(formatConversion({ visits: 8000, leads: 1003 })).toBe("12,5%");
    expect(formatConversion({ visits: 1_000_000, leads: 999_499 })).toBe("99,9%");
    expect(formatConversion({ visits: 1_000_000, leads: 999_500 })).toBe("100%");
  });

  it("says '—' without visits or above 100%, and never '0%' for a rate that brought leads", () => {
    expect(formatConversion({ visits: 0, leads: 3 })).toBe("—");
    expect(formatConversion({ visits: 3, leads: 1109 })).toBe("—");
    expect(formatConversion({ visits: 5000, leads: 1 })).toBe("< 0,1%");
  });
});

const days: ReportDay[] = [
  { day: "2026-11-23", visits: 10, leads: { Instagram: 1 } },
  { day: "2026-11-24", visits: 30, leads: { Instagram: 3, google: 1 } },
  { day: "2026-11-25", visits: 5, leads: {} },
];

describe("the chart", () => {
  it("sums up the period, its best day and the source that brought most", () => {
    expect(chartSummary(days, ["Instagram", "google", "Direto"])).toBe(
      "5 leads em 3 dias; o dia com mais leads foi 24/11 (4). Instagram trouxe 4.",
    );
    expect(chartSummary(days.slice(1, 2), ["Instagram", "google"])).toBe("4 leads em 1 dia. Instagram trouxe 3.");
    expect(chartSummary(days.slice(2), ["Direto"])).toBe("Nenhum lead em 1 dia.");
  });

  it("gives the first six sources with leads a line each and sums the rest as 'Outras'", () => {
    const many = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const day = { day: "2026-11-24", visits: 0, leads: Object.fromEntries(many.map((s, i) => [s, i + 1])) };
    const series = dailySeries([day], [...many, "sem-leads"]);
    expect(series.map((s) => [s.label, s.counts])).toEqual([
      ["a", [1]],
      ["b", [2]],
      ["c", [3]],
      ["d", [4]],
      ["e", [5]],
      ["f", [6]],
      ["Outras", [15]],
    ]);
    expect(dailySeries(days, ["Instagram", "Direto", "google"]).map((s) => s.label)).toEqual(["Instagram", "Google"]);
  });
});

describe("limitNotes", () => {
  const limit = (day: string, overflow: number, uncounted: number): DayLimit => ({ day, overflow, uncounted });

  it("says, day by day, what each limit left out of the lines", () => {
    expect(limitNotes([limit("2026-11-12", 80, 0)])).toEqual([
      "Em 12/11 o limite de campanhas novas foi atingido: 80 visitas contadas em Outras origens.",
    ]);
    expect(limitNotes([limit("2026-11-12", 1, 0)])).toEqual([
      "Em 12/11 o limite de campanhas novas foi atingido: 1 visita contada em Outras origens.",
    ]);
    expect(limitNotes([limit("2026-11-12", 0, 400)])).toEqual([
      "Em 12/11, 400 visitas de redes que passaram do limite diário não foram contadas.",
    ]);
    expect(limitNotes([limit("2026-11-12", 0, 1)])).toEqual([
      "Em 12/11, 1 visita de redes que passaram do limite diário não foi contada.",
    ]);
    expect(limitNotes([limit("2026-11-12", 1180, 2400)])).toEqual([
      "Em 12/11 o limite de campanhas novas foi atingido: 1.180 visitas contadas em Outras origens; " +
        "2.400 visitas de redes que passaram do limite diário não foram contadas.",
    ]);
  });

  it("names the newest three days and sums the others", () => {
    const notes = limitNotes([
      limit("2026-11-01", 10, 0),
      limit("2026-11-02", 0, 5),
      limit("2026-11-10", 3, 0),
      limit("2026-11-11", 4, 0),
      limit("2026-11-12", 5, 1),
    ]);
    expect(notes).toEqual([
      "Em 12/11 o limite de campanhas novas foi atingido: 5 visitas contadas em Outras origens; " +
        "1 visita de redes que passaram do limite diário não foi contada.",
      "Em 11/11 o limite de campanhas novas foi atingido: 4 visitas contadas em Outras origens.",
      "Em 10/11 o limite de campanhas novas foi atingido: 3 visitas contadas em Outras origens.",
      "Em outros 2 dias do período: 10 visitas contadas em Outras origens; 5 visitas não contadas.",
    ]);
    expect(limitNotes([])).toEqual([]);
  });
});
