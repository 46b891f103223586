import { describe, expect, it } from "vitest";
import { maskWhatsApp } from "./whatsapp";

describe("maskWhatsApp", () => {
  it("formats a mobile number progressively as it is typed", () => {
    const typed = "49999998888";
    const steps = [...typed].map((_, i) => maskWhatsApp(typed.slice(0, i + 1)));
    expect(steps).toEqual([
      "(4",
      "(49",
      "(49) 9",
      "(49) 99",
      "(49) 999",
      "(49) 9999",
      "(49) 9999-9",
      "(49) 9999-98",
      "(49) 9999-988",
      "(49) 9999-9888",
      "(49) 99999-8888",
    ]);
  });

  it("formats a landline 4-4", () => {
    expect(maskWhatsApp("4833334444")).toBe("(48) 3333-4444");
  });

  it("re-formats pasted numbers with punctuation and drops extra digits", () => {
    expect(maskWhatsApp("49 9.9999-8888")).toBe("(49) 99999-8888");
    expect(maskWhatsApp("(49) 99999-88889")).toBe("(49) 99999-8888");
  });

  it("leaves international numbers typed with + alone, minus letters", () => {
    expect(maskWhatsApp("+1 (415) 555-2671")).toBe("+1 (415) 555-2671");
    expect(maskWhatsApp("+351 91x2")).toBe("+351 912");
  });

  it("lets the visitor erase everything", () => {
    expect(maskWhatsApp("(")).toBe("");
    expect(maskWhatsApp("")).toBe("");
  });
});
