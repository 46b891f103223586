import { describe, expect, it } from "vitest";
import {
  attributionFacts,
  attributionNotes,
  canMarkSent,
  mailtoHref,
  needsResend,
  pageSummary,
  whatsappChat,
} from "./format";

describe("mailtoHref", () => {
  it("links to the address as it is", () => {
    expect(mailtoHref("maria.silva+vinho@example.com.br")).toBe("mailto:maria.silva%2Bvinho@example.com.br");
  });

  it("cannot be made to add a Cc, a Bcc or a body", () => {
    const href = mailtoHref("ana?cc=x@evil.example&body=oi%20@example.com");
    expect(href).toBe("mailto:ana%3Fcc%3Dx%40evil.example%26body%3Doi%2520@example.com");
    const url = new URL(href);
    expect(url.search).toBe("");
    expect(url.hash).toBe("");
  });
});

describe("whatsappChat", () => {
  it("links to a chat with the number's digits", () => {
    expect(whatsappChat("+5549999998888")).toBe("https://wa.me/5549999998888");
  });
});

describe("canMarkSent", () => {
  it("is true for a lead not in Jetimob yet", () => {
    expect(canMarkSent({ jetimob_enviado: false, update_status: null }, true)).toBe(true);
  });

  it("is true for a correction Jetimob lacks that the worker will not send", () => {
    expect(canMarkSent({ jetimob_enviado: true, update_status: "failed" }, true)).toBe(true);
    expect(canMarkSent({ jetimob_enviado: true, update_status: "pending" }, false)).toBe(true);
  });

  it("is false once Jetimob has it all, or while the worker still sends the correction", () => {
    expect(canMarkSent({ jetimob_enviado: true, update_status: null }, true)).toBe(false);
    expect(canMarkSent({ jetimob_enviado: true, update_status: "pending" }, true)).toBe(false);
  });
});

describe("needsResend", () => {
  it("is true for a lead the CRM refused for good, or whose correction it refused for good", () => {
    expect(needsResend({ delivery_status: "failed", update_status: null })).toBe(true);
    expect(needsResend({ delivery_status: "sent", update_status: "failed" })).toBe(true);
  });

  it("is false while the worker still retries, and once the CRM has it all", () => {
    expect(needsResend({ delivery_status: "pending", update_status: null })).toBe(false);
    expect(needsResend({ delivery_status: "sent", update_status: "pending" })).toBe(false);
    expect(needsResend({ delivery_status: "sent", update_status: null })).toBe(false);
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

describe("attributionFacts", () => {
  it("names every attribution field the lead has, for its page", () => {
    expect(
      attributionFacts({
        source: "instagram",
        utm_medium: "social",
        utm_campaign: "lancamento",
        utm_content: "video-1",
        utm_term: "casa na serra",
        gclid: null,
        fbclid: "fb.1",
        referrer_host: null,
      }),
    ).toEqual([
      { label: "Fonte", value: "Instagram" },
      { label: "UTM Medium", value: "social" },
      { label: "Campanha", value: "lancamento" },
      { label: "Anúncio", value: "video-1" },
      { label: "Palavra-chave", value: "casa na serra" },
      { label: "FBCLID", value: "fb.1" },
    ]);
  });

  it("says where a lead without UTM tags came from", () => {
    expect(
      attributionFacts({ source: "blogdovinho.com.br", referrer_host: "blogdovinho.com.br", utm_term: " " }),
    ).toEqual([
      { label: "Fonte", value: "blogdovinho.com.br" },
      { label: "Veio de", value: "blogdovinho.com.br" },
    ]);
  });
});

describe("pageSummary", () => {
  it("says which leads of how many, and which page of how many", () => {
    expect(pageSummary({ page: 1, page_size: 50, total: 60, pages: 2 })).toBe("1–50 de 60 leads · página 1 de 2");
    expect(pageSummary({ page: 2, page_size: 50, total: 60, pages: 2 })).toBe("51–60 de 60 leads · página 2 de 2");
    expect(pageSummary({ page: 1, page_size: 50, total: 1, pages: 1 })).toBe("1–1 de 1 lead · página 1 de 1");
    expect(pageSummary({ page: 1, page_size: 50, total: 1_234, pages: 25 })).toBe(
      "1–50 de 1.234 leads · página 1 de 25",
    );
  });
});
