import { describe, expect, it } from "vitest";
import { attributionNotes, whatsappChat } from "./format";

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
