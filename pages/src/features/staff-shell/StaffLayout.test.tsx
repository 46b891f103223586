import { act, render, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type SessionUser, signIn, signOut, TICK_MS, useSession } from "../../lib/session";
import { ToastProvider } from "../../lib/toast";
import { StaffLayout } from "./StaffLayout";

const BIA: SessionUser = { id: "u-2", email: "bia@imob.com.br", role: "staff", approved: false };

/** Whether an owner has approved Bia yet, as the worker's session check answers; every path asked. */
let approved = false;
let asked: string[] = [];

function answer(body: Record<string, unknown>) {
  return new Response(JSON.stringify({ success: true, ...body }), { headers: { "Content-Type": "application/json" } });
}

beforeEach(async () => {
  approved = false;
  asked = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      asked.push(path);
      if (path === "/api/auth/login") {
        return answer({ access_token: "token-1", expires_at: Date.now() + 15 * 60_000, user: BIA });
      }
      if (path === "/api/auth/session") return answer({ user: { ...BIA, approved }, session_id: "s-1" });
      if (path === "/api/auth/notices") return answer({ enabled: false });
      return answer({});
    }),
  );
  await signIn(BIA.email, "vinho-tinto-2026");
});

afterEach(async () => {
  await signOut();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
  document.body.innerHTML = "";
});

function openPanel() {
  render(
    <ToastProvider>
      <StaffLayout title="Painel Administrativo" subtitle="Os leads do pré-lançamento.">
        <p>Lista de leads</p>
      </StaffLayout>
    </ToastProvider>,
  );
}

describe("an account an owner has not approved yet", () => {
  it("sees 'Aguardando aprovação' instead of the page, with 'Alterar senha' and 'Sair'", async () => {
    openPanel();
    expect(screen.getByRole("heading", { level: 1, name: "Aguardando aprovação" })).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1 }).closest("section")?.textContent).toContain(
      `Seu e-mail ${BIA.email} foi confirmado. Agora um responsável pelo painel precisa aprovar o seu acesso.`,
    );
    expect(screen.queryByText("Lista de leads")).toBeNull();
    expect(screen.queryByRole("navigation", { name: "Páginas do painel" })).toBeNull();
    expect(screen.queryByText("Painel Administrativo")).toBeNull();
    expect(screen.getByRole("button", { name: "Alterar senha" })).toBeTruthy();
    // Nothing the worker would refuse it is asked for.
    expect(asked).not.toContain("/api/auth/notices");

    await userEvent.click(screen.getByRole("button", { name: "Sair" }));
    expect(asked).toContain("/api/auth/logout");
    const { result } = renderHook(() => useSession());
    expect(result.current.status).toBe("signed-out");
  });

  it("gets the panel by itself at the 30-second tick after an owner's 'Aprovar', and is told so", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    openPanel();
    await act(() => vi.advanceTimersByTimeAsync(TICK_MS));
    expect(screen.getByRole("heading", { level: 1, name: "Aguardando aprovação" })).toBeTruthy();

    act(() => screen.getByRole("button", { name: "Sair" }).focus());
    approved = true;
    await act(() => vi.advanceTimersByTimeAsync(TICK_MS));
    expect(await screen.findByText("Lista de leads")).toBeTruthy();
    // The card's 'Sair' that may have held the focus is gone: the page's heading has it.
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 1, name: "Painel Administrativo" }));
    expect(screen.getByRole("navigation", { name: "Páginas do painel" })).toBeTruthy();
    expect(screen.queryByText("Aguardando aprovação")).toBeNull();
    expect(await screen.findByText("Acesso aprovado")).toBeTruthy();
    expect(asked.filter((path) => path === "/api/auth/session")).toHaveLength(2);
  });
});
