import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LEAD_ENDPOINT, type LeadPayload } from "./api";

/** The leads the form posted, as sent; the worker answers every one with success, and Turnstile is off. */
let posted: LeadPayload[];

beforeEach(() => {
  posted = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === LEAD_ENDPOINT) posted.push(JSON.parse(String(init?.body)));
      return Response.json({ success: true, turnstile_site_key: null });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A fresh module per test: the form keeps its draft, and the bot check its settings, once per page. */
async function renderForm() {
  vi.resetModules();
  const { LeadForm } = await import("./LeadForm");
  render(<LeadForm />);
  return { user: userEvent.setup(), email: screen.getByLabelText("E-mail") as HTMLInputElement };
}

/** The words of 'Você quis dizer …?' under the e-mail field; empty while it asks nothing. */
const suggestion = () => screen.getByRole("status").textContent;
const button = (name: string) => screen.getByRole("button", { name });
const SUBMIT = "Quero meu acesso antecipado ao lançamento exclusivo";

async function fillLead(user: ReturnType<typeof userEvent.setup>, email: string) {
  await user.type(screen.getByLabelText("Nome completo"), "Ana Souza");
  await user.type(screen.getByLabelText("E-mail"), email);
  await user.type(screen.getByLabelText("WhatsApp com DDD"), "49999998888");
}

describe("the e-mail typo helper", () => {
  it("suggests the address meant when the field loses focus, leaving the focus where the visitor put it", async () => {
    const { user, email } = await renderForm();
    await user.type(email, "ana@gmial.com");
    expect(suggestion()).toBe("");
    await user.tab();
    expect(suggestion()).toContain("Você quis dizer ana@gmail.com?");
    expect(document.activeElement).toBe(screen.getByLabelText("WhatsApp com DDD"));
  });

  it("'Sim, corrigir' puts the suggestion in the field and hides it", async () => {
    const { user, email } = await renderForm();
    await user.type(email, "ana@gmial.com");
    await user.tab();
    await user.click(button("Sim, corrigir"));
    expect(email.value).toBe("ana@gmail.com");
    expect(suggestion()).toBe("");
    expect(document.activeElement).toBe(email);
  });

  it("'Não, está certo' keeps the address and does not ask about it again", async () => {
    const { user, email } = await renderForm();
    await user.type(email, "ana@mail.com");
    await user.tab();
    expect(suggestion()).toContain("Você quis dizer ana@gmail.com?");
    await user.click(button("Não, está certo"));
    expect(email.value).toBe("ana@mail.com");
    expect(suggestion()).toBe("");
    await user.tab();
    expect(suggestion()).toBe("");
  });

  it("says nothing for an address at a known provider or a company's own domain", async () => {
    const { user, email } = await renderForm();
    for (const address of ["ana@gmail.com", "ana@altosdaserraimoveis.com.br"]) {
      await user.clear(email);
      await user.type(email, address);
      await user.tab();
      expect(suggestion()).toBe("");
    }
  });

  it("holds back a submit while a suggestion is unanswered; accepted, the next submit sends the address meant", async () => {
    const { user } = await renderForm();
    await fillLead(user, "ana@gmial.com");
    await user.click(button(SUBMIT));
    expect(suggestion()).toContain("Você quis dizer ana@gmail.com?");
    expect(document.activeElement).toBe(button("Sim, corrigir"));
    expect(posted).toEqual([]);

    await user.keyboard("{Enter}");
    await user.click(button(SUBMIT));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]?.email).toBe("ana@gmail.com");
  });

  it("turned down after a held submit, the next submit sends the address as typed", async () => {
    const { user } = await renderForm();
    await fillLead(user, "ana@gmial.com");
    await user.click(button(SUBMIT));
    await user.click(button("Não, está certo"));
    expect(posted).toEqual([]);
    await user.click(button(SUBMIT));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]?.email).toBe("ana@gmial.com");
  });
});

describe("after a lead went", () => {
  it("offers a chat with the team on WhatsApp, the greeting typed, until the visitor starts a new lead", async () => {
    const { user } = await renderForm();
    await fillLead(user, "ana@gmail.com");
    await user.click(button(SUBMIT));
    const chat = await screen.findByRole("link", { name: "Falar com a equipe no WhatsApp" });
    expect(chat.getAttribute("href")).toBe(
      "https://wa.me/5549999990000?text=Ol%C3%A1!%20Acabei%20de%20me%20cadastrar%20no%20pr%C3%A9-lan%C3%A7amento%20do%20Recanto%20das%20Videiras%20e%20gostaria%20de%20saber%20mais.",
    );
    expect(chat.getAttribute("target")).toBe("_blank");
    expect(chat.getAttribute("rel")).toBe("noopener noreferrer");

    await user.type(screen.getByLabelText("Nome completo"), "B");
    expect(screen.queryByRole("link", { name: /WhatsApp/ })).toBeNull();
  });
});
