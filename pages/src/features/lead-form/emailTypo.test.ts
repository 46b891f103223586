import { describe, expect, it } from "vitest";
import { suggestEmail } from "./emailTypo";

describe("suggestEmail", () => {
  it.each([
    ["ana@gmial.com", "ana@gmail.com"],
    ["ana@hotmial.com", "ana@hotmail.com"],
    ["ana@gmail.con", "ana@gmail.com"],
    ["ana@outlok.com", "ana@outlook.com"],
    ["ana@yahoo.com.bt", "ana@yahoo.com.br"],
    ["ana@uol.com", "ana@uol.com.br"],
    ["ana@gmail.com.br", "ana@gmail.com"],
    [" Ana.Souza@GMIAL.com ", "Ana.Souza@gmail.com"],
  ])("suggests %s → %s", (typed, meant) => {
    expect(suggestEmail(typed)).toBe(meant);
  });

  it.each([
    "ana@gmail.com",
    "ana@hotmail.com.br",
    "ana@yahoo.com",
    "ana@ymail.com",
    "ana@me.com",
    "ana@altosdaserraimoveis.com.br",
    "ana@empresa.com.br",
    "ana@gmx.net",
    "ana@sc.gov.br",
    "ana@hotmail.fr",
    "visitante@example.com",
    "ana",
    "ana@",
  ])("suggests nothing for %s", (typed) => {
    expect(suggestEmail(typed)).toBeUndefined();
  });
});
