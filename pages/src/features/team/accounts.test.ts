import { describe, expect, it } from "vitest";
import { actionsFor, otherAddresses, situationOf } from "./accounts";
import { testAccount as account } from "./accounts.fixture";
import type { Account } from "./api";

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

  it("names none for an alias: 'Desativar' on ana+x@, which anyone can sign up, switches off that row alone", () => {
    const team = [
      account("1", "ana@imob.com.br"),
      account("2", "ana+x@imob.com.br"),
      account("3", "ana+y@imob.com.br"),
    ];
    expect(otherAddresses(team, team[1] as Account, "9")).toEqual([]);
  });
});

describe("an account waiting for approval", () => {
  const waiting = account("1", "bia@imob.com.br", { approved: false, live_sessions: 1 });

  it("says so, and offers only 'Aprovar' and 'Recusar'", () => {
    expect(situationOf(waiting).label).toBe("Aguardando aprovação");
    expect(actionsFor(waiting, false)).toEqual(["approve", "refuse"]);
  });

  it("is not waiting while its e-mail is unconfirmed, nor once switched off", () => {
    const unconfirmed = { ...waiting, confirmed: false, live_sessions: 0 };
    expect(situationOf(unconfirmed).label).toBe("Aguardando confirmação");
    expect(actionsFor(unconfirmed, false)).toEqual(["disable"]);
    const refused = { ...waiting, disabled: true };
    expect(situationOf(refused).label).toBe("Desativada");
    expect(actionsFor(refused, false)).toEqual(["enable"]);
  });

  it("once approved, is an ordinary confirmed account", () => {
    const approved = { ...waiting, approved: true };
    expect(situationOf(approved).label).toBe("Confirmada");
    expect(actionsFor(approved, false)).toEqual(["end-sessions", "make-owner", "disable"]);
  });
});
