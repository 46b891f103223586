import { questions } from "../../config/agency";
import { formatDate } from "../../lib/format";
import type { Lead } from "./api";
import "./lead-answers.css";

/**
 * 'Sobre a pessoa': what the visitor told after 'Sucesso!' (agency.json's
 * questions, each answer or 'Sem resposta'), and whether the WhatsApp they
 * typed is a landline ('fixo': the form asked first).
 */
export function LeadAnswers({ lead }: { lead: Pick<Lead, "answers" | "answers_at" | "landline"> }) {
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
    </section>
  );
}
