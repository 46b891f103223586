import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isShortTerm, SEARCH_DELAY_MS, useSearchTerm } from "./useSearchTerm";

function searchBox(q = "") {
  const apply = vi.fn<(term: string) => void>();
  const hook = renderHook(({ q }) => useSearchTerm(q, apply), { initialProps: { q } });
  const type = (text: string) => act(() => hook.result.current[1](text));
  const enter = () => act(() => hook.result.current[2]());
  const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
  return { apply, hook, type, enter, wait, text: () => hook.result.current[0] };
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

  it("waits for a third character, or for Enter, before it searches a term of one or two", () => {
    const box = searchBox();
    box.type("S");
    box.wait(SEARCH_DELAY_MS);
    box.type("Si");
    box.wait(10 * SEARCH_DELAY_MS);
    expect(box.apply).not.toHaveBeenCalled();
    box.type("Sil");
    box.wait(SEARCH_DELAY_MS);
    expect(box.apply.mock.calls).toEqual([["Sil"]]);
    // 'Zé' is someone's whole name: Enter searches it at once.
    box.hook.rerender({ q: "Sil" });
    box.type("Zé");
    box.wait(SEARCH_DELAY_MS);
    box.enter();
    expect(box.apply.mock.calls).toEqual([["Sil"], ["Zé"]]);
    // Emptying the box shows every lead again, without Enter.
    box.hook.rerender({ q: "Zé" });
    box.type("");
    box.wait(SEARCH_DELAY_MS);
    expect(box.apply.mock.calls).toEqual([["Sil"], ["Zé"], [""]]);
  });
});

describe("isShortTerm", () => {
  it("counts what the worker searches: the words, or a phone number's digits", () => {
    expect(isShortTerm("")).toBe(false);
    expect(isShortTerm("  ")).toBe(false);
    expect(isShortTerm("Zé")).toBe(true);
    expect(isShortTerm(" a  b ")).toBe(false);
    expect(isShortTerm("Ana")).toBe(false);
    expect(isShortTerm("(49)")).toBe(true);
    expect(isShortTerm("(49) 9")).toBe(false);
    expect(isShortTerm("+5")).toBe(true);
  });
});
