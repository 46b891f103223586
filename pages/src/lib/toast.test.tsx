import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACTION_VISIBLE_MS, type ToastInput, ToastProvider, useToast } from "./toast";

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = "";
});

/** A page with one button that shows `input` as a toast. */
function Page({ input }: { input: ToastInput }) {
  const { toast } = useToast();
  return (
    <button type="button" onClick={() => toast(input)}>
      Salvar
    </button>
  );
}

function showToast(input: ToastInput) {
  render(
    <ToastProvider>
      <Page input={input} />
    </ToastProvider>,
  );
  const trigger = screen.getByRole("button", { name: "Salvar" });
  trigger.focus();
  fireEvent.click(trigger);
  // The words go into the live region a moment after the box appears.
  act(() => {
    vi.advanceTimersByTime(150);
  });
  return trigger;
}

const marked = (onClick = vi.fn()): ToastInput => ({
  title: "Status Jetimob atualizado",
  action: { label: "Desfazer", onClick },
});

describe("a toast with an action", () => {
  it("offers the action beside its words, outside what is announced, and runs it once, closing the toast", () => {
    vi.useFakeTimers();
    const undo = vi.fn();
    showToast(marked(undo));
    expect(screen.getByRole("status").textContent).toBe("Status Jetimob atualizado");
    fireEvent.click(screen.getByRole("button", { name: "Desfazer" }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("Status Jetimob atualizado")).toBeNull();
    expect(screen.queryByRole("button", { name: "Desfazer" })).toBeNull();
  });

  it("stays 10 seconds, where a toast without one stays 6", () => {
    vi.useFakeTimers();
    showToast(marked());
    act(() => {
      vi.advanceTimersByTime(7_000);
    });
    expect(screen.getByRole("button", { name: "Desfazer" })).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(ACTION_VISIBLE_MS - 7_000);
    });
    expect(screen.queryByRole("button", { name: "Desfazer" })).toBeNull();

    document.body.innerHTML = "";
    showToast({ title: "Lead removido com sucesso" });
    act(() => {
      vi.advanceTimersByTime(6_000);
    });
    expect(screen.queryByText("Lead removido com sucesso")).toBeNull();
  });

  it("is reached with F8, waits while it has the focus, and gives the focus back once pressed", () => {
    vi.useFakeTimers();
    const undo = vi.fn();
    const trigger = showToast(marked(undo));
    fireEvent.keyDown(document, { key: "F8" });
    const action = screen.getByRole("button", { name: "Desfazer" });
    expect(document.activeElement).toBe(action);
    act(() => {
      vi.advanceTimersByTime(ACTION_VISIBLE_MS * 3);
    });
    expect(screen.getByRole("button", { name: "Desfazer" })).toBe(action);

    fireEvent.click(action);
    expect(undo).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(trigger);
  });

  it("closes with Escape without running the action, the focus going back", () => {
    vi.useFakeTimers();
    const undo = vi.fn();
    const trigger = showToast(marked(undo));
    fireEvent.keyDown(document, { key: "F8" });
    fireEvent.keyDown(screen.getByRole("button", { name: "Desfazer" }), { key: "Escape" });
    expect(screen.queryByRole("button", { name: "Desfazer" })).toBeNull();
    expect(undo).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(trigger);
  });
});
