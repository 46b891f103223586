import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type SessionUser, signIn, signOut, TICK_MS, tick, useSession } from "./session";

const BIA: SessionUser = { id: "u-2", email: "bia@imob.com.br", role: "staff", approved: false };

/** The worker as far as the session is concerned: who `GET /api/auth/session` says is signed in, or no answer. */
let signedIn: SessionUser | "no answer" | "signed out elsewhere" = BIA;
let asked: string[] = [];
/** The access token each `GET /api/auth/session` carried. */
let checkedWith: (string | undefined)[] = [];
/** The access tokens the worker handed out, by sign-in then refreshes. */
let issued = 0;
const TOKEN_LIFETIME_MS = 15 * 60_000;

function newToken() {
  issued += 1;
  return { access_token: `token-${issued}`, expires_at: Date.now() + TOKEN_LIFETIME_MS, user: BIA };
}

function answer(body: Record<string, unknown>) {
  return new Response(JSON.stringify({ success: true, ...body }), { headers: { "Content-Type": "application/json" } });
}

beforeEach(() => {
  signedIn = BIA;
  asked = [];
  checkedWith = [];
  issued = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init?: RequestInit) => {
      asked.push(path);
      const ended = signedIn === "signed out elsewhere";
      if (path === "/api/auth/login") return answer(newToken());
      if (path === "/api/auth/refresh") return ended ? refused() : answer(newToken());
      if (path === "/api/auth/session") {
        checkedWith.push((init?.headers as Record<string, string> | undefined)?.Authorization);
        if (signedIn === "no answer") throw new TypeError("Failed to fetch");
        return ended ? refused() : answer({ user: signedIn, session_id: "s-1" });
      }
      return answer({});
    }),
  );
});

afterEach(async () => {
  await signOut();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function refused() {
  return new Response(JSON.stringify({ success: false, error: "Sessão encerrada" }), {
    status: 401,
    headers: { "Content-Type": "application/json" },
  });
}

/** The panel's clock moved on to `at`, and its 30-second tick run then. */
async function tickAt(at: number) {
  vi.setSystemTime(at);
  await act(() => tick());
}

describe("the 30-second tick", () => {
  it("picks up an owner's 'Aprovar' from the session check, on the same session", async () => {
    await signIn(BIA.email, "vinho-tinto-2026");
    const { result } = renderHook(() => useSession());
    expect(result.current).toEqual({ status: "signed-in", user: BIA });

    await act(() => tick());
    expect(result.current.user?.approved).toBe(false);

    signedIn = { ...BIA, approved: true };
    await act(() => tick());
    expect(result.current).toEqual({ status: "signed-in", user: { ...BIA, approved: true } });
    expect(asked.filter((path) => path === "/api/auth/session")).toHaveLength(2);
    expect(asked).not.toContain("/api/auth/refresh");
  });

  it("leaves the session as it was when nothing changed, the check got no answer, or it names someone else", async () => {
    await signIn(BIA.email, "vinho-tinto-2026");
    const { result } = renderHook(() => useSession());
    const before = result.current;

    await act(() => tick());
    signedIn = "no answer";
    await act(() => tick());
    signedIn = { ...BIA, id: "u-3", email: "outra@imob.com.br", approved: true };
    await act(() => tick());
    // The very same state: no page draws itself again for nothing.
    expect(result.current).toBe(before);
  });
});

describe("the token's refresh", () => {
  // Specification, section 9: checked every 30 seconds, refreshed when fewer than 3 ticks remain.
  it("comes at the first 30-second tick with fewer than 3 ticks left before the token expires", async () => {
    expect(TICK_MS).toBe(30_000);
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-11-26T15:00:00Z").getTime();
    vi.setSystemTime(start);
    await signIn(BIA.email, "vinho-tinto-2026");
    const refreshes = () => asked.filter((path) => path === "/api/auth/refresh").length;

    // The 27th tick finds exactly 3 ticks (90 seconds) left: not yet.
    for (let n = 1; n <= 27; n++) await tickAt(start + n * TICK_MS);
    expect(refreshes()).toBe(0);
    expect(checkedWith).toHaveLength(27);

    await tickAt(start + 28 * TICK_MS);
    expect(refreshes()).toBe(1);
    // The tick that refreshed checks nothing else; the next ones carry the new token.
    expect(checkedWith).toHaveLength(27);
    await tickAt(start + 29 * TICK_MS);
    expect(checkedWith.at(-1)).toBe("Bearer token-2");
    expect(refreshes()).toBe(1);
  });

  it("at a tick after the session was ended elsewhere, signs this tab out", async () => {
    await signIn(BIA.email, "vinho-tinto-2026");
    const { result } = renderHook(() => useSession());
    signedIn = "signed out elsewhere";
    await act(() => tick());
    expect(result.current).toEqual({ status: "signed-out", user: null });
    expect(asked.filter((path) => path === "/api/auth/refresh")).toHaveLength(1);
  });
});
