import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeService } from "../support/fake-http";
import { FakeMail } from "../support/fake-mail";
import { insertLeads } from "../support/seed";
import { StaffClient, signedInStaff } from "../support/staff";

let app: App;
let staff: StaffClient;
let staffEmailAddress: string;
const mail = new FakeMail();
const jetimob = new FakeService(() => ({ status: 201, body: { id: 777 } }));

type Lead = Record<string, unknown> & { id: string; name: string; delivery_status: string };
type Page = {
  leads: Lead[];
  total: number;
  page: number;
  pages: number;
  page_size: number;
  counts: { total: number; sent: number; pending: number; failed: number; attention: number };
  crm_configured: boolean;
};

async function list(query = ""): Promise<Page> {
  const answer = await staff.call("GET", `/api/leads${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as Page;
}

const HOUR = 3_600_000;
const base = Date.now() - 1000 * HOUR;

beforeAll(async () => {
  await Promise.all([mail.start(), jetimob.start()]);
  app = await spawnApp({
    vars: {
      ...mail.settings(),
      JETIMOB_BASE_URL: jetimob.url,
      JETIMOB_PUBLIC_KEY: "pub-test",
      JETIMOB_PRIVATE_KEY: "priv-test",
    },
  });
  const signed = await signedInStaff(app, mail);
  staff = signed.client;
  staffEmailAddress = signed.email;
  // 120 leads an hour apart: 70 sent, 40 pending, 10 failed, plus three to search for.
  await insertLeads(
    app,
    Array.from({ length: 120 }, (_, i) => ({
      id: `lead-${String(i).padStart(3, "0")}`,
      created_at: base + i * HOUR,
      delivery_status: i % 12 < 7 ? "sent" : i % 12 < 11 ? "pending" : "failed",
    })),
  );
  await insertLeads(app, [
    { name: "João Conceição Vinhedo", email: "joao.vinhedo@example.com", created_at: base - 10 * HOUR },
    {
      name: "Maria Parreira",
      email: "maria.parreira@example.com",
      whatsapp: "+5548988776655",
      created_at: base - 11 * HOUR,
    },
    { name: "Zé Lima", email: "ze@example.com", created_at: base - 12 * HOUR, delivery_status: "sent" },
  ]);
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([mail.stop(), jetimob.stop()]);
});

describe("without a live session", () => {
  // lead-009 is pending: each refused change would have changed it.
  const endpoints: [string, string][] = [
    ["GET", "/api/leads"],
    ["GET", "/api/leads/export.csv"],
    ["POST", "/api/leads/lead-009/mark-sent"],
    ["POST", "/api/leads/lead-009/resend"],
    ["DELETE", "/api/leads/lead-009"],
  ];

  for (const [method, path] of endpoints) {
    it(`${method} ${path} answers 401 without a token and with a revoked session's token`, async () => {
      const anonymous = await new StaffClient(app).call(method, path, method === "POST" ? {} : undefined);
      expect(anonymous.status).toBe(401);

      const { client } = await signedInStaff(app, mail);
      const revoked = new StaffClient(app);
      revoked.accessToken = client.accessToken;
      await client.logout("global");
      const answer = await revoked.call(method, path, method === "POST" ? {} : undefined);
      expect(answer.status).toBe(401);
    });
  }

  it("nothing changed: the lead those calls named is still there, still pending, and nothing was recorded", async () => {
    const rows = await app.sql("SELECT delivery_status, delivery_attempts FROM leads WHERE id = 'lead-009'");
    expect(rows).toEqual([{ delivery_status: "pending", delivery_attempts: 0 }]);
    expect(await app.sql("SELECT action FROM audit_log WHERE lead_id = 'lead-009'")).toEqual([]);
  });
});

