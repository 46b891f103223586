import { Window } from "happy-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { INTENT_EVENTS, startOnIntentOrIdle } from "./hydrate-on-intent";

/** A window of its own per test: a page with a form and a link outside it, loaded or still loading. */
async function page({ loaded = false, idleCallbacks = true } = {}) {
  const happy = new Window();
  // The blank page happy-dom opens with fires its own load event: let it pass first.
  await happy.happyDOM.waitUntilComplete();
  await new Promise((r) => setTimeout(r, 20));
  const win = happy as unknown as globalThis.Window;
  win.document.body.innerHTML = `<form><input id="name"><button>Enviar</button></form><a id="outside" href="/">x</a>`;
  Object.defineProperty(win.document, "readyState", { get: () => (loaded ? "complete" : "loading") });
  const idle: (() => void)[] = [];
  Object.defineProperty(win, "requestIdleCallback", {
    value: idleCallbacks ? (callback: () => void) => idle.push(callback) : undefined,
  });
  const load = () => win.dispatchEvent(new happy.Event("load") as unknown as Event);
  const fire = (id: string, type: string) =>
    win.document.getElementById(id)?.dispatchEvent(new happy.Event(type, { bubbles: true }) as unknown as Event);
  return { win, idle, load, fire, close: () => happy.happyDOM.close() };
}

describe("startOnIntentOrIdle", () => {
  let current: Awaited<ReturnType<typeof page>> | null = null;
  const open = async (options?: Parameters<typeof page>[0]) => {
    current = await page(options);
    return current;
  };
  afterEach(async () => {
    await current?.close();
  });

  for (const type of INTENT_EVENTS) {
    it(`starts at the first ${type} inside the form, once`, async () => {
      const { win, idle, load, fire } = await open();
      const start = vi.fn();
      startOnIntentOrIdle(start, win);
      expect(start).not.toHaveBeenCalled();
      fire("name", type);
      expect(start).toHaveBeenCalledTimes(1);
      fire("name", type);
      load();
      await vi.waitFor(() => expect(idle).toHaveLength(1));
      idle[0]?.();
      expect(start).toHaveBeenCalledTimes(1);
    });
  }

  it("ignores a touch outside the form", async () => {
    const { win, fire } = await open();
    const start = vi.fn();
    startOnIntentOrIdle(start, win);
    fire("outside", "pointerdown");
    fire("outside", "focusin");
    expect(start).not.toHaveBeenCalled();
  });

  it("starts when the browser is idle after load and the next frame, not before load", async () => {
    const { win, idle, load } = await open();
    const start = vi.fn();
    startOnIntentOrIdle(start, win);
    await new Promise((r) => setTimeout(r, 50));
    expect(idle).toHaveLength(0);
    load();
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    expect(start).not.toHaveBeenCalled();
    idle[0]?.();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("waits only for a frame and idleness when the page has loaded already", async () => {
    const { win, idle } = await open({ loaded: true });
    const start = vi.fn();
    startOnIntentOrIdle(start, win);
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    idle[0]?.();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("without requestIdleCallback starts just after load and the next frame", async () => {
    const { win, load } = await open({ idleCallbacks: false });
    const start = vi.fn();
    startOnIntentOrIdle(start, win);
    load();
    expect(start).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(start).toHaveBeenCalledTimes(1));
  });
});
