import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Delivery } from "./api";
import { LeadAnswers } from "./LeadAnswers";

const answered = {
  answers: { finalidade: "Para investir" },
  answers_at: "2026-11-28T12:00:00Z",
  landline: false,
};

const delivery = (change: Partial<Delivery>): Delivery => ({
  destination: "jetimob_answers",
  status: "pending",
  attempts: 0,
  next_attempt_at: null,
  last_attempt_at: null,
  last_error: null,
  sent_at: null,
  can_resend: false,
  ...change,
});

describe("LeadAnswers", () => {
  it("shows each answer, and 'Sem resposta' for a question left open", () => {
    render(<LeadAnswers lead={answered} />);
    expect(screen.getByText("Para investir")).toBeTruthy();
    expect(screen.getByText("Sem resposta")).toBeTruthy();
    expect(screen.queryByText(/Jetimob/)).toBeNull();
  });

  it("says whether Jetimob has the answers as they stand", () => {
    const { rerender } = render(<LeadAnswers lead={answered} delivery={delivery({})} />);
    expect(screen.getByText("Aguardando envio ao Jetimob: vão assim que o Jetimob tiver o lead.")).toBeTruthy();
    rerender(<LeadAnswers lead={answered} delivery={delivery({ last_error: "HTTP 503: fora do ar" })} />);
    expect(screen.getByText("Aguardando envio ao Jetimob (última resposta: HTTP 503: fora do ar).")).toBeTruthy();
    rerender(<LeadAnswers lead={answered} delivery={delivery({ status: "sent", sent_at: "2026-11-28T12:01:00Z" })} />);
    expect(screen.getByText("Enviadas ao Jetimob em 28/11/2026 09:01.")).toBeTruthy();
    rerender(<LeadAnswers lead={answered} delivery={delivery({ status: "expired", last_error: null })} />);
    expect(screen.getByText("Não enviadas ao Jetimob: passou a semana de tentativas.")).toBeTruthy();
  });
});
