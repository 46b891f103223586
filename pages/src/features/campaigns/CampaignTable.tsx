import { Fragment } from "react";
import type { DayRange } from "../../lib/days";
import { adName, campaignName, formatCount, sourceName } from "../../lib/format";
import { Link } from "../../lib/Link";
import { campaignPath, type ListFilters, listAddress } from "../../lib/leadLinks";
import type { Compared, Counts } from "./api";
import { campaignMessages } from "./messages";
import {
  conversionOverflows,
  costPer,
  formatChange,
  formatConversion,
  formatMoney,
  type PlatformGroup,
  type Sort,
  type SortKey,
} from "./report";

type Props = {
  groups: PlatformGroup[];
  /** Meta's Conversions API is on: a column of the leads it took. */
  meta: boolean;
  totals: Compared;
  range: DayRange;
  loading: boolean;
  sort: Sort;
  onSort: (sort: Sort) => void;
};

type Column = {
  key: Exclude<SortKey, "name">;
  label: string;
  value: (c: Counts) => string;
  /** The figure set beside the period before (null: none to compare). */
  compared: (c: Counts) => number | null;
  /** A cost: going up is worse. */
  cost?: boolean;
};

const COLUMNS: Column[] = [
  { key: "visits", label: "Visitas", value: (c) => formatCount(c.visits), compared: (c) => c.visits },
  { key: "leads", label: "Leads", value: (c) => formatCount(c.leads), compared: (c) => c.leads },
  {
    key: "conversion",
    label: "Conversão",
    value: (c) => `${formatConversion(c)}${conversionOverflows(c) ? "*" : ""}`,
    compared: (c) => (c.visits > 0 && c.leads <= c.visits ? c.leads / c.visits : null),
  },
  {
    key: "delivered",
    label: "Enviados ao Jetimob",
    value: (c) => formatCount(c.delivered),
    compared: (c) => c.delivered,
  },
  {
    key: "meta_sent",
    label: "Enviados ao Meta",
    value: (c) => formatCount(c.meta_sent),
    compared: (c) => c.meta_sent,
  },
  { key: "spend", label: "Investimento", value: (c) => formatMoney(c.spend), compared: (c) => c.spend, cost: true },
  {
    key: "cpl",
    label: "Custo por lead",
    value: (c) => formatMoney(costPer(c.spend, c.leads)),
    compared: (c) => costPer(c.spend, c.leads),
    cost: true,
  },
  {
    key: "cplDelivered",
    label: "Custo por lead enviado",
    value: (c) => formatMoney(costPer(c.spend, c.delivered)),
    compared: (c) => costPer(c.spend, c.delivered),
    cost: true,
  },
];

/**
 * Visits, leads and spend by platform, then source, then campaign, then ad,
 * with the period's totals at the bottom; each figure beside the period
 * before (▲▼ and the change in %). Every column sorts the table (each level
 * among its own). Every source, campaign and ad links to the lead list.
 */
