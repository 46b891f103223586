import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ToastProvider } from "../../lib/toast";
import { testAccount } from "./accounts.fixture";
import type { Account } from "./api";
import { TeamPanel } from "./TeamPanel";

const OWNER = "dono@imob.com.br";
const BIA = "bia@imob.com.br";

/** The team the worker holds; every action an owner asked for, as "id/action". */
let accounts: Account[] = [];
let acted: string[] = [];
/** A refusal the worker answers the next action with, if any. */
let refusal: { status: number; error: string } | null = null;

function answer(status: number, body: Record<string, unknown>) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** What each action changes, as the worker does it. */
const EFFECTS: Record<string, Partial<Account>> = {
  approve: { approved: true },
  refuse: { disabled: true },
  "allow-export": { can_export: true },
  "deny-export": { can_export: false },
  "allow-delete": { can_delete: true },
  "deny-delete": { can_delete: false },
  "allow-mark-sent": { can_mark_sent: true },
  "deny-mark-sent": { can_mark_sent: false },
};

beforeEach(() => {
  acted = [];
  refusal = null;
  accounts = [testAccount("1", OWNER, { role: "owner", live_sessions: 1 })];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init?: RequestInit) => {
      if (path === "/api/staff") return answer(200, { success: true, accounts, you: "1" });
      const [, id, action] = /^\/api\/staff\/([^/]+)\/(.+)$/.exec(path) ?? [];
      if (init?.method !== "POST" || !id || !action) return answer(404, { success: false, error: "?" });
      acted.push(`${id}/${action}`);
      if (refusal) return answer(refusal.status, { success: false, error: refusal.error });
      accounts = accounts.map((a) => (a.id === id ? { ...a, ...EFFECTS[action] } : a));
      return answer(200, { success: true, account: accounts.find((a) => a.id === id) });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

async function openTeam() {
  render(
    <ToastProvider>
      <TeamPanel />
    </ToastProvider>,
  );
  await screen.findByRole("table");
}

function rowOf(email: string): HTMLElement {
  const row = screen.getAllByRole("row").find((r) => r.textContent?.includes(email));
  if (!row) throw new Error(`no row for ${email}`);
  return row;
}

/** The toast titled `title`, once it shows. */
async function toast(title: string): Promise<Element | null> {
  return (await screen.findByText(title)).closest(".toast");
}

describe("'Equipe' with an account waiting for approval", () => {
  beforeEach(() => {
    accounts.push(testAccount("2", BIA, { approved: false, live_sessions: 1 }));
  });

  it("shows it waiting, with 'Aprovar' and 'Recusar' only, and 'Aprovar' lets it in", async () => {
    await openTeam();
    expect(screen.getByRole("note").textContent).toBe("1 conta aguarda aprovação para entrar no painel.");
    const row = rowOf(BIA);
    expect(within(row).getByText("Aguardando aprovação")).toBeTruthy();
    expect(
      within(row)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Aprovar", "Recusar"]);

    await userEvent.click(within(row).getByRole("button", { name: "Aprovar" }));
    expect(acted).toEqual(["2/approve"]);
    expect(await toast("Acesso aprovado")).toBeTruthy();
    expect(await within(rowOf(BIA)).findByText("Confirmada")).toBeTruthy();
    expect(within(rowOf(BIA)).queryByRole("button", { name: "Aprovar" })).toBeNull();
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("asks before 'Recusar', saying the account is switched off", async () => {
    await openTeam();
    await userEvent.click(within(rowOf(BIA)).getByRole("button", { name: "Recusar" }));
    const dialog = screen.getByRole("dialog", { name: "Recusar acesso?" });
    expect(dialog.textContent).toContain(`${BIA} não entra no painel: a conta é desativada`);
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    expect(acted).toEqual([]);

    await userEvent.click(within(rowOf(BIA)).getByRole("button", { name: "Recusar" }));
    await userEvent.click(
      within(screen.getByRole("dialog", { name: "Recusar acesso?" })).getByRole("button", { name: "Recusar" }),
    );
    expect(acted).toEqual(["2/refuse"]);
    expect(await within(rowOf(BIA)).findByText("Desativada")).toBeTruthy();
  });
});

describe("a colleague's permissions in 'Equipe'", () => {
  beforeEach(() => {
    accounts.push(testAccount("2", BIA, { can_delete: false }));
  });

  it("are two switches that give and take 'Exportar CSV' and 'Excluir leads'; an owner's row has none", async () => {
    await openTeam();
    const exports = screen.getByRole("switch", { name: `Permitir que ${BIA} exporte CSV` });
    const deletes = screen.getByRole("switch", { name: `Permitir que ${BIA} exclua leads` });
    expect(exports.getAttribute("aria-checked")).toBe("true");
    expect(deletes.getAttribute("aria-checked")).toBe("false");
    expect(within(rowOf(OWNER)).queryAllByRole("switch")).toEqual([]);
    expect(within(rowOf(OWNER)).getByText("Todas as permissões")).toBeTruthy();

    await userEvent.click(exports);
    expect(await toast("Não pode mais exportar CSV")).toBeTruthy();
    expect(exports.getAttribute("aria-checked")).toBe("false");
    await userEvent.click(deletes);
    expect(await toast("Pode excluir leads")).toBeTruthy();
    expect(deletes.getAttribute("aria-checked")).toBe("true");
    expect(acted).toEqual(["2/deny-export", "2/allow-delete"]);
    // The switch pressed keeps the focus: the row was drawn again around it.
    expect(document.activeElement).toBe(deletes);
  });

  it("has a third switch for 'Marcar enviado' (and its 'Desfazer')", async () => {
    await openTeam();
    const marks = screen.getByRole("switch", { name: `Permitir que ${BIA} marque leads como enviados` });
    expect(marks.getAttribute("aria-checked")).toBe("true");
    await userEvent.click(marks);
    expect(await toast("Não pode mais marcar leads como enviados")).toBeTruthy();
    expect(marks.getAttribute("aria-checked")).toBe("false");
    expect(acted).toEqual(["2/deny-mark-sent"]);
  });

  it("say the worker's own words when it refuses a change", async () => {
    refusal = { status: 409, error: "As permissões de um responsável não mudam." };
    await openTeam();
    await userEvent.click(screen.getByRole("switch", { name: `Permitir que ${BIA} exporte CSV` }));
    const shown = await toast("Não foi possível alterar a conta");
    expect(shown?.textContent).toContain("As permissões de um responsável não mudam.");
    expect(screen.getByRole("switch", { name: `Permitir que ${BIA} exporte CSV` }).getAttribute("aria-checked")).toBe(
      "true",
    );
  });
});
