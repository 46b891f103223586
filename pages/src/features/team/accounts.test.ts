import { describe, expect, it } from "vitest";
import { otherAddresses } from "./accounts";
import type { Account } from "./api";

const account = (id: string, email: string, extra: Partial<Account> = {}): Account => ({
  id,
  email,
  mailbox: email.replace(/\+[^@]*@/, "@"),
  role: "staff",
  confirmed: true,
  disabled: false,
  created_at: null,
  confirmed_at: null,
  last_sign_in_at: null,
  disabled_at: null,
  live_sessions: 0,
  alert_missed_at: null,
  ...extra,
});

describe("otherAddresses", () => {
  it("names the person's other accounts still on, never yours", () => {
    const ana = account("1", "ana@imob.com.br");
    const team = [
      ana,
      account("2", "ana+celular@imob.com.br"),
      account("3", "ana+antigo@imob.com.br", { disabled: true }),
      account("4", "anax@imob.com.br"),
      account("5", "ana+eu@imob.com.br"),
    ];
    expect(otherAddresses(team, ana, "5").map((a) => a.email)).toEqual(["ana+celular@imob.com.br"]);
    expect(otherAddresses(team, team[3] as Account, "5")).toEqual([]);
  });
});
