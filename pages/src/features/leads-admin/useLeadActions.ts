import { useRef, useState } from "react";
import { useToast } from "../../components/toast";
import { ApiError } from "../../lib/api";
import { deleteLead, type Lead, markSent, resendLead } from "./api";
import { panelMessages } from "./messages";

type Options = {
  /** Reloads what is on screen once an action has ended, whether it went or not. */
  reload: () => Promise<void>;
  /** After a lead was deleted, instead of `reload` (its own page has nothing left to show). */
  deleted?: () => void;
};

/**
 * 'Marcar Enviado', 'Reenviar' and 'Excluir' (asked first), with their toasts, as the list
 * and a lead's page both offer them. A lead's buttons are off while one of its actions runs.
 */
export function useLeadActions({ reload, deleted }: Options) {
  const { toast } = useToast();
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [toDelete, setToDelete] = useState<Lead | null>(null);
  // The newest callbacks: an action that waited for Jetimob reloads what is on screen when it ends.
  const latest = useRef({ reload, deleted });
  latest.current = { reload, deleted };

  const act = async (lead: Lead, action: () => Promise<boolean | undefined>) => {
    setBusy((b) => ({ ...b, [lead.id]: true }));
    try {
      const gone = await action();
      if (gone && latest.current.deleted) latest.current.deleted();
      else await latest.current.reload();
    } finally {
      setBusy((b) => ({ ...b, [lead.id]: false }));
    }
  };

  const onMarkSent = (lead: Lead) =>
    act(lead, async () => {
      try {
        await markSent(lead);
        toast(panelMessages.marked);
      } catch {
        toast(panelMessages.markFailed);
      }
      return false;
    });

  const onResend = (lead: Lead) =>
    act(lead, async () => {
      try {
        const result = await resendLead(lead.id);
        if (result.delivered) toast(panelMessages.resent);
        else if (result.last_error)
          toast({ title: panelMessages.resendRefusedTitle, description: result.last_error, variant: "destructive" });
        else toast(panelMessages.resendScheduled);
      } catch (error) {
        toast({ ...panelMessages.resendFailed, description: error instanceof ApiError ? error.message : undefined });
      }
      return false;
    });

  const onConfirmDelete = async () => {
    const lead = toDelete;
    setToDelete(null);
    if (!lead) return;
    await act(lead, async () => {
      try {
        await deleteLead(lead.id);
        toast(panelMessages.deleted);
        return true;
      } catch {
        toast(panelMessages.deleteFailed);
        return false;
      }
    });
  };

  return {
    busy,
    onMarkSent,
    onResend,
    onDelete: setToDelete,
    /** The lead 'Excluir' asks about, for `ConfirmDelete`. */
    toDelete,
    onCancelDelete: () => setToDelete(null),
    onConfirmDelete,
  };
}
