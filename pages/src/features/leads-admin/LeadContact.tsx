import { Button } from "../../components/Button";
import { duration, timeAgo } from "../../lib/format";
import type { Lead } from "./api";
import { greeting, staffFirstName, takesWhatsapp, telHref, waitedMs, whatsappHref } from "./contact";
import { contactMessages } from "./messages";

type Reach = Pick<Lead, "name" | "whatsapp" | "landline">;

/**
 * 'Ligar' and 'WhatsApp' to the number, one tap each: the chat opens with
 * the broker's greeting to the person. A landline ('fixo') is called only.
 * `number` names which number when a lead shows two (a change waiting).
 */
export function ReachButtons({ lead, me, number }: { lead: Reach; me: string; number?: string }) {
  const of = number ? ` ${number}` : "";
  return (
    <span className="reach">
      <a className="button button--small reach__call" href={telHref(lead.whatsapp)} aria-label={`Ligar${of}`}>
        Ligar
      </a>
      {takesWhatsapp(lead) && (
        <a
          className="button button--small reach__chat"
          href={whatsappHref(lead.whatsapp, greeting(lead.name, me))}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`WhatsApp${of}`}
        >
          WhatsApp
        </a>
      )}
    </span>
  );
}

type StateProps = {
  lead: Pick<Lead, "created_at" | "first_contact_at" | "contacted_by" | "contacted_by_id" | "contact_tracked">;
  /** The person signed in: 'Contatado por você'. */
  myId: string;
  now: number;
};

/**
 * Where the lead stands with the team: 'Contatado por Ana há 3 min (em 4
 * min)', or how long it has waited for its first contact; nothing for a lead
 * that arrived before contacts were recorded and nobody contacted since.
 */
export function ContactState({ lead, myId, now }: StateProps) {
  if (lead.first_contact_at) {
    const who = lead.contacted_by_id === myId ? "você" : staffFirstName(lead.contacted_by ?? "") || "a equipe";
    const took = waitedMs(lead);
    return (
      <span className="contact-state contact-state--done" title={lead.contacted_by ?? undefined}>
        Contatado por {who} {timeAgo(lead.first_contact_at, now)}
        {took !== null && <span className="contact-state__took"> · em {duration(took)}</span>}
      </span>
    );
  }
  if (!lead.contact_tracked) return null;
  const waited = duration(now - new Date(lead.created_at).getTime());
  return (
    <span className="contact-state contact-state--waiting">
      {waited === "agora" ? contactMessages.justArrived : `${contactMessages.waiting} ${waited}`}
    </span>
  );
}

/** 'Já falei': for a lead nobody contacted yet. */
export function SpokeButton({ lead, busy, onSpoke }: { lead: Lead; busy?: boolean; onSpoke: (lead: Lead) => void }) {
  if (lead.first_contact_at) return null;
  return (
    <Button
      type="button"
      className="button button--small button--primary"
      inactive={busy}
      onClick={() => onSpoke(lead)}
    >
      {contactMessages.spoke}
    </Button>
  );
}
