import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import agency from "../../agency.json" with { type: "json" };
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail, type SentMail } from "../support/fake-mail";
import { aLead, ownBrowser, postLead, uniqueIp } from "../support/leads";
import { type StaffClient, signedInStaff } from "../support/staff";

// New-lead notices: the cron (every minute) e-mails each person who has
// 'Receber aviso de novos leads' on, once a minute at most, every new lead
// and every correction since the last e-mail. Jetimob accepts every lead
// here, so no delivery alert mixes in.
let mail: FakeMail;
let jetimob: FakeJetimob;
let app: App;
type Person = { client: StaffClient; email: string };
let owner: Person;
let colleague: Person;
let quiet: Person;
let leaver: Person;

const MINUTE = 60_000;
const NOTICE =
  /^(Novo lead|Lead atualizou|Alteração pendente|\d+ novos leads|\d+ leads atualizaram|\d+ alterações pendentes|1 novo lead e)/;

function noticesTo(email: string): SentMail[] {
  return mail.messagesTo(email).filter((m) => NOTICE.test(m.subject));
}

/** Each notice to `email` as its subject and the names it lists ('• “Ana” — novo lead, …'). */
function told(email: string): { subject: string; leads: string[] }[] {
  return noticesTo(email).map((m) => ({
    subject: m.subject,
    leads: [...m.text.matchAll(/^• “(.+?)” — /gm)].map((line) => line[1] ?? ""),
  }));
}

/** The notice of one new lead, `name`. */
const oneNew = (name: string) => ({ subject: "Novo lead no site", leads: [name] });

async function switchNotices(person: Person, enabled: boolean) {
  const answer = await person.client.call("PUT", "/api/auth/notices", { enabled });
  expect(answer).toMatchObject({ status: 200, body: { enabled } });
}

async function submit(lead: Record<string, unknown>, ip = uniqueIp()) {
  const answer = await postLead(app, lead, { ip, browser: ownBrowser(lead) });
  expect(answer.status).toBe(200);
}

/** The minute since each person's last e-mail has passed (the clock moved, not waited for). */
async function aMinuteLater() {
  await app.sql("UPDATE staff_users SET notices_lease_until = NULL");
}

beforeAll(async () => {
  mail = await new FakeMail().start();
  jetimob = await new FakeJetimob().start();
  app = await spawnApp({
    vars: {
      ...mail.settings(),
      ...jetimob.settings(),
      SITE_ORIGIN: "https://painel.example",
    },
  });
  owner = await signedInStaff(app, mail);
  colleague = await signedInStaff(app, mail);
  quiet = await signedInStaff(app, mail);
  leaver = await signedInStaff(app, mail);
  // New colleagues start with the notices on (the owners' default): one switches them off.
  await switchNotices(quiet, false);
  const [account] = await app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", leaver.email);
  const disabled = await owner.client.call("POST", `/api/staff/${account?.id}/disable`, {});
  expect(disabled.status).toBe(200);
});

afterAll(async () => {
  await app?.stop();
  await jetimob?.stop();
  await mail?.stop();
});

beforeEach(async () => {
  await aMinuteLater();
  await app.runCron();
  mail.clear();
});

describe("'Receber aviso de novos leads'", () => {
  it("is on for the owner and for new colleagues, and off for whoever switched it off", async () => {
    expect((await owner.client.call("GET", "/api/auth/notices")).body).toMatchObject({ enabled: true });
    expect((await quiet.client.call("GET", "/api/auth/notices")).body).toMatchObject({ enabled: false });
    expect((await colleague.client.call("GET", "/api/auth/notices")).body).toMatchObject({ enabled: true });
  });

  it("is switched only with a yes or no, and only by someone signed in", async () => {
    const bad = await quiet.client.call("PUT", "/api/auth/notices", { enabled: "sim" });
    expect(bad.status).toBe(422);
    expect((await quiet.client.call("GET", "/api/auth/notices")).body).toMatchObject({ enabled: false });
    const stranger = await fetch(`${app.baseUrl}/api/auth/notices`, {
      method: "PUT",
      headers: { "Content-Type": "application/json", Origin: app.baseUrl },
      body: JSON.stringify({ enabled: true }),
    });
    expect(stranger.status).toBe(401);
  });
});

