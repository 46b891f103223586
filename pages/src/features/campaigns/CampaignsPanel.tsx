import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { LoadFailed } from "../../components/LoadFailed";
import { brasiliaDay, type DayRange } from "../../lib/days";
import { formatDays, sourceName } from "../../lib/format";
import { useToast } from "../../lib/toast";
import { useLoad } from "../../lib/useLoad";
import { type CampaignReport, exportCampaignsCsv, fetchCampaigns } from "./api";
import { CampaignTable } from "./CampaignTable";
import { GoogleAdsImport } from "./GoogleAdsImport";
import { LeadsChart } from "./LeadsChart";
import { campaignMessages } from "./messages";
import { PeriodPicker } from "./PeriodPicker";
import { type Calendar, type Period, periodRange } from "./period";
import { chartSummary, DEFAULT_SORT, formatMoney, groupRows, limitNotes, type Sort } from "./report";
import { SpendPanel } from "./SpendPanel";
import { usePeriod } from "./usePeriod";

type Props = {
  /** What the page shows under the report, for the report's period ('Primeiro contato', composed by app/). */
  belowReport?: (range: DayRange) => ReactNode;
};

/** The period picker, the chart of leads per day and the table of sources, campaigns and ads. */
export function CampaignsPanel({ belowReport }: Props) {
  const { toast } = useToast();
  const [period, setPeriod] = usePeriod();
  /** What the last report said of the calendar: where 'Hoje', '7 dias' and 'Todo o lançamento' start. */
  const calendar = useRef<Calendar | null>(null);
  // A period the worker refuses (422) is said beside the days chosen, in its words, in all and by field.
  const {
    data: report,
    loading,
    failed,
    refusal: refused,
    said,
    load,
    retry,
  } = useLoad<Period, CampaignReport>({
    fetch: async (view, signal) => {
      // 'Todo o lançamento' opened from its address: any report brings its first day.
      if (!periodRange(view, calendar.current)) calendar.current = (await fetchCampaigns(null, signal)).period;
      const answer = await fetchCampaigns(periodRange(view, calendar.current), signal);
      calendar.current = answer.period;
      return answer;
    },
    failure: campaignMessages.loadFailed,
    refusals: [422],
    announce: (answer) =>
      isEmpty(answer) ? campaignMessages.empty : chartSummary(answer.days, answer.sources, answer.totals),
  });
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    void load(period);
  }, [period, load]);

  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const groups = useMemo(() => (report ? groupRows(report.rows, sort, sourceName) : []), [report, sort]);

  const onExport = async () => {
    if (!report) return;
    setExporting(true);
    try {
      await exportCampaignsCsv(report.period);
    } catch {
      toast(campaignMessages.exportFailed);
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="campaigns">
      <PeriodPicker
        period={period}
        range={periodRange(period, report?.period ?? null)}
        today={report?.period.today ?? brasiliaDay()}
        errors={refused?.fields ?? {}}
        onChange={setPeriod}
      />
      <p className="sr-only" role="status">
        {said}
      </p>

      {!report && loading ? (
        <p className="list-status" role="status">
          {campaignMessages.loading}
        </p>
      ) : refused ? (
        <p className="notice" role="alert">
          {refused.message}
        </p>
      ) : failed ? (
        <LoadFailed text={campaignMessages.loadFailed.description} onRetry={retry} />
      ) : report && isEmpty(report) ? (
        <p className="panel list-status">{campaignMessages.empty}</p>
      ) : report ? (
        <>
          <LeadsChart days={report.days} sources={report.sources} totals={report.totals} />
          <section className="panel" aria-labelledby="campaign-table-title">
            <div className="panel__head">
              <h2 id="campaign-table-title">Origens, campanhas e anúncios</h2>
              <p className="campaigns__previous">
                {campaignMessages.previousPeriod(formatDays(report.period.previous.from, report.period.previous.to))}
              </p>
              <Button type="button" className="button button--ghost campaigns__print" onClick={() => window.print()}>
                {campaignMessages.print}
              </Button>
              <Button
                type="button"
                className="button button--ghost campaigns__export"
                onClick={onExport}
                inactive={exporting}
              >
                {exporting ? "Exportando..." : "Exportar CSV"}
              </Button>
            </div>
            {report.limits.length > 0 && <LimitsNote notes={limitNotes(report.limits)} />}
            <CampaignTable
              groups={groups}
              meta={report.ads.meta}
              totals={{ ...report.totals, previous: report.previous_totals }}
              range={report.period}
              loading={loading}
              sort={sort}
              onSort={setSort}
            />
            {report.unmatched.length > 0 && <UnmatchedSpend report={report} />}
            <p className="panel__note campaigns__note">{campaignMessages.visitsNote}</p>
          </section>
          {belowReport?.(report.period)}
        </>
      ) : null}
      <SpendPanel onChanged={() => void load(period)} />
      {report?.ads.google_ads && <GoogleAdsImport account={report.ads.google_ads} />}
    </div>
  );
}

/** Spend whose campaign no line carries: the names to check in the ads' links. */
function UnmatchedSpend({ report }: { report: CampaignReport }) {
  return (
    <div className="notice campaigns__unmatched" role="note" aria-labelledby="campaign-unmatched-title">
      <h3 id="campaign-unmatched-title" className="campaigns__limits-title">
        {campaignMessages.unmatchedTitle}
      </h3>
      <ul>
        {report.unmatched.map((u) => (
          <li key={`${u.source}/${u.campaign}/${u.content}`}>
            {sourceName(u.source)} › {u.campaign || "(sem campanha)"}
            {u.content ? ` › ${u.content}` : ""}: {formatMoney(u.spend)}
          </li>
        ))}
      </ul>
      <p className="campaigns__limits-why">{campaignMessages.unmatchedWhy}</p>
    </div>
  );
}

/** The days a visit limit was reached, and why there are limits. */
function LimitsNote({ notes }: { notes: string[] }) {
  return (
    <div className="notice campaigns__limits" role="note" aria-labelledby="campaign-limits-title">
      <h3 id="campaign-limits-title" className="campaigns__limits-title">
        {campaignMessages.limitsTitle}
      </h3>
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
      <p className="campaigns__limits-why">{campaignMessages.limitsWhy}</p>
    </div>
  );
}

function isEmpty(report: CampaignReport): boolean {
  return report.totals.visits === 0 && report.totals.leads === 0;
}
