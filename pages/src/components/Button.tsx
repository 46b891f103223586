import type { ComponentProps } from "react";

type Props = ComponentProps<"button"> & {
  /** Its action is running ('Entrando...'), or there is nothing for it to do ('Próxima' on the last page). */
  inactive?: boolean;
};

/**
 * A button that can be off for a while without losing the keyboard: a
 * `disabled` button drops the focus it holds to the page's <body>, so this
 * one says `aria-disabled`, ignores presses (a submit included) and keeps its
 * place in the tab order. base.css gives it the look of a disabled button.
 */
export function Button({ inactive = false, onClick, ...rest }: Props) {
  return (
    <button
      {...rest}
      aria-disabled={inactive || undefined}
      onClick={(event) => {
        if (inactive) event.preventDefault();
        else onClick?.(event);
      }}
    />
  );
}
