import type { Ref } from "react";

/**
 * 'Você quis dizer …?' under the e-mail field, and its two answers. The live
 * region stays on the page, empty without a suggestion: one that arrives
 * already holding its words may go unannounced. It never takes the focus; a
 * submit held back by it does (LeadForm).
 */
export function EmailSuggestion({
  suggested,
  acceptRef,
  onAccept,
  onDecline,
}: {
  suggested: string | undefined;
  acceptRef: Ref<HTMLButtonElement>;
  onAccept: (suggested: string) => void;
  onDecline: () => void;
}) {
  return (
    <div role="status">
      {suggested && (
        <div className="form-question">
          <p className="form-question__text" id="lead-email-suggestion">
            Você quis dizer <strong>{suggested}</strong>?
          </p>
          <button
            ref={acceptRef}
            type="button"
            className="button button--primary"
            aria-describedby="lead-email-suggestion"
            onClick={() => onAccept(suggested)}
          >
            Sim, corrigir
          </button>
          <button type="button" className="button button--ghost" onClick={onDecline}>
            Não, está certo
          </button>
        </div>
      )}
    </div>
  );
}
