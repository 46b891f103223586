import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "../../components/Button";
import { LoadFailed } from "../../components/LoadFailed";
import { serverMessage } from "../../lib/api";
import type { DayRange } from "../../lib/days";
import { campaignName, formatCount, formatDay, sourceName } from "../../lib/format";
import { useSession } from "../../lib/session";
import { useToast } from "../../lib/toast";
import { useLoad } from "../../lib/useLoad";
import {
  exportFirstContactCsv,
  type Figures,
  type FirstContactReport,
  fetchFirstContact,
  savePanelSettings,
} from "./api";
import { firstContactMessages as m } from "./messages";
import "./first-contact.css";

/** A median as staff read it: '4 min', '1 h 5 min', '45 s'; '–' without one. */
export function medianText(ms: number | null): string {
  if (ms === null) return "–";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 24) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  const days = Math.round(hours / 24);
  return days === 1 ? "1 dia" : `${days} dias`;
}

/** 'Contatados dentro da meta', as a share of those contacted: '12 de 15'. */
function withinText(f: Figures): string {
  return `${formatCount(f.within_target)} de ${formatCount(f.contacted)}`;
}

/**
 * The time from a lead's arrival to its first contact over the period
 * 'Campanhas' shows: the median against the owners' target (owners change
 * it here), per day, campaign and colleague, and its CSV.
 */
export function FirstContactBlock({ range }: { range: DayRange }) {
  const { toast } = useToast();
  const session = useSession();
  const isOwner = session.status === "signed-in" && session.user.role === "owner";
  const { data, loading, failed, load, retry, reload } = useLoad<DayRange, FirstContactReport>({
    fetch: (r, signal) => fetchFirstContact(r, signal),
    failure: m.loadFailed,
  });
  const key = `${range.from}:${range.to}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the range's days say when it changed.
  useEffect(() => {
    void load(range);
  }, [key, load]);

  const onExport = async () => {
    try {
      await exportFirstContactCsv(range);
    } catch {
      toast(m.exportFailed);
    }
  };

  return (
    <section className="panel first-contact" aria-labelledby="first-contact-title">
      <div className="panel__head">
        <h2 id="first-contact-title">{m.title}</h2>
        <Button type="button" className="button button--ghost" onClick={onExport}>
          Exportar CSV
        </Button>
      </div>
      <p className="panel__note">{m.note}</p>
      {!data && loading ? (
        <p className="list-status" role="status">
          {m.loading}
        </p>
      ) : !data && failed ? (
        <LoadFailed text={m.loadFailed.description} onRetry={retry} />
      ) : data ? (
        <>
          <Summary report={data} />
          {isOwner && <TargetForm target={data.target_minutes} saved={() => void reload()} />}
          {data.overall.leads === 0 ? (
            <p className="list-status">{m.empty}</p>
          ) : (
            <div className="first-contact__tables">
              <Table
                title={m.byDay}
                rows={data.days.map((d) => ({ key: d.day, name: formatDay(d.day), figures: d }))}
              />
              <Table
                title={m.byCampaign}
                rows={data.campaigns.map((c) => ({
                  key: `${c.source}/${c.campaign}`,
                  name: `${sourceName(c.source)} › ${campaignName(c.campaign)}`,
                  figures: c,
                }))}
              />
              <Table
                title={m.byColleague}
                rows={data.colleagues.map((c) => ({ key: c.email, name: c.email, figures: c }))}
              />
            </div>
          )}
        </>
      ) : null}
    </section>
  );
}

function Summary({ report }: { report: FirstContactReport }) {
  const o = report.overall;
  const median = o.median_ms;
  const met = median !== null && median <= report.target_minutes * 60_000;
  return (
    <dl className="first-contact__summary">
      <div className={median === null ? undefined : met ? "first-contact__met" : "first-contact__missed"}>
        <dt>Mediana</dt>
        <dd>{medianText(median)}</dd>
      </div>
      <div>
        <dt>Meta</dt>
        <dd>{report.target_minutes} min</dd>
      </div>
      <div>
        <dt>Dentro da meta</dt>
        <dd>{withinText(o)}</dd>
      </div>
      <div>
        <dt>Aguardando contato</dt>
        <dd>{formatCount(o.waiting)}</dd>
      </div>
    </dl>
  );
}

type Row = { key: string; name: string; figures: Figures };

function Table({ title, rows }: { title: string; rows: Row[] }) {
  return (
    <div className="first-contact__table">
      <h3>{title}</h3>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{title.replace("Por ", "")}</th>
            <th scope="col">Leads</th>
            <th scope="col">Mediana</th>
            <th scope="col">Na meta</th>
            <th scope="col">Aguardando</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row" data-label={title.replace("Por ", "")}>
                {r.name}
              </th>
              <td data-label="Leads">{formatCount(r.figures.leads)}</td>
              <td data-label="Mediana">{medianText(r.figures.median_ms)}</td>
              <td data-label="Na meta">{withinText(r.figures)}</td>
              <td data-label="Aguardando">{formatCount(r.figures.waiting)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The owners' target, in minutes (1 to 1440). */
function TargetForm({ target, saved }: { target: number; saved: () => void }) {
  const { toast } = useToast();
  const id = useId();
  const [value, setValue] = useState(String(target));
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(String(target)), [target]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await savePanelSettings({ contact_target_minutes: Number(value) });
      toast(m.targetSaved);
      saved();
    } catch (error) {
      toast({ ...m.saveFailed, description: serverMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="first-contact__target" onSubmit={submit}>
      <label htmlFor={id}>{m.targetLabel}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={1440}
        step={1}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <Button type="submit" className="button button--ghost" inactive={busy || Number(value) === target}>
        {m.targetSave}
      </Button>
    </form>
  );
}
