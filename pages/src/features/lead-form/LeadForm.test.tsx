import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type AdsDisclosure, NO_ADS } from "../../lib/disclosure";
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

/** The names the form said 'Sucesso!' for. */
let sentNames: string[];

/**
 * A fresh module per test: the form keeps its draft, and the bot check its
 * settings, once per page. `disclosure`: what the page says of the ads.
 */
async function renderForm(disclosure: AdsDisclosure = NO_ADS) {
  vi.resetModules();
  sentNames = [];
  const { LeadForm } = await import("./LeadForm");
  // The same module the fresh form reads its context from.
  const { DisclosureContext } = await import("../../lib/disclosure");
  render(
    <DisclosureContext.Provider value={disclosure}>
      <LeadForm onSent={(name) => sentNames.push(name)} />
    </DisclosureContext.Provider>,
  );
  return { user: userEvent.setup(), email: screen.getByLabelText("E-mail") as HTMLInputElement };
}

/** The words of 'Você quis dizer …?' under the e-mail field (the form's first live region); empty while it asks nothing. */
const suggestion = () => screen.getAllByRole("status")[0]?.textContent;
/** The words of 'Este número parece fixo…' under the WhatsApp field (the second). */
const landline = () => screen.getAllByRole("status")[1]?.textContent;
const button = (name: string) => screen.getByRole("button", { name });
const SUBMIT = "Quero meu acesso antecipado ao lançamento exclusivo";

async function fillLead(user: ReturnType<typeof userEvent.setup>, email: string, whatsapp = "49999998888") {
  await user.type(screen.getByLabelText("Nome completo"), "Ana Souza");
  await user.type(screen.getByLabelText("E-mail"), email);
  await user.type(screen.getByLabelText("WhatsApp com DDD"), whatsapp);
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
  it("empties the form and hands the name sent to 'Sucesso!', without a toast of its own", async () => {
    const { user } = await renderForm();
    await fillLead(user, "ana@gmail.com");
    await user.click(button(SUBMIT));
    await waitFor(() => expect(sentNames).toEqual(["Ana Souza"]));
    expect(screen.getByLabelText("Nome completo")).toHaveProperty("value", "");
    expect(screen.queryByText("Sucesso!")).toBeNull();
  });
});

describe("a landline typed as WhatsApp", () => {
  it("is asked about before it goes; 'Sim, enviar assim' sends it as it is", async () => {
    const { user } = await renderForm();
    await fillLead(user, "ana@gmail.com", "4833334444");
    await user.click(button(SUBMIT));
    expect(landline()).toContain("Este número parece fixo. Ele tem WhatsApp?");
    expect(document.activeElement).toBe(button("Sim, enviar assim"));
    expect(posted).toEqual([]);
    await user.click(button("Sim, enviar assim"));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]?.whatsapp).toBe("(48) 3333-4444");
  });

  it("'Corrigir' goes back to the field, and a mobile typed there goes without a question", async () => {
    const { user } = await renderForm();
    await fillLead(user, "ana@gmail.com", "4833334444");
    await user.click(button(SUBMIT));
    await user.click(button("Corrigir"));
    const field = screen.getByLabelText("WhatsApp com DDD") as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    expect(landline()).toBe("");
    await user.keyboard("48999997777");
    expect(field.value).toBe("(48) 99999-7777");
    await user.click(button(SUBMIT));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(landline()).toBe("");
  });

  it("is not asked about for a mobile", async () => {
    const { user } = await renderForm();
    await fillLead(user, "ana@gmail.com");
    await user.click(button(SUBMIT));
    await waitFor(() => expect(posted).toHaveLength(1));
  });
});

describe("a field the visitor left empty", () => {
  it("says so beside the field and nowhere else: no toast, nothing sent", async () => {
    const { user } = await renderForm();
    await user.type(screen.getByLabelText("Nome completo"), "Ana Souza");
    (screen.getByRole("button", { name: SUBMIT }).closest("form") as HTMLFormElement).noValidate = true;
    await user.click(button(SUBMIT));
    expect(screen.getByLabelText("E-mail").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getAllByText("Campo obrigatório.")).toHaveLength(2);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(posted).toEqual([]);
  });
});

describe("the ads' consent box (ADS_CONSENT=checkbox)", () => {
  const CONSENT = /Aceito que meus dados sejam usados, de forma protegida, para medir os anúncios/;

  it("is not there unless an ad platform is on and the setting asks for it", async () => {
    await renderForm({ meta: true, google: false, checkbox: false });
    expect(screen.queryByLabelText(CONSENT)).toBeNull();
    cleanup();
    await renderForm({ meta: false, google: false, checkbox: true });
    expect(screen.queryByLabelText(CONSENT)).toBeNull();
  });

  it("comes unticked, and the lead says ads_consent only when it was ticked", async () => {
    const { user } = await renderForm({ meta: true, google: true, checkbox: true });
    const box = screen.getByLabelText(CONSENT) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(box.name).toBe("ads_consent");
    await fillLead(user, "ana@gmail.com");
    await user.click(button(SUBMIT));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).not.toHaveProperty("ads_consent");

    cleanup();
    const again = await renderForm({ meta: true, google: false, checkbox: true });
    await fillLead(again.user, "bia@gmail.com");
    await again.user.click(screen.getByLabelText(CONSENT));
    await again.user.click(button(SUBMIT));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]?.ads_consent).toBe(true);
  });
});
