import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { listAddress, NO_FILTERS, toSearch } from "../../lib/leadLinks";
import { readParams, useListParams } from "./useListParams";

const address = () => `${window.location.pathname}${window.location.search}`;

describe("useListParams", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("reads the view from the address and writes a change back to it", () => {
    window.history.replaceState(null, "", "/admin?status=pendentes&q=ana&page=2");
    const { result } = renderHook(() => useListParams());
    expect(result.current[0]).toEqual({ status: "pendentes", contato: "", q: "ana", page: 2, ...NO_FILTERS });

    act(() =>
      result.current[1]({ status: "pendentes", contato: "", q: "bia", page: 1, ...NO_FILTERS }, { replace: true }),
    );
    expect(result.current[0]).toEqual({ status: "pendentes", contato: "", q: "bia", page: 1, ...NO_FILTERS });
    expect(new URLSearchParams(window.location.search).get("q")).toBe("bia");
    expect(window.location.pathname).toBe("/admin");
  });

  it("drops a change that comes after the address left the list (a search applied while a lead's page opens)", () => {
    window.history.replaceState(null, "", "/admin?q=ana");
    const { result } = renderHook(() => useListParams());
    window.history.pushState(null, "", "/admin/leads/lead-1");

    act(() =>
      result.current[1](
        { status: "todos", contato: "", q: "(49) 98187-9612", page: 1, ...NO_FILTERS },
        { replace: true },
      ),
    );
    expect(address()).toBe("/admin/leads/lead-1");
    expect(result.current[0].q).toBe("ana");
  });
});

describe("the list's period and campaign in the address", () => {
  it("reads back what it wrote, a campaign left empty ('sem campanha') apart from none asked for", () => {
    const withoutCampaign = {
      ...readParams(""),
      de: "2026-11-20",
      ate: "2026-11-26",
      fonte: "instagram",
      campanha: "",
      anuncio: null,
    };
    const search = toSearch(withoutCampaign);
    expect(new URLSearchParams(search).has("campanha")).toBe(true);
    expect(new URLSearchParams(search).has("anuncio")).toBe(false);
    expect(readParams(search)).toEqual(withoutCampaign);
    expect(readParams(toSearch({ ...withoutCampaign, campanha: null }))).toEqual({
      ...withoutCampaign,
      campanha: null,
    });
  });

  it("links 'Campanhas' rows to the list of their leads", () => {
    expect(
      listAddress({ de: "2026-11-20", ate: "2026-11-26", fonte: "instagram", campanha: "lancamento", anuncio: "" }),
    ).toBe("/admin?de=2026-11-20&ate=2026-11-26&fonte=instagram&campanha=lancamento&anuncio=");
  });

  it("ignores a period that is not a day", () => {
    expect(readParams("?de=ontem&ate=2026-02-30")).toMatchObject({ de: "", ate: "" });
  });
});
