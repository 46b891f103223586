import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { accepted, FakeJetimob, refused } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { ageDelivery, aLead, ownBrowser, postLead, settledLead } from "../support/leads";
import { type StaffClient, signedInStaff } from "../support/staff";

// The open panel reloads its list every 30 seconds. The list's answer is
// tagged (ETag); a reload that sends the tag back (If-None-Match) while
// nothing the list shows changed is answered 304 after reading a few rows
// (migration 0012's change counter, the open incident, the cron's last
// watch), and with the new list as soon as anything did: a lead, a
// correction, the delivery engine, staff's actions, a tie between leads, the
// banner.
const DAY = 24 * 60 * 60_000;
const MINUTE = 60_000;

let mail: FakeMail;
let jetimob: FakeJetimob;
let app: App;
let staff: StaffClient;

beforeAll(async () => {
  mail = await new FakeMail().start();
  jetimob = await new FakeJetimob().start();
  app = await spawnApp({ vars: { ...mail.settings(), ...jetimob.settings() } });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await jetimob?.stop();
  await mail?.stop();
});

type Lead = { id: string; name: string; email: string; delivery_status: string; update_status: string | null };
type Shown = { status: number; tag: string | null; rowsRead: number; body: Record<string, unknown> };

/** The list at `path`, sending `tag` back when given. */
async function reload(path: string, tag?: string | null): Promise<Shown> {
  const answer = await staff.call("GET", path, undefined, tag ? { "If-None-Match": tag } : {});
  return {
    status: answer.status,
    tag: answer.headers.get("ETag"),
    rowsRead: Number(answer.headers.get("D1-Rows-Read")),
    body: answer.body,
  };
}

/** The list read afresh (no tag), checked to be tagged. */
async function fresh(path = "/api/leads"): Promise<Shown> {
  const shown = await reload(path);
  expect(shown.status).toBe(200);
  expect(shown.tag).toMatch(/^W\/"\d+-[0-9a-f]{16}"$/);
  return shown;
}

/** What the panel would show: the list without what only says how it was read. */
function seen(shown: Shown) {
  const { success: _, ...rest } = shown.body;
  return rest;
}

/** After `change`, a reload with the tag from before gets the new list, and the one after that is a 304 again. */
async function changes(change: () => Promise<unknown>, path = "/api/leads"): Promise<Shown> {
  const before = await fresh(path);
  expect((await reload(path, before.tag)).status).toBe(304);
  await change();
  const after = await reload(path, before.tag);
  expect(after.status).toBe(200);
  expect(after.tag).not.toBe(before.tag);
  expect(seen(after)).toEqual(seen(await fresh(path)));
  expect((await reload(path, after.tag)).status).toBe(304);
  return after;
}

async function submit(lead: Record<string, unknown>): Promise<string> {
  expect((await postLead(app, lead, { browser: ownBrowser(lead) })).status).toBe(200);
  return String(lead.email);
}

/** The lead once the delivery engine let go of it. */
const settled = (email: string) => settledLead(app, email);

function leadsOf(shown: Shown): Lead[] {
  return shown.body.leads as Lead[];
}

