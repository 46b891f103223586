import "./switch.css";

/**
 * A switch's track and thumb, inside a `role="switch"` button: on while the
 * button is `aria-checked`. `className` sets its size and colours
 * (switch.css).
 */
export function SwitchTrack({ className }: { className: string }) {
  return (
    <span className={`switch__track ${className}`} aria-hidden="true">
      <span className="switch__thumb" />
    </span>
  );
}
