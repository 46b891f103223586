import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { Lead } from "./api";

type Props = { lead: Lead | null; onCancel: () => void; onConfirm: () => void };

/**
 * Asks before a lead is deleted: deleting cannot be undone, and it reaches
 * only this site's own copy. What was sent out before (Jetimob, the new-lead
 * e-mails, the webhook) stays where it went, which a visitor's request to be
 * forgotten (LGPD) must also reach.
 */
export function ConfirmDelete({ lead, onCancel, onConfirm }: Props) {
  return (
    <ConfirmDialog
      open={lead !== null}
      title="Excluir lead?"
      confirmLabel="Excluir"
      onCancel={onCancel}
      onConfirm={onConfirm}
      note={
        lead ? (
          <>
            {lead.jetimob_enviado
              ? "O contato já enviado ao Jetimob continua lá, assim como os avisos de novo lead já enviados à equipe por e-mail ou webhook."
              : "Os avisos de novo lead já enviados à equipe por e-mail ou webhook continuam lá."}{" "}
            Se o visitante pediu a exclusão dos dados, apague-os também nesses lugares.
          </>
        ) : null
      }
    >
      {lead ? (
        <>
          O lead de <strong>{lead.name}</strong> ({lead.email}) será removido de forma permanente deste painel, com
          todos os seus envios e tentativas.
        </>
      ) : null}
    </ConfirmDialog>
  );
}
