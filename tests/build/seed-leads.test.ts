import { describe, expect, it } from "vitest";
import { generateLeads, LEAD_COLUMNS, leadsToSql } from "../../scripts/seed-leads.mjs";

// The DDDs the worker accepts (worker/src/leads/domain.rs).
const DDDS = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46, 47, 48,
  49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89,
  91, 92, 93, 94, 95, 96, 97, 98, 99,
]);
const NOW = Date.UTC(2026, 10, 22, 12);
const DAY = 86_400_000;

describe("the seeding helper", () => {
  const leads = generateLeads(5000, { seed: 7, now: NOW });

  it("makes leads with unique e-mails and valid, unique WhatsApp numbers in E.164", () => {
    expect(leads).toHaveLength(5000);
    expect(new Set(leads.map((l) => l.email)).size).toBe(5000);
    expect(new Set(leads.map((l) => l.whatsapp)).size).toBe(5000);
    for (const lead of leads) {
      expect(lead.email).toMatch(/^[a-z0-9._]+@[a-z0-9.-]+\.[a-z]{2,}$/);
      const match = String(lead.whatsapp).match(/^\+55(\d\d)9[6-9]\d{7}$/);
      expect(match, String(lead.whatsapp)).not.toBeNull();
      expect(DDDS.has(Number(match?.[1]))).toBe(true);
      expect(String(lead.name).split(" ").length).toBeGreaterThanOrEqual(2);
    }
  });

  it("spreads them over 90 days, never in the future", () => {
    const times = leads.map((l) => Number(l.created_at));
    expect(Math.max(...times)).toBeLessThan(NOW);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW - 91 * DAY);
    expect(Math.min(...times)).toBeLessThan(NOW - 60 * DAY);
  });

  it("has about 70% sent, 25% pending and 5% failed, each consistent", () => {
    const share = (status: string) => leads.filter((l) => l.delivery_status === status).length / leads.length;
    expect(share("sent")).toBeCloseTo(0.7, 1);
    expect(share("pending")).toBeCloseTo(0.25, 1);
    expect(share("failed")).toBeCloseTo(0.05, 1);
    for (const lead of leads) {
      expect(lead.jetimob_enviado).toBe(lead.delivery_status === "sent" ? 1 : 0);
      if (lead.delivery_status === "sent") expect(Number(lead.sent_at)).toBeGreaterThanOrEqual(Number(lead.created_at));
      if (lead.delivery_status === "failed") expect(lead.last_error).toBeTruthy();
      if (Number(lead.delivery_attempts) === 0) expect(lead.last_error).toBeNull();
    }
  });

  it("mixes origins and campaigns, and gives the same leads for the same seed", () => {
    const origins = new Set(leads.map((l) => l.origem));
    for (const o of ["instagram", "facebook", "google", "site"]) expect(origins.has(o)).toBe(true);
    expect(generateLeads(3, { seed: 7, now: NOW })).toEqual(leads.slice(0, 3));
  });

  it("writes multi-row INSERTs with quotes escaped", () => {
    const sql = leadsToSql([{ ...leads[0], name: "Ana D'Ávila" }], { rowsPerInsert: 50 });
    expect(sql).toContain(`INSERT INTO leads (${LEAD_COLUMNS.join(",")}) VALUES`);
    expect(sql).toContain("'Ana D''Ávila'");
    expect(leadsToSql(leads.slice(0, 120)).match(/INSERT INTO leads/g)).toHaveLength(3);
  });

  it("gives each lead the submission it arrived with, as the lead endpoint records it", () => {
    const sql = leadsToSql(leads.slice(0, 120));
    const submissions = sql.match(/INSERT INTO lead_submissions[^;]*;/g) ?? [];
    expect(submissions).toHaveLength(3);
    expect(submissions[0]).toContain("SELECT id, created_at, name, email, whatsapp, origem,");
    for (const lead of leads.slice(0, 120)) expect(sql).toContain(`'${lead.id}'`);
  });
});
