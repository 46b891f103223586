import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type SessionUser, signIn, signOut, tick, useSession } from "./session";

const BIA: SessionUser = { id: "u-2", email: "bia@imob.com.br", role: "staff", approved: false };

/** The worker as far as the session is concerned: who `GET /api/auth/session` says is signed in, or no answer. */
let signedIn: SessionUser | "no answer" = BIA;
let asked: string[] = [];

function answer(body: Record<string, unknown>) {
  return new Response(JSON.stringify({ success: true, ...body }), { headers: { "Content-Type": "application/json" } });
}

beforeEach(() => {
  signedIn = BIA;
  asked = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      asked.push(path);
      if (path === "/api/auth/login") {
        return answer({ access_token: "token-1", expires_at: Date.now() + 15 * 60_000, user: BIA });
      }
      if (path === "/api/auth/session") {
        if (signedIn === "no answer") throw new TypeError("Failed to fetch");
        return answer({ user: signedIn, session_id: "s-1" });
      }
      return answer({});
    }),
  );
});

afterEach(async () => {
  await signOut();
  vi.unstubAllGlobals();
  localStorage.clear();
});

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
