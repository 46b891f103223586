import { describe, expect, it } from "vitest";
import { formatCount, formatDate, formatDays, sourceName } from "./format";

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

describe("formatDays", () => {
  it("writes a period of days as dd/MM/yyyy, a single day once", () => {
    expect(formatDays("2026-11-20", "2026-11-26")).toBe("20/11/2026 – 26/11/2026");
    expect(formatDays("2026-11-26", "2026-11-26")).toBe("26/11/2026");
  });
});

describe("sourceName", () => {
  it("names the sources the worker tells apart, and leaves any other as it is", () => {
    expect(sourceName("Direto")).toBe("Direto (sem origem)");
    expect(sourceName("(outras)")).toBe("Outras origens");
    expect(sourceName("WhatsApp")).toBe("WhatsApp");
    expect(sourceName("blogdovinho.com.br")).toBe("blogdovinho.com.br");
    expect(sourceName("constructor")).toBe("constructor");
  });
});
