import { pbkdf2Sync, webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { startAppWithMail } from "../support/app-with-mail";
import { FakeMail } from "../support/fake-mail";
import { StaffClient, staffEmail } from "../support/staff";
import shared from "./password-vectors.json" with { type: "json" };

// The worker hashes passwords with the runtime's WebCrypto (PBKDF2-SHA256).
// Its unit tests (worker/src/auth/password.rs) prove the pbkdf2 crate gives
// these vectors; here standard WebCrypto (Node's) and the worker's own give
// the same, and every hash stored before keeps signing in.
let app: App;
const mail = new FakeMail();

startAppWithMail(mail, (started) => {
  app = started;
});

type Stored = { iterations: number; salt: Buffer; hash: Buffer };

function parse(stored: string): Stored {
  const [algorithm, iterations, salt, hash] = stored.split("$");
  expect(algorithm).toBe("pbkdf2-sha256");
  return {
    iterations: Number(iterations),
    salt: Buffer.from(salt ?? "", "base64"),
    hash: Buffer.from(hash ?? "", "base64"),
  };
}

async function webCryptoPbkdf2(password: string, salt: Buffer, iterations: number): Promise<Buffer> {
  const key = await webcrypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await webcrypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return Buffer.from(bits);
}

/** A confirmed account whose stored hash was made outside the worker. */
async function accountWithHash(stored: string): Promise<string> {
  const email = staffEmail("hash-antigo");
  const now = Date.now();
  await app.sql(
    "INSERT INTO staff_users (id, email, password_hash, created_at, confirmed_at) VALUES (?1, ?2, ?3, ?4, ?4)",
    `staff-${now}-${Math.random().toString(36).slice(2)}`,
    email,
    stored,
    now,
  );
  return email;
}

describe("the shared password vectors", () => {
  it("are what standard WebCrypto derives (Node's crypto.subtle.deriveBits, PBKDF2-SHA256)", async () => {
    expect(shared.vectors.length).toBeGreaterThanOrEqual(4);
    for (const { password, stored } of shared.vectors) {
      const { iterations, salt, hash } = parse(stored);
      expect((await webCryptoPbkdf2(password, salt, iterations)).equals(hash), password).toBe(true);
    }
  });
});

describe("a hash stored before passwords were hashed with WebCrypto", () => {
  for (const { password, stored } of shared.vectors) {
    const { iterations } = parse(stored);
    it(`signs in with its own password only (${iterations.toLocaleString("en")} iterations, "${password}")`, async () => {
      const email = await accountWithHash(stored);
      expect((await new StaffClient(app).login(email, `${password}!`)).status).toBe(401);
      const answer = await new StaffClient(app).login(email, password);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ user: { email } });
    });
  }

  // Cloudflare's WebCrypto refuses PBKDF2 above 100,000 iterations (the local
  // runtime does not): the worker reads such a hash as none, never as an error.
  it("with a count above Cloudflare's WebCrypto limit is refused like a wrong password", async () => {
    const { salt } = parse(shared.vectors[0]?.stored ?? "");
    const password = "contagem-alta-2026";
    const hash = pbkdf2Sync(password, salt, 100_001, 32, "sha256");
    const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
    const email = await accountWithHash(`pbkdf2-sha256$100001$${b64(salt)}$${b64(hash)}`);
    const answer = await new StaffClient(app).login(email, password);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe("E-mail ou senha incorretos.");
  });
});

describe("a hash the worker makes", () => {
  it("is PBKDF2-HMAC-SHA256 at 100,000 iterations: Node's pbkdf2 gives the same bytes from its salt", async () => {
    const email = staffEmail("hash-novo");
    const password = "Pré-lançamento: ação 🍇";
    expect((await new StaffClient(app).signup(email, password)).status).toBe(200);
    const [row] = await app.sql<{ password_hash: string }>(
      `SELECT c.password_hash FROM email_confirmations c JOIN staff_users u ON u.id = c.user_id WHERE u.email = ?1`,
      email,
    );
    const { iterations, salt, hash } = parse(row?.password_hash ?? "");
    expect(iterations).toBe(100_000);
    expect(salt).toHaveLength(16);
    expect(pbkdf2Sync(password, salt, iterations, 32, "sha256").equals(hash)).toBe(true);

    const client = new StaffClient(app);
    expect((await client.confirm(mail.confirmationToken(email), password)).status).toBe(200);
    expect((await new StaffClient(app).login(email, password)).status).toBe(200);
  });
});
