import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";

/** A message shown briefly in a corner: a title and a description. */
export type ToastInput = {
  title: string;
  description?: string;
  /** Destructive toasts report a failure; screen readers announce them at once. */
  variant?: "default" | "destructive";
  /**
   * One thing the person may do about it ('Desfazer'): a button beside the
   * words, which closes the toast. Such a toast stays 10 seconds.
   */
  action?: ToastAction;
};

export type ToastAction = { label: string; onClick: () => void };

type Toast = ToastInput & { id: number };

type ToastApi = { toast: (t: ToastInput) => void };

const ToastContext = createContext<ToastApi>({ toast: () => {} });

export function useToast(): ToastApi {
  return useContext(ToastContext);
}

const VISIBLE_MS = 6000;
/** How long a toast with an action offers it. */
export const ACTION_VISIBLE_MS = 10_000;
const MAX_TOASTS = 3;
/** Takes the keyboard to the newest toast's first button, as Radix's toasts do: 'Desfazer' is far down the page. */
const TOASTS_KEY = "F8";

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== TOASTS_KEY) return;
      const newest = region.current?.lastElementChild?.querySelector("button");
      if (!newest) return;
      event.preventDefault();
      newest.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  const dismiss = useCallback((id: number) => {
    setToasts((all) => all.filter((t) => t.id !== id));
  }, []);

  const toast = useCallback((input: ToastInput) => {
    const id = nextId.current++;
    setToasts((all) => [...all, { ...input, id }].slice(-MAX_TOASTS));
  }, []);

  const api = useMemo(() => ({ toast }), [toast]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <section ref={region} className="toasts" aria-label={`Notificações (${TOASTS_KEY})`}>
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onDismiss={dismiss} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

/**
 * How long a toast's live region stays empty before its words go in: a
 * region that arrives already holding its text may not be announced, one
 * whose text changes is. The box fades in meanwhile.
 */
const SPEAK_AFTER_MS = 100;

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const [paused, setPaused] = useState(false);
  const [speaking, setSpeaking] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Where the keyboard was before it came to the toast: it goes back there
  // when the toast closes under it, not to the page's <body>.
  const cameFrom = useRef<HTMLElement | null>(null);
  const close = () => {
    const back = cameFrom.current;
    if (box.current?.contains(document.activeElement) && back?.isConnected) back.focus({ preventScroll: true });
    onDismiss(toast.id);
  };
  useEffect(() => {
    const timer = window.setTimeout(() => setSpeaking(true), SPEAK_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(() => onDismiss(toast.id), toast.action ? ACTION_VISIBLE_MS : VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, [paused, toast.id, toast.action, onDismiss]);

  const destructive = toast.variant === "destructive";
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hovering or focusing a toast only pauses its timer (WCAG 2.2.1); Escape on one of its buttons closes it
    <div
      ref={box}
      className={destructive ? "toast toast--destructive" : "toast"}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={(event) => {
        setPaused(true);
        const from = event.relatedTarget;
        if (from instanceof HTMLElement && !box.current?.contains(from)) cameFrom.current = from;
      }}
      onBlur={() => setPaused(false)}
      onKeyDown={(event) => {
        if (event.key === "Escape") close();
      }}
    >
      <div
        className="toast__text"
        role={destructive ? "alert" : "status"}
        aria-live={destructive ? "assertive" : "polite"}
        aria-atomic="true"
      >
        {speaking && (
          <>
            <p className="toast__title">{toast.title}</p>
            {toast.description && <p className="toast__description">{toast.description}</p>}
          </>
        )}
      </div>
      {toast.action && (
        <button
          type="button"
          className="toast__action"
          onClick={() => {
            toast.action?.onClick();
            close();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="toast__close" aria-label="Fechar notificação" onClick={close}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