describe("the list", () => {
  it("is newest first, 50 to a page, with the total and the counters over all leads", async () => {
    const first = await list();
    expect(first.page_size).toBe(50);
    expect(first.leads).toHaveLength(50);
    expect(first.leads[0]?.id).toBe("lead-119");
    expect(first.leads[49]?.id).toBe("lead-070");
    expect(first.total).toBe(123);
    expect(first.pages).toBe(3);
    // Each lead counted once: in Jetimob, on its way, or waiting for a person.
    expect(first.counts).toEqual({
      total: 123,
      sent: 71,
      pending: 42,
      failed: 10,
      attention: 10,
      duplicates: 0,
      delivered: 71,
      uncontacted: 123,
      mine: 0,
    });
    expect(first.crm_configured).toBe(true);

    const third = await list("?page=3");
    expect(third.leads.map((l) => l.id).slice(0, 2)).toEqual(["lead-019", "lead-018"]);
    expect(third.leads).toHaveLength(23);
    expect(third.leads.at(-1)?.name).toBe("Zé Lima");
    expect((await list("?page=9")).leads).toEqual([]);
  });

  it("shows each lead with its formatted WhatsApp, its status and ISO dates", async () => {
    const { leads } = await list("?q=parreira");
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({
      name: "Maria Parreira",
      whatsapp: "+5548988776655",
      whatsapp_display: "(48) 98877-6655",
      jetimob_enviado: false,
      delivery_status: "pending",
      created_at: new Date(base - 11 * HOUR).toISOString(),
    });
  });

  it("filters by delivery status", async () => {
    // 'Pendentes': on their way, the site still sending them; the given up are 'Falharam'.
    const pending = await list("?status=pendentes");
    expect(pending.total).toBe(42);
    expect(pending.leads.every((l) => l.delivery_status === "pending")).toBe(true);
    const sent = await list("?status=enviados&page=2");
    expect(sent.total).toBe(71);
    expect(sent.leads).toHaveLength(21);
    expect(sent.leads.every((l) => l.delivery_status === "sent")).toBe(true);
    const failed = await list("?status=falhas");
    expect(failed.leads.map((l) => l.delivery_status)).toEqual(Array(10).fill("failed"));
  });

  it("searches names without accents, e-mails, and WhatsApp digits however they are typed", async () => {
    const names = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).leads.map((l) => l.name);
    expect(await names("joao conceicao")).toEqual(["João Conceição Vinhedo"]);
    expect(await names("VINHEDO@EXAMPLE")).toEqual(["João Conceição Vinhedo"]);
    expect(await names("(48) 98877-6655")).toEqual(["Maria Parreira"]);
    expect(await names("88776")).toEqual(["Maria Parreira"]);
    expect(await names("Zé")).toEqual(["Zé Lima"]);
    // A term of one or two characters too, whatever its case and accents.
    for (const typed of ["ze", "ZÉ", "zê"]) expect(await names(typed), typed).toEqual(["Zé Lima"]);
    expect(await names("ninguém com esse nome")).toEqual([]);
    const searched = await list("?q=parreira&status=enviados");
    expect(searched.total).toBe(0);
  });

  it("finds a WhatsApp number pasted from WhatsApp or written with a trunk 0, and D'Ávila however the apostrophe was typed", async () => {
    // Ana's name was stored as her iPhone typed it, before names were made plain.
    await insertLeads(app, [
      { name: "Ana D\u2019Ávila", whatsapp: "+5549999998888", created_at: base - 20 * HOUR },
      { name: "Bruno D'Ávila", whatsapp: "+5547988887777", created_at: base - 21 * HOUR },
    ]);
    const names = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).leads.map((l) => l.name);
    for (const pasted of [
      "\u202A+55 49 99999-8888\u202C",
      "\u200E+55\u00A049\u00A099999\u20118888\u200F",
      "\u2066(49) 99999-8888\u2069",
      "\uFEFF49\u200B99999-8888",
      "049 99999-8888",
      "0 15 49 99999-8888",
      "+55 0 49 99999-8888",
      "99999-8888",
    ]) {
      expect(await names(pasted), JSON.stringify(pasted)).toEqual(["Ana D\u2019Ávila"]);
    }
    // From a computer, from an iPhone, with an invisible mark, without the accent.
    for (const typed of ["D'Ávila", "D\u2019Ávila", "D\u200B\u2019Ávila", "d´avila"]) {
      expect(await names(typed), typed).toEqual(["Ana D\u2019Ávila", "Bruno D'Ávila"]);
    }
    expect(await names("Bruno D\u2019Avila")).toEqual(["Bruno D'Ávila"]);
    expect((await list(`?q=${encodeURIComponent("D\u2019Ávila")}`)).total).toBe(2);
  });

  it("treats search text as text, never as SQL or a search expression", async () => {
    for (const q of [`' OR 1=1 --`, `"x" OR "y"`, "%", "_", "NEAR(a b)"]) {
      const answer = await staff.call("GET", `/api/leads?q=${encodeURIComponent(q)}`);
      expect(answer.status, q).toBe(200);
      expect((answer.body as unknown as Page).leads, q).toEqual([]);
    }
  });
});

