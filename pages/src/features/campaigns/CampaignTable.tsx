import { Fragment } from "react";
import type { DayRange } from "../../lib/days";
import { adName, campaignName, formatCount, sourceName } from "../../lib/format";
import { Link } from "../../lib/Link";
import { type ListFilters, listAddress } from "../leads-admin/api";
import { campaignPath } from "../leads-admin/format";
import type { Counts } from "./api";
import { formatConversion, type SourceGroup } from "./report";

type Props = { groups: SourceGroup[]; totals: Counts; range: DayRange; loading: boolean };

/**
 * Visits and leads by source, then by campaign under it, then by ad under
 * that, with the period's totals at the bottom. Every row links to the lead
 * list showing its leads of the period.
 */
export function CampaignTable({ groups, totals, range, loading }: Props) {
  const period = { de: range.from, ate: range.to };
  return (
    <div className="campaign-table-wrap" aria-busy={loading}>
      <table className="campaign-table">
        <caption className="sr-only">Visitas e leads por origem, campanha e anúncio</caption>
        <thead>
          <tr>
            <th scope="col">Origem › campanha › anúncio</th>
            <th scope="col">Visitas</th>
            <th scope="col">Leads</th>
            <th scope="col">Conversão</th>
            <th scope="col">Enviados ao Jetimob</th>
            <th scope="col">Possíveis duplicados</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((source) => {
            const fonte = { ...period, fonte: source.source };
            return (
              <Fragment key={source.source}>
                <Row level="source" label={sourceName(source.source)} filters={fonte} counts={source} />
                {worthShowing(source.campaigns, (c) => c.campaign).map((campaign) => {
                  const campanha = { ...fonte, campanha: campaign.campaign };
                  return (
                    <Fragment key={campaign.campaign}>
                      <Row
                        level="campaign"
                        label={campaignName(campaign.campaign)}
                        filters={campanha}
                        counts={campaign}
                      />
                      {worthShowing(campaign.ads, (a) => a.content).map((ad) => (
                        <Row
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
        </tbody>
        <tfoot>
          <Row level="total" label="Total" filters={period} counts={totals} />
        </tfoot>
      </table>
    </div>
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
  level: "source" | "campaign" | "ad" | "total";
  label: string;
  filters: Partial<ListFilters>;
  counts: Counts;
};

function Row({ level, label, filters, counts }: RowProps) {
  return (
    <tr className={`campaign-table__row campaign-table__row--${level}`}>
      <th scope="row" className="campaign-table__label">
        <Link
          to={listAddress(filters)}
          aria-label={level === "total" ? "Total: leads do período" : `Leads de ${campaignPath(filters)}`}
        >
          {label}
        </Link>
      </th>
      <td className="campaign-table__count" data-label="Visitas">
        {formatCount(counts.visits)}
      </td>
      <td className="campaign-table__count" data-label="Leads">
        {formatCount(counts.leads)}
      </td>
      <td className="campaign-table__count" data-label="Conversão">
        {formatConversion(counts)}
      </td>
      <td className="campaign-table__count" data-label="Enviados ao Jetimob">
        {formatCount(counts.delivered)}
      </td>
      <td className="campaign-table__count" data-label="Possíveis duplicados">
        {formatCount(counts.duplicates)}
      </td>
    </tr>
  );
}
