import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLeadsThrough } from "../../scripts/seed-leads.mjs";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { type StaffClient, signedInStaff } from "../support/staff";

// Every export is in 'Atividade' with its filter and its rows; one that
// streams when its right is taken away stops at its next page of 2,000, and
// its download fails rather than look complete. A base of 20,000 leads: ten
// pages, more than the connection's buffers hold before the reader reads.
const COUNT = 20_000;
let app: App;
let owner: StaffClient;
const mail = new FakeMail();

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: mail.settings() });
  await seedLeadsThrough(app.db, { count: COUNT, seed: 19, now: Date.now() - 60_000 });
  owner = (await signedInStaff(app, mail)).client;
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

type Entry = { id: number; actor_email: string; action: string; detail: Record<string, unknown> | null };

async function exports(): Promise<Entry[]> {
  const answer = await owner.call("GET", "/api/audit?acao=export");
  expect(answer.status).toBe(200);
  return answer.body.entries as Entry[];
}

function download(by: StaffClient, query = "") {
  return fetch(`${app.baseUrl}/api/leads/export.csv${query}`, {
    headers: { Authorization: `Bearer ${by.accessToken}` },
  });
}

describe("an export", () => {
  it("is in 'Atividade' with the list's filter as it names it and the rows it held", async () => {
    const query = "?status=enviados&de=2020-01-01&ate=2099-12-31&q=&fonte=";
    const response = await download(owner, query);
    expect(response.status).toBe(200);
    const rows = (await response.text()).trimEnd().split("\r\n").length - 1;
    const sent = await app.sql<{ n: number }>("SELECT count(*) AS n FROM leads WHERE delivery_status = 'sent'");
    expect(rows).toBe(sent[0]?.n);
    expect(rows).toBeGreaterThan(2_000);
    const [entry] = await exports();
    expect(entry?.detail).toEqual({
      filter: { status: "enviados", de: "2020-01-01", ate: "2099-12-31" },
      rows,
      state: "complete",
    });
  }, 120_000);

  it("stops, and its download fails, when an owner takes 'Exportar CSV' away while it streams", async () => {
    const { client: leaver, email } = await signedInStaff(app, mail);
    const response = await download(leaver);
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let received = decoder.decode((await reader.read()).value, { stream: true });
    // Reading stops here: the worker reads ahead only as far as the connection's buffers take.
    const accounts = (await owner.call("GET", "/api/staff")).body.accounts as { id: string; email: string }[];
    const account = accounts.find((a) => a.email === email) as { id: string };
    expect((await owner.call("POST", `/api/staff/${account.id}/deny-export`, {})).status).toBe(200);
    const rest = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "finished";
        received += decoder.decode(value, { stream: true });
      }
    })();
    await expect(rest).rejects.toThrow();
    expect(app.logs()).toContain("export: stopped, its right to export was taken away while it ran");
    // 'Atividade' says how many rows went before it stopped: whole pages, not the base; the
    // file holds no more than that (the last lines may not have arrived), and never the end.
    const [entry] = await exports();
    expect(entry?.actor_email).toBe(email);
    expect(entry?.detail).toMatchObject({ filter: {}, state: "right_taken" });
    const rows = entry?.detail?.rows as number;
    expect(rows % 2_000).toBe(0);
    expect(rows).toBeGreaterThanOrEqual(2_000);
    expect(rows).toBeLessThan(COUNT);
    const lines = received.split("\r\n").length - 1;
    expect(lines - 1).toBeLessThanOrEqual(rows);
    // And the next one is refused.
    expect((await download(leaver)).status).toBe(403);
  }, 120_000);
});
