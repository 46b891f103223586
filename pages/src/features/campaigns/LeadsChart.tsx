import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";
import { useEffect, useMemo, useRef } from "react";
import { formatCount, formatDay, formatShortDay } from "../../lib/format";
import type { Counts, ReportDay } from "./api";
import { chartSummary, dailySeries, dayTotals, type Series } from "./report";

// Only what a stacked bar chart needs, so the rest of Chart.js stays out of the page's chunk.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

type Props = { days: ReportDay[]; sources: string[]; totals?: Counts };

/**
 * 'Leads por dia': a bar a day, stacked by source. The chart says the same
 * as the sentence above it, and the visually hidden table under it gives
 * screen readers every number.
 */
export function LeadsChart({ days, sources, totals }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<"bar"> | null>(null);
  const series = useMemo(() => dailySeries(days, sources), [days, sources]);
  const summary = useMemo(() => chartSummary(days, sources, totals), [days, sources, totals]);

  useEffect(() => {
    // Without a drawing surface (a test's DOM) the sentence and the table say it all.
    if (!canvas.current?.getContext("2d")) return;
    const created = new Chart<"bar">(canvas.current, {
      type: "bar",
      data: { labels: [], datasets: [] },
      options: chartOptions(canvas.current),
    });
    chart.current = created;
    return () => {
      created.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const shown = chart.current;
    if (!shown) return;
    const colors = seriesColors(shown.canvas, series);
    shown.data = {
      labels: days.map((d) => formatShortDay(d.day)),
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.counts,
        backgroundColor: colors[i],
        // A thin gap between stacked sources, so neighbours never run together.
        borderColor: "#fff",
        borderWidth: { top: 1 },
        borderSkipped: "bottom",
      })),
    };
    shown.update();
  }, [days, series]);

  return (
    <section className="panel leads-chart" aria-labelledby="leads-chart-title">
      <h2 id="leads-chart-title">Leads por dia</h2>
      <p className="leads-chart__summary">{summary}</p>
      <div className="leads-chart__canvas">
        <canvas ref={canvas} role="img" aria-label={summary} />
      </div>
      <DaysTable days={days} series={series} />
    </section>
  );
}

/** The chart's numbers for screen readers: a row per day, a column per source. */
function DaysTable({ days, series }: { days: ReportDay[]; series: Series[] }) {
  const totals = dayTotals(days);
  // The box is what hides it: a table is never narrower than its columns.
  return (
    <div className="sr-only">
      <table>
        <caption>Leads por dia e por origem</caption>
        <thead>
          <tr>
            <th scope="col">Dia</th>
            {series.map((s) => (
              <th key={s.label} scope="col">
                {s.label}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d, i) => (
            <tr key={d.day}>
              <th scope="row">{formatDay(d.day)}</th>
              {series.map((s) => (
                <td key={s.label}>{formatCount(s.counts[i] ?? 0)}</td>
              ))}
              <td>{formatCount(totals[i] ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The colours of the lines, from the page's stylesheet (campaigns.css, on the
 * site's palette): `--series-1`… for the sources, `--series-other` for 'Outras'.
 */
function seriesColors(canvas: HTMLCanvasElement, series: Series[]): string[] {
  const style = getComputedStyle(canvas);
  return series.map((s, i) => cssValue(style, s.source === null ? "--series-other" : `--series-${i + 1}`));
}

function cssValue(style: CSSStyleDeclaration, property: string): string {
  return style.getPropertyValue(property).trim();
}

function chartOptions(canvas: HTMLCanvasElement) {
  const style = getComputedStyle(canvas);
  const ink = cssValue(style, "--ink-500");
  const line = cssValue(style, "--line");
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return {
    // The box's height comes from the stylesheet: 240 px on a phone.
    maintainAspectRatio: false,
    animation: reducedMotion ? (false as const) : { duration: 300 },
    locale: "pt-BR",
    color: ink,
    font: { family: cssValue(style, "--font-body"), size: 12 },
    interaction: { mode: "index" as const, intersect: false },
    scales: {
      x: { stacked: true, grid: { display: false }, ticks: { color: ink, maxRotation: 0, autoSkipPadding: 8 } },
      y: { stacked: true, beginAtZero: true, grid: { color: line }, ticks: { color: ink, precision: 0 } },
    },
    plugins: {
      legend: { position: "bottom" as const, labels: { boxWidth: 12, boxHeight: 12, padding: 12 } },
    },
  };
}
