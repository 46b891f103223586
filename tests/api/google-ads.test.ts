import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { aLead, postLead, uniqueIp } from "../support/leads";
import { signedInStaff } from "../support/staff";

// Google Ads fetches its offline click conversions from the site, with a
// user and password (HTTP Basic), as a scheduled upload: the file is
// Google's click conversion template, a row per lead of the last 90 days
// with a Google click.
const USER = "google-ads";
const PASSWORD = "uma-senha-longa-de-importacao";
const PATH = "/api/conversions/google-ads.csv";
let app: App;
const mail = new FakeMail();

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({
    vars: {
      ...mail.settings(),
      GOOGLE_ADS_IMPORT_USER: USER,
      GOOGLE_ADS_IMPORT_PASSWORD: PASSWORD,
      GOOGLE_ADS_CONVERSION_NAME: "Lead do pré-lançamento",
    },
  });
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

async function fetchFile(
  target: App,
  authorization: string | null = basic(USER, PASSWORD),
  query = "",
  ip = uniqueIp(),
): Promise<Response> {
  return fetch(`${target.baseUrl}${PATH}${query}`, {
    headers: { "CF-Connecting-IP": ip, ...(authorization ? { Authorization: authorization } : {}) },
  });
}

/** The file as Google reads it: its parameters line, its header, its rows by column. */
function parse(text: string) {
  const [parameters, header, ...rows] = text.trimEnd().split("\r\n");
  const columns = (header ?? "").split(",");
  return {
    parameters,
    columns,
    rows: rows.map((r) => Object.fromEntries(r.split(",").map((cell, i) => [columns[i], cell]))),
  };
}

/** A lead left `daysAgo` days ago, with the click ids given. */
async function leadWithClick(clicks: Record<string, string>, daysAgo = 0) {
  const lead = aLead({ utm_source: "google", ...clicks });
  expect((await postLead(app, lead)).status).toBe(200);
  if (daysAgo > 0) {
    await app.sql("UPDATE leads SET created_at = created_at - ?2 WHERE email = ?1", lead.email, daysAgo * 86_400_000);
  }
  const [row] = await app.sql<{ created_at: number }>("SELECT created_at FROM leads WHERE email = ?1", lead.email);
  return Number(row?.created_at);
}

/** `ms` as a Conversion Time in Brasília (UTC-3, no daylight saving). */
function brasilia(ms: number): string {
  return new Date(ms - 3 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

describe("the Google Ads conversions file", () => {
  it("answers 401 without the user and password, with a wrong one, or while it is not configured", async () => {
    for (const authorization of [null, basic(USER, "errada"), basic("outro", PASSWORD), "Bearer x"]) {
      const answer = await fetchFile(app, authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Basic realm="Google Ads"/);
      expect(await answer.text()).not.toContain("Conversion");
    }
    const off = await spawnApp();
    try {
      expect((await fetchFile(off)).status).toBe(401);
    } finally {
      await off.stop();
    }
  });

  it("is Google's template: its time zone, its columns, a row per gclid of the last 90 days, in Brasília time", async () => {
    const recent = await leadWithClick({ gclid: "Cj0KCQ-recente" });
    const older = await leadWithClick({ gclid: "Cj0KCQ-89-dias" }, 89);
    await leadWithClick({ gclid: "Cj0KCQ-91-dias" }, 91);
    await leadWithClick({ fbclid: "IwAR-so-meta" });
    const answer = await fetchFile(app);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const file = parse(await answer.text());
    expect(file.parameters).toBe("Parameters:TimeZone=America/Sao_Paulo");
    expect(file.columns).toEqual([
      "Google Click ID",
      "Conversion Name",
      "Conversion Time",
      "Conversion Value",
      "Conversion Currency",
    ]);
    const ids = file.rows.map((r) => r["Google Click ID"]);
    expect(ids).toContain("Cj0KCQ-recente");
    expect(ids).toContain("Cj0KCQ-89-dias");
    expect(ids).not.toContain("Cj0KCQ-91-dias");
    expect(file.rows.find((r) => r["Google Click ID"] === "Cj0KCQ-recente")).toEqual({
      "Google Click ID": "Cj0KCQ-recente",
      "Conversion Name": "Lead do pré-lançamento",
      "Conversion Time": brasilia(recent),
      "Conversion Value": "1",
      "Conversion Currency": "BRL",
    });
    expect(file.rows.find((r) => r["Google Click ID"] === "Cj0KCQ-89-dias")?.["Conversion Time"]).toBe(brasilia(older));
    for (const row of file.rows) expect(row["Conversion Time"]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("lists the clicks of Google's iOS apps (gbraid, wbraid) in their own columns when asked", async () => {
    await leadWithClick({ gbraid: "0AAAAA-gbraid-1" });
    await leadWithClick({ wbraid: "CjkKEQ-wbraid-1" });
    const plain = parse(await (await fetchFile(app)).text());
    expect(plain.rows.some((r) => Object.values(r).includes("0AAAAA-gbraid-1"))).toBe(false);
    const file = parse(await (await fetchFile(app, basic(USER, PASSWORD), "?braids=1")).text());
    expect(file.columns.slice(0, 3)).toEqual(["Google Click ID", "GBRAID", "WBRAID"]);
    expect(file.rows.find((r) => r.GBRAID === "0AAAAA-gbraid-1")).toMatchObject({
      "Google Click ID": "",
      WBRAID: "",
      "Conversion Currency": "BRL",
    });
    expect(file.rows.find((r) => r.WBRAID === "CjkKEQ-wbraid-1")).toMatchObject({ "Google Click ID": "", GBRAID: "" });
  });

  it("is limited per address, right password or wrong, counted before the file is read (requests at once)", async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetchFile(app, i % 2 ? basic(USER, "chute") : basic(USER, PASSWORD), "", ip),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.filter((s) => s === 200 || s === 401)).toHaveLength(30);
    expect((await fetchFile(app)).status).toBe(200);
  });
});

describe("'Campanhas'", () => {
  it("gives owners the address, user and conversion name for Google Ads, never the password; a colleague none", async () => {
    const owner = await signedInStaff(app, mail);
    const colleague = await signedInStaff(app, mail);
    const seen = async (who: typeof owner) => {
      const answer = await who.client.call("GET", "/api/campaigns");
      expect(answer.status).toBe(200);
      return answer.body.ads;
    };
    const ads = await seen(owner);
    expect(ads).toEqual({
      meta: false,
      google_ads: { path: PATH, user: USER, conversion_name: "Lead do pré-lançamento" },
    });
    expect(JSON.stringify(ads)).not.toContain(PASSWORD);
    expect(await seen(colleague)).toEqual({ meta: false, google_ads: null });
  });
});

describe("the Google Ads conversions file with ADS_CONSENT=checkbox", () => {
  it("lists only the leads who ticked the box", async () => {
    const consenting = await spawnApp({
      vars: { GOOGLE_ADS_IMPORT_USER: USER, GOOGLE_ADS_IMPORT_PASSWORD: PASSWORD, ADS_CONSENT: "checkbox" },
    });
    try {
      expect((await postLead(consenting, aLead({ gclid: "Cj0-sim", ads_consent: true }))).status).toBe(200);
      expect((await postLead(consenting, aLead({ gclid: "Cj0-nao" }))).status).toBe(200);
      const file = parse(await (await fetchFile(consenting)).text());
      expect(file.rows.map((r) => r["Google Click ID"])).toEqual(["Cj0-sim"]);
    } finally {
      await consenting.stop();
    }
  });
});
