import { describe, expect, it } from "vitest";
import { addDays, brasiliaDay, isDay, recentDays, recentPeriodOf } from "./days";

describe("Brasília days", () => {
  it("tells the day in Brasília, not in the browser's zone", () => {
    expect(brasiliaDay(new Date("2026-11-27T02:30:00Z"))).toBe("2026-11-26");
    expect(brasiliaDay(new Date("2026-11-27T03:00:00Z"))).toBe("2026-11-27");
  });

  it("counts across months and years", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("takes only real days", () => {
    expect(isDay("2026-11-26")).toBe(true);
    expect(isDay("2026-02-30")).toBe(false);
    expect(isDay("26/11/2026")).toBe(false);
  });

  it("makes each recent period end today, and knows it again", () => {
    expect(recentDays("7d", "2026-11-26")).toEqual({ from: "2026-11-20", to: "2026-11-26" });
    expect(recentPeriodOf({ from: "2026-11-20", to: "2026-11-26" }, "2026-11-26")).toBe("7d");
    expect(recentPeriodOf({ from: "2026-11-20", to: "2026-11-25" }, "2026-11-26")).toBeNull();
  });
});
