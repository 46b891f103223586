import { describe, expect, it } from "vitest";
import { ALL_VARIANTS, fromVariantName, NO_ADS, platforms, variantName } from "./disclosure";

describe("the ads' variants of the public pages", () => {
  it("are named as the worker names them, and read back", () => {
    expect(variantName(NO_ADS)).toBeNull();
    expect(variantName({ ...NO_ADS, checkbox: true })).toBeNull();
    expect(ALL_VARIANTS.map(variantName)).toEqual([
      "meta-consentimento",
      "google-consentimento",
      "meta-google-consentimento",
      "meta",
      "google",
      "meta-google",
    ]);
    for (const d of ALL_VARIANTS) expect(fromVariantName(variantName(d))).toEqual(d);
    expect(fromVariantName("tiktok")).toEqual(NO_ADS);
    expect(fromVariantName(undefined)).toEqual(NO_ADS);
  });

  it("name who receives the data", () => {
    expect(platforms({ meta: true, google: false, checkbox: false })).toBe("Meta");
    expect(platforms({ meta: true, google: true, checkbox: false })).toBe("Meta e Google");
  });
});
