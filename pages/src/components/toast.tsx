import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";

/** A message shown briefly in a corner: a title and a description. */
export type ToastInput = {
  title: string;
  description?: string;
  /** Destructive toasts report a failure; screen readers announce them at once. */
  variant?: "default" | "destructive";
};

type Toast = ToastInput & { id: number };

type ToastApi = { toast: (t: ToastInput) => void };

const ToastContext = createContext<ToastApi>({ toast: () => {} });

export function useToast(): ToastApi {
  return useContext(ToastContext);
}

const VISIBLE_MS = 6000;
const MAX_TOASTS = 3;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

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
      <section className="toasts" aria-label="Notificações">
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
  useEffect(() => {
    const timer = window.setTimeout(() => setSpeaking(true), SPEAK_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(() => onDismiss(toast.id), VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, [paused, toast.id, onDismiss]);

  const destructive = toast.variant === "destructive";
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hovering or focusing a toast only pauses its timer (WCAG 2.2.1)
    <div
      className={destructive ? "toast toast--destructive" : "toast"}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
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
      <button
        type="button"
        className="toast__close"
        aria-label="Fechar notificação"
        onClick={() => onDismiss(toast.id)}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
