import { type ChangeEvent, type FormEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import { ConsentBox } from "../../components/ads-disclosure/ConsentBox";
import { Button } from "../../components/Button";
import { FieldError, invalidProps } from "../../components/FieldError";
import { ApiError } from "../../lib/api";
import { safeStorage } from "../../lib/storage";
import { useToast } from "../../lib/toast";
import { useTurnstile } from "../../lib/turnstile/useTurnstile";
import { LEAD_ENDPOINT, sendLead } from "./api";
import { type Attribution, captureAttribution } from "./attribution";
import { EmailSuggestion } from "./EmailSuggestion";
import { useEmailTypo } from "./emailTypo";
import { LandlineQuestion } from "./LandlineQuestion";
import { leadMessages } from "./messages";
import { type Deletion, editWhatsApp, isLandline, maskWhatsApp } from "./whatsapp";

export const LEAD_FORM_ID = "cadastro";
export const FIRST_FIELD_ID = "lead-name";

type Field = "name" | "email" | "whatsapp";
type Values = Record<Field | "hp_nao_preencher", string>;

const EMPTY: Values = { name: "", email: "", whatsapp: "", hp_nao_preencher: "" };

/**
 * What the visitor typed, kept while they read another page of the site
 * (the privacy notice, linked under the button) and come back, by the
 * browser's Back or the logo: the form is unmounted meanwhile. Empty until
 * then, so hydration finds the prerendered (empty) form; emptied by a lead
 * sent.
 */
let draft: Values = EMPTY;
const FIELDS: Field[] = ["name", "email", "whatsapp"];

/** What the visitor typed in the prerendered form before React arrived (the DOM keeps it, React's state does not). */
function typedBeforeHydration(form: HTMLFormElement): Values | null {
  const typed = { ...EMPTY };
  let any = false;
  for (const field of Object.keys(EMPTY) as (keyof Values)[]) {
    const input = form.elements.namedItem(field);
    const value = input instanceof HTMLInputElement ? input.value : "";
    typed[field] = field === "whatsapp" ? maskWhatsApp(value) : value;
    any ||= value !== "";
  }
  return any ? typed : null;
}

/**
 * What stays under the button after a failure that names no field (the toast
 * goes after a few seconds): the server's own words where it said what to
 * do (the limit, the bot check), else whether nothing answered or the server
 * failed.
 */
function notSentNotice(error: unknown): string {
  if (!(error instanceof ApiError)) return leadMessages.notSent;
  if (error.status === 429 || error.status === 502 || error.fields.turnstile_token) return error.message;
  return error.status === 0 ? leadMessages.notSentOffline : leadMessages.notSent;
}

/** Whether a change of a field was a deletion, and which way (Backspace or Delete). */
function deletionOf(event: ChangeEvent<HTMLInputElement>): Deletion {
  const type = (event.nativeEvent as InputEvent).inputType ?? "";
  if (!type.startsWith("delete")) return null;
  if (type.endsWith("Backward")) return "backward";
  return type.endsWith("Forward") ? "forward" : null;
}

/**
 * The lead form. `onSent`: the lead went, and the visitor did not change it
 * meanwhile; the form is emptied and 'Sucesso!' takes its place (Landing),
 * with the name sent, for the greeting of the chat with the team.
 */
export function LeadForm({ onSent }: { onSent: (name: string) => void }) {
  const { toast } = useToast();
  const [values, setValues] = useState<Values>(() => draft);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [notice, setNotice] = useState<string | null>(null);
  /** The optional consent box, when the form has one: unticked until the visitor ticks it. */
  const [adsConsent, setAdsConsent] = useState(false);
  /** The landline 'Este número parece fixo…' asks about, while it asks; and the one the visitor said has WhatsApp. */
  const [landlineAsked, setLandlineAsked] = useState<string | null>(null);
  const [landlineConfirmed, setLandlineConfirmed] = useState<string | null>(null);
  /** The fields as they are now, for a send that ends after the visitor changed one. */
  const onScreen = useRef(values);
  onScreen.current = values;
  const [busy, setBusy] = useState(false);
  const attribution = useRef<Attribution>({});
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const acceptEmailRef = useRef<HTMLButtonElement>(null);
  const landlineRef = useRef<HTMLButtonElement>(null);
  /** Where focus goes once the outcome of a submit, or the answer to a question of the form, is on screen. */
  const focusNext = useRef<Field | "submit" | "suggestion" | "landline" | null>(null);
  const turnstile = useTurnstile("lead");
  const emailTypo = useEmailTypo();

  // Before paint and before any later event reaches the form: hydration
  // leaves the typed text on screen, and the state must hold it too, or the
  // next render or a submit would act as if the form were empty. A visitor
  // already in the form (the focus that fetched this script) starts the
  // bot check as a later focus would.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typed = typedBeforeHydration(form);
    if (typed) setValues(typed);
    if (form.contains(document.activeElement)) turnstile.activate();
  }, [turnstile.activate]);

  useEffect(() => {
    draft = values;
  }, [values]);

  useEffect(() => {
    attribution.current = captureAttribution(window.location.href, document.referrer, safeStorage("sessionStorage"));
  }, []);

  // Where the WhatsApp field's caret goes once its masked value is on screen
  // (after every render: only an edit of that field sets it).
  const whatsappCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const caret = whatsappCaret.current;
    const input = formRef.current?.elements.namedItem("whatsapp");
    whatsappCaret.current = null;
    if (caret !== null && input instanceof HTMLInputElement && input === document.activeElement) {
      input.setSelectionRange(caret, caret);
    }
  });

  // After the render that shows a submit's outcome: a refused field takes
  // focus once its message and aria-describedby are there, so a screen
  // reader reads why, in the middle of the screen, clear of the phone's
  // keyboard and the toasts; a failure gives focus back to the button, a
  // lead sent to 'Sucesso!' (Landing).
  useEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    focusNext.current = null;
    if (next === "submit") submitRef.current?.focus();
    else if (next === "suggestion") acceptEmailRef.current?.focus();
    else if (next === "landline") landlineRef.current?.focus();
    else {
      const input = formRef.current?.querySelector<HTMLInputElement>(`[name="${next}"]`);
      input?.focus({ preventScroll: true });
      input?.scrollIntoView({ block: "center" });
    }
  });

  /** A field's new value: what was said of the old one goes (its error, the notes under the button, a suggestion). */
  const edit = (field: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (field !== "hp_nao_preencher") setErrors((e) => ({ ...e, [field]: undefined }));
    if (field === "email") emailTypo.hide();
    if (field === "whatsapp") setLandlineAsked(null);
    setNotice(null);
  };

  const change = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement>) => {
    const raw = event.target.value;
    let value = raw;
    if (field === "whatsapp") {
      const edited = editWhatsApp(values.whatsapp, raw, event.target.selectionStart ?? raw.length, deletionOf(event));
      value = edited.value;
      whatsappCaret.current = edited.caret;
    }
    edit(field, value);
  };

  // Either answer to 'Você quis dizer …?' puts the focus back in the e-mail
  // field, with the address it will send: Enter there sends the lead.
  const acceptEmail = (suggested: string) => {
    edit("email", suggested);
    focusNext.current = "email";
  };
  const declineEmail = () => {
    emailTypo.decline();
    focusNext.current = "email";
  };

  // 'Sim, enviar assim': the number is the visitor's WhatsApp; the lead goes as it is.
  const confirmLandline = () => {
    setLandlineConfirmed(values.whatsapp);
    setLandlineAsked(null);
    focusNext.current = "submit";
    // After the render that records the answer, so the submit reads it.
    window.setTimeout(() => formRef.current?.requestSubmit(submitRef.current), 0);
  };
  // 'Corrigir': back in the field, the number selected to type over.
  const correctLandline = () => {
    setLandlineAsked(null);
    const input = formRef.current?.elements.namedItem("whatsapp");
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.select();
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // A field error says what is wrong beside the field, and nothing else (no toast).
    const missing = FIELDS.filter((f) => !values[f].trim());
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map((f) => [f, leadMessages.fieldRequired])));
      focusNext.current = missing[0] as Field;
      return;
    }
    // A likely typo in the address is asked about before anything is sent.
    if (emailTypo.ask(values.email)) {
      focusNext.current = "suggestion";
      return;
    }
    // So is a landline: WhatsApp rarely reaches one.
    if (isLandline(values.whatsapp) && landlineConfirmed !== values.whatsapp) {
      setLandlineAsked(values.whatsapp);
      focusNext.current = "landline";
      return;
    }
    setBusy(true);
    setNotice(null);
    // Whether the bot check's token went unspent: the worker checks the fields
    // before the token, so a field it refused leaves the token good for the
    // corrected lead, which then need not wait for a new check.
    let tokenUnspent = false;
    const sent = values;
    try {
      const turnstile_token = await turnstile.token();
      const consent = adsConsent ? { ads_consent: true as const } : {};
      await sendLead({ ...attribution.current, ...sent, ...consent, turnstile_token });
      setErrors({});
      // 'Sucesso!' takes the form's place, unless the visitor changed a field
      // while it was on its way (a typo seen too late): the form stays with
      // it, to be sent again as a correction.
      if (FIELDS.every((f) => onScreen.current[f] === sent[f])) {
        setValues(EMPTY);
        draft = EMPTY;
        setAdsConsent(false);
        onSent(sent.name);
      } else {
        setNotice(leadMessages.changedWhileSending);
        toast(leadMessages.success);
      }
    } catch (error) {
      const fieldErrors =
        error instanceof ApiError
          ? (Object.fromEntries(
              Object.entries(error.fields).filter(([k]) => (FIELDS as string[]).includes(k)),
            ) as Partial<Record<Field, string>>)
          : {};
      setErrors(fieldErrors);
      const first = FIELDS.find((f) => fieldErrors[f]);
      tokenUnspent = error instanceof ApiError && error.status === 422 && first !== undefined;
      // A field the server refused says why beside it; the toast is for what no field explains.
      if (first) focusNext.current = first;
      else {
        setNotice(notSentNotice(error));
        focusNext.current = "submit";
        toast(leadMessages.failure);
      }
    } finally {
      if (!tokenUnspent) turnstile.reset();
      setBusy(false);
    }
  };

  const fieldProps = (field: Field) => ({
    id: `lead-${field}`,
    name: field,
    value: values[field],
    onChange: change(field),
    required: true,
    ...invalidProps(`lead-${field}`, errors[field]),
  });

  const fieldError = (field: Field) => <FieldError id={`lead-${field}`} error={errors[field]} />;

  return (
    <form
      ref={formRef}
      className="lead-form"
      id={LEAD_FORM_ID}
      onSubmit={submit}
      onFocus={turnstile.activate}
      method="post"
      action={LEAD_ENDPOINT}
      aria-busy={busy}
    >
      <div className="field">
        <label htmlFor="lead-name">Nome completo</label>
        <input {...fieldProps("name")} type="text" autoComplete="name" autoCapitalize="words" maxLength={120} />
        {fieldError("name")}
      </div>
      <div className="field">
        <label htmlFor="lead-email">E-mail</label>
        <input
          {...fieldProps("email")}
          type="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={254}
          onBlur={() => emailTypo.ask(values.email)}
        />
        {fieldError("email")}
      </div>
      <EmailSuggestion
        suggested={emailTypo.suggested}
        acceptRef={acceptEmailRef}
        onAccept={acceptEmail}
        onDecline={declineEmail}
      />
      <div className="field">
        <label htmlFor="lead-whatsapp">WhatsApp com DDD</label>
        <input
          {...fieldProps("whatsapp")}
          type="tel"
          autoComplete="tel-national"
          inputMode="tel"
          placeholder="(49) 99999-9999"
          maxLength={20}
        />
        {fieldError("whatsapp")}
      </div>
      <LandlineQuestion
        asked={landlineAsked}
        confirmRef={landlineRef}
        onConfirm={confirmLandline}
        onCorrect={correctLandline}
      />
      <div className="lead-form__trap" aria-hidden="true">
        <label htmlFor="lead-hp">Deixe este campo em branco</label>
        <input
          id="lead-hp"
          name="hp_nao_preencher"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={values.hp_nao_preencher}
          onChange={change("hp_nao_preencher")}
        />
      </div>
      <ConsentBox checked={adsConsent} onChange={setAdsConsent} />
      <div ref={turnstile.containerRef} className="turnstile" />
      <Button ref={submitRef} type="submit" className="button button--primary lead-form__submit" inactive={busy}>
        {busy ? leadMessages.submitting : leadMessages.submit}
      </Button>
      {notice && (
        <p className="lead-form__notice" role="alert">
          {notice}
        </p>
      )}
    </form>
  );
}
