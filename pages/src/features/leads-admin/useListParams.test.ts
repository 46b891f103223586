import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useListParams } from "./useListParams";

const address = () => `${window.location.pathname}${window.location.search}`;

describe("useListParams", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("reads the view from the address and writes a change back to it", () => {
    window.history.replaceState(null, "", "/admin?status=pendentes&q=ana&page=2");
    const { result } = renderHook(() => useListParams());
    expect(result.current[0]).toEqual({ status: "pendentes", q: "ana", page: 2 });

    act(() => result.current[1]({ status: "pendentes", q: "bia", page: 1 }, { replace: true }));
    expect(result.current[0]).toEqual({ status: "pendentes", q: "bia", page: 1 });
    expect(new URLSearchParams(window.location.search).get("q")).toBe("bia");
    expect(window.location.pathname).toBe("/admin");
  });

  it("drops a change that comes after the address left the list (a search applied while a lead's page opens)", () => {
    window.history.replaceState(null, "", "/admin?q=ana");
    const { result } = renderHook(() => useListParams());
    window.history.pushState(null, "", "/admin/leads/lead-1");

    act(() => result.current[1]({ status: "todos", q: "(49) 98187-9612", page: 1 }, { replace: true }));
    expect(address()).toBe("/admin/leads/lead-1");
    expect(result.current[0].q).toBe("ana");
  });
});
