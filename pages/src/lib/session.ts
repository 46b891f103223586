import { useSyncExternalStore } from "react";
import { ApiError, apiRequest, provideStaffAuth } from "./api";
import { PANEL_KEY_PREFIX, safeStorage } from "./storage";
import type { Role } from "./vocabulary";

/**
 * The staff session in this tab: loading, then a user or nobody.
 *
 * The access token lives in memory only; the refresh token is an HttpOnly
 * cookie scripts never see. Tabs share fresh tokens and sign-outs over a
 * BroadcastChannel, and take turns refreshing (Web Locks), because a refresh
 * token works once: a second use revokes the whole session.
 */
export type SessionUser = {
  id: string;
  email: string;
  role: Role;
  /** `false`: confirmed, waiting for an owner's 'Aprovar' (STAFF_APPROVAL); the panel shows only that. */
  approved: boolean;
};
export type SessionState =
  | { status: "loading"; user: null }
  | { status: "signed-in"; user: SessionUser }
  | { status: "signed-out"; user: null };

type SessionAnswer = { access_token: string; expires_at: number; user: SessionUser };
type Message = { type: "token"; answer: SessionAnswer } | { type: "signed-out" };

/** Checked every 30 seconds; refreshed when fewer than 3 ticks are left. */
export const TICK_MS = 30_000;
const REFRESH_MARGIN_MS = 3 * TICK_MS;

const LOADING: SessionState = { status: "loading", user: null };
let state: SessionState = LOADING;
let token: { value: string; expiresAt: number } | null = null;
const listeners = new Set<() => void>();
// Only in a browser: prerendering (Node) has BroadcastChannel too, and an open one keeps it running.
const channel =
  typeof window === "undefined" || typeof BroadcastChannel === "undefined"
    ? null
    : new BroadcastChannel("staff-session");

function setState(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

function adopt(answer: SessionAnswer) {
  // A new sign-in replaced the refresh cookie a failed 'Sair' left behind.
  markSignOutPending(false);
  token = { value: answer.access_token, expiresAt: answer.expires_at };
  setState({ status: "signed-in", user: answer.user });
}

function becomeSignedOut() {
  token = null;
  setState({ status: "signed-out", user: null });
}

channel?.addEventListener("message", (event: MessageEvent<Message>) => {
  if (event.data.type === "token") adopt(event.data.answer);
  else if (event.data.type === "signed-out") {
    forgetPanelMemory();
    becomeSignedOut();
  }
});

function announce(message: Message) {
  channel?.postMessage(message);
}

/** One refresh at a time across tabs; a tab that waited may find a fresh token already. */
async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  if (typeof navigator !== "undefined" && navigator.locks) {
    return navigator.locks.request("staff-session-refresh", work);
  }
  return work();
}

let refreshing: Promise<boolean> | null = null;

/**
 * When a refresh gets no answer (the network, or a 5xx), it is asked again
 * after these waits, but only within `REFRESH_RETRY_WITHIN_MS` of the first
 * try. Its answer may have been lost after the worker had already replaced
 * the cookie: the worker answers the old cookie again for 10 seconds
 * (`RETRY_GRACE_MS`), and after that takes it for a stolen one and ends the
 * session on every device.
 */
const REFRESH_RETRY_DELAYS_MS = [1_000, 2_500, 4_000];
const REFRESH_RETRY_WITHIN_MS = 8_000;

/**
 * Swaps the refresh cookie for a new access token; `false` means signed out.
 * Never after a 'Sair', in this tab or another: a refresh still on its way
 * then, or one the worker never heard, must not sign the browser back in.
 */
