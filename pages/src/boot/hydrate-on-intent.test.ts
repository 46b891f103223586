import { Window } from "happy-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { INTENT_EVENTS, startOnIntent } from "./hydrate-on-intent";

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

describe("startOnIntent", () => {
  let current: Awaited<ReturnType<typeof page>> | null = null;
  const open = async (options?: Parameters<typeof page>[0]) => {
    current = await page(options);
    return current;
  };
  afterEach(async () => {
    await current?.close();
  });
  /** `start` and `prepare`, watched, given to startOnIntent on `win`. */
  const watch = (win: globalThis.Window) => {
    const start = vi.fn();
    const prepare = vi.fn();
    startOnIntent(start, prepare, win);
    return { start, prepare };
  };

  for (const type of INTENT_EVENTS) {
    it(`starts at the first ${type} inside the form, once, and then has nothing to prepare`, async () => {
      const { win, idle, load, fire } = await open();
      const { start, prepare } = watch(win);
      expect(start).not.toHaveBeenCalled();
      fire("name", type);
      expect(start).toHaveBeenCalledTimes(1);
      fire("name", type);
      load();
      await vi.waitFor(() => expect(idle).toHaveLength(1));
      idle[0]?.();
      expect(start).toHaveBeenCalledTimes(1);
      expect(prepare).not.toHaveBeenCalled();
    });
  }

  it("ignores a touch outside the form", async () => {
    const { win, fire } = await open();
    const { start } = watch(win);
    fire("outside", "pointerdown");
    fire("outside", "focusin");
    expect(start).not.toHaveBeenCalled();
  });

  it("when the browser is idle after load and the next frame prepares, once, and starts only at a touch", async () => {
    const { win, idle, load, fire } = await open();
    const { start, prepare } = watch(win);
    await new Promise((r) => setTimeout(r, 50));
    expect(idle).toHaveLength(0);
    load();
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    expect(prepare).not.toHaveBeenCalled();
    idle[0]?.();
    idle[0]?.();
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(start).not.toHaveBeenCalled();
    fire("name", "focusin");
    expect(start).toHaveBeenCalledTimes(1);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it("waits only for a frame and idleness when the page has loaded already", async () => {
    const { win, idle } = await open({ loaded: true });
    const { start, prepare } = watch(win);
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    idle[0]?.();
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(start).not.toHaveBeenCalled();
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
    const { prepare } = watch(win);
    load();
    await moment();
    timing.paintedOther();
    await moment();
    expect(idle).toHaveLength(0);
    timing.painted();
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    expect(timing.observing()).toBe(false);
    idle[0]?.();
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it("and for the web fonts, whose swap is the text's last paint", async () => {
    const { win, idle, load } = await open();
    const timing = paintTiming(win);
    const { prepare } = watch(win);
    load();
    timing.painted();
    await moment();
    expect(idle).toHaveLength(0);
    timing.fontsDrawn();
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    idle[0]?.();
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it("without requestIdleCallback prepares just after load and the next frame", async () => {
    const { win, load } = await open({ idleCallbacks: false });
    const { prepare } = watch(win);
    load();
    expect(prepare).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(prepare).toHaveBeenCalledTimes(1));
  });
});
