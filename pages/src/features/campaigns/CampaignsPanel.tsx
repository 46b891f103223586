import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { LoadFailed } from "../../components/LoadFailed";
import { useToast } from "../../components/toast";
import { ApiError, sessionEnded } from "../../lib/api";
import { brasiliaDay } from "../../lib/days";
import { useLatestRequest } from "../../lib/useLatestRequest";
import { type CampaignReport, exportCampaignsCsv, fetchCampaigns } from "./api";
import { CampaignTable } from "./CampaignTable";
import { LeadsChart } from "./LeadsChart";
import { campaignMessages } from "./messages";
import { PeriodPicker } from "./PeriodPicker";
import { type Calendar, type Period, periodRange } from "./period";
import { chartSummary, groupRows } from "./report";
import { usePeriod } from "./usePeriod";

/** The period picker, the chart of leads per day and the table of sources, campaigns and ads. */
export function CampaignsPanel() {
  const { toast } = useToast();
  const [period, setPeriod] = usePeriod();
  const [report, setReport] = useState<CampaignReport | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  /** The worker refused the chosen days (422): what it said, in all and by field. */
  const [refused, setRefused] = useState<ApiError | null>(null);
  const [exporting, setExporting] = useState(false);
  /** What the last report said of the calendar: where 'Hoje', '7 dias' and 'Todo o lançamento' start. */
  const calendar = useRef<Calendar | null>(null);
  const { start, isLatest } = useLatestRequest();
  /** What a period staff picked brought, said to screen readers (the first report goes unsaid). */
  const [result, setResult] = useState("");
  const arrived = useRef(false);

  const load = useCallback(
    async (view: Period) => {
      const controller = start();
      setLoading(true);
      setResult("");
      try {
        // 'Todo o lançamento' opened from its address: any report brings its first day.
        if (!periodRange(view, calendar.current)) {
          calendar.current = (await fetchCampaigns(null, controller.signal)).period;
        }
        const answer = await fetchCampaigns(periodRange(view, calendar.current), controller.signal);
        calendar.current = answer.period;
        setReport(answer);
        setFailed(false);
        setRefused(null);
        if (arrived.current) {
          setResult(isEmpty(answer) ? campaignMessages.empty : chartSummary(answer.days, answer.sources));
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        setReport(null);
        if (error instanceof ApiError && error.status === 422) {
          setRefused(error);
          setFailed(false);
        } else if (!sessionEnded(error)) {
          toast(campaignMessages.loadFailed);
          setRefused(null);
          setFailed(true);
        }
      } finally {
        arrived.current = true;
        if (isLatest(controller)) setLoading(false);
      }
    },
    [toast, start, isLatest],
  );

  useEffect(() => {
    void load(period);
  }, [period, load]);

  const groups = useMemo(() => (report ? groupRows(report.rows) : []), [report]);

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
        {result}
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
        <LoadFailed text={campaignMessages.loadFailed.description} onRetry={() => void load(period)} />
      ) : report && isEmpty(report) ? (
        <p className="panel list-status">{campaignMessages.empty}</p>
      ) : report ? (
        <>
          <LeadsChart days={report.days} sources={report.sources} />
          <section className="panel" aria-labelledby="campaign-table-title">
            <div className="panel__head">
              <h2 id="campaign-table-title">Origens, campanhas e anúncios</h2>
              <Button
                type="button"
                className="button button--ghost campaigns__export"
                onClick={onExport}
                inactive={exporting}
              >
                {exporting ? "Exportando..." : "Exportar CSV"}
              </Button>
            </div>
            <CampaignTable groups={groups} totals={report.totals} range={report.period} loading={loading} />
            <p className="panel__note campaigns__note">{campaignMessages.visitsNote}</p>
          </section>
        </>
      ) : null}
    </div>
  );
}

function isEmpty(report: CampaignReport): boolean {
  return report.totals.visits === 0 && report.totals.leads === 0;
}
