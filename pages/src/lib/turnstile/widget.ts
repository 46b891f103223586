/**
 * Cloudflare Turnstile's script, added to the page only when the worker has
 * a site key: with Turnstile off, no request ever leaves our origin.
 */
export const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

export type WidgetOptions = {
  sitekey: string;
  /** Which form the token is for, checked by the worker. */
  action: string;
  callback: (token: string) => void;
  "expired-callback": () => void;
  "error-callback": () => void;
  language: string;
  appearance: "always" | "execute" | "interaction-only";
  size: "normal" | "flexible" | "compact";
};

export type TurnstileApi = {
  render: (container: HTMLElement, options: WidgetOptions) => string;
  reset: (widgetId: string) => void;
};

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

export function loadTurnstile(): Promise<TurnstileApi> {
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    if (window.turnstile) {
      resolve(window.turnstile);
      return;
    }
    const script = document.createElement("script");
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error("turnstile missing")));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error("turnstile script failed to load"));
    };
    document.head.append(script);
  });
  return loading;
}
