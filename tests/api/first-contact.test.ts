import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { insertLeads, type SeedLead } from "../support/seed";
import { type StaffClient, signedInStaff } from "../support/staff";

// Speed to lead: 'Já falei' records a lead's first contact once (who, when),
// 'Desfazer' takes it back, the list filters 'Não contatados' and
// 'Contatados por mim', and the time to first contact is reported per day,
// campaign and colleague against the owners' target.
let app: App;
let jetimob: FakeJetimob;
const mail = new FakeMail();
type Person = Awaited<ReturnType<typeof signedInStaff>>;
/** The first account confirmed: an owner. */
let owner: Person;
let ana: Person;
let bruno: Person;

beforeAll(async () => {
  await mail.start();
  jetimob = await new FakeJetimob().start();
  app = await spawnApp({ vars: { ...mail.settings(), ...jetimob.settings() } });
  owner = await signedInStaff(app, mail);
  ana = await signedInStaff(app, mail);
  bruno = await signedInStaff(app, mail);
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([mail.stop(), jetimob?.stop()]);
});

async function aLead(lead: SeedLead = {}) {
  const [seeded] = await insertLeads(app, [{ created_at: Date.now() - 5 * 60_000, ...lead }]);
  if (!seeded) throw new Error("no lead seeded");
  return seeded;
}

const contact = (by: StaffClient, id: string) => by.call("POST", `/api/leads/${id}/contact`, {});
const uncontact = (by: StaffClient, id: string) => by.call("POST", `/api/leads/${id}/uncontact`, {});

type Listed = {
  leads: {
    id: string;
    first_contact_at: string | null;
    contacted_by: string | null;
    contacted_by_id: string | null;
    contact_tracked: boolean;
  }[];
  total: number;
  counts: {
    total: number;
    pending: number;
    sent: number;
    failed: number;
    attention: number;
    delivered: number;
    uncontacted: number;
    mine: number;
  };
};

