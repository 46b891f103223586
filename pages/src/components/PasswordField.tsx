import { useState } from "react";
import { FieldError, invalidProps } from "./FieldError";
import { newPasswordIds, PASSWORD_MIN_LENGTH } from "./newPassword";
import "./password-field.css";

type Props = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: "current-password" | "new-password";
  minLength?: number;
  /** What is wrong with it, shown under it. */
  error?: string;
};

/** A password input with a button that shows or hides what was typed. */
export function PasswordField({ id, label, value, onChange, autoComplete, minLength, error }: Props) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password">
        <input
          id={id}
          type={visible ? "text" : "password"}
          autoComplete={autoComplete}
          autoCapitalize="none"
          spellCheck={false}
          required
          minLength={minLength}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...invalidProps(id, error)}
        />
        <button
          type="button"
          className="password__toggle"
          aria-label={visible ? `Ocultar ${label.toLowerCase()}` : `Mostrar ${label.toLowerCase()}`}
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((v) => !v)}
        >
          <svg
            viewBox="0 0 24 24"
            width="20"
            height="20"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
          >
            <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12Z" />
            <circle cx="12" cy="12" r="3" />
            {visible && <path d="M4 4l16 16" />}
          </svg>
        </button>
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}

type NewPasswordProps = {
  /** The prefix of the two inputs' ids. */
  id: string;
  /** 'Senha' or 'Nova senha'; the second field is 'Confirmar' and the same words. */
  label: string;
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  /** Messages under the fields, by input id ([`useFieldErrors`]). */
  errors?: Record<string, string>;
};

/** A new password and its confirmation, as sign-up, reset and 'Alterar senha' ask for it. */
export function NewPasswordFields({
  id,
  label,
  password,
  confirmation,
  onPassword,
  onConfirmation,
  errors = {},
}: NewPasswordProps) {
  const [passwordId, confirmationId] = newPasswordIds(id);
  return (
    <>
      <PasswordField
        id={passwordId}
        label={label}
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        value={password}
        onChange={onPassword}
        error={errors[passwordId]}
      />
      <PasswordField
        id={confirmationId}
        label={`Confirmar ${label.toLowerCase()}`}
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        value={confirmation}
        onChange={onConfirmation}
        error={errors[confirmationId]}
      />
    </>
  );
}
