import { act, renderHook, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { ToastProvider } from "./toast";
import { useLoad } from "./useLoad";

const FAILURE = { title: "Erro", description: "Erro ao carregar a lista", variant: "destructive" } as const;

/** A request the test answers when it chooses, with the signal it was sent with. */
type Asked = { view: string; signal: AbortSignal; answer: (text: string) => void; fail: (error: unknown) => void };

/** Every request the hook made, in order; each waits for the test to answer it. */
let asked: Asked[] = [];

function fetchLater(view: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    asked.push({ view, signal, answer: resolve, fail: reject });
  });
}

function wrapper({ children }: { children: ReactNode }) {
  return <ToastProvider>{children}</ToastProvider>;
}

function renderLoad(options: Partial<Parameters<typeof useLoad<string, string>>[0]> = {}) {
  return renderHook(() => useLoad<string, string>({ fetch: fetchLater, failure: FAILURE, ...options }), { wrapper });
}

/** The last request, answered; and the hook's updates let through. */
async function answerLast(text: string) {
  await act(async () => asked.at(-1)?.answer(text));
}

async function failLast(error: unknown) {
  await act(async () => asked.at(-1)?.fail(error));
}

afterEach(() => {
  asked = [];
  document.body.innerHTML = "";
});

describe("useLoad", () => {
  it("shows the answer of the latest view asked for, whatever the order the answers arrive in", async () => {
    const { result } = renderLoad();
    act(() => void result.current.load("pendentes"));
    act(() => void result.current.load("enviados"));
    expect(asked.map((a) => a.view)).toEqual(["pendentes", "enviados"]);

    await answerLast("os enviados");
    await act(async () => asked[0]?.answer("os pendentes"));
    expect(result.current.data).toBe("os enviados");
    expect(result.current.loading).toBe(false);
  });

  it("aborts the request before when another starts, and the one on its way when the panel goes", async () => {
    const { result, unmount } = renderLoad();
    act(() => void result.current.load("pendentes"));
    act(() => void result.current.load("enviados"));
    expect(asked[0]?.signal.aborted).toBe(true);
    expect(asked[1]?.signal.aborted).toBe(false);

    unmount();
    expect(asked[1]?.signal.aborted).toBe(true);
  });

  it("hands the fetch the answer on screen, so a reload may ask only whether it changed", async () => {
    const onScreen: (string | null)[] = [];
    const { result } = renderLoad({
      fetch: (view, signal, shown) => {
        onScreen.push(shown);
        return fetchLater(view, signal);
      },
    });
    act(() => void result.current.load("todos"));
    await answerLast("a lista");
    act(() => void result.current.load("todos", { quiet: true }));
    expect(onScreen).toEqual([null, "a lista"]);
  });

  it("keeps the page on screen and says nothing when a quiet reload fails", async () => {
    const { result } = renderLoad();
    act(() => void result.current.load("todos"));
    await answerLast("a lista");

    act(() => void result.current.load("todos", { quiet: true }));
    expect(result.current.loading).toBe(false);
    await failLast(new ApiError(500, "erro interno"));
    expect(result.current.data).toBe("a lista");
    expect(result.current.failed).toBe(false);
    expect(screen.queryAllByRole("alert")).toEqual([]);
  });

  it("says a failed load staff asked for, shows nothing of another view, and loads it again on 'Tentar novamente'", async () => {
    const { result } = renderLoad();
    act(() => void result.current.load("todos"));
    await answerLast("todos os leads");

    act(() => void result.current.load("falhas"));
    await failLast(new ApiError(0, "Sem conexão com o servidor."));
    expect(result.current.failed).toBe(true);
    expect(result.current.data).toBeNull();
    expect(await screen.findByText(FAILURE.description)).toBeTruthy();

    act(() => result.current.retry());
    expect(asked.at(-1)?.view).toBe("falhas");
    expect(result.current.loading).toBe(true);
    expect(result.current.failed).toBe(false);
    await answerLast("os que falharam");
    expect(result.current.data).toBe("os que falharam");
  });

  it("with `keep`, leaves the last answer on screen when a load fails", async () => {
    const { result } = renderLoad({ keep: true });
    act(() => void result.current.load("equipe"));
    await answerLast("a equipe");
    act(() => void result.current.load("equipe"));
    await failLast(new ApiError(500, "erro interno"));
    expect(result.current.data).toBe("a equipe");
    expect(result.current.failed).toBe(true);
  });

  it("says nothing when the session ended (401): the page is on its way to /auth", async () => {
    const failures: unknown[] = [];
    const { result } = renderLoad({ onFailure: (error) => failures.push(error) });
    act(() => void result.current.load("todos"));
    await failLast(new ApiError(401, "Sessão expirada"));
    expect(result.current.failed).toBe(false);
    expect(screen.queryAllByRole("alert")).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  it("hands a refusal the panel words itself to `refusal`, even from a quiet reload", async () => {
    const { result } = renderLoad({ refusals: [404] });
    act(() => void result.current.load("lead-1"));
    await answerLast("o lead");
    act(() => void result.current.reload());
    expect(asked.at(-1)?.view).toBe("lead-1");
    await failLast(new ApiError(404, "Lead não encontrado"));
    expect(result.current.refusal?.status).toBe(404);
    expect(result.current.failed).toBe(false);
    expect(screen.queryAllByRole("alert")).toEqual([]);
  });

  it("says what a view staff asked for brought, but not the first one nor a quiet reload's", async () => {
    const { result } = renderLoad({ announce: (answer) => `${answer} encontrados` });
    act(() => void result.current.load("todos"));
    await answerLast("3 leads");
    expect(result.current.said).toBe("");

    act(() => void result.current.load("todos", { quiet: true }));
    await answerLast("4 leads");
    expect(result.current.said).toBe("");

    act(() => void result.current.load("pendentes"));
    await answerLast("2 leads");
    expect(result.current.said).toBe("2 leads encontrados");
  });

  it("leaves the screen as it is when the fetch asks for another view instead (null)", async () => {
    const { result } = renderLoad({
      fetch: (view, signal) => (view === "page-9" ? Promise.resolve(null) : fetchLater(view, signal)),
    });
    act(() => void result.current.load("page-1"));
    await answerLast("a primeira página");
    await act(() => result.current.load("page-9"));
    expect(result.current.data).toBe("a primeira página");
    expect(result.current.failed).toBe(false);
    expect(result.current.loading).toBe(false);
  });
});
