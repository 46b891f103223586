import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/Button";
import { FieldError, invalidProps } from "../../components/FieldError";
import { ApiError, serverMessage, sessionEnded } from "../../lib/api";
import { useToast } from "../../lib/toast";
import { correctWhatsapp, type Lead } from "./api";
import { needsResend } from "./format";
import { refusedMessages, refusedTodo } from "./messages";

type Props = { lead: Lead; crmConfigured: boolean; corrected: () => void };

/**
 * A lead Jetimob refused (or whose correction it refused): what Jetimob
 * answered, what to do about it, and 'Corrigir WhatsApp' to give it the
 * number checked with the person before 'Reenviar'.
 */
export function RefusedHelp({ lead, crmConfigured, corrected }: Props) {
  const { toast } = useToast();
  const id = useId();
  const [number, setNumber] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const refusedLead = lead.delivery_status === "failed";
  const answer = refusedLead ? lead.last_error : lead.update_last_error;
  if (!needsResend(lead) || !answer) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await correctWhatsapp(lead.id, number);
      toast(refusedMessages.corrected);
      setNumber("");
      corrected();
    } catch (failure) {
      if (sessionEnded(failure)) return;
      const field = failure instanceof ApiError ? failure.fields.whatsapp : undefined;
      if (field) setError(field);
      else toast({ ...refusedMessages.failed, description: serverMessage(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel refused-help" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{refusedLead ? refusedMessages.title : refusedMessages.correctionTitle}</h2>
      <p>
        {refusedMessages.answered} <q className="refused-help__answer">{answer}</q>
      </p>
      <p>
        <strong>O que fazer:</strong> {refusedTodo(answer, crmConfigured)}
      </p>
      <form className="refused-help__form" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-number`}>{refusedMessages.label}</label>
        <div className="refused-help__row">
          <input
            id={`${id}-number`}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder={lead.whatsapp_display}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            {...invalidProps(`${id}-number`, error)}
          />
          <Button type="submit" className="button button--primary" inactive={busy || !number.trim()}>
            {busy ? refusedMessages.busy : refusedMessages.submit}
          </Button>
        </div>
        <FieldError id={`${id}-number`} error={error} />
      </form>
    </section>
  );
}
