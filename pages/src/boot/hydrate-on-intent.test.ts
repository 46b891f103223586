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

  /** Paint timing as a browser reports it, the page's web fonts, and when each comes. */
  function paintTiming(win: globalThis.Window) {
    let report: ((list: { getEntriesByName(name: string): unknown[] }) => void) | null = null;
    class PaintObserver {
      static supportedEntryTypes = ["paint", "largest-contentful-paint"];
      constructor(callback: typeof report) {
        report = callback;
      }
      observe() {}
      disconnect() {
        report = null;
      }
    }
    Object.defineProperty(win, "PerformanceObserver", { value: PaintObserver });
    let fontsDrawn: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      fontsDrawn = resolve;
    });
    Object.defineProperty(win.document, "fonts", { value: { ready } });
    const entries = (name: string) => ({ getEntriesByName: (n: string) => (n === name ? [{}] : []) });
    return {
      painted: () => report?.(entries("first-contentful-paint")),
      paintedOther: () => report?.(entries("first-paint")),
      fontsDrawn: () => fontsDrawn(),
      observing: () => report !== null,
    };
  }
  const moment = () => new Promise((r) => setTimeout(r, 50));

  it("where paint timing is reported, waits after load for the first contentful paint", async () => {
    const { win, idle, load } = await open();
    const timing = paintTiming(win);
    timing.fontsDrawn();
    const start = vi.fn();
    startOnIntentOrIdle(start, win);
    load();
    await moment();
    timing.paintedOther();
    await moment();
    expect(idle).toHaveLength(0);
    timing.painted();
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    expect(timing.observing()).toBe(false);
    idle[0]?.();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("and for the web fonts, whose swap is the text's last paint", async () => {
    const { win, idle, load } = await open();
    const timing = paintTiming(win);
    const start = vi.fn();
    startOnIntentOrIdle(start, win);
    load();
    timing.painted();
    await moment();
    expect(idle).toHaveLength(0);
    timing.fontsDrawn();
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
