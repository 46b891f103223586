import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, sessionEnded } from "./api";
import { type ToastInput, useToast } from "./toast";

type Options<V, T> = {
  /**
   * Fetches what `view` shows. `shown` is the answer on screen, so a reload
   * can ask only whether it changed. `null`: nothing to show, because the
   * panel asked for another view instead (what is on screen stays).
   */
  fetch: (view: V, signal: AbortSignal, shown: T | null) => Promise<T | null>;
  /** The toast of a load staff asked for that failed (a quiet reload says nothing). */
  failure: ToastInput;
  /**
   * Statuses the panel says in its own words, quiet reload or not (a lead
   * gone, days refused): `refusal` holds the answer, with no toast and no
   * 'Tentar novamente'.
   */
  refusals?: number[];
  /**
   * A failed load leaves the last answer on screen. By default it goes: the
   * view asked for is another one, and nothing must show under its filter.
   */
  keep?: boolean;
  /** What an answer to a view staff asked for brought, said to screen readers (`said`); the first answer goes unsaid. */
  announce?: (answer: T) => string;
  /** After any failure but an abort, quiet or not (the session's end too). */
  onFailure?: (error: unknown) => void;
};

type Load<V, T> = {
  /** The answer on screen. */
  data: T | null;
  /** A load staff asked for is on its way (a quiet reload does not count). */
  loading: boolean;
  /** The last load staff asked for failed: the panel offers 'Tentar novamente' (`retry`). */
  failed: boolean;
  /** The server's answer of one of `refusals`. */
  refusal: ApiError | null;
  /** For a `role="status"` element, with `announce`. */
  said: string;
  /** Loads `view`; `quiet` reloads (a tick, after an action) keep the page on screen and stay silent on failure. */
  load: (view: V, options?: { quiet?: boolean }) => Promise<void>;
  /** The last view asked for, again, as staff asked for it. */
  retry: () => void;
  /** The last view asked for, quietly: an action that waited reloads the view on screen now, not the one it began in. */
  reload: () => Promise<void>;
};

/**
 * How a staff panel loads what it shows: each load aborts the one before, so
 * the answer on screen is always the latest asked for; a failure toasts and
 * offers to try again, except a 401, which means the session ended and the
 * page is already on its way to /auth.
 */
export function useLoad<V, T>(options: Options<V, T>): Load<V, T> {
  const { toast } = useToast();
  const [data, setData] = useState<T | null>(null);
  // Every panel loads as soon as it is on screen.
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const [said, setSaid] = useState("");
  /** The panel's newest options: `load` stays the same function from one render to the next. */
  const latest = useRef(options);
  latest.current = options;
  const current = useRef<AbortController | null>(null);
  const shown = useRef<T | null>(null);
  const asked = useRef<{ view: V } | null>(null);
  /** The first view has loaded (or failed): later ones were asked for. */
  const arrived = useRef(false);
  /** A view was asked for and its answer not said yet: whichever load brings it says it. */
  const untold = useRef(false);

  useEffect(() => () => current.current?.abort(), []);

  const show = useCallback((answer: T | null) => {
    shown.current = answer;
    setData(answer);
  }, []);

  const load = useCallback(
    async (view: V, { quiet = false } = {}) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      asked.current = { view };
      const isLatest = () => current.current === controller;
      if (!quiet) {
        setLoading(true);
        setFailed(false);
        setRefusal(null);
        if (arrived.current) {
          untold.current = true;
          // Emptied first, so the same words said again are heard again.
          setSaid("");
        }
      }
      try {
        const answer = await latest.current.fetch(view, controller.signal, shown.current);
        if (!isLatest() || answer === null) return;
        arrived.current = true;
        show(answer);
        setFailed(false);
        setRefusal(null);
        const { announce } = latest.current;
        if (untold.current && announce) {
          untold.current = false;
          setSaid(announce(answer));
        }
      } catch (error) {
        if (controller.signal.aborted || !isLatest()) return;
        arrived.current = true;
        const { failure, refusals = [], keep = false, onFailure } = latest.current;
        onFailure?.(error);
        if (error instanceof ApiError && refusals.includes(error.status)) {
          show(null);
          setRefusal(error);
        } else if (!quiet && !sessionEnded(error)) {
          toast(failure);
          if (!keep) show(null);
          setFailed(true);
        }
      } finally {
        if (isLatest()) setLoading(false);
      }
    },
    [toast, show],
  );

  const retry = useCallback(() => {
    if (asked.current) void load(asked.current.view);
  }, [load]);
  const reload = useCallback(
    () => (asked.current ? load(asked.current.view, { quiet: true }) : Promise.resolve()),
    [load],
  );

  return { data, loading, failed, refusal, said, load, retry, reload };
}
