import { FieldError, invalidProps } from "../../components/FieldError";

/** The e-mail input of the staff forms, with what is wrong with it under it. */
export function EmailField(props: {
  id: string;
  autoComplete: "username" | "email";
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>E-mail</label>
      <input
        id={props.id}
        type="email"
        autoComplete={props.autoComplete}
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={props.placeholder}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...invalidProps(props.id, props.error)}
      />
      <FieldError id={props.id} error={props.error} />
    </div>
  );
}
