import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { type StaffClient, signedInStaff } from "../support/staff";
import { afterTheCountsBefore, visit } from "../support/visits";

// Nobody can blind the campaign report: a visit is counted under what the
// report shows (source, campaign, ad), so made-up terms spend nothing; one
// network (an IPv4 /24, an IPv6 /48) makes at most a few new lines a day and
// has at most so many visits counted; a line seen before always keeps its
// visits; and the report says on which day a limit was reached. Its own
// site: the day's limits are this file's to spend.

let app: App;
let staff: StaffClient;
const mail = new FakeMail();

/** What one network may do in a day (visits.rs). */
const NEW_KEYS_PER_NETWORK = 20;
const VISITS_PER_NETWORK = 200;
const KEYS_PER_DAY = 500;

const BRT = -3 * 3_600_000;
const today = new Date(Date.now() + BRT).toISOString().slice(0, 10);
const yesterday = new Date(Date.now() + BRT - 86_400_000).toISOString().slice(0, 10);

type Line = { source: string; campaign: string; content: string; visits: number };
type Limit = { day: string; overflow: number; uncounted: number };
type Report = { rows: Line[]; totals: { visits: number }; limits: Limit[] };

async function report(): Promise<Report> {
  const answer = await staff.call("GET", `/api/campaigns?de=${today}&ate=${today}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as Report;
}

/** The report's line of `campaign` today, if it has one of its own. */
async function lineOf(campaign: string, source = "Instagram"): Promise<Line | undefined> {
  return (await report()).rows.find((r) => r.source === source && r.campaign === campaign);
}

/** Visits counted today under '(outras)'. */
async function overflowToday(): Promise<number> {
  return (await lineOf("", "(outras)"))?.visits ?? 0;
}

/** `paths` opened from `ip`, `size` at a time, all at once within each round. */
async function flood(ip: string, paths: string[], size = 50): Promise<void> {
  for (let i = 0; i < paths.length; i += size) {
    const answers = await Promise.all(paths.slice(i, i + size).map((p) => visit(app, p, { "CF-Connecting-IP": ip })));
    for (const answer of answers) expect(answer.status).toBe(200);
  }
}

const made = (n: number, path: (i: number) => string) => Array.from({ length: n }, (_, i) => path(i));

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: mail.settings() });
  staff = (await signedInStaff(app, mail)).client;
  // The marker's line, made before any limit is reached.
  await afterTheCountsBefore(app);
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

describe("one address", () => {
  it("sending 600 made-up terms spends one line, and has at most its day's visits counted", async () => {
    const terms = made(600, (i) => `/?utm_source=instagram&utm_campaign=verao&utm_term=${Math.random()}-${i}`);
    await flood("203.0.113.50", terms);
    await afterTheCountsBefore(app);
    const keys = await app.sql<{ n: number }>(
      "SELECT n FROM visit_counts WHERE day = ?1 AND source = 'Instagram' AND campaign = 'verao'",
      today,
    );
    expect(keys).toEqual([{ n: VISITS_PER_NETWORK }]);
    expect((await lineOf("verao"))?.visits).toBe(VISITS_PER_NETWORK);
  });

  it("sending 600 made-up campaigns makes few lines, the rest in '(outras)', none counted past its limit", async () => {
    const overflowBefore = await overflowToday();
    await flood(
      "203.0.114.9",
      made(600, (i) => `/?utm_source=robo&utm_campaign=inventada-${i}&utm_term=${i}`),
    );
    await afterTheCountsBefore(app);
    const [lines] = await app.sql<{ keys: number; visits: number }>(
      "SELECT count(*) AS keys, sum(n) AS visits FROM visit_counts WHERE day = ?1 AND source = 'robo'",
      today,
    );
    expect(lines).toEqual({ keys: NEW_KEYS_PER_NETWORK, visits: NEW_KEYS_PER_NETWORK });
    expect((await overflowToday()) - overflowBefore).toBe(VISITS_PER_NETWORK - NEW_KEYS_PER_NETWORK);
    // Another address of the same /24 shares its room and its visits.
    await visit(app, "/?utm_source=robo&utm_campaign=vizinha", { "CF-Connecting-IP": "203.0.114.200" });
    await afterTheCountsBefore(app);
    expect(await lineOf("vizinha", "robo")).toBeUndefined();
  });

  it("leaves a campaign that starts afterwards, from another network, on its own line", async () => {
    await visit(app, "/?utm_source=instagram&utm_campaign=lancamento-novo&utm_content=video-1", {
      "CF-Connecting-IP": "192.0.2.10",
    });
    await afterTheCountsBefore(app);
    expect(await lineOf("lancamento-novo")).toMatchObject({ content: "video-1", visits: 1 });
  });

  it("of IPv6 shares its room with every /64 of its /48", async () => {
    const overflowBefore = await overflowToday();
    const paths = made(30, (i) => `/?utm_source=seis&utm_campaign=v6-${i}`);
    const answers = await Promise.all(
      paths.map((p, i) => visit(app, p, { "CF-Connecting-IP": `2001:db8:77:${i.toString(16)}::1` })),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    await afterTheCountsBefore(app);
    const [lines] = await app.sql<{ keys: number }>(
      "SELECT count(*) AS keys FROM visit_counts WHERE day = ?1 AND source = 'seis'",
      today,
    );
    expect(lines?.keys).toBe(NEW_KEYS_PER_NETWORK);
    expect((await overflowToday()) - overflowBefore).toBe(30 - NEW_KEYS_PER_NETWORK);
    // Another /48 makes its own.
    await visit(app, "/?utm_source=seis&utm_campaign=v6-outra", { "CF-Connecting-IP": "2001:db8:78::1" });
    await afterTheCountsBefore(app);
    expect(await lineOf("v6-outra", "seis")).toMatchObject({ visits: 1 });
  });

  it("keeps no address: a network is a mark of the day, which the cron removes once the day is over", async () => {
    for (const ip of ["192.0.2.77", "2001:db8:99::7"]) {
      await visit(app, "/?utm_source=instagram&utm_campaign=lancamento-novo", { "CF-Connecting-IP": ip });
    }
    await afterTheCountsBefore(app);
    const rows = JSON.stringify(await app.sql("SELECT * FROM visit_networks"));
    expect(rows.length).toBeGreaterThan(2);
    for (const address of ["203.0.113", "203.0.114", "2001:db8", "192.0.2"]) expect(rows).not.toContain(address);
    await app.sql(
      "UPDATE visit_networks SET day = ?1 WHERE network IN (SELECT network FROM visit_networks LIMIT 3)",
      yesterday,
    );
    await app.runCron();
    expect(await app.sql("SELECT day FROM visit_networks WHERE day < ?1", today)).toEqual([]);
    expect((await app.sql("SELECT day FROM visit_networks WHERE day = ?1", today)).length).toBeGreaterThan(0);
  });

  it("is said in the report: the day reached its limit, with the visits in '(outras)' and those not counted", async () => {
    const answer = await report();
    const [uncounted] = await app.sql<{ n: number }>("SELECT n FROM visits_uncounted WHERE day = ?1", today);
    // The terms' address, then the campaigns' (its neighbour's one visit among them).
    expect(uncounted?.n).toBe(2 * (600 - VISITS_PER_NETWORK) + 1);
    expect(answer.limits).toEqual([{ day: today, overflow: await overflowToday(), uncounted: uncounted?.n }]);
    expect(answer.limits[0]?.overflow).toBe(VISITS_PER_NETWORK - NEW_KEYS_PER_NETWORK + 30 - NEW_KEYS_PER_NETWORK);
  });
});

describe("many networks that fill the day", () => {
  it("leave a campaign seen before, and one already counted today, on their own lines", async () => {
    // Seen yesterday (as the worker counts), and one seen earlier today.
    await app.batch([
      [
        "INSERT INTO visit_counts (day, source, campaign, content, n) VALUES (?1, 'Instagram', 'ja-rodando', 'video-2', 7)",
        yesterday,
      ],
      [
        "INSERT INTO campaign_daily (day, source, campaign, content, visits) VALUES (?1, 'Instagram', 'ja-rodando', 'video-2', 7)",
        yesterday,
      ],
    ]);
    await visit(app, "/?utm_source=instagram&utm_campaign=de-hoje");
    // 30 networks, each with as many made-up campaigns as it may make: the day's room and more.
    const [{ keys } = { keys: 0 }] = await app.sql<{ keys: number }>(
      "SELECT count(*) AS keys FROM visit_counts WHERE day = ?1",
      today,
    );
    const networks = Math.ceil((KEYS_PER_DAY - keys) / NEW_KEYS_PER_NETWORK) + 5;
    for (let n = 0; n < networks; n += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, networks - n) }, (_, k) => n + k).map((net) =>
          flood(
            `100.64.${net}.1`,
            made(NEW_KEYS_PER_NETWORK, (i) => `/?utm_source=robo&utm_campaign=rede-${net}-${i}`),
            NEW_KEYS_PER_NETWORK,
          ),
        ),
      );
    }
    await afterTheCountsBefore(app);
    const [full] = await app.sql<{ keys: number }>("SELECT count(*) AS keys FROM visit_counts WHERE day = ?1", today);
    expect(full?.keys).toBe(KEYS_PER_DAY);

    const overflowBefore = await overflowToday();
    await Promise.all([
      visit(app, "/?utm_source=instagram&utm_campaign=ja-rodando&utm_content=video-2"),
      visit(app, "/?utm_source=instagram&utm_campaign=ja-rodando&utm_content=video-2&utm_term=casa"),
      visit(app, "/?utm_source=instagram&utm_campaign=de-hoje"),
      visit(app, "/?utm_source=instagram&utm_campaign=nova-depois-do-limite"),
    ]);
    await afterTheCountsBefore(app);
    expect(await lineOf("ja-rodando")).toMatchObject({ content: "video-2", visits: 2 });
    expect(await lineOf("de-hoje")).toMatchObject({ visits: 2 });
    // A campaign nobody saw before waits for room, counted in '(outras)'.
    expect(await lineOf("nova-depois-do-limite")).toBeUndefined();
    expect((await overflowToday()) - overflowBefore).toBe(1);
  });
});
