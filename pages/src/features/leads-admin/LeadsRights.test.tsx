import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ToastProvider } from "../../lib/toast";
import type { Lead, LeadsPage, Rights } from "./api";
import { LeadsPanel } from "./LeadsPanel";

const LEAD = {
  id: "lead-1",
  name: "Ana Vinhedo",
  email: "ana@example.com",
  whatsapp: "+5549999998888",
  whatsapp_display: "(49) 99999-8888",
  origem: "site",
  source: "direto",
  referrer_host: null,
  jetimob_enviado: false,
  delivery_status: "pending",
  delivery_attempts: 0,
  next_attempt_at: null,
  last_error: null,
  sent_at: null,
  sent_by: null,
  marked_by: null,
  created_at: "2026-11-26T12:00:00.000Z",
  submission_count: 1,
  last_submitted_at: "2026-11-26T12:00:00.000Z",
  update_status: null,
  update_last_error: null,
  duplicate_of: null,
  last_touch: null,
  pending_changes: 0,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  utm_term: null,
  utm_content: null,
  gclid: null,
  gbraid: null,
  wbraid: null,
  fbclid: null,
  msclkid: null,
  ttclid: null,
  referrer: null,
  page_url: null,
  landline: false,
  answers: null,
  answers_at: null,
  jetimob_lead_id: null,
  first_contact_at: null,
  contacted_by_id: null,
  contacted_by: null,
  contact_tracked: true,
} satisfies Lead;

const ALL: Rights = { export: true, delete: true, mark_sent: true };

function page(rights: Rights): LeadsPage {
  return {
    leads: [LEAD],
    page: 1,
    page_size: 50,
    total: 1,
    pages: 1,
    first: null,
    last: null,
    counts: {
      total: 1,
      sent: 0,
      pending: 1,
      failed: 0,
      attention: 0,
      duplicates: 0,
      delivered: 0,
      uncontacted: 1,
      mine: 0,
    },
    pending_changes: 0,
    refused: 0,
    crm_configured: true,
    incident: null,
    rights,
  };
}

/** What the worker answers: the list, or what a test sets. */
let answer: (path: string) => Response;

function json(status: number, body: Record<string, unknown>) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => answer(path)),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
});

function show() {
  window.history.replaceState(null, "", "/admin");
  render(
    <ToastProvider>
      <LeadsPanel />
    </ToastProvider>,
  );
}

describe("a button a person may not use", () => {
  it("is not shown: 'Exportar CSV', 'Marcar Enviado' and 'Excluir lead' follow the rights the list brings", async () => {
    answer = () => json(200, { success: true, ...page({ export: false, delete: false, mark_sent: false }) });
    show();
    const row = (await screen.findByText("Ana Vinhedo")).closest("tr") as HTMLElement;
    expect(within(row).queryByRole("button", { name: "Marcar Enviado" })).toBeNull();
    expect(within(row).queryByRole("button", { name: "Excluir lead" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Exportar CSV" })).toBeNull();
  });

  it("is shown to someone who may", async () => {
    answer = () => json(200, { success: true, ...page(ALL) });
    show();
    const row = (await screen.findByText("Ana Vinhedo")).closest("tr") as HTMLElement;
    expect(within(row).getByRole("button", { name: "Marcar Enviado" })).toBeTruthy();
    expect(within(row).getByRole("button", { name: "Excluir lead" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Exportar CSV" })).toBeTruthy();
  });
});

describe("without 'Exportar CSV', past the hour's leads", () => {
  it("the list says the worker's own words, and that the pages already seen stay open", async () => {
    const words = "Sem a permissão de exportar, a lista mostra a cada pessoa até 500 leads por hora…";
    answer = () => json(429, { success: false, error: words });
    show();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Limite de leads por hora");
    expect(alert.textContent).toContain(words);
    expect(alert.textContent).toContain("As páginas da lista que você já abriu nesta hora continuam disponíveis.");
  });
});

describe("an export cut on its way", () => {
  it("saves nothing and says it was cut, then reads the list again", async () => {
    let lists = 0;
    answer = (path) => {
      if (!path.startsWith("/api/leads/export.csv")) {
        lists += 1;
        return json(200, { success: true, ...page(ALL) });
      }
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("Nome;Email\r\n"));
          controller.error(new Error("the export stopped"));
        },
      });
      return new Response(body, { status: 200, headers: { "Content-Type": "text/csv" } });
    };
    const created = vi.spyOn(URL, "createObjectURL");
    show();
    await userEvent.click(await screen.findByRole("button", { name: "Exportar CSV" }));
    expect(
      await screen.findByText(/A exportação foi interrompida antes do fim e o arquivo não foi salvo/),
    ).toBeTruthy();
    expect(created).not.toHaveBeenCalled();
    expect(lists).toBe(2);
  });
});
