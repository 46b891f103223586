import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, provideStaffAuth, serverMessage, sessionEnded } from "./api";

/** The worker's answers, in order; each request's path and Authorization header are kept. */
let answers: Response[] = [];
let sent: { path: string; authorization?: string }[] = [];

/** The session as the client sees it: its token, and how many refreshes and sign-outs it was asked for. */
let token = "token-1";
let refreshes = 0;
let refreshWorks = true;
let signedOut = 0;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

const expired = () => json(401, { success: false, error: "Sessão expirada" });

beforeEach(() => {
  answers = [];
  sent = [];
  token = "token-1";
  refreshes = 0;
  refreshWorks = true;
  signedOut = 0;
  provideStaffAuth({
    accessToken: () => token,
    refresh: async () => {
      refreshes += 1;
      if (refreshWorks) token = `token-${refreshes + 1}`;
      return refreshWorks;
    },
    signedOut: () => {
      signedOut += 1;
    },
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit) => {
      sent.push({ path, authorization: (init.headers as Record<string, string>).Authorization });
      return answers.shift() ?? json(500, { success: false, error: "sem resposta preparada" });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a staff call", () => {
  it("carries the access token", async () => {
    answers = [json(200, { success: true, leads: [] })];
    expect(await apiRequest("/api/leads", { staff: true })).toEqual({ success: true, leads: [] });
    expect(sent).toEqual([{ path: "/api/leads", authorization: "Bearer token-1" }]);
  });

  it("that gets a 401 refreshes the token once and is sent again once, with the new token", async () => {
    answers = [expired(), json(200, { success: true, leads: [] })];
    expect(await apiRequest("/api/leads", { staff: true })).toEqual({ success: true, leads: [] });
    expect(refreshes).toBe(1);
    expect(sent.map((s) => s.authorization)).toEqual(["Bearer token-1", "Bearer token-2"]);
    expect(signedOut).toBe(0);
  });

  it("that gets a second 401 signs the page out, with the 401 as its failure", async () => {
    answers = [expired(), expired()];
    const failure = await apiRequest("/api/leads", { staff: true }).catch((error: unknown) => error);
    expect(sessionEnded(failure)).toBe(true);
    expect(refreshes).toBe(1);
    expect(sent).toHaveLength(2);
    expect(signedOut).toBe(1);
  });

  it("whose refresh fails is not sent again, and signs the page out", async () => {
    refreshWorks = false;
    answers = [expired()];
    await expect(apiRequest("/api/leads", { staff: true })).rejects.toMatchObject({ status: 401 });
    expect(sent).toHaveLength(1);
    expect(signedOut).toBe(1);
  });

  it("other than staff's is never refreshed: a 401 is only its failure", async () => {
    answers = [json(401, { success: false, error: "E-mail ou senha incorretos" })];
    await expect(apiRequest("/api/auth/login", { body: {} })).rejects.toMatchObject({ status: 401 });
    expect(sent[0]?.authorization).toBeUndefined();
    expect(refreshes).toBe(0);
    expect(signedOut).toBe(0);
  });
});

describe("an answer", () => {
  it("that is not JSON is a failure, even with a 200", async () => {
    answers = [new Response("<html>Bad gateway</html>", { status: 200, headers: { "Content-Type": "text/html" } })];
    await expect(apiRequest("/api/leads")).rejects.toMatchObject({ name: "ApiError", status: 200 });
    answers = [new Response("<html>Bad gateway</html>", { status: 502 })];
    await expect(apiRequest("/api/leads")).rejects.toMatchObject({ status: 502, message: "HTTP 502" });
  });

  it("that says `success: false` is a failure, even with a 200", async () => {
    answers = [json(200, { success: false, error: "Não foi possível." })];
    await expect(apiRequest("/api/leads")).rejects.toMatchObject({ status: 200, message: "Não foi possível." });
  });

  it("refusing a request brings the server's message and fields in the ApiError", async () => {
    answers = [json(422, { success: false, error: "Dados inválidos.", fields: { email: "Email inválido" } })];
    const failure = await apiRequest("/api/auth/signup", { body: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 422, message: "Dados inválidos.", fields: { email: "Email inválido" } });
    expect(serverMessage(failure, "outra coisa")).toBe("Dados inválidos.");
  });

  it("that never came is a failure with status 0 and no words of the server's; an abort stays an abort", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    const failure = await apiRequest("/api/leads").catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 0, message: "Sem conexão com o servidor." });
    expect(serverMessage(failure, "Erro ao carregar leads")).toBe("Erro ao carregar leads");

    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new DOMException("The operation was aborted.", "AbortError");
      }),
    );
    await expect(apiRequest("/api/leads")).rejects.toMatchObject({ name: "AbortError" });
  });
});