describe("Marcar Enviado", () => {
  it("marks the lead sent by staff, moves the counters and records who did it", async () => {
    const before = await list();
    const answer = await staff.call("POST", "/api/leads/lead-007/mark-sent", {});
    expect(answer.status).toBe(200);
    const after = await list();
    expect(after.counts.sent).toBe(before.counts.sent + 1);
    expect(after.counts.pending).toBe(before.counts.pending - 1);
    const [row] = await app.sql("SELECT jetimob_enviado, delivery_status, sent_by FROM leads WHERE id = 'lead-007'");
    expect(row).toEqual({ jetimob_enviado: 1, delivery_status: "sent", sent_by: "staff" });
    const audit = await app.sql("SELECT staff_email, action, lead_id FROM audit_log WHERE lead_id = 'lead-007'");
    expect(audit).toEqual([{ staff_email: staffEmailAddress, action: "mark_sent", lead_id: "lead-007" }]);
  });

  it("on a lead already sent answers 409 and changes nothing", async () => {
    const answer = await staff.call("POST", "/api/leads/lead-000/mark-sent", {});
    expect(answer.status).toBe(409);
    expect(String(answer.body.error)).toMatch(/já está marcado como enviado/);
    expect(await app.sql("SELECT id FROM audit_log WHERE lead_id = 'lead-000'")).toEqual([]);
  });

  it("on a lead that does not exist answers 404", async () => {
    const answer = await staff.call("POST", "/api/leads/nao-existe/mark-sent", {});
    expect(answer.status).toBe(404);
    expect(String(answer.body.error)).toMatch(/Lead não encontrado/);
  });

  it("from another site is refused", async () => {
    const answer = await staff.call("POST", "/api/leads/lead-008/mark-sent", {}, { Origin: "https://evil.example" });
    expect(answer.status).toBe(403);
    const [row] = await app.sql<{ delivery_status: string }>("SELECT delivery_status FROM leads WHERE id = 'lead-008'");
    expect(row?.delivery_status).toBe("pending");
  });
});

describe("deleting a lead", () => {
  it("removes it, keeps only its id in the audit trail, and a second delete is a 404", async () => {
    const before = await list();
    const [{ email } = { email: "" }] = await app.sql<{ email: string }>(
      "SELECT email FROM leads WHERE id = 'lead-001'",
    );
    expect((await list(`?q=${encodeURIComponent(email)}`)).total).toBe(1);
    expect((await staff.call("DELETE", "/api/leads/lead-001")).status).toBe(200);
    expect(await app.sql("SELECT id FROM leads WHERE id = 'lead-001'")).toEqual([]);
    expect((await list()).counts.total).toBe(before.counts.total - 1);
    // Its search rows went with it: a search for it finds and counts nothing.
    expect(await list(`?q=${encodeURIComponent(email)}`)).toMatchObject({ leads: [], total: 0 });
    const audit = await app.sql("SELECT * FROM audit_log WHERE lead_id = 'lead-001'");
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toMatch(/Pessoa Semente|semente|\+55/);
    expect((await staff.call("DELETE", "/api/leads/lead-001")).status).toBe(404);
  });

  it("also removes it from search", async () => {
    const [lead] = await insertLeads(app, [{ name: "Apagável Teste" }]);
    expect((await list("?q=apagavel")).leads).toHaveLength(1);
    expect((await staff.call("DELETE", `/api/leads/${lead?.id}`)).status).toBe(200);
    expect((await list("?q=apagavel")).leads).toHaveLength(0);
  });
});

