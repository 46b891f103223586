import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TurnstileApi, WidgetOptions } from "./widget";

function answerConfig(siteKey: string | null) {
  const fetchMock = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ success: true, turnstile_site_key: siteKey }), {
        headers: { "Content-Type": "application/json" },
      }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** A fresh module per test: the settings and the script are loaded once per page. */
async function freshHook() {
  vi.resetModules();
  const { useTurnstile } = await import("./useTurnstile");
  const hook = renderHook(() => useTurnstile("lead"));
  const container = document.createElement("div");
  hook.result.current.containerRef.current = container;
  return { hook, container };
}

const scripts = () => document.head.querySelectorAll("script[src*='challenges.cloudflare.com']");

describe("useTurnstile", () => {
  beforeEach(() => {
    window.turnstile = undefined;
    for (const s of scripts()) s.remove();
  });
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the settings only once the form is used", async () => {
    const fetchMock = answerConfig(null);
    const { hook } = await freshHook();
    expect(fetchMock).not.toHaveBeenCalled();
    act(() => hook.result.current.activate());
    act(() => hook.result.current.activate());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledWith("/api/config", expect.objectContaining({ method: "GET" }));
  });

  it("with Turnstile off sends no token and loads no third-party script", async () => {
    answerConfig(null);
    const { hook } = await freshHook();
    await expect(hook.result.current.token()).resolves.toBeUndefined();
    expect(scripts()).toHaveLength(0);
  });

  it("with a site key renders the widget and gives each submission a fresh token", async () => {
    answerConfig("1x00000000000000000000AA");
    let options: WidgetOptions | undefined;
    const api: TurnstileApi = {
      render: vi.fn((_container: HTMLElement, o: WidgetOptions) => {
        options = o;
        return "widget-1";
      }),
      reset: vi.fn(),
    };
    window.turnstile = api;
    const { hook, container } = await freshHook();

    const first = hook.result.current.token();
    await waitFor(() => expect(api.render).toHaveBeenCalledTimes(1));
    expect(vi.mocked(api.render).mock.calls[0]?.[0]).toBe(container);
    expect(options?.sitekey).toBe("1x00000000000000000000AA");
    expect(options?.language).toBe("pt-BR");
    options?.callback("XXXX.DUMMY.TOKEN.XXXX");
    await expect(first).resolves.toBe("XXXX.DUMMY.TOKEN.XXXX");

    hook.result.current.reset();
    expect(api.reset).toHaveBeenCalledWith("widget-1");
    const second = hook.result.current.token();
    options?.callback("SECOND.TOKEN");
    await expect(second).resolves.toBe("SECOND.TOKEN");
    expect(api.render).toHaveBeenCalledTimes(1);
  });
});
