import { useEffect, useRef } from "react";
import { useToast } from "../../lib/toast";
import { awaitingMessages } from "./AwaitingApproval";

/**
 * Says so when the page turns from 'Aguardando aprovação' into the panel (a
 * tick brought an owner's 'Aprovar'), and puts the focus, which the card's
 * 'Sair' may have held, on the page's heading. `approved`: null while nobody is signed in.
 */
export function useApprovalNews(approved: boolean | null) {
  const { toast } = useToast();
  const waited = useRef(false);
  useEffect(() => {
    if (approved === false) {
      waited.current = true;
      return;
    }
    if (approved && waited.current) {
      toast(awaitingMessages.approved);
      if (document.activeElement === document.body || document.activeElement === null) {
        document.querySelector<HTMLElement>("h1")?.focus({ preventScroll: true });
      }
    }
    waited.current = false;
  }, [approved, toast]);
}