describe("Reenviar", () => {
  it("sends a failed lead to the CRM at once and says so", async () => {
    jetimob.clear();
    const answer = await staff.call("POST", "/api/leads/lead-011/resend", {});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ delivered: true, lead: { delivery_status: "sent", jetimob_enviado: true } });
    expect(jetimob.received).toHaveLength(1);
    expect(jetimob.received[0]?.path).toBe("/leads/pub-test");
    const audit = await app.sql("SELECT action FROM audit_log WHERE lead_id = 'lead-011'");
    expect(audit).toEqual([{ action: "resend" }]);
  });

  it("reports the CRM's refusal; past its retry window the lead stays failed", async () => {
    jetimob.respondWith(() => ({ status: 500, body: { error: "indisponível" } }));
    try {
      const answer = await staff.call("POST", "/api/leads/lead-023/resend", {});
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        delivered: false,
        lead: { delivery_status: "failed", delivery_attempts: 2 },
      });
      expect(String(answer.body.last_error)).toMatch(/500/);
    } finally {
      jetimob.respondWith(() => ({ status: 201, body: { id: 777 } }));
    }
  });

  it("of a lead already sent answers 409", async () => {
    expect((await staff.call("POST", "/api/leads/lead-000/resend", {})).status).toBe(409);
  });
});

describe("the CSV export", () => {
  async function csv(query = ""): Promise<{ text: string; headers: Headers }> {
    const response = await fetch(`${app.baseUrl}/api/leads/export.csv${query}`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), headers: response.headers };
  }

  it("is UTF-8 with a BOM, ; separated, with the table's columns and the attribution", async () => {
    const { text, headers } = await csv();
    expect(headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(headers.get("content-disposition")).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(text.startsWith("\uFEFFNome;Email;WhatsApp;Origem;Status Jetimob;Data;")).toBe(true);
    expect(text).toMatch(
      /;UTM Source;UTM Medium;UTM Campaign;UTM Term;UTM Content;GCLID;GBRAID;WBRAID;FBCLID;MSCLKID;TTCLID;/,
    );
    const lines = text.trimEnd().split("\r\n");
    const total = (await list()).counts.total;
    expect(lines).toHaveLength(total + 1);
    const maria = lines.find((l) => l.startsWith("Maria Parreira;"));
    // In ISO 8601 with Brasília's offset, the ad platforms' form.
    const created = `${new Date(base - 11 * HOUR - 3 * HOUR).toISOString().slice(0, 19)}-03:00`;
    expect(maria).toContain(`;+5548988776655;site;Pendente;${created};`);
  });

  it("follows the current filter and search", async () => {
    const sent = (await csv("?status=enviados")).text.trimEnd().split("\r\n").slice(1);
    expect(sent.length).toBe((await list()).counts.sent);
    expect(sent.every((l) => l.includes(";Enviado;"))).toBe(true);
    const searched = (await csv("?q=parreira")).text.trimEnd().split("\r\n");
    expect(searched).toHaveLength(2);
  });

  it("neutralises cells a spreadsheet would run as a formula", async () => {
    await insertLeads(app, [{ name: '=HYPERLINK("http://evil.example","abrir")', origem: "@SUM(A1)" }]);
    const { text } = await csv("?q=hyperlink");
    const row = text.split("\r\n")[1] ?? "";
    expect(row.startsWith(`"'=HYPERLINK(""http://evil.example"",""abrir"")";`)).toBe(true);
    expect(row).toContain(";'@SUM(A1);");
  });
});
