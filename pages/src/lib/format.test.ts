import { describe, expect, it } from "vitest";
import { formatCount, formatDate } from "./format";

describe("formatDate", () => {
  it("shows dd/MM/yyyy HH:mm in Brasília time", () => {
    expect(formatDate("2026-01-01T00:00:00.000Z")).toBe("31/12/2025 21:00");
    expect(formatDate("2026-07-15T15:05:00.000Z")).toBe("15/07/2026 12:05");
  });

  it("shows nothing for a missing or broken date", () => {
    expect(formatDate(null)).toBe("");
    expect(formatDate("ontem")).toBe("");
  });
});

describe("formatCount", () => {
  it("groups thousands the Brazilian way", () => {
    expect(formatCount(100000)).toBe("100.000");
  });
});