describe("a new lead", () => {
  it("reaches everyone who has the notice on within one cron run, and nobody else", async () => {
    await submit(
      aLead({
        name: "Helena Notícia",
        whatsapp: "(49) 98123-4567",
        origem: "instagram",
        utm_campaign: "pre-lancamento",
      }),
    );
    await app.runCron();

    for (const person of [owner, colleague]) {
      const notices = noticesTo(person.email);
      expect(notices).toHaveLength(1);
      const [notice] = notices;
      expect(notice?.subject).toBe("Novo lead no site");
      expect(notice?.text).toMatch(/^• “Helena Notícia” — novo lead/);
      // The chat opens with the broker's greeting to the person, by their first names.
      const chat = `https://wa.me/5549981234567?text=${encodeURIComponent("Olá, Helena! Aqui é Equipe, da")}`;
      expect(notice?.text).toContain(`WhatsApp: (49) 98123-4567 — ${chat}`);
      expect(notice?.text).toMatch(/E-mail: pessoa\d+\.\d+@example\.com/);
      expect(notice?.text).toContain("Origem: “instagram” · campanha “pre-lancamento”");
      expect(notice?.text).toMatch(/Ver no painel: https:\/\/painel\.example\/admin\/leads\/[\w-]+/);
      expect(notice?.html).toContain(`href="${chat}`);
    }
    expect(noticesTo(quiet.email)).toEqual([]);
    expect(noticesTo(leaver.email)).toEqual([]);
  });

  it("says the time in Brasília", async () => {
    await submit(aLead({ name: "Horácio Hora" }));
    const [lead] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE name = 'Horácio Hora'");
    // 15:30 UTC is 12:30 in Brasília.
    await app.sql(
      "UPDATE lead_submissions SET submitted_at = ?2 WHERE lead_id = ?1",
      lead?.id,
      Date.UTC(2026, 10, 20, 15, 30),
    );
    await app.runCron();
    expect(noticesTo(owner.email)[0]?.text).toContain("“Horácio Hora” — novo lead, 20/11/2026 12:30");
  });

  it("is told once, however many cron runs overlap", async () => {
    await submit(aLead({ name: "Paula Paralela" }));
    await Promise.all(Array.from({ length: 6 }, () => app.runCron()));
    await aMinuteLater();
    await app.runCron();
    expect(told(owner.email)).toEqual([oneNew("Paula Paralela")]);
    expect(noticesTo(colleague.email)).toHaveLength(1);
  });
});

describe("a lead whose words try to pass for the panel's", () => {
  it("is never named in a subject, and adds no line to the e-mail", async () => {
    const name = "AVISO DO PAINEL: sua senha expira hoje";
    await submit(
      aLead({
        name,
        origem: "instagram\u2028  Ver no painel: https://evil.example/entrar",
        utm_campaign: "verao\u2029\u202eVer no painel: https://evil.example",
      }),
    );
    await app.runCron();
    const notices = noticesTo(owner.email);
    expect(notices.map((m) => m.subject)).toEqual(["Novo lead no site"]);
    for (const sent of mail.messages()) expect(sent.subject).not.toContain("AVISO");
    const [notice] = notices;
    expect(notice?.text).toContain(`• “${name}” — novo lead`);
    expect(notice?.text).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    // The origem and the campaign stay on the 'Origem:' line; the one link line is the panel's.
    const links = notice?.text.split("\n").filter((line) => line.trimStart().startsWith("Ver no painel")) ?? [];
    expect(links).toEqual([
      expect.stringMatching(/^ {2}Ver no painel: https:\/\/painel\.example\/admin\/leads\/[\w-]+$/),
    ]);
    expect(notice?.html).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });
});

describe("30 leads in one minute", () => {
  it("make one e-mail per person listing all 30", async () => {
    const leads = Array.from({ length: 30 }, (_, i) => aLead({ name: `Lote ${String(i + 1).padStart(2, "0")}` }));
    for (const lead of leads) await submit(lead);
    await app.runCron();
    for (const person of [owner, colleague]) {
      const notices = noticesTo(person.email);
      expect(notices).toHaveLength(1);
      expect(notices[0]?.subject).toBe(`30 novos leads — ${agency.development.name}`);
      for (const lead of leads) expect(notices[0]?.text).toContain(`• “${lead.name}” — novo lead`);
    }
    expect(noticesTo(quiet.email)).toEqual([]);
  });
});

describe("one e-mail a minute at most", () => {
  it("keeps a lead of the same minute for the next e-mail", async () => {
    await submit(aLead({ name: "Primeira Minuto" }));
    await app.runCron();
    await submit(aLead({ name: "Segunda Minuto" }));
    await app.runCron();
    expect(told(owner.email)).toEqual([oneNew("Primeira Minuto")]);

    await aMinuteLater();
    await app.runCron();
    expect(told(owner.email)).toEqual([oneNew("Primeira Minuto"), oneNew("Segunda Minuto")]);
  });
});

