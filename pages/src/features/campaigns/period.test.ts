import { describe, expect, it } from "vitest";
import { periodRange, periodSearch, readPeriod } from "./period";

const calendar = { today: "2026-11-26", first_day: "2026-10-01" };

describe("periodRange", () => {
  it("makes 'Hoje' today alone and '7 dias' the 7 days ending today", () => {
    expect(periodRange({ preset: "hoje" }, calendar)).toEqual({ from: "2026-11-26", to: "2026-11-26" });
    expect(periodRange({ preset: "7d" }, calendar)).toEqual({ from: "2026-11-20", to: "2026-11-26" });
    expect(periodRange({ preset: "30d" }, { ...calendar, today: "2026-03-01" })).toEqual({
      from: "2026-01-31",
      to: "2026-03-01",
    });
  });

  it("keeps the days chosen with 'Personalizado' as they are", () => {
    const custom = { from: "2026-11-02", to: "2026-11-09" };
    expect(periodRange({ custom }, calendar)).toEqual(custom);
    expect(periodRange({ custom }, null)).toEqual(custom);
  });

  it("runs 'Todo o lançamento' from the first day counted to today, today alone before anything was", () => {
    expect(periodRange({ preset: "tudo" }, calendar)).toEqual({ from: "2026-10-01", to: "2026-11-26" });
    expect(periodRange({ preset: "tudo" }, { ...calendar, first_day: null })).toEqual({
      from: "2026-11-26",
      to: "2026-11-26",
    });
  });

  it("waits for a report for 'Todo o lançamento', whose first day only the worker knows", () => {
    expect(periodRange({ preset: "tudo" }, null)).toBeNull();
  });
});

describe("the period in the address", () => {
  it("is 30 dias without one, and reads back what it wrote", () => {
    expect(readPeriod("")).toEqual({ preset: "30d" });
    expect(periodSearch({ preset: "30d" })).toBe("");
    for (const period of [
      { preset: "7d" as const },
      { preset: "tudo" as const },
      { custom: { from: "2026-11-02", to: "2026-11-09" } },
    ]) {
      expect(readPeriod(periodSearch(period))).toEqual(period);
    }
    expect(periodSearch({ custom: { from: "2026-11-02", to: "2026-11-09" } })).toBe("?de=2026-11-02&ate=2026-11-09");
  });

  it("takes an unknown preset for the default", () => {
    expect(readPeriod("?periodo=ano")).toEqual({ preset: "30d" });
  });
});
