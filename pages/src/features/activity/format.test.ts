import { describe, expect, it } from "vitest";
import { describeFilter } from "./format";

describe("an export's filter, as 'Atividade' says it", () => {
  it("names what the list's toolbar and chips name, in their words", () => {
    expect(
      describeFilter({ status: "pendentes", q: "silva", de: "2026-11-20", ate: "2026-11-26", fonte: "instagram" }),
    ).toBe("Pendentes · busca “silva” · 20/11/2026 – 26/11/2026 · Instagram");
    expect(describeFilter({ campanha: "", anuncio: "carrossel" })).toBe("campanha (sem campanha) · anúncio carrossel");
    expect(describeFilter({ de: "2026-11-20" })).toBe("desde 20/11/2026");
  });

  it("says 'Todos os leads' for an export without a filter", () => {
    expect(describeFilter({})).toBe("Todos os leads");
    expect(describeFilter(undefined)).toBe("Todos os leads");
    expect(describeFilter({ status: "todos" })).toBe("Todos os leads");
  });
});