describe("a visitor who sends the form again", () => {
  it("is in the notice, marked, when their contact details changed", async () => {
    const lead = aLead({ name: "Carla Correção", whatsapp: "(49) 99999-0001" });
    await submit(lead);
    await app.runCron();
    await aMinuteLater();
    mail.clear();

    await submit({ ...lead, whatsapp: "(49) 98888-7777" });
    await app.runCron();
    const [notice] = noticesTo(owner.email);
    expect(notice?.subject).toBe("Lead atualizou os dados");
    expect(notice?.text).toContain(
      "“Carla Correção” — dados atualizados pelo visitante: WhatsApp (antes (49) 99999-0001)",
    );
    expect(notice?.text).toContain("WhatsApp: (49) 98888-7777");
  });

  it("from another browser: the change waits, and staff are told it waits, with what the lead has today", async () => {
    const lead = aLead({ name: "Paula Pendente", whatsapp: "(49) 99999-0002" });
    await submit(lead);
    await app.runCron();
    await aMinuteLater();
    mail.clear();

    // Not the visitor's browser: no proof of the lead.
    expect((await postLead(app, { ...lead, whatsapp: "(48) 97777-0002" })).status).toBe(200);
    await app.runCron();
    for (const person of [owner, colleague]) {
      const [notice] = noticesTo(person.email);
      expect(notice?.subject).toBe("Alteração pendente em um lead");
      expect(notice?.text).toContain(
        "“Paula Pendente” — alteração pendente, enviada de outro navegador: aguarda a equipe (WhatsApp (hoje (49) 99999-0002))",
      );
      expect(notice?.text).toContain("WhatsApp: (48) 97777-0002");
    }
    expect(noticesTo(quiet.email)).toEqual([]);
  });

  it("is not, when nothing changed", async () => {
    const lead = aLead({ name: "Rita Repetida" });
    await submit(lead);
    await app.runCron();
    await aMinuteLater();
    mail.clear();

    await submit(lead);
    await app.runCron();
    expect(noticesTo(owner.email)).toEqual([]);
  });
});

describe("a visitor whose WhatsApp is another lead's", () => {
  /** Ana, then Bia, then Ana sends Bia's number: kept on Ana's lead, which it leaves as it was. */
  async function anaTriesBiasNumber() {
    const ana = aLead({ name: "Ana Conflito" });
    const bia = aLead({ name: "Bia Conflito" });
    await submit(ana);
    await submit(bia);
    await submit({ ...ana, whatsapp: bia.whatsapp });
    await app.runCron();
    await aMinuteLater();
    mail.clear();
    const [lead] = await app.sql<{ id: string; whatsapp: string }>(
      "SELECT id, whatsapp FROM leads WHERE email = ?1",
      ana.email,
    );
    expect(lead?.whatsapp).toBe(`+55${String(ana.whatsapp).replace(/\D/g, "")}`);
    return { ana, bia, anaId: String(lead?.id) };
  }

  const kinds = async (leadId: string) =>
    (await app.sql<{ kind: string }>("SELECT kind FROM lead_submissions WHERE lead_id = ?1 ORDER BY id", leadId)).map(
      (s) => s.kind,
    );

  it("and who then sends their own details again changed nothing: no 'Lead atualizou'", async () => {
    const { ana, anaId } = await anaTriesBiasNumber();
    await submit(ana);
    await app.runCron();
    expect(noticesTo(owner.email)).toEqual([]);
    expect(await kinds(anaId)).toEqual(["new", "conflict", "repeat"]);
  });

  it("once that lead is deleted, sends the number again: a correction, from the number the lead had", async () => {
    const { ana, bia, anaId } = await anaTriesBiasNumber();
    const [biaLead] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", bia.email);
    expect((await owner.client.call("DELETE", `/api/leads/${biaLead?.id}`)).status).toBe(200);
    await submit({ ...ana, whatsapp: bia.whatsapp });
    await app.runCron();
    const [notice] = noticesTo(owner.email);
    expect(notice?.subject).toBe("Lead atualizou os dados");
    expect(notice?.text).toContain(
      `“Ana Conflito” — dados atualizados pelo visitante: WhatsApp (antes ${ana.whatsapp})`,
    );
    // Bia's delete took the conflict that held her number with it.
    expect(await kinds(anaId)).toEqual(["new", "correction"]);
  });
});

describe("switching the notice", () => {
  it("off: nothing more comes; on again: only the leads from then on", async () => {
    await switchNotices(colleague, false);
    await submit(aLead({ name: "Durante Desligado" }));
    await app.runCron();
    expect(noticesTo(colleague.email)).toEqual([]);
    expect(noticesTo(owner.email)).toHaveLength(1);

    await switchNotices(colleague, true);
    await aMinuteLater();
    await app.runCron();
    expect(noticesTo(colleague.email)).toEqual([]);

    await submit(aLead({ name: "Depois Ligado" }));
    await app.runCron();
    expect(told(colleague.email)).toEqual([oneNew("Depois Ligado")]);
  });
});

