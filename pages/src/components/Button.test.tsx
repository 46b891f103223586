import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Button } from "./Button";

afterEach(() => {
  document.body.innerHTML = "";
});

/** A form whose button is inactive while its submission runs, as 'Entrar' is. */
function SignInForm({ onSubmit }: { onSubmit: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
        setBusy(true);
      }}
    >
      <input aria-label="E-mail" />
      <Button type="submit" inactive={busy}>
        {busy ? "Entrando..." : "Entrar"}
      </Button>
    </form>
  );
}

describe("Button", () => {
  it("keeps the focus once inactive, says it is off, and ignores presses, a submit included", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<SignInForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole("button", { name: "Entrar" }));
    const busy = screen.getByRole("button", { name: "Entrando..." });
    expect(busy).toHaveProperty("disabled", false);
    expect(busy.getAttribute("aria-disabled")).toBe("true");
    expect(document.activeElement).toBe(busy);

    await user.keyboard("{Enter}");
    await user.click(busy);
    await user.type(screen.getByLabelText("E-mail"), "ana{Enter}");
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("says nothing of being off while it is active, and runs its action", async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(
      <Button type="button" onClick={onClick}>
        Próxima
      </Button>,
    );
    const next = screen.getByRole("button", { name: "Próxima" });
    expect(next.hasAttribute("aria-disabled")).toBe(false);
    await user.click(next);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
