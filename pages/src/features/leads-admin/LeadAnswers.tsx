import { questions } from "../../config/agency";
import { formatDate } from "../../lib/format";
import type { Delivery, Lead } from "./api";
import "./lead-answers.css";

/**
 * 'Sobre a pessoa': what the visitor told after 'Sucesso!' (agency.json's
 * questions, each answer or 'Sem resposta'), and whether the WhatsApp they
 * typed is a landline ('fixo': the form asked first); and whether Jetimob
 * has the answers as they stand (`delivery`: their update of the lead).
 */
export function LeadAnswers({
  lead,
  delivery,
}: {
  lead: Pick<Lead, "answers" | "answers_at" | "landline">;
  delivery?: Delivery;
}) {
  if (questions.length === 0 && !lead.landline) return null;
  return (
    <section className="panel" aria-labelledby="answers-title">
      <div className="panel__head">
        <h2 id="answers-title">Sobre a pessoa</h2>
        <p className="panel__note">
          {lead.answers_at
            ? `O que a pessoa respondeu depois do cadastro (atualizado em ${formatDate(lead.answers_at)}).`
            : "As perguntas opcionais depois do cadastro: a pessoa ainda não respondeu."}
        </p>
      </div>
      <dl className="lead-answers">
        {questions.map((q) => (
          <div key={q.id}>
            <dt>{q.label}</dt>
            <dd>{lead.answers?.[q.id] ?? "Sem resposta"}</dd>
          </div>
        ))}
        {lead.landline && (
          <div>
            <dt>Telefone</dt>
            <dd>O número informado parece fixo: prefira ligar.</dd>
          </div>
        )}
      </dl>
      {delivery && <p className="panel__note lead-answers__crm">{answersInCrm(delivery)}</p>}
    </section>
  );
}

/** Where the answers stand in Jetimob, in a line. */
function answersInCrm(delivery: Delivery): string {
  switch (delivery.status) {
    case "sent":
      return `Enviadas ao Jetimob em ${formatDate(delivery.sent_at)}.`;
    case "pending":
      return delivery.last_error
        ? `Aguardando envio ao Jetimob (última resposta: ${delivery.last_error}).`
        : "Aguardando envio ao Jetimob: vão assim que o Jetimob tiver o lead.";
    default:
      return `Não enviadas ao Jetimob: ${delivery.last_error ?? "passou a semana de tentativas"}.`;
  }
}