export function CampaignTable({ groups, meta, totals, range, loading, sort, onSort }: Props) {
  const period = { de: range.from, ate: range.to };
  const columns = meta ? COLUMNS : COLUMNS.filter((c) => c.key !== "meta_sent");
  const overflows = hasOverflow(groups) || conversionOverflows(totals);
  return (
    <div className="campaign-table-wrap" aria-busy={loading}>
      <table className="campaign-table">
        <caption className="sr-only">
          Visitas, leads e investimento por plataforma, origem, campanha e anúncio, com o período anterior
        </caption>
        <thead>
          <tr>
            <SortHeader
              column={{ key: "name", label: "Plataforma › origem › campanha › anúncio" }}
              sort={sort}
              onSort={onSort}
            />
            {columns.map((column) => (
              <SortHeader key={column.key} column={column} sort={sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((platform) => (
            <Fragment key={platform.platform}>
              {!isItsOwnSource(platform) && (
                <Row columns={columns} level="platform" label={platform.platform} counts={platform} />
              )}
              {platform.sources.map((source) => {
                const fonte = { ...period, fonte: source.source };
                return (
                  <Fragment key={source.source}>
                    <Row
                      columns={columns}
                      level="source"
                      label={sourceName(source.source)}
                      filters={fonte}
                      counts={source}
                    />
                    {worthShowing(source.campaigns, (c) => c.campaign).map((campaign) => {
                      const campanha = { ...fonte, campanha: campaign.campaign };
                      return (
                        <Fragment key={campaign.campaign}>
                          <Row
                            columns={columns}
                            level="campaign"
                            label={campaignName(campaign.campaign)}
                            filters={campanha}
                            counts={campaign}
                          />
                          {worthShowing(campaign.ads, (a) => a.content).map((ad) => (
                            <Row
                              columns={columns}
                              key={ad.content}
                              level="ad"
                              label={adName(ad.content)}
                              filters={{ ...campanha, anuncio: ad.content }}
                              counts={ad}
                            />
                          ))}
                        </Fragment>
                      );
                    })}
                  </Fragment>
                );
              })}
            </Fragment>
          ))}
        </tbody>
        <tfoot>
          <Row columns={columns} level="total" label="Total" filters={period} counts={totals} />
        </tfoot>
      </table>
      {overflows && <p className="panel__note campaigns__overflow-note">{campaignMessages.conversionOverflow}</p>}
    </div>
  );
}

/** A platform of one source of its own name ('Direto', 'Outras origens'): its source's row says it all. */
function isItsOwnSource(platform: PlatformGroup): boolean {
  const [only] = platform.sources;
  return platform.sources.length === 1 && only !== undefined && sourceName(only.source).startsWith(platform.platform);
}

function hasOverflow(groups: PlatformGroup[]): boolean {
  return groups.some((p) =>
    p.sources.some(
      (s) =>
        conversionOverflows(s) ||
        s.campaigns.some((c) => conversionOverflows(c) || c.ads.some((a) => conversionOverflows(a))),
    ),
  );
}

const ARIA_SORT = { true: "descending", false: "ascending" } as const;

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: { key: SortKey; label: string };
  sort: Sort;
  onSort: (sort: Sort) => void;
}) {
  const active = sort.key === column.key;
  return (
    <th scope="col" aria-sort={active ? ARIA_SORT[`${sort.descending}`] : "none"}>
      <button
        type="button"
        className="campaign-table__sort"
        onClick={() => onSort({ key: column.key, descending: active ? !sort.descending : column.key !== "name" })}
      >
        {column.label}
        <span aria-hidden="true" className="campaign-table__sort-mark">
          {active ? (sort.descending ? "↓" : "↑") : "↕"}
        </span>
      </button>
    </th>
  );
}

/**
 * The rows under a group, but not a lone '(sem campanha)' or '(sem
 * anúncio)': it would repeat the group's numbers (a visit with no campaign
 * tags, 'Direto' always).
 */
function worthShowing<T>(children: T[], name: (child: T) => string): T[] {
  return children.length === 1 && children[0] && name(children[0]) === "" ? [] : children;
}

type RowProps = {
  columns: Column[];
  level: "platform" | "source" | "campaign" | "ad" | "total";
  label: string;
  filters?: Partial<ListFilters>;
  counts: Compared;
};

function Row({ columns, level, label, filters, counts }: RowProps) {
  return (
    <tr className={`campaign-table__row campaign-table__row--${level}`}>
      <th scope="row" className="campaign-table__label">
        {filters ? (
          <Link
            to={listAddress(filters)}
            aria-label={level === "total" ? "Total: leads do período" : `Leads de ${campaignPath(filters)}`}
          >
            {label}
          </Link>
        ) : (
          label
        )}
      </th>
      {columns.map((column) => (
        <td key={column.key} className="campaign-table__count" data-label={column.label}>
          <span className="campaign-table__value">{column.value(counts)}</span>
          <Change column={column} counts={counts} />
        </td>
      ))}
    </tr>
  );
}

/** The figure beside the period before: an arrow and the change in %, the earlier figure for screen readers. */
function Change({ column, counts }: { column: Column; counts: Compared }) {
  const now = column.compared(counts);
  const before = column.compared(counts.previous);
  const change = formatChange(now, before);
  if (change === null) return null;
  const up = change.startsWith("▲") || change === "novo";
  const down = change.startsWith("▼");
  const better = column.cost ? down : up;
  const worse = column.cost ? up : down;
  const tone = better ? "better" : worse ? "worse" : "same";
  return (
    <span className={`campaign-table__change campaign-table__change--${tone}`}>
      <span className="sr-only">, antes: {column.value(counts.previous)}; </span>
      {change}
    </span>
  );
}
