import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cronRowCounts } from "../../scripts/local-worker.mjs";
import { generateLeads, nothingDueUntilTomorrow, seedLeadsThrough } from "../../scripts/seed-leads.mjs";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { type StaffClient, signedInStaff } from "../support/staff";

// The panel with a full pre-launch's worth of leads: 100,000, seeded through
// the worker's D1 binding by the same helper the benchmarks use.
const COUNT = 100_000;
const SEED = 11;
const NOW = Date.now() - 60_000;

type Lead = {
  id: string;
  name: string;
  email: string;
  whatsapp: string;
  created_at: number;
  delivery_status: string;
  update_status: string | null;
};

let app: App;
let staff: StaffClient;
const mail = new FakeMail();
const jetimob = new FakeJetimob();
const generated = generateLeads(COUNT, { seed: SEED, now: NOW }) as unknown as Lead[];
const newestFirst = [...generated].sort((a, b) => b.created_at - a.created_at || (b.id < a.id ? -1 : 1));
const byStatus = (s: string) => generated.filter((l) => l.delivery_status === s).length;
/** Given up, or with a correction given up: 'Falharam'. */
const needsAttention = (l: Lead) => l.delivery_status === "failed" || l.update_status === "failed";

beforeAll(async () => {
  await Promise.all([mail.start(), jetimob.start()]);
  app = await spawnApp({ vars: { ...mail.settings(), ...jetimob.settings() } });
  await seedLeadsThrough(app.db, { count: COUNT, seed: SEED, now: NOW });
  staff = (await signedInStaff(app, mail)).client;
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([mail.stop(), jetimob.stop()]);
});

async function list(query: string) {
  const answer = await staff.call("GET", `/api/leads${query}`);
  expect(answer.status).toBe(200);
  return answer.body as unknown as {
    leads: Lead[];
    total: number;
    pages: number;
    counts: { total: number; sent: number; pending: number; failed: number; attention: number };
  };
}

