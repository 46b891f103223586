import { afterAll, beforeAll, describe, expect, it } from "vitest";
import agency from "../../agency.json" with { type: "json" };
import { type App, spawnApp } from "../support/app";

// The worker embeds agency.json when it is compiled; `make` rebuilds it when
// the file changes. This reads the built worker, not the source.
let app: App;

beforeAll(async () => {
  app = await spawnApp();
});

afterAll(async () => {
  await app?.stop();
});

describe("the built worker", () => {
  it("enforces the staff e-mail domain agency.json names today", async () => {
    const answer = await fetch(`${app.baseUrl}/api/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.baseUrl },
      body: JSON.stringify({ email: "alguem@outro-dominio.example", password: "vinho-tinto-2026" }),
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({
      error: `Apenas emails @${agency.agency.staffEmailDomain} são permitidos`,
    });
  });
});
