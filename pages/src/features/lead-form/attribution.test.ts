import { beforeEach, describe, expect, it } from "vitest";
import { captureAttribution } from "./attribution";

describe("captureAttribution", () => {
  beforeEach(() => sessionStorage.clear());

  it("reads UTM parameters and click ids from the address", () => {
    const a = captureAttribution(
      "https://site.example/?utm_source=instagram&utm_medium=social&utm_campaign=pre&gclid=abc&fbclid=xyz&other=1",
      "https://l.instagram.com/",
      sessionStorage,
    );
    expect(a).toEqual({
      utm_source: "instagram",
      utm_medium: "social",
      utm_campaign: "pre",
      gclid: "abc",
      fbclid: "xyz",
      referrer: "https://l.instagram.com/",
      page_url:
        "https://site.example/?utm_source=instagram&utm_medium=social&utm_campaign=pre&gclid=abc&fbclid=xyz&other=1",
    });
  });

  it("reads the click ids of Google's iOS apps, Microsoft and TikTok too", () => {
    const a = captureAttribution(
      "https://site.example/?utm_source=google&gbraid=gb-1&wbraid=wb-1&msclkid=ms-1&ttclid=tt-1",
      "",
      sessionStorage,
    );
    expect(a).toMatchObject({ gbraid: "gb-1", wbraid: "wb-1", msclkid: "ms-1", ttclid: "tt-1" });
  });

  it("keeps the first visit's campaign for the rest of the session", () => {
    captureAttribution("https://site.example/?utm_source=facebook", "", sessionStorage);
    const later = captureAttribution("https://site.example/", "https://site.example/privacidade", sessionStorage);
    expect(later.utm_source).toBe("facebook");
    expect(later.page_url).toBe("https://site.example/?utm_source=facebook");
  });

  it("finds the campaign in the address of the site's page that sent the visitor, when the address has none", () => {
    // The landing opened from an ad, the privacy notice read before its script ran, then back through the logo.
    const a = captureAttribution(
      "https://site.example/",
      "https://site.example/?utm_source=instagram&utm_campaign=pre",
      sessionStorage,
    );
    expect(a).toEqual({
      utm_source: "instagram",
      utm_campaign: "pre",
      page_url: "https://site.example/?utm_source=instagram&utm_campaign=pre",
    });
    // Another site's address is only the referrer, never a campaign.
    sessionStorage.clear();
    expect(captureAttribution("https://site.example/", "https://other.example/?utm_source=x", sessionStorage)).toEqual({
      referrer: "https://other.example/?utm_source=x",
      page_url: "https://site.example/",
    });
  });

  it("works without storage", () => {
    expect(captureAttribution("https://site.example/?utm_source=x", "", null)).toEqual({
      utm_source: "x",
      page_url: "https://site.example/?utm_source=x",
    });
  });
});