async function list(by: StaffClient, query: string): Promise<Listed> {
  const answer = await by.call("GET", `/api/leads${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as Listed;
}

async function userId(person: Person): Promise<string> {
  const [row] = await app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", person.email);
  if (!row) throw new Error("no such account");
  return row.id;
}

describe("'Já falei'", () => {
  it("records the first contact once when two brokers tap at once: the first wins and both see it", async () => {
    for (let round = 0; round < 5; round++) {
      const lead = await aLead({ name: `Paralelo ${round} Contato` });
      const [a, b] = await Promise.all([contact(ana.client, lead.id), contact(bruno.client, lead.id)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const recorded = [a, b].filter((r) => r.body.recorded === true);
      expect(recorded).toHaveLength(1);
      const winner = recorded[0] === a ? ana : bruno;
      // Both answers name the one who won, with the same moment.
      for (const answer of [a, b]) {
        expect(answer.body.contacted_by).toBe(winner.email);
        expect(answer.body.first_contact_at).toBe(a.body.first_contact_at);
      }
      const [row] = await app.sql<{ first_contact_by: string; first_contact_at: number }>(
        "SELECT first_contact_by, first_contact_at FROM leads WHERE id = ?1",
        lead.id,
      );
      expect(row?.first_contact_by).toBe(await userId(winner));
      expect(new Date(row?.first_contact_at ?? 0).toISOString()).toBe(a.body.first_contact_at);
      const entries = await app.sql(
        "SELECT staff_email FROM audit_log WHERE lead_id = ?1 AND action = 'contact'",
        lead.id,
      );
      expect(entries).toEqual([{ staff_email: winner.email }]);
      // Whoever looks next reads who contacted it.
      const seen = (await list(owner.client, `?q=${encodeURIComponent(lead.email)}`)).leads[0];
      expect(seen).toMatchObject({ contacted_by: winner.email, first_contact_at: a.body.first_contact_at });
    }
  });

  it("lists the lead under 'Contatados por mim' for whoever contacted it, out of 'Não contatados'", async () => {
    const lead = await aLead({ name: "Filtro Contato" });
    const search = `&q=${encodeURIComponent(lead.email)}`;
    expect((await list(ana.client, `?contato=nao${search}`)).leads.map((l) => l.id)).toEqual([lead.id]);
    const before = await list(ana.client, "?contato=nao");
    expect((await contact(ana.client, lead.id)).status).toBe(200);
    expect((await list(ana.client, `?contato=nao${search}`)).leads).toEqual([]);
    expect((await list(ana.client, `?contato=meus${search}`)).leads.map((l) => l.id)).toEqual([lead.id]);
    expect((await list(bruno.client, `?contato=meus${search}`)).leads).toEqual([]);
    const after = await list(ana.client, "?contato=nao");
    expect(after.total).toBe(before.total - 1);
    expect(after.counts.uncontacted).toBe(before.counts.uncontacted - 1);
    expect(after.counts.mine).toBe(before.counts.mine + 1);
    // The counters over 'Não contatados' count those leads, each once.
    expect(after.counts.total).toBe(after.total);
    expect(after.counts.delivered + after.counts.pending + after.counts.attention).toBe(after.counts.total);
  });

  it("'Desfazer' takes it back for whoever recorded it, within a minute, and no one else", async () => {
    const lead = await aLead();
    expect((await contact(ana.client, lead.id)).status).toBe(200);
    const bruno_undo = await uncontact(bruno.client, lead.id);
    expect(bruno_undo.status).toBe(409);
    expect(bruno_undo.body.error).toBe("Só quem registrou o contato pode desfazê-lo.");
    const undone = await uncontact(ana.client, lead.id);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ recorded: true, first_contact_at: null, contacted_by: null });
    expect(await app.sql("SELECT first_contact_at FROM leads WHERE id = ?1", lead.id)).toEqual([
      { first_contact_at: null },
    ]);
    expect(await app.sql("SELECT action FROM audit_log WHERE lead_id = ?1 ORDER BY id", lead.id)).toEqual([
      { action: "contact" },
      { action: "uncontact" },
    ]);
    // Recorded again, then a minute goes by: it stays.
    expect((await contact(bruno.client, lead.id)).body.recorded).toBe(true);
    await app.sql("UPDATE leads SET first_contact_at = first_contact_at - 61000 WHERE id = ?1", lead.id);
    const late = await uncontact(bruno.client, lead.id);
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/há mais de um minuto/);
    expect((await uncontact(ana.client, "no-such-lead")).status).toBe(404);
  });

  it("is every colleague's to record, whatever rights an owner took, but not an account waiting for approval", async () => {
    const colleague = await signedInStaff(app, mail);
    const id = await userId(colleague);
    await app.sql("UPDATE staff_users SET can_export = 0, can_delete = 0, can_mark_sent = 0 WHERE id = ?1", id);
    const lead = await aLead();
    // Without 'Marcar Enviado', 'Excluir' and 'Exportar CSV' a colleague still works the lead.
    expect((await colleague.client.call("POST", `/api/leads/${lead.id}/mark-sent`, {})).status).toBe(403);
    const answer = await contact(colleague.client, lead.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ recorded: true, contacted_by: colleague.email });
    // An account an owner has not approved (or switched off) cannot.
    const waiting = await aLead();
    await app.sql("UPDATE staff_users SET approved_at = NULL WHERE id = ?1", id);
    expect((await contact(colleague.client, waiting.id)).status).toBe(403);
    await app.sql("UPDATE staff_users SET approved_at = 1, disabled_at = 1 WHERE id = ?1", id);
    expect((await contact(colleague.client, waiting.id)).status).toBe(401);
    expect(await app.sql("SELECT first_contact_at FROM leads WHERE id = ?1", waiting.id)).toEqual([
      { first_contact_at: null },
    ]);
    // Another site's page cannot make a broker's browser record it.
    const forged = await ana.client.call(
      "POST",
      `/api/leads/${waiting.id}/contact`,
      {},
      { Origin: "https://evil.example" },
    );
    expect(forged.status).toBe(403);
  });

  it("leaves out of 'Não contatados' the leads that arrived before contacts were recorded", async () => {
    const old = await aLead({ name: "Antigo Contato" });
    await app.sql("UPDATE leads SET contact_tracked = 0 WHERE id = ?1", old.id);
    const listed = await list(ana.client, `?contato=nao&q=${encodeURIComponent(old.email)}`);
    expect(listed.leads).toEqual([]);
    const all = await list(ana.client, `?q=${encodeURIComponent(old.email)}`);
    expect(all.leads[0]).toMatchObject({ id: old.id, contact_tracked: false, first_contact_at: null });
  });
});

describe("the counters", () => {
  it("follow the period, and count each lead once", async () => {
    const day = Date.UTC(2024, 5, 10, 15);
    await insertLeads(app, [
      { name: "Periodo Um", created_at: day, delivery_status: "pending" },
      { name: "Periodo Dois", created_at: day + 60_000, delivery_status: "sent" },
      { name: "Periodo Tres", created_at: day + 120_000, delivery_status: "failed" },
      { name: "Periodo Quatro", created_at: day + 180_000, delivery_status: "sent", update_status: "failed" },
    ]);
    const listed = await list(ana.client, "?de=2024-06-10&ate=2024-06-10");
    expect(listed.total).toBe(4);
    expect(listed.counts).toMatchObject({
      total: 4,
      pending: 1,
      sent: 2,
      failed: 1,
      attention: 2,
      delivered: 1,
      uncontacted: 4,
      mine: 0,
    });
    const pending = await list(ana.client, "?de=2024-06-10&ate=2024-06-10&status=pendentes");
    expect(pending.total).toBe(1);
    // The whole base counts far more.
    expect((await list(ana.client, "")).counts.total).toBeGreaterThan(4);
  });
});

describe("time to first contact", () => {
  type Line = { leads: number; contacted: number; median_ms: number | null; within_target: number; waiting: number };
  type Report = {
    target_minutes: number;
    overall: Line;
    days: (Line & { day: string })[];
    campaigns: (Line & { source: string; campaign: string })[];
    colleagues: (Line & { email: string })[];
  };

  /** The median of `group`'s waits, by plain SQL over the seeded rows. */
  async function medianBySql(where: string, ...params: unknown[]): Promise<number | null> {
    const [row] = await app.sql<{ median: number | null }>(
      `WITH w AS (SELECT first_contact_at - created_at AS d FROM leads
         WHERE contact_tracked = 1 AND first_contact_at IS NOT NULL AND ${where}),
       r AS (SELECT d, row_number() OVER (ORDER BY d) AS rn, count(*) OVER () AS n FROM w)
       SELECT avg(d) AS median FROM r WHERE rn IN ((n + 1) / 2, (n + 2) / 2)`,
      ...params,
    );
    return row?.median ?? null;
  }

  it("has medians per day, campaign and colleague equal to a plain SQL over the seeded leads", async () => {
    const people = [await userId(ana), await userId(bruno), await userId(owner)];
    const first = Date.UTC(2025, 2, 3, 12);
    const leads: SeedLead[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 60; i++) {
      leads.push({
        name: `Mediana ${i}`,
        created_at: first + Math.floor(i / 20) * 86_400_000 + i * 37_000,
        utm_source: ["instagram", "google", "facebook"][i % 3] ?? "instagram",
        utm_campaign: i % 4 === 0 ? null : ["verao", "inverno"][i % 2],
      });
    }
    const seeded = await insertLeads(app, leads);
    // Most are contacted, by one of three people, seconds to hours later; a few wait.
    await app.batch(
      seeded
        .filter((_, i) => i % 7 !== 3)
        .map((lead): [string, ...unknown[]] => [
          "UPDATE leads SET first_contact_at = created_at + ?2, first_contact_by = ?3 WHERE id = ?1",
          lead.id,
          Math.floor(random() * (random() < 0.7 ? 600_000 : 7_200_000)),
          people[Math.floor(random() * 3)],
        ]),
    );
    const answer = await ana.client.call("GET", "/api/first-contact?de=2025-03-03&ate=2025-03-05");
    expect(answer.status).toBe(200);
    const report = answer.body as unknown as Report;
    expect(report.target_minutes).toBe(5);
    const period = [first - 12 * 3_600_000, first + 3 * 86_400_000];
    expect(report.overall.leads).toBe(60);
    expect(report.overall.median_ms).toBe(
      await medianBySql("created_at >= ?1 AND created_at < ?2", period[0], period[1]),
    );
    expect(report.days.map((d) => d.day)).toEqual(["2025-03-05", "2025-03-04", "2025-03-03"]);
    for (const d of report.days) {
      const where = "date(created_at / 1000 - 10800, 'unixepoch') = ?1";
      expect(d.median_ms, d.day).toBe(await medianBySql(where, d.day));
      const [counts] = await app.sql<{ leads: number; contacted: number; within: number }>(
        `SELECT count(*) AS leads, count(first_contact_at) AS contacted,
           coalesce(sum(first_contact_at - created_at <= 300000), 0) AS within
         FROM leads WHERE contact_tracked = 1 AND ${where}`,
        d.day,
      );
      expect([d.leads, d.contacted, d.within_target, d.waiting]).toEqual([
        counts?.leads,
        counts?.contacted,
        counts?.within,
        (counts?.leads ?? 0) - (counts?.contacted ?? 0),
      ]);
    }
    const lines = await app.sql<{ n: number }>(
      `SELECT count(DISTINCT source || '/' || coalesce(utm_campaign, '')) AS n FROM leads
       WHERE contact_tracked = 1 AND created_at >= ?1 AND created_at < ?2`,
      period[0],
      period[1],
    );
    expect(report.campaigns.length).toBe(lines[0]?.n);
    for (const c of report.campaigns) {
      const where = "source = ?1 AND coalesce(utm_campaign, '') = ?2 AND created_at >= ?3 AND created_at < ?4";
      expect(c.median_ms, `${c.source} ${c.campaign}`).toBe(
        await medianBySql(where, c.source, c.campaign, period[0], period[1]),
      );
    }
    expect(report.colleagues.map((c) => c.email).sort()).toEqual([ana.email, bruno.email, owner.email].sort());
    for (const c of report.colleagues) {
      const where =
        "first_contact_by = (SELECT id FROM staff_users WHERE email = ?1) AND created_at >= ?2 AND created_at < ?3";
      expect(c.median_ms, c.email).toBe(await medianBySql(where, c.email, period[0], period[1]));
    }
    // The same figures in its CSV, minutes with a decimal comma.
    const csv = await fetch(`${app.baseUrl}/api/first-contact/export.csv?de=2025-03-03&ate=2025-03-05`, {
      headers: { Authorization: `Bearer ${ana.client.accessToken}` },
    });
    expect(csv.status).toBe(200);
    const rows = (await csv.text()).split("\r\n");
    expect(rows[0]).toBe(
      "Por;Dia, campanha ou colega;Leads;Contatados;Aguardando contato;Mediana até o primeiro contato (min);Meta (min);Contatados dentro da meta",
    );
    const minutes = (ms: number | null) =>
      ms === null ? "" : (Math.round(ms / 6_000) / 10).toString().replace(".", ",");
    expect(rows).toContain(
      `Dia;2025-03-04;${report.days[1]?.leads};${report.days[1]?.contacted};${report.days[1]?.waiting};${minutes(report.days[1]?.median_ms ?? null)};5;${report.days[1]?.within_target}`,
    );
  });

  it("measures against the target the owners set, which only owners change", async () => {
    expect((await ana.client.call("PUT", "/api/settings", { contact_target_minutes: 30 })).status).toBe(403);
    const refused = await owner.client.call("PUT", "/api/settings", { contact_target_minutes: 0 });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toEqual({ contact_target_minutes: expect.stringMatching(/de 1 a 1440/) });
    const before = (await ana.client.call("GET", "/api/first-contact?de=2025-03-03&ate=2025-03-05")).body as Report;
    const set = await owner.client.call("PUT", "/api/settings", { contact_target_minutes: 60 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ contact_target_minutes: 60 });
    expect((await ana.client.call("GET", "/api/settings")).body).toMatchObject({ contact_target_minutes: 60 });
    const after = (await ana.client.call("GET", "/api/first-contact?de=2025-03-03&ate=2025-03-05")).body as Report;
    expect(after.target_minutes).toBe(60);
    expect(after.overall.within_target).toBeGreaterThan(before.overall.within_target);
    expect(
      await app.sql("SELECT staff_email, detail FROM audit_log WHERE action = 'settings' ORDER BY id DESC LIMIT 1"),
    ).toEqual([{ staff_email: owner.email, detail: JSON.stringify({ name: "contact_target_minutes", value: 60 }) }]);
    expect((await owner.client.call("PUT", "/api/settings", { contact_target_minutes: 5 })).status).toBe(200);
  });
});

describe("new-lead notices for new colleagues", () => {
  it("are on unless the owners chose otherwise", async () => {
    const on = await signedInStaff(app, mail);
    expect(await app.sql("SELECT lead_notices FROM staff_users WHERE email = ?1", on.email)).toEqual([
      { lead_notices: 1 },
    ]);
    expect((await owner.client.call("PUT", "/api/settings", { colleague_notices: false })).status).toBe(200);
    const off = await signedInStaff(app, mail);
    expect(await app.sql("SELECT lead_notices FROM staff_users WHERE email = ?1", off.email)).toEqual([
      { lead_notices: 0 },
    ]);
    // Who had them keeps them.
    expect(await app.sql("SELECT lead_notices FROM staff_users WHERE email = ?1", on.email)).toEqual([
      { lead_notices: 1 },
    ]);
    expect((await owner.client.call("PUT", "/api/settings", { colleague_notices: true })).status).toBe(200);
  });
});

describe("'Corrigir WhatsApp' on a lead Jetimob refused", () => {
  it("gives the lead the number, audited, and 'Reenviar' sends it", async () => {
    const lead = await aLead({ delivery_status: "failed", last_error: "HTTP 422: telefone inválido" });
    const bad = await ana.client.call("POST", `/api/leads/${lead.id}/whatsapp`, { whatsapp: "(49) 8888-77" });
    expect(bad.status).toBe(422);
    expect(bad.body.fields).toHaveProperty("whatsapp");
    const other = await aLead();
    const taken = await ana.client.call("POST", `/api/leads/${lead.id}/whatsapp`, {
      whatsapp: other.whatsapp.replace("+55", ""),
    });
    expect(taken.status).toBe(422);
    expect(taken.body.error).toMatch(/outro lead/);
    const fixed = await ana.client.call("POST", `/api/leads/${lead.id}/whatsapp`, { whatsapp: "(49) 99876-5432" });
    expect(fixed.status).toBe(200);
    expect(await app.sql("SELECT whatsapp FROM leads WHERE id = ?1", lead.id)).toEqual([
      { whatsapp: "+5549998765432" },
    ]);
    expect(await app.sql("SELECT staff_email, detail FROM audit_log WHERE lead_id = ?1", lead.id)).toEqual([
      { staff_email: ana.email, detail: null },
    ]);
    const resent = await ana.client.call("POST", `/api/leads/${lead.id}/resend`, {});
    expect(resent.status).toBe(200);
    expect(jetimob.callsFor(lead.email).at(-1)?.fields.phone).toBe("+5549998765432");
  });

  it("a lead Jetimob has with nothing refused is corrected in Jetimob, not here", async () => {
    const lead = await aLead({ delivery_status: "sent" });
    const answer = await ana.client.call("POST", `/api/leads/${lead.id}/whatsapp`, { whatsapp: "(49) 99111-2233" });
    expect(answer.status).toBe(409);
    expect(await app.sql("SELECT whatsapp FROM leads WHERE id = ?1", lead.id)).toEqual([{ whatsapp: lead.whatsapp }]);
  });

  it("a sent lead whose correction Jetimob refused gets the new number as a correction", async () => {
    const lead = await aLead({ delivery_status: "sent", update_status: "failed", update_last_error: "HTTP 422: x" });
    const answer = await ana.client.call("POST", `/api/leads/${lead.id}/whatsapp`, { whatsapp: "(49) 99333-4455" });
    expect(answer.status).toBe(200);
    await expect
      .poll(() => jetimob.callsFor(lead.email).at(-1)?.fields.phone, { timeout: 5_000 })
      .toBe("+5549993334455");
  });
});
