import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EmailAddress } from "./EmailAddress";

describe("EmailAddress", () => {
  it("reads as the whole address, with its only break opportunity before the @", () => {
    const { container } = render(<EmailAddress email="mariana.albuquerque@altosdaserraimoveis.com.br" />);
    expect(container.textContent).toBe("mariana.albuquerque@altosdaserraimoveis.com.br");
    expect(container.innerHTML).toBe("mariana.albuquerque<wbr>@altosdaserraimoveis.com.br");
  });

  it("leaves something that is not an address as it is", () => {
    const { container } = render(<EmailAddress email="@sem-usuario" />);
    expect(container.innerHTML).toBe("@sem-usuario");
  });
});
