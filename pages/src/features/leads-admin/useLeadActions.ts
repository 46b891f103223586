import { useRef, useState } from "react";
import { ApiError, serverMessage } from "../../lib/api";
import { timeAgo } from "../../lib/format";
import { useToast } from "../../lib/toast";
import { deleteLead, type Lead, markSent, recordContact, resendLead, undoContact, unmarkSent } from "./api";
import { staffFirstName } from "./contact";
import { alreadyContacted, contactMessages, panelMessages } from "./messages";

type Options = {
  /** Reloads what is on screen once an action has ended, whether it went or not. */
  reload: () => Promise<void>;
  /** After a lead was deleted, instead of `reload` (its own page has nothing left to show). */
  deleted?: () => void;
};

/**
 * 'Marcar Enviado' and 'Excluir' (both asked first) and 'Reenviar', with their toasts, as
 * the list and a lead's page both offer them. A lead's buttons are off while one of its
 * actions runs. A lead just marked sent can be put back with the toast's 'Desfazer'.
 */
export function useLeadActions({ reload, deleted }: Options) {
  const { toast } = useToast();
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [toDelete, setToDelete] = useState<Lead | null>(null);
  const [toMark, setToMark] = useState<Lead | null>(null);
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

  const onUndoMarkSent = (lead: Lead) =>
    act(lead, async () => {
      try {
        const back = await unmarkSent(lead.id);
        toast(back.delivery_status === "failed" ? panelMessages.unmarkedFailed : panelMessages.unmarkedPending);
      } catch (error) {
        toast({ ...panelMessages.unmarkFailed, description: error instanceof ApiError ? error.message : undefined });
      }
      return false;
    });

  const onConfirmMarkSent = async () => {
    const lead = toMark;
    setToMark(null);
    if (!lead) return;
    await act(lead, async () => {
      try {
        await markSent(lead);
        // Only a lead this mark sent can be put back; not a correction of one Jetimob has.
        const undo = lead.jetimob_enviado
          ? undefined
          : { label: panelMessages.undo, onClick: () => void onUndoMarkSent(lead) };
        toast({ ...panelMessages.marked, action: undo });
      } catch (error) {
        // The server's own words when it said why (an owner took 'Marcar Enviado' away).
        toast({ ...panelMessages.markFailed, description: serverMessage(error) });
      }
      return false;
    });
  };

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

  /** 'Já falei': recorded, with 'Desfazer' for 10 seconds; or who was first, when a colleague was. */
  const onSpoke = (lead: Lead) =>
    act(lead, async () => {
      try {
        const answer = await recordContact(lead.id);
        if (answer.recorded) {
          const undo = { label: panelMessages.undo, onClick: () => void onUndoSpoke(lead) };
          toast({ ...contactMessages.recorded, action: undo });
        } else {
          const who = staffFirstName(answer.contacted_by ?? "") || "Alguém da equipe";
          toast(alreadyContacted(who, timeAgo(answer.first_contact_at, Date.now())));
        }
      } catch (error) {
        toast({ ...contactMessages.failed, description: serverMessage(error) });
      }
      return false;
    });

  const onUndoSpoke = (lead: Lead) =>
    act(lead, async () => {
      try {
        await undoContact(lead.id);
        toast(contactMessages.undone);
      } catch (error) {
        toast({ ...contactMessages.undoFailed, description: serverMessage(error) });
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
      } catch (error) {
        // The server's own words when it said why (an owner took 'Excluir' away).
        toast({ ...panelMessages.deleteFailed, description: serverMessage(error) });
        return false;
      }
    });
  };

  return {
    busy,
    onMarkSent: setToMark,
    /** The lead 'Marcar Enviado' asks about, for `ConfirmMarkSent`. */
    toMark,
    onCancelMarkSent: () => setToMark(null),
    onConfirmMarkSent,
    onResend,
    onSpoke,
    onDelete: setToDelete,
    /** The lead 'Excluir' asks about, for `ConfirmDelete`. */
    toDelete,
    onCancelDelete: () => setToDelete(null),
    onConfirmDelete,
  };
}
