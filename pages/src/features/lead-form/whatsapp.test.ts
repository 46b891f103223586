import { describe, expect, it } from "vitest";
import { editWhatsApp, maskWhatsApp } from "./whatsapp";

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

  it("keeps the country code typed without + and shows it once the digits prove it is one", () => {
    expect(maskWhatsApp("5591988887777")).toBe("+55 (91) 98888-7777");
    expect(maskWhatsApp("55 49 99999-8888")).toBe("+55 (49) 99999-8888");
    expect(maskWhatsApp("554933334444")).toBe("+55 (49) 3333-4444");
    // Eleven digits are a DDD 55 number, not a country code.
    expect(maskWhatsApp("55999998888")).toBe("(55) 99999-8888");
    expect(maskWhatsApp("+55 49 999998888")).toBe("+55 (49) 99999-8888");
    expect(maskWhatsApp("+55")).toBe("+55");
  });

  it("never turns a number typed with its country code into another number", () => {
    const typed = "5591988887777";
    const steps = [...typed].map((_, i) => maskWhatsApp(typed.slice(0, i + 1)));
    expect(steps.at(-1)).toBe("+55 (91) 98888-7777");
    // Each step re-masked as the browser would hand it back, digit after digit.
    let value = "";
    for (const digit of typed) value = maskWhatsApp(value + digit);
    expect(value).toBe("+55 (91) 98888-7777");
  });

  it("keeps a trunk 0 and a carrier code before the DDD", () => {
    expect(maskWhatsApp("049 99999-8888")).toBe("0 (49) 99999-8888");
    expect(maskWhatsApp("0 15 49 99999-8888")).toBe("0 15 (49) 99999-8888");
    expect(maskWhatsApp("0")).toBe("0");
    let value = "";
    for (const digit of "01549999998888") value = maskWhatsApp(value + digit);
    expect(value).toBe("0 15 (49) 99999-8888");
  });
});

describe("editWhatsApp", () => {
  it("puts the caret after the digit just typed in the middle of the number", () => {
    // "(49) 9999|-8888": a 7 typed there.
    expect(editWhatsApp("(49) 9999-8888", "(49) 99997-8888", 10, null)).toEqual({
      value: "(49) 99997-8888",
      caret: 10,
    });
  });

  it("erases the digit before a dash that Backspace removed, and keeps the caret there", () => {
    // "(49) 99999-|8888", Backspace: the browser removed the "-".
    expect(editWhatsApp("(49) 99999-8888", "(49) 999998888", 10, "backward")).toEqual({
      value: "(49) 9999-8888",
      caret: 9,
    });
  });

  it("erases the digit after a dash that Delete removed", () => {
    // "(49) 99999|-8888", Delete: the browser removed the "-".
    // Ten digits are left, which read as a landline, 4-4; the caret stays after the seventh.
    expect(editWhatsApp("(49) 99999-8888", "(49) 999998888", 10, "forward")).toEqual({
      value: "(49) 9999-9888",
      caret: 11,
    });
  });

  it("leaves the end of the field alone when typing at the end", () => {
    expect(editWhatsApp("(49) 9999-888", "(49) 9999-8888", 14, null)).toEqual({ value: "(49) 9999-8888", caret: 14 });
    expect(editWhatsApp("(49) 9999-8888", "(49) 9999-88889", 15, null)).toEqual({
      value: "(49) 99998-8889",
      caret: 15,
    });
  });
});
