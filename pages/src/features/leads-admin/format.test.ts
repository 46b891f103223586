import { describe, expect, it } from "vitest";
import { attributionNotes, formatCount, formatDate, whatsappChat } from "./format";

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

describe("whatsappChat", () => {
  it("links to a chat with the number's digits", () => {
    expect(whatsappChat("+5549999998888")).toBe("https://wa.me/5549999998888");
  });
});

describe("attributionNotes", () => {
  it("names the campaign and medium of the link the lead came from", () => {
    expect(attributionNotes({ utm_campaign: "pre-lancamento", utm_medium: "social" })).toEqual([
      "campanha pre-lancamento",
      "mídia social",
    ]);
  });

  it("tells a paid click by its click id", () => {
    expect(attributionNotes({ gclid: "abc" })).toEqual(["anúncio Google"]);
    expect(attributionNotes({ utm_campaign: "verao", fbclid: "xyz" })).toEqual(["campanha verao", "anúncio Meta"]);
  });

  it("says nothing when the link carried no attribution", () => {
    expect(attributionNotes({})).toEqual([]);
    expect(attributionNotes({ utm_campaign: "  ", utm_medium: null })).toEqual([]);
  });
});
