import { type RefObject, useCallback, useEffect, useRef } from "react";
import { publicConfig } from "./config";
import { loadTurnstile, type TurnstileApi } from "./widget";

/** How long a submit waits for the widget's token before sending without one (the worker then says why). */
const TOKEN_WAIT_MS = 8_000;

export type TurnstileField = {
  /** The element the widget renders into (empty, and hidden, while Turnstile is off). */
  containerRef: RefObject<HTMLDivElement | null>;
  /** Starts the check: call on the form's first focus. Does nothing when Turnstile is off. */
  activate: () => void;
  /** The token to send with the submission, once ready; `undefined` when Turnstile is off. */
  token: () => Promise<string | undefined>;
  /** A token works once: call after every submission that spent it. */
  reset: () => void;
};

/**
 * Which form a token is for: the widget's `action`, which the worker asks of
 * the verification (worker/src/http/turnstile.rs, `Form::action`), so a token
 * solved for one form passes no other.
 */
export type TurnstileAction = "lead" | "signup";

/**
 * The optional bot check of a form. Nothing is fetched until the visitor
 * starts using the form; then the worker's settings say whether Turnstile is
 * on, and only then is Cloudflare's script loaded and the widget rendered.
 */
export function useTurnstile(action: TurnstileAction): TurnstileField {
  const containerRef = useRef<HTMLDivElement>(null);
  const state = useRef<{
    started: boolean;
    off: boolean;
    api: TurnstileApi | null;
    widgetId: string | null;
    token: string | null;
    waiters: ((token: string | null) => void)[];
  }>({ started: false, off: false, api: null, widgetId: null, token: null, waiters: [] });

  const settle = useCallback((token: string | null) => {
    const s = state.current;
    s.token = token;
    if (token === null) return;
    for (const waiter of s.waiters.splice(0)) waiter(token);
  }, []);

  const activate = useCallback(() => {
    const s = state.current;
    if (s.started) return;
    s.started = true;
    publicConfig()
      .then(async ({ turnstile_site_key: sitekey }) => {
        if (!sitekey) {
          s.off = true;
          for (const waiter of s.waiters.splice(0)) waiter(null);
          return;
        }
        const api = await loadTurnstile();
        const container = containerRef.current;
        if (!container) return;
        s.api = api;
        s.widgetId = api.render(container, {
          sitekey,
          action,
          callback: (token) => settle(token),
          "expired-callback": () => settle(null),
          "error-callback": () => settle(null),
          language: "pt-BR",
          appearance: "interaction-only",
          size: "flexible",
        });
      })
      .catch(() => {
        // Settings or script unavailable: let a later focus try again; a
        // waiting submission goes without a token and the worker answers why.
        s.started = false;
        for (const waiter of s.waiters.splice(0)) waiter(null);
      });
  }, [settle, action]);

  const token = useCallback(async (): Promise<string | undefined> => {
    const s = state.current;
    activate();
    if (s.off) return undefined;
    if (s.token) return s.token;
    const waited = await new Promise<string | null>((resolve) => {
      s.waiters.push(resolve);
      setTimeout(() => resolve(s.token), TOKEN_WAIT_MS);
    });
    return s.off ? undefined : (waited ?? "");
  }, [activate]);

  const reset = useCallback(() => {
    const s = state.current;
    s.token = null;
    if (s.api && s.widgetId) s.api.reset(s.widgetId);
  }, []);

  useEffect(() => {
    const s = state.current;
    return () => {
      for (const waiter of s.waiters.splice(0)) waiter(null);
    };
  }, []);

  return { containerRef, activate, token, reset };
}