export function refreshSession(): Promise<boolean> {
  const before = token?.value;
  refreshing ??= withRefreshLock(async () => {
    // Another tab refreshed while this one waited for the lock.
    if (token && token.value !== before && token.expiresAt - Date.now() > REFRESH_MARGIN_MS) return true;
    const leftOut = () => state.status === "signed-out" || signOutPending();
    if (leftOut()) {
      becomeSignedOut();
      return false;
    }
    const deadline = Date.now() + REFRESH_RETRY_WITHIN_MS;
    for (const delay of [...REFRESH_RETRY_DELAYS_MS, null]) {
      try {
        const answer = await apiRequest<SessionAnswer>("/api/auth/refresh", {
          method: "POST",
          body: {},
          signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())),
        });
        if (leftOut()) return false;
        adopt(answer);
        announce({ type: "token", answer });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          becomeSignedOut();
          return false;
        }
        const unanswered = !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
        if (!unanswered || delay === null || Date.now() + delay > deadline || leftOut()) {
          if (state.status === "loading" || leftOut()) becomeSignedOut();
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    return false;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * Resolves the loading state once (on page load the token is not in memory
 * yet). After a 'Sair' the worker never heard, this browser stays signed out:
 * the sign-out is sent again (with the refresh cookie it ends), and the
 * cookie is never swapped for a session.
 */
export async function checkSession(): Promise<SessionState> {
  if (state.status !== "loading") return state;
  if (signOutPending()) {
    if (await globalSignOutRequest()) markSignOutPending(false);
    if (state.status === "loading") becomeSignedOut();
    return state;
  }
  await refreshSession();
  return state;
}

/** Removes any authentication data a previous version of the panel kept in browser storage. */
export function clearStoredAuth() {
  for (const storage of [safeStorage("localStorage"), safeStorage("sessionStorage")]) {
    if (!storage) continue;
    for (const key of Object.keys(storage)) {
      if (/^sb-|auth|token|session/i.test(key)) storage.removeItem(key);
    }
  }
}

/**
 * What the leads panel kept for this tab (the list's last view, where its
 * pages start; a search may be someone's name): forgotten at 'Sair', so the
 * next person at this computer finds none of it.
 */
function forgetPanelMemory() {
  const storage = safeStorage("sessionStorage");
  if (!storage) return;
  for (const key of Object.keys(storage)) {
    if (key.startsWith(PANEL_KEY_PREFIX)) storage.removeItem(key);
  }
}

/**
 * Set (in this browser's localStorage, for every tab and reload) while a
 * 'Sair' has not reached the worker: on a dropped network or an error the
 * refresh cookie, which scripts cannot remove, would otherwise sign the next
 * person at this computer back in.
 */
const SIGN_OUT_PENDING = "staff-sign-out-pending";

function signOutPending(): boolean {
  try {
    const storage = safeStorage("localStorage");
    return storage !== null && storage.getItem(SIGN_OUT_PENDING) !== null;
  } catch {
    return false;
  }
}

/** Notes, or forgets, a 'Sair' the worker has not heard; storage that refuses changes nothing else. */
function markSignOutPending(pending: boolean) {
  try {
    const storage = safeStorage("localStorage");
    if (pending) storage?.setItem(SIGN_OUT_PENDING, "1");
    else storage?.removeItem(SIGN_OUT_PENDING);
  } catch {
    // Storage full or refused: this tab is signed out all the same.
  }
}

/** Ends every session of this user, everywhere; `false` if the worker did not answer that it did. */
async function globalSignOutRequest(): Promise<boolean> {
  return apiRequest("/api/auth/logout", { method: "POST", body: { scope: "global" }, staff: true }).then(
    () => true,
    () => false,
  );
}

/** Login as the specification orders it: clear stale data, sign out globally, then sign in. */
export async function signIn(email: string, password: string): Promise<void> {
  clearStoredAuth();
  await globalSignOutRequest();
  const answer = await apiRequest<SessionAnswer>("/api/auth/login", { method: "POST", body: { email, password } });
  adopt(answer);
  announce({ type: "token", answer });
}

/** `turnstileToken`: the bot check's one-time token, when Turnstile is on. */
export async function signUp(email: string, password: string, turnstileToken?: string): Promise<void> {
  await apiRequest("/api/auth/signup", {
    method: "POST",
    body: { email, password, turnstile_token: turnstileToken },
  });
}

/** Uses the one-time link from the confirmation e-mail with the sign-up's password; signs the user in. */
export async function confirmEmail(linkToken: string, password: string): Promise<void> {
  const answer = await apiRequest<SessionAnswer>("/api/auth/confirm", {
    method: "POST",
    body: { token: linkToken, password },
  });
  adopt(answer);
  announce({ type: "token", answer });
}

/** 'Esqueci minha senha': asks for a reset link; the answer is the same whoever asks. */
export async function requestPasswordReset(email: string): Promise<string> {
  const answer = await apiRequest<{ message: string }>("/api/auth/reset-request", { method: "POST", body: { email } });
  return answer.message;
}

/** Uses the one-time reset link: sets the new password and signs the user in (other sessions end). */
export async function resetPassword(linkToken: string, password: string): Promise<void> {
  const answer = await apiRequest<SessionAnswer>("/api/auth/reset", {
    method: "POST",
    body: { token: linkToken, password },
  });
  adopt(answer);
  announce({ type: "token", answer });
}

/** 'Alterar senha' for the signed-in user; the other sessions end, this one stays. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await apiRequest("/api/auth/password", {
    method: "POST",
    body: { current_password: currentPassword, new_password: newPassword },
    staff: true,
  });
}

/** Sign-out: clears stored data and the panel's memory, signs out globally, and tells the other tabs. */
export async function signOut(): Promise<void> {
  clearStoredAuth();
  forgetPanelMemory();
  if (!(await globalSignOutRequest())) markSignOutPending(true);
  becomeSignedOut();
  announce({ type: "signed-out" });
}

/**
 * The 30-second tick: refreshes a token about to expire and notices a
 * session ended elsewhere (a global sign-out on another device), and what an
 * owner changed meanwhile: an 'Aprovar' opens the panel, a role changes its pages.
 */
export async function tick(now = Date.now()): Promise<void> {
  if (state.status !== "signed-in" || !token) return;
  if (token.expiresAt - now < REFRESH_MARGIN_MS) {
    await refreshSession();
    return;
  }
  const answer = await apiRequest<{ user: SessionUser }>("/api/auth/session", { staff: true }).catch(() => null);
  // Only news about the same person: a sign-out or another sign-in may have come meanwhile.
  if (answer?.user && state.status === "signed-in" && state.user.id === answer.user.id) {
    if (!sameUser(state.user, answer.user)) setState({ status: "signed-in", user: answer.user });
  }
}

/** Unchanged users keep the state as it is, so no page draws itself again for nothing. */
function sameUser(a: SessionUser, b: SessionUser): boolean {
  return a.email === b.email && a.role === b.role && a.approved === b.approved;
}

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => LOADING,
  );
}

provideStaffAuth({
  accessToken: () => token?.value ?? null,
  refresh: refreshSession,
  signedOut: () => {
    if (state.status !== "signed-out") becomeSignedOut();
  },
});
