import { formatCount } from "../../lib/format";
import type { Counts } from "./api";

/**
 * The counters: each lead counted once ('Enviados Jetimob', 'Pendentes' and
 * 'Precisam de atenção' add up to the total), each with what it means. Over
 * the period, campaign and contact filter on screen.
 */
const COUNTERS: {
  label: string;
  /** Its words on a phone's one line: '12 leads · 9 enviados · …'. */
  short: (n: number) => string;
  hint: string;
  count: keyof Counts;
  tone?: "sent" | "pending" | "failed";
}[] = [
  {
    label: "Total de Leads",
    short: (n) => (n === 1 ? "lead" : "leads"),
    hint: "no que a lista mostra",
    count: "total",
  },
  {
    label: "Enviados Jetimob",
    short: (n) => (n === 1 ? "enviado" : "enviados"),
    hint: "já estão no Jetimob",
    count: "delivered",
    tone: "sent",
  },
  {
    label: "Pendentes",
    short: (n) => (n === 1 ? "pendente" : "pendentes"),
    hint: "o site envia sozinho, em instantes",
    count: "pending",
    tone: "pending",
  },
  {
    label: "Precisam de atenção",
    short: () => "com atenção",
    hint: "o Jetimob recusou: veja o que fazer",
    count: "attention",
    tone: "failed",
  },
];

/** The four counters over the list (one line on a phone): a dash each until the first page arrives. */
export function LeadCounters({ counts }: { counts?: Counts }) {
  return (
    <section className="counters" aria-label="Resumo">
      {COUNTERS.map(({ label, short, hint, count, tone }) => (
        <div key={count} className={tone ? `counter counter--${tone}` : "counter"} title={`${label}: ${hint}`}>
          <p className="counter__label">{label}</p>
          <p className="counter__value">{counts ? formatCount(counts[count]) : "–"}</p>
          <p className="counter__short" aria-hidden="true">
            {counts ? short(counts[count]) : ""}
          </p>
          <p className="counter__hint">{hint}</p>
        </div>
      ))}
    </section>
  );
}
