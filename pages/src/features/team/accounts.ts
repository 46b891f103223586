import type { Account } from "./api";

/**
 * The person's other accounts still on (`ana+x@` beside `ana@`: one mailbox),
 * which 'Desativar' switches off with `account`; never yours.
 */
export function otherAddresses(accounts: Account[], account: Account, you: string): Account[] {
  return accounts.filter((a) => a.mailbox === account.mailbox && a.id !== account.id && a.id !== you && !a.disabled);
}
