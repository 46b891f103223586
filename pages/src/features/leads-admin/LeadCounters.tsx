import { formatCount } from "../../lib/format";
import type { Counts } from "./api";

const COUNTERS: { label: string; count: keyof Counts; tone?: "sent" | "pending" | "failed" }[] = [
  { label: "Total de Leads", count: "total" },
  { label: "Enviados Jetimob", count: "sent", tone: "sent" },
  { label: "Pendentes", count: "pending", tone: "pending" },
  { label: "Precisam de atenção", count: "attention", tone: "failed" },
];

/** The four counters over the list: a dash each until the first page arrives. */
export function LeadCounters({ counts }: { counts?: Counts }) {
  return (
    <section className="counters" aria-label="Resumo">
      {COUNTERS.map(({ label, count, tone }) => (
        <div key={count} className={tone ? `counter counter--${tone}` : "counter"}>
          <p className="counter__label">{label}</p>
          <p className="counter__value">{counts ? formatCount(counts[count]) : "–"}</p>
        </div>
      ))}
    </section>
  );
}
