import { describe, expect, it } from "vitest";
import { editWhatsApp, isLandline, maskWhatsApp } from "./whatsapp";

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

  it("drops a trunk 0 after +55 once a whole number follows it, as the worker does", () => {
    expect(maskWhatsApp("+55 0 49 99999-8888")).toBe("+55 (49) 99999-8888");
    expect(maskWhatsApp("+55 0 48 3333-4444")).toBe("+55 (48) 3333-4444");
    expect(maskWhatsApp("+55 0 49 99999-88889")).toBe("+55 (49) 99999-8888");
    // Until then it shows, and is not read as the DDD's first digit.
    expect(maskWhatsApp("+55 0")).toBe("+55 0");
    expect(maskWhatsApp("+55 04")).toBe("+55 0 (4");
    let value = "";
    for (const key of "+55049999998888") value = maskWhatsApp(value + key);
    expect(value).toBe("+55 (49) 99999-8888");
  });

  it("reads the international prefix 00 as +", () => {
    expect(maskWhatsApp("00 55 49 99999-8888")).toBe("+55 (49) 99999-8888");
    expect(maskWhatsApp("00 55 0 48 3333-4444")).toBe("+55 (48) 3333-4444");
    expect(maskWhatsApp("00 351 912 345 678")).toBe("+351 912 345 678");
    expect(maskWhatsApp("00")).toBe("+");
    let value = "";
    for (const digit of "005549999998888") value = maskWhatsApp(value + digit);
    expect(value).toBe("+55 (49) 99999-8888");
  });

  it("drops the invisible formatting characters of a number copied from WhatsApp", () => {
    expect(maskWhatsApp("\u202A+351 912 345 678\u202C")).toBe("+351 912 345 678");
    expect(maskWhatsApp("\u200E+1 (415) 555-2671\u200F")).toBe("+1 (415) 555-2671");
    expect(maskWhatsApp("\u2066+55 49 99999-8888\u2069")).toBe("+55 (49) 99999-8888");
    expect(maskWhatsApp("\uFEFF\u200B+351\u200C912\u200D345\u2060678")).toBe("+351912345678");
    expect(maskWhatsApp("\u202A00 351 912 345 678\u202C")).toBe("+351 912 345 678");
  });

  it("reads a non-breaking space or hyphen as a plain one", () => {
    expect(maskWhatsApp("+1\u00A0415\u2011555\u20112671")).toBe("+1 415-555-2671");
    expect(maskWhatsApp("(49)\u00A099999\u20118888")).toBe("(49) 99999-8888");
    expect(maskWhatsApp("\u00A0+351 912")).toBe(" +351 912");
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

/** The field after `keys` are typed one by one at its end, each through `editWhatsApp`. */
function typeAtEnd(keys: string, start = ""): string {
  let value = start;
  for (const key of keys) value = editWhatsApp(value, value + key, value.length + key.length, null).value;
  return value;
}

describe("editWhatsApp on a whole number", () => {
  it("refuses a digit typed in the middle, keeping the value and the caret", () => {
    // "(49) 999|99-8888": a 1 typed there would push out the last 8.
    expect(editWhatsApp("(49) 99999-8888", "(49) 999199-8888", 9, null)).toEqual({
      value: "(49) 99999-8888",
      caret: 8,
    });
    // "(49) 9|9999-8888", same thing one digit earlier.
    expect(editWhatsApp("(49) 99999-8888", "(49) 919999-8888", 7, null)).toEqual({
      value: "(49) 99999-8888",
      caret: 6,
    });
  });

  it("refuses digits pasted in the middle that would push the number past a whole one", () => {
    // "(48) 3333|-4444": "12" pasted there, twelve digits.
    expect(editWhatsApp("(48) 3333-4444", "(48) 333312-4444", 11, null)).toEqual({
      value: "(48) 3333-4444",
      caret: 9,
    });
  });

  it("still takes a digit in the middle that fits, a landline becoming a mobile", () => {
    // "(48) |3333-4444": the 9 of a mobile typed there.
    expect(editWhatsApp("(48) 3333-4444", "(48) 93333-4444", 6, null)).toEqual({
      value: "(48) 93333-4444",
      caret: 6,
    });
  });

  it("still drops a digit typed at the end of a whole number", () => {
    expect(editWhatsApp("(49) 99999-8888", "(49) 99999-88887", 16, null)).toEqual({
      value: "(49) 99999-8888",
      caret: 15,
    });
  });

  it("still takes a number typed key by key, with or without its country code or trunk", () => {
    expect(typeAtEnd("49999998888")).toBe("(49) 99999-8888");
    expect(typeAtEnd("5549999998888")).toBe("+55 (49) 99999-8888");
    expect(typeAtEnd("01549999998888")).toBe("0 15 (49) 99999-8888");
  });

  it("still takes a whole number pasted into the empty field or over a selection", () => {
    expect(editWhatsApp("", "+55 (49) 99999-8888", 19, null)).toEqual({ value: "+55 (49) 99999-8888", caret: 19 });
    expect(editWhatsApp("", "55 49 9.9999-8888", 17, null)).toEqual({ value: "+55 (49) 99999-8888", caret: 19 });
    expect(editWhatsApp("", "049999998888", 12, null)).toEqual({ value: "0 (49) 99999-8888", caret: 17 });
    // All of "(49) 99999-8888" selected, another number pasted over it.
    expect(editWhatsApp("(49) 99999-8888", "+55 48 3333-4444", 16, null)).toEqual({
      value: "+55 (48) 3333-4444",
      caret: 18,
    });
    // "99999" selected in "(49) 99999-8888", "98765" pasted over it.
    expect(editWhatsApp("(49) 99999-8888", "(49) 98765-8888", 10, null)).toEqual({
      value: "(49) 98765-8888",
      caret: 10,
    });
  });
});

describe("editWhatsApp with a prefix the mask drops", () => {
  it("takes a +55 number with a trunk 0, typed key by key or pasted", () => {
    expect(typeAtEnd("+55049999998888")).toBe("+55 (49) 99999-8888");
    expect(editWhatsApp("", "+55 0 49 99999-8888", 19, null)).toEqual({ value: "+55 (49) 99999-8888", caret: 19 });
  });

  it("takes a digit typed in the middle that makes the number behind a trunk 0 whole", () => {
    // "+55 0 (49) |9999-888": a 9 typed there, the 0 goes and the caret stays after the 9.
    expect(editWhatsApp("+55 0 (49) 9999-888", "+55 0 (49) 99999-888", 12, null)).toEqual({
      value: "+55 (49) 9999-9888",
      caret: 10,
    });
  });

  it("takes a number dialled with 00, typed key by key or pasted", () => {
    expect(typeAtEnd("005549999998888")).toBe("+55 (49) 99999-8888");
    expect(typeAtEnd("00351912345678")).toBe("+351912345678");
    expect(editWhatsApp("", "00 55 49 99999-8888", 19, null)).toEqual({ value: "+55 (49) 99999-8888", caret: 19 });
  });

  it("takes a number pasted from WhatsApp with its invisible marks", () => {
    expect(editWhatsApp("", "\u202A+351 912 345 678\u202C", 18, null)).toEqual({
      value: "+351 912 345 678",
      caret: 16,
    });
    // All of "(49) 99999-8888" selected, a copied Brazilian number pasted over it.
    expect(editWhatsApp("(49) 99999-8888", "\u202A+55 48 3333-4444\u202C", 18, null)).toEqual({
      value: "+55 (48) 3333-4444",
      caret: 18,
    });
  });
});

describe("editWhatsApp with DDD 55", () => {
  it("goes back to the DDD 55 form when a digit too many is erased", () => {
    // A DDD 55 number with one digit too many reads as +55; Backspace at the end.
    expect(typeAtEnd("559999988888")).toBe("+55 (99) 9998-8888");
    expect(editWhatsApp("+55 (99) 9998-8888", "+55 (99) 9998-888", 17, "backward")).toEqual({
      value: "(55) 99999-8888",
      caret: 15,
    });
  });

  it("lets a digit be fixed by typing the new one before erasing the old", () => {
    // "(55) 9|9999-8888": a 1 typed there reads as +55 but loses no digit.
    const typed = editWhatsApp("(55) 99999-8888", "(55) 919999-8888", 7, null);
    expect(typed).toEqual({ value: "+55 (91) 9999-8888", caret: 7 });
    // "+55 (91|) 9999-8888", Delete: the browser removed the ")", the 9 after it goes.
    expect(editWhatsApp(typed.value, "+55 (91 9999-8888", 7, "forward")).toEqual({
      value: "(55) 91999-8888",
      caret: 7,
    });
  });

  it("keeps a + the visitor typed", () => {
    expect(typeAtEnd("+554")).toBe("+55 (4");
    expect(typeAtEnd("+5549999998888")).toBe("+55 (49) 99999-8888");
    // Erasing a typed +55 number's end, down to 12 digits.
    expect(editWhatsApp("+55 (49) 99999-8888", "+55 (49) 99999-888", 18, "backward")).toEqual({
      value: "+55 (49) 9999-9888",
      caret: 18,
    });
    expect(editWhatsApp("+55 (49) 3333-444", "+55 (49) 3333-4444", 18, null)).toEqual({
      value: "+55 (49) 3333-4444",
      caret: 18,
    });
  });
});

describe("isLandline", () => {
  it("is a DDD and eight digits starting 2 to 5, however it was typed", () => {
    for (const typed of ["(48) 3333-4444", "4833334444", "+55 48 3333-4444", "0 48 3333-4444", "55 11 2345-6789"]) {
      expect(isLandline(typed), typed).toBe(true);
    }
  });

  it("is not a mobile, a number still being typed, an old mobile or another country's", () => {
    for (const typed of [
      "(49) 99999-8888",
      "(48) 3333-444",
      "(49) 9999-8888",
      "+1 415 555 2671",
      "+351 212 345 678",
      "",
    ]) {
      expect(isLandline(typed), typed).toBe(false);
    }
  });
});
