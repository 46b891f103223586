import { useCallback, useEffect, useRef, useState } from "react";

/**
 * The messages a form shows under its fields, by the input's id. `show` puts
 * one there and, once it is on screen and tied to its input, moves focus to
 * that input, so the keyboard and a screen reader land on what to fix (the
 * toast that says it too goes after a few seconds; this stays). A field's
 * message goes when the field is edited (`editing`), or all of them at the
 * next submit (`reset`).
 */
export function useFieldErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const focusNext = useRef<string | null>(null);

  useEffect(() => {
    const id = focusNext.current;
    if (!id) return;
    focusNext.current = null;
    document.getElementById(id)?.focus();
  });

  const show = useCallback((id: string, message: string) => {
    focusNext.current = id;
    setErrors({ [id]: message });
  }, []);
  const clear = useCallback((id: string) => {
    setErrors((now) => {
      if (!(id in now)) return now;
      const { [id]: _gone, ...rest } = now;
      return rest;
    });
  }, []);
  const reset = useCallback(() => setErrors({}), []);
  /** An input's `onChange`: sets the value and takes away the messages of `ids` (its own, or both of a new password's). */
  const editing = useCallback(
    (ids: string[], set: (value: string) => void) => (value: string) => {
      for (const id of ids) clear(id);
      set(value);
    },
    [clear],
  );
  return { errors, show, reset, editing };
}
