import type { Account, TeamAction } from "./api";
import { teamMessages } from "./messages";

/**
 * The person's other accounts still on (`ana+x@` beside `ana@`: one mailbox),
 * which 'Desativar' on the mailbox's own address switches off with it; never
 * yours. 'Desativar' on an alias (`ana+x@`, which anyone can sign up for
 * Ana's mailbox) switches off that alias alone.
 */
export function otherAddresses(accounts: Account[], account: Account, you: string): Account[] {
  if (account.email !== account.mailbox) return [];
  return accounts.filter((a) => a.mailbox === account.mailbox && a.id !== account.id && a.id !== you && !a.disabled);
}

/** Confirmed, and not yet let in by an owner (STAFF_APPROVAL): 'Aprovar' or 'Recusar'. */
export function isWaiting(account: Account): boolean {
  return account.confirmed && !account.approved && !account.disabled;
}

/** The account's 'Situação' badge: its words and its colour. */
export function situationOf(account: Account): { label: string; tone: "failed" | "pending" | "sent" } {
  if (account.disabled) return { label: teamMessages.disabled, tone: "failed" };
  if (!account.confirmed) return { label: teamMessages.pending, tone: "pending" };
  if (!account.approved) return { label: teamMessages.awaitingApproval, tone: "pending" };
  return { label: teamMessages.confirmed, tone: "sent" };
}

/**
 * The buttons of an account's row, first the one it most likely needs. A
 * waiting account gets only 'Aprovar' and 'Recusar' (which switches it off):
 * made an owner before that, it would still reach nothing.
 */
export function actionsFor(account: Account, isYou: boolean): TeamAction[] {
  if (account.disabled) return ["enable"];
  if (isWaiting(account)) return ["approve", "refuse"];
  const actions: TeamAction[] = [];
  if (account.live_sessions > 0) actions.push("end-sessions");
  if (account.confirmed) actions.push(account.role === "owner" ? "remove-owner" : "make-owner");
  if (!isYou) actions.push("disable");
  return actions;
}
