import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import FormFailed from "./FormFailed";

function at(search: string) {
  window.history.replaceState(null, "", `/cadastro-nao-enviado${search}`);
}

afterEach(() => {
  cleanup();
  at("");
});

describe("the page of a form post that was refused", () => {
  it("says the reason a known code names", async () => {
    at("?motivo=whatsapp");
    render(<FormFailed />);
    expect(await screen.findByText("Informe o WhatsApp com DDD, como (49) 99999-9999.")).toBeTruthy();
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "qualquer"])(
    "reads a code no reason has (%s) as no reason, and still shows the page",
    async (code) => {
      at(`?motivo=${code}`);
      render(<FormFailed />);
      expect(screen.getByRole("heading", { name: "Seu cadastro não foi enviado" })).toBeTruthy();
      expect(
        await screen.findByText("Confira se o e-mail está completo e se o WhatsApp tem o DDD, como (49) 99999-9999."),
      ).toBeTruthy();
    },
  );
});
