import { describe, expect, it } from "vitest";
import { whatsappLink } from "./agency";

describe("whatsappLink", () => {
  it("opens a chat with the number's digits alone", () => {
    expect(whatsappLink("+55 (49) 99999-0000")).toBe("https://wa.me/5549999990000");
  });

  it("types the message in the chat, encoded for the address", () => {
    expect(whatsappLink("+5549999990000", "Olá! Quero saber do lote 7 & da vista?")).toBe(
      "https://wa.me/5549999990000?text=Ol%C3%A1!%20Quero%20saber%20do%20lote%207%20%26%20da%20vista%3F",
    );
  });
});