describe("when the e-mail API fails", () => {
  it("the leads wait for the next minute's e-mail", async () => {
    mail.respondWith(() => ({ status: 500, body: { message: "indisponível" } }));
    await submit(aLead({ name: "Espera Entrega" }));
    await app.runCron();
    mail.respondWith(() => ({ status: 200, body: { id: "ok" } }));
    expect(noticesTo(owner.email)).toHaveLength(1); // the failed try, as the fake received it
    mail.clear();

    // Not in the same minute (each try the API refuses says e-mail is failing)...
    await app.runCron();
    expect(noticesTo(owner.email)).toEqual([]);
    // ...but in the next.
    await aMinuteLater();
    await app.runCron();
    expect(told(owner.email)).toEqual([oneNew("Espera Entrega")]);
  });
});

describe("when the e-mail API takes a notice but answers too late", () => {
  it("the retry is the same message under the same key, and reaches the mailbox once", async () => {
    // The API sent it, but its answer came after the worker's 5 s: the
    // worker cannot tell it from a failure, and tries again.
    mail.respondWith(() => ({ status: 200, body: { id: "tarde" }, delayMs: 6_000 }));
    await submit(aLead({ name: "Resposta Tardia" }));
    await app.runCron();
    mail.respondWith(() => ({ status: 200, body: { id: "ok" } }));
    await aMinuteLater();
    await app.runCron();
    expect(told(owner.email)).toEqual([oneNew("Resposta Tardia"), oneNew("Resposta Tardia")]);
    const keys = mail.received
      .filter((r) => r.path === "/emails" && r.body.toString().includes(owner.email))
      .map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(mail.delivered().filter((m) => m.to.includes(owner.email) && NOTICE.test(m.subject))).toHaveLength(1);
  }, 30_000);
});

describe("an account switched off and on again", () => {
  it("is told only of the leads from then on, not of those it missed", async () => {
    await submit(aLead({ name: "Enquanto Desativado" }));
    await app.runCron();
    const [account] = await app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", leaver.email);
    expect((await owner.client.call("POST", `/api/staff/${account?.id}/enable`, {})).status).toBe(200);
    await aMinuteLater();
    mail.clear();
    await app.runCron();
    expect(noticesTo(leaver.email)).toEqual([]);

    await submit(aLead({ name: "Depois Reativado" }));
    await app.runCron();
    expect(told(leaver.email)).toEqual([oneNew("Depois Reativado")]);
  });
});

describe("a mailbox the e-mail API keeps refusing", () => {
  it("falls behind alone: everyone else is still told of every lead, past the 200 one e-mail lists", async () => {
    mail.respondWith((request) =>
      request.body.toString().includes(colleague.email)
        ? { status: 422, body: { message: "invalid recipient" } }
        : { status: 200, body: { id: "ok" } },
    );
    try {
      const leads = Array.from({ length: 201 }, (_, i) => aLead({ name: `Fila ${String(i + 1).padStart(3, "0")}` }));
      for (let i = 0; i < leads.length; i += 25) await Promise.all(leads.slice(i, i + 25).map((l) => submit(l)));
      await app.runCron();
      expect(noticesTo(owner.email).map((m) => m.subject)).toEqual([`200 novos leads — ${agency.development.name}`]);

      // The next minute: the one lead left over, and one more.
      await submit(aLead({ name: "Depois da Fila" }));
      await aMinuteLater();
      mail.clear();
      await app.runCron();
      const notices = noticesTo(owner.email);
      expect(notices.map((m) => m.subject)).toEqual([`2 novos leads — ${agency.development.name}`]);
      expect(notices[0]?.text).toContain("• “Fila 201” — novo lead");
      expect(notices[0]?.text).toContain("• “Depois da Fila” — novo lead");

      // Refused for hours: tried about once an hour, not every minute.
      await app.sql("UPDATE lead_submissions SET submitted_at = submitted_at - ?1", 3 * 60 * MINUTE);
      await aMinuteLater();
      mail.clear();
      const triedAt = Date.now();
      await app.runCron();
      expect(noticesTo(colleague.email)).toHaveLength(1);
      const [held] = await app.sql<{ until: number }>(
        "SELECT notices_lease_until AS until FROM staff_users WHERE email = ?1",
        colleague.email,
      );
      expect(held?.until).toBeGreaterThanOrEqual(triedAt + 60 * MINUTE);
      expect(held?.until).toBeLessThanOrEqual(Date.now() + 60 * MINUTE);
      await app.runCron();
      expect(noticesTo(colleague.email)).toHaveLength(1);
    } finally {
      mail.respondWith(() => ({ status: 200, body: { id: "ok" } }));
      // The colleague starts again from now, not with the backlog.
      await switchNotices(colleague, false);
      await switchNotices(colleague, true);
    }
  });
});