describe("with 100,000 leads", () => {
  it("counts every lead by status", async () => {
    const { counts, total, pages } = await list("");
    expect(counts).toEqual({
      total: COUNT,
      sent: byStatus("sent"),
      pending: byStatus("pending"),
      failed: byStatus("failed"),
      attention: generated.filter(needsAttention).length,
      duplicates: 0,
      // Each lead once: in Jetimob with nothing refused, on its way, or waiting for a person.
      delivered: COUNT - byStatus("pending") - generated.filter(needsAttention).length,
      uncontacted: COUNT,
      mine: 0,
    });
    expect(total).toBe(COUNT);
    expect(pages).toBe(2000);
  });

  it("pages newest first, down to the last page", async () => {
    const first = await list("?page=1");
    expect(first.leads.map((l) => l.id)).toEqual(newestFirst.slice(0, 50).map((l) => l.id));
    const middle = await list("?page=1234");
    expect(middle.leads.map((l) => l.id)).toEqual(newestFirst.slice(61_650, 61_700).map((l) => l.id));
    const last = await list("?page=2000");
    expect(last.leads.map((l) => l.id)).toEqual(newestFirst.slice(99_950).map((l) => l.id));
    expect((await list("?page=2001")).leads).toEqual([]);
  });

  it("filters and pages deep into a filter", async () => {
    const all = newestFirst.filter(needsAttention);
    // The seed has sent leads whose correction was given up among the failed ones.
    expect(all.filter((l) => l.delivery_status === "sent").length).toBeGreaterThan(100);
    const failed = await list("?status=falhas&page=2");
    expect(failed.total).toBe(all.length);
    expect(failed.leads.map((l) => l.id)).toEqual(all.slice(50, 100).map((l) => l.id));
    const last = await list(`?status=falhas&page=${failed.pages}`);
    expect(last.leads.map((l) => l.id)).toEqual(all.slice((failed.pages - 1) * 50).map((l) => l.id));
  });

  it("finds one lead by e-mail among all of them", async () => {
    const target = generated[54_321] as Lead;
    const found = await list(`?q=${encodeURIComponent(target.email)}`);
    expect(found.leads.map((l) => l.id)).toEqual([target.id]);
    expect(found.total).toBe(1);
  });

  it("finds one lead by e-mail within 'Enviados' and 'Pendentes' reading its matches, not every lead of the status", async () => {
    for (const [status, sent] of [
      ["enviados", "sent"],
      ["pendentes", "pending"],
    ] as const) {
      const target = generated.find((l) => l.delivery_status === sent) as Lead;
      const answer = await staff.call("GET", `/api/leads?status=${status}&q=${encodeURIComponent(target.email)}`);
      expect(answer.status).toBe(200);
      expect((answer.body.leads as Lead[]).map((l) => l.id)).toEqual([target.id]);
      expect(Number(answer.headers.get("D1-Rows-Read")), status).toBeLessThanOrEqual(50);
    }
  });

  it("finds a full name with a short word in it ('Maria da Silva') through the index, typed without accents", async () => {
    // How the search table holds a lead (name, e-mail, WhatsApp without '+'), folded as the index folds it.
    const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    const details = (l: Lead) => fold(`${l.name} ${l.email} ${l.whatsapp.slice(1)}`);
    // 'Conceição da Silva', say: its last three words hold a particle and an accent.
    const ending = (l: Lead) => l.name.split(" ").slice(-3).join(" ");
    const target = generated.find(
      (l) => /^\S+ d[aeo]s? \S+$/.test(ending(l)) && fold(ending(l)) !== ending(l).toLowerCase(),
    ) as Lead;
    const words = target.name.split(" ");
    for (const term of [
      fold(ending(target)),
      // As typed, a moment before the surname is finished.
      `${words[0]} ${words[1]?.slice(0, 2)}`,
    ]) {
      const matching = newestFirst.filter((l) => details(l).includes(fold(term)));
      expect(matching.length, term).toBeGreaterThan(0);
      const answer = await staff.call("GET", `/api/leads?q=${encodeURIComponent(term)}`);
      expect(answer.status).toBe(200);
      expect(answer.body.total, term).toBe(matching.length);
      expect((answer.body.leads as Lead[]).map((l) => l.id)).toEqual(matching.slice(0, 50).map((l) => l.id));
      // Scanning the search table read 200,000 rows (it is read twice: the page and its count).
      expect(Number(answer.headers.get("D1-Rows-Read")), term).toBeLessThanOrEqual(20 * matching.length + 1_000);
    }
  });

  it("counts a common surname's matches in the search table, not by looking each one up among the leads", async () => {
    const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    const matching = newestFirst.filter((l) => fold(`${l.name} ${l.email}`).includes("silva"));
    const answer = await staff.call("GET", "/api/leads?q=silva");
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(matching.length);
    expect((answer.body.leads as Lead[]).map((l) => l.id)).toEqual(matching.slice(0, 50).map((l) => l.id));
    // The page still looks its matches up (4 rows each, and their order); the count read 3 more each.
    expect(Number(answer.headers.get("D1-Rows-Read"))).toBeLessThanOrEqual(5.5 * matching.length);
  });

  it("an open panel's reload reads a few rows while no lead changed, not the page nor every match of 'silva'", async () => {
    for (const path of ["/api/leads", "/api/leads?q=silva"]) {
      const first = await staff.call("GET", path);
      expect(first.status).toBe(200);
      expect(Number(first.headers.get("D1-Rows-Read")), path).toBeGreaterThan(100);
      const again = await staff.call("GET", path, undefined, { "If-None-Match": first.headers.get("ETag") ?? "" });
      expect(again.status, path).toBe(304);
      expect(Number(again.headers.get("D1-Rows-Read")), path).toBeLessThanOrEqual(5);
    }
  });

  it("the delivery watch finds the oldest waiting correction without reading the leads", async () => {
    // The statement every cron run makes (alerts::incidents::oldest_correction!).
    const { results, meta } = await app.db
      .prepare("SELECT min(update_requested_at) AS at FROM leads WHERE update_status IS NOT NULL")
      .all<{ at: number }>();
    const waiting = generated.filter((l) => l.update_status !== null) as unknown as { update_requested_at: number }[];
    expect(waiting.length).toBeGreaterThan(100);
    expect(results[0]?.at).toBe(Math.min(...waiting.map((l) => l.update_requested_at)));
    expect(meta.rows_read).toBeLessThanOrEqual(3);
  });

  it("exports every lead in one CSV", async () => {
    const response = await fetch(`${app.baseUrl}/api/leads/export.csv`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(COUNT + 1);
    expect(lines[1]?.startsWith(`${newestFirst[0]?.name};${newestFirst[0]?.email};`)).toBe(true);
    expect(lines.at(-1)?.startsWith(`${newestFirst.at(-1)?.name};`)).toBe(true);
  }, 180_000);

  it("an export stops, and its download fails, when the account is switched off while it streams", async () => {
    const leaver = await signedInStaff(app, mail);
    const response = await fetch(`${app.baseUrl}/api/leads/export.csv`, {
      headers: { Authorization: `Bearer ${leaver.client.accessToken}` },
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = (await reader.read()).value?.length ?? 0;
    // Reading stops here: the worker reads ahead only as far as the connection's buffers take.
    const accounts = (await staff.call("GET", "/api/staff")).body.accounts as { id: string; email: string }[];
    const account = accounts.find((a) => a.email === leaver.email) as { id: string };
    expect((await staff.call("POST", `/api/staff/${account.id}/disable`, {})).status).toBe(200);
    const rest = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "finished";
        received += value.length;
      }
    })();
    await expect(rest).rejects.toThrow();
    // A full export is about 35 MB; less than half of it arrived: what was read before the account was switched off.
    expect(received).toBeLessThan(COUNT * 150);
    expect(app.logs()).toContain("export: stopped, its staff session ended while it ran");
  }, 180_000);

  it("a cron run with nothing due reads a few dozen rows, not the leads", async () => {
    // Every lead waiting for Jetimob, and every correction, is due tomorrow: this minute has
    // nothing to deliver. The cron runs 1,440 times a day and D1 bills by rows read; the
    // worker logs what each run read.
    await nothingDueUntilTomorrow(app.db);
    await app.runCron();
    await app.runCron();
    const runs = cronRowCounts(app.logs());
    expect(runs).toHaveLength(2);
    // Besides a few dozen rows, the run looks at each lead still pending of the last 15
    // minutes (the newest go first, crm/store.rs), and never at those already delivered.
    const since = Date.now() - 15 * 60_000;
    const lately = generated.filter((l) => l.created_at >= since);
    const pending = lately.filter((l) => l.delivery_status === "pending").length;
    expect(lately.length - pending).toBeGreaterThan(20);
    expect(runs.at(-1)?.read).toBeLessThanOrEqual(80 + pending);
    expect(jetimob.calls).toHaveLength(0);
  });

  it("deleting a lead reads its own search rows, not the whole index", async () => {
    const target = generated[77_777] as Lead;
    // The statement 'Excluir' makes (admin::store's DELETE_SQL, without its session check).
    const { results, meta } = await app.db
      .prepare("DELETE FROM leads WHERE id = ?1 RETURNING id")
      .bind(target.id)
      .all<{ id: string }>();
    expect(results).toEqual([{ id: target.id }]);
    expect(meta.rows_read).toBeLessThanOrEqual(100);
    const found = await list(`?q=${encodeURIComponent(target.email)}`);
    expect(found.leads).toEqual([]);
  });
});
