import type { Ref } from "react";
import { leadMessages } from "./messages";

/**
 * 'Este número parece fixo. Ele tem WhatsApp?' under the WhatsApp field, when
 * a submit finds a landline there: 'Sim, enviar assim' sends the lead as it
 * is (the worker marks it 'fixo', so the team calls), 'Corrigir' goes back to
 * the field. The live region stays on the page, empty until it asks, so a
 * screen reader announces the question (and the focus moves to its answer).
 */
export function LandlineQuestion({
  asked,
  confirmRef,
  onConfirm,
  onCorrect,
}: {
  asked: string | null;
  confirmRef: Ref<HTMLButtonElement>;
  onConfirm: () => void;
  onCorrect: () => void;
}) {
  return (
    <div role="status">
      {asked && (
        <div className="form-question">
          <p className="form-question__text" id="lead-landline-question">
            {leadMessages.landlineQuestion}
          </p>
          <button
            ref={confirmRef}
            type="button"
            className="button button--primary"
            aria-describedby="lead-landline-question"
            onClick={onConfirm}
          >
            {leadMessages.landlineYes}
          </button>
          <button type="button" className="button button--ghost" onClick={onCorrect}>
            {leadMessages.landlineFix}
          </button>
        </div>
      )}
    </div>
  );
}
