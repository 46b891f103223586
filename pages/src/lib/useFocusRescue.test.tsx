import { act, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useFocusRescue } from "./useFocusRescue";

afterEach(() => {
  document.body.innerHTML = "";
});

type Row = { id: string; actions: string[] };

/** A list of rows with their actions, as the leads' and the team's tables are. */
function List({ rows }: { rows: Row[] }) {
  const list = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusRescue(list, { items: "li", target: "button", fallback: () => heading.current });
  return (
    <section ref={list}>
      <h2 ref={heading} tabIndex={-1}>
        Lista
      </h2>
      <ul>
        {rows.map((row) => (
          <li key={row.id}>
            {row.actions.map((action) => (
              <button key={action} type="button">
                {`${action} ${row.id}`}
              </button>
            ))}
          </li>
        ))}
      </ul>
      <button type="button">Exportar</button>
    </section>
  );
}

const focused = () => document.activeElement?.textContent;

describe("useFocusRescue", () => {
  it("moves the focus of a button that went away to its row's first action", () => {
    const { rerender } = render(<List rows={[{ id: "a", actions: ["Marcar", "Excluir"] }]} />);
    act(() => screen.getByRole("button", { name: "Marcar a" }).focus());
    rerender(<List rows={[{ id: "a", actions: ["Excluir"] }]} />);
    expect(focused()).toBe("Excluir a");
  });

  it("moves the focus of a row that went away to the row now in its place, the last row, then the heading", () => {
    const rows = ["a", "b", "c"].map((id) => ({ id, actions: ["Excluir"] }));
    const { rerender } = render(<List rows={rows} />);
    act(() => screen.getByRole("button", { name: "Excluir b" }).focus());
    rerender(<List rows={rows.filter((r) => r.id !== "b")} />);
    expect(focused()).toBe("Excluir c");

    rerender(<List rows={rows.filter((r) => r.id === "a")} />);
    expect(focused()).toBe("Excluir a");

    rerender(<List rows={[]} />);
    expect(focused()).toBe("Lista");
  });

  it("leaves the focus alone where the person put it, and when nothing went away", () => {
    const rows = ["a", "b"].map((id) => ({ id, actions: ["Excluir"] }));
    const { rerender } = render(<List rows={rows} />);
    act(() => screen.getByRole("button", { name: "Excluir a" }).focus());
    act(() => screen.getByRole("button", { name: "Exportar" }).focus());
    rerender(<List rows={rows.slice(1)} />);
    expect(focused()).toBe("Exportar");
  });

  it("leaves the page alone when the person had already left the row (a click on blank space) and it goes later", async () => {
    const rows = ["a", "b", "c"].map((id) => ({ id, actions: ["Excluir"] }));
    const { rerender } = render(<List rows={rows} />);
    act(() => screen.getByRole("button", { name: "Excluir b" }).focus());
    act(() => (document.activeElement as HTMLElement).blur());
    await act(() => new Promise((done) => setTimeout(done, 0)));
    // The 30-second reload: a colleague deleted b meanwhile.
    rerender(<List rows={rows.filter((r) => r.id !== "b")} />);
    expect(document.activeElement).toBe(document.body);
  });
});
