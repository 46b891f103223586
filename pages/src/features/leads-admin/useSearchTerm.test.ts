import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SEARCH_DELAY_MS, useSearchTerm } from "./useSearchTerm";

function searchBox(q = "") {
  const apply = vi.fn<(term: string) => void>();
  const hook = renderHook(({ q }) => useSearchTerm(q, apply), { initialProps: { q } });
  const type = (text: string) => act(() => hook.result.current[1](text));
  const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
  return { apply, hook, type, wait, text: () => hook.result.current[0] };
}

describe("useSearchTerm", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("searches once, SEARCH_DELAY_MS after the last key", () => {
    const box = searchBox();
    box.type("A");
    box.wait(SEARCH_DELAY_MS - 100);
    box.type("Ana");
    box.wait(SEARCH_DELAY_MS - 1);
    expect(box.apply).not.toHaveBeenCalled();
    box.wait(1);
    expect(box.apply.mock.calls).toEqual([["Ana"]]);
  });

  it("keeps what was typed after a search started when the address catches up with that search", () => {
    const box = searchBox();
    box.type("Visitante");
    box.wait(SEARCH_DELAY_MS);
    expect(box.apply.mock.calls).toEqual([["Visitante"]]);
    // The person types on before the address shows the first search.
    box.type("(49) 98187-9612");
    box.hook.rerender({ q: "Visitante" });
    expect(box.text()).toBe("(49) 98187-9612");
    box.wait(SEARCH_DELAY_MS);
    expect(box.apply.mock.calls).toEqual([["Visitante"], ["(49) 98187-9612"]]);
  });

  it("follows the address when it changes on its own (Back, Forward), without searching again", () => {
    const box = searchBox("ana");
    expect(box.text()).toBe("ana");
    box.hook.rerender({ q: "bia" });
    expect(box.text()).toBe("bia");
    box.wait(SEARCH_DELAY_MS);
    expect(box.apply).not.toHaveBeenCalled();
  });
});
