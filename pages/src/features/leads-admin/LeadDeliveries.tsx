import { useState } from "react";
import { Button } from "../../components/Button";
import { serverMessage, sessionEnded } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { useToast } from "../../lib/toast";
import { type Delivery, type LeadStory, resendToMeta } from "./api";
import { deliveryMessages } from "./messages";

/** What each state of a delivery is called, and its badge. */
const STATES: Record<Delivery["status"], { label: string; badge: string }> = {
  pending: { label: "Pendente", badge: "badge badge--pending" },
  sent: { label: "Enviado", badge: "badge badge--sent" },
  failed: { label: "Falhou", badge: "badge badge--failed" },
  expired: { label: "Expirado", badge: "badge badge--failed" },
};

/** The one line that says where the delivery stands. */
function where(d: Delivery): string {
  switch (d.status) {
    case "sent":
      return `em ${formatDate(d.sent_at)}.`;
    case "pending":
      return d.attempts === 0
        ? "Na fila para o envio."
        : `Tentativa ${d.attempts} não aceita; a próxima é em ${formatDate(d.next_attempt_at)}.`;
    case "failed":
      return `O Meta recusou este lead (${d.attempts} ${d.attempts === 1 ? "tentativa" : "tentativas"}).`;
    case "expired":
      return "Não enviado: passaram 7 dias, e o Meta não aceita eventos mais antigos.";
  }
}

/**
 * 'Envio ao Meta': whether the lead's conversion reached Meta's Conversions
 * API (so its ads learn which click became a lead), what Meta answered, and
 * 'Reenviar' while its 7 days last. Shown while Meta is configured, or for a
 * lead that was sent to it before.
 */
export function LeadDeliveries({ story, changed }: { story: LeadStory; changed: () => void }) {
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const meta = story.deliveries.find((d) => d.destination === "meta");
  if (!story.meta_configured && !meta) return null;

  const resend = async () => {
    setBusy(true);
    try {
      const answer = await resendToMeta(story.lead.id);
      toast(answer.delivered ? deliveryMessages.metaSent : deliveryMessages.metaNotSent(answer.last_error));
      changed();
    } catch (error) {
      if (!sessionEnded(error)) {
        toast({ ...deliveryMessages.failed, description: serverMessage(error, deliveryMessages.failed.description) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="deliveries-title">
      <div className="panel__head">
        <h2 id="deliveries-title">Envio ao Meta</h2>
      </div>
      {meta ? (
        <div className="lead-delivery">
          <p>
            <span className={STATES[meta.status].badge}>{STATES[meta.status].label}</span> {where(meta)}
          </p>
          {meta.status !== "sent" && meta.last_error && <p className="lead-card__hint">{meta.last_error}</p>}
          {meta.can_resend && meta.status !== "sent" && (
            <Button type="button" className="button button--ghost" inactive={busy} onClick={() => void resend()}>
              {busy ? "Reenviando..." : "Reenviar ao Meta"}
            </Button>
          )}
        </div>
      ) : (
        <p className="panel__note">{deliveryMessages.notApplicable}</p>
      )}
    </section>
  );
}