describe("an open panel's reload", () => {
  it("is answered 304 while nothing changed, after reading a few rows, with the tag it sent", async () => {
    await settled(await submit(aLead({ name: "Clara Parada" })));
    const first = await fresh();
    const again = await reload("/api/leads", first.tag);
    expect(again.status).toBe(304);
    expect(again.tag).toBe(first.tag);
    expect(again.body).toEqual({});
    // The change counter, the open incident, the cron's last watch.
    expect(again.rowsRead).toBeGreaterThan(0);
    expect(again.rowsRead).toBeLessThanOrEqual(5);
    // The edge may weaken a tag or send several: compared weakly, any of them.
    expect((await reload("/api/leads", first.tag?.replace(/^W\//, ""))).status).toBe(304);
    expect((await reload("/api/leads", `W/"0-0000000000000000", ${first.tag}`)).status).toBe(304);
    const stale = await reload("/api/leads", 'W/"0-0000000000000000"');
    expect(stale.status).toBe(200);
    // A tag that no longer matches costs the few rows that tell so, then the page: both counted.
    expect(stale.rowsRead).toBe(first.rowsRead + again.rowsRead);
  });

  it("is tagged by its address: another filter, search or page is read afresh", async () => {
    const all = await fresh();
    for (const path of ["/api/leads?status=falhas", "/api/leads?q=Clara", "/api/leads?page=2"]) {
      const other = await reload(path, all.tag);
      expect(other.status, path).toBe(200);
      expect(other.tag).not.toBe(all.tag);
      expect((await reload(path, other.tag)).status, path).toBe(304);
    }
  });

  it("needs a live session: signed out, the tag gets 401, not 304", async () => {
    const { client } = await signedInStaff(app, mail);
    const shown = await client.call("GET", "/api/leads");
    const tag = shown.headers.get("ETag") ?? "";
    expect((await client.call("GET", "/api/leads", undefined, { "If-None-Match": tag })).status).toBe(304);
    expect((await client.call("POST", "/api/auth/logout", {})).status).toBe(200);
    const after = await client.call("GET", "/api/leads", undefined, { "If-None-Match": tag });
    expect(after.status).toBe(401);
  });

  it("stays 304 through a cron run with nothing due", async () => {
    const before = await fresh();
    await app.runCron();
    await app.runCron();
    expect((await reload("/api/leads", before.tag)).status).toBe(304);
  });

  it("shows a new lead, and a repeat of it, at once", async () => {
    jetimob.answerEveryone(accepted());
    const lead = aLead({ name: "Davi Recém-Chegado" });
    const after = await changes(() => submit(lead));
    expect(leadsOf(after).map((l) => l.name)).toContain("Davi Recém-Chegado");
    await settled(String(lead.email));
    const repeat = await changes(() => submit(lead));
    expect(leadsOf(repeat).find((l) => l.name === "Davi Recém-Chegado")).toMatchObject({ submission_count: 2 });
  });

  it("shows a visitor's correction, and its delivery", async () => {
    const lead = aLead({ name: "Elisa Corrige" });
    await settled(await submit(lead));
    jetimob.script(String(lead.email), refused(503, "instável"));
    const corrected = await changes(async () => {
      await submit({ ...lead, whatsapp: aLead().whatsapp });
      await settled(String(lead.email));
    });
    expect(leadsOf(corrected).find((l) => l.name === "Elisa Corrige")).toMatchObject({ update_status: "pending" });
    await app.sql("UPDATE leads SET update_next_attempt_at = 0 WHERE email = ?1", lead.email);
    const delivered = await changes(async () => {
      await app.runCron();
      await settled(String(lead.email));
    });
    expect(leadsOf(delivered).find((l) => l.name === "Elisa Corrige")).toMatchObject({ update_status: null });
  });

  it("shows the delivery engine giving up, then 'Reenviar', 'Marcar Enviado' and 'Excluir'", async () => {
    const lead = aLead({ name: "Fábio Recusado" });
    const email = String(lead.email);
    jetimob.script(email, refused(500), refused(500));
    await settled(await submit(lead));
    await ageDelivery(app, email, 8 * DAY);
    const givenUp = await changes(async () => {
      await app.runCron();
      await settled(email);
    }, "/api/leads?status=falhas");
    const fabio = leadsOf(givenUp).find((l) => l.name === "Fábio Recusado");
    expect(fabio).toMatchObject({ delivery_status: "failed" });

    jetimob.answerEveryone(accepted());
    const resent = await changes(
      () => staff.call("POST", `/api/leads/${fabio?.id}/resend`, {}),
      "/api/leads?status=falhas",
    );
    expect(leadsOf(resent).map((l) => l.name)).not.toContain("Fábio Recusado");

    const waiting = aLead({ name: "Gabi Manual" });
    jetimob.script(String(waiting.email), refused(500));
    const { id } = await settled(await submit(waiting));
    const marked = await changes(
      () => staff.call("POST", `/api/leads/${id}/mark-sent`, {}),
      "/api/leads?status=enviados",
    );
    expect(leadsOf(marked).map((l) => l.name)).toContain("Gabi Manual");
    const deleted = await changes(() => staff.call("DELETE", `/api/leads/${id}`));
    expect(leadsOf(deleted).map((l) => l.name)).not.toContain("Gabi Manual");
  });

  it("shows a possible duplicate as soon as a submission ties two leads", async () => {
    const hana = aLead({ name: "Hana Dupla" });
    const igor = aLead({ name: "Igor Duplo" });
    await settled(await submit(hana));
    await settled(await submit(igor));
    const tied = await changes(() => submit({ ...hana, whatsapp: igor.whatsapp }), "/api/leads?status=duplicados");
    expect(
      leadsOf(tied)
        .map((l) => l.name)
        .sort(),
    ).toEqual(["Hana Dupla", "Igor Duplo"]);
  });

  it("shows the banner when the cron stops, with no lead changed, and its end", async () => {
    await app.runCron();
    const stopped = await changes(() =>
      app.sql("UPDATE cron_state SET value = value - ?1 WHERE name = 'delivery_watched_at'", 6 * MINUTE),
    );
    expect((stopped.body.incident as { summary: string } | null)?.summary).toMatch(/^O envio automático está parado/);
    const running = await changes(() => app.runCron());
    expect(running.body.incident).toBeNull();
  });

  it("is never answered 304 if the change counter's row is missing: nothing could be told unchanged", async () => {
    const before = await fresh();
    const [kept] = await app.sql<{ n: number }>("SELECT n FROM lead_changes WHERE id = 1");
    await app.sql("DELETE FROM lead_changes");
    try {
      const untold = await reload("/api/leads", before.tag);
      expect(untold.status).toBe(200);
      expect(untold.tag).toBeNull();
      expect(seen(untold)).toEqual(seen(before));
    } finally {
      await app.sql("INSERT INTO lead_changes (id, n) VALUES (1, ?1)", kept?.n);
    }
    expect((await reload("/api/leads", before.tag)).status).toBe(304);
  });

  it("never answers 304 for a list that changed, with leads and reloads arriving at once", async () => {
    jetimob.answerEveryone(accepted());
    // What each answer showed, and its tag, while twenty visitors send the
    // form and their leads are delivered: three panels reading all along.
    const answers: Shown[] = [];
    const visitors = Array.from({ length: 20 }, (_, i) => aLead({ name: `Multidão ${i}` }));
    let arriving = true;
    const panel = async () => {
      while (arriving) answers.push(await fresh());
    };
    const panels = [panel(), panel(), panel()];
    await Promise.all(visitors.map(submit));
    for (const visitor of visitors) await settled(String(visitor.email));
    arriving = false;
    await Promise.all(panels);

    // One tag, one list: a page read before a change never carries a tag
    // read after it (they are read in one batch).
    const byTag = new Map<string | null, string>();
    for (const answer of answers) {
      const shown = JSON.stringify(seen(answer));
      expect(byTag.get(answer.tag) ?? shown, `${answer.tag}`).toBe(shown);
      byTag.set(answer.tag, shown);
    }
    expect(byTag.size).toBeGreaterThan(1);
    // Now that every lead is in and delivered: a tag is answered 304 only if
    // what it came with is what the list shows now.
    const now = await fresh();
    for (const [tag, shown] of byTag) {
      const again = await reload("/api/leads", tag);
      expect(again.status).toBe(shown === JSON.stringify(seen(now)) ? 304 : 200);
    }
    expect(leadsOf(now).filter((l) => l.name.startsWith("Multidão"))).toHaveLength(20);
  });
});
