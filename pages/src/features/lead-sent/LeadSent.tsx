import { type MouseEvent, useEffect, useRef } from "react";
import { ShareIcon } from "../../components/icons";
import { TeamWhatsAppLink } from "../../components/TeamWhatsAppLink";
import { whatsappLink } from "../../config/agency";
import { Link } from "../../lib/Link";
import { LeadQuestions } from "./LeadQuestions";
import { sentMessages, shareText } from "./messages";
import "./lead-sent.css";

/**
 * 'Sucesso!' in the form's place, at /obrigado: what was done, a chat with
 * the team that greets it in the visitor's name, a way to tell a friend,
 * the two optional questions, and a way back to the form for someone else.
 * `name`: who just sent the lead (unknown after a reload or a plain form
 * post: the greeting then names no one). `arrived`: it took the form's place
 * just now, so its heading takes the focus.
 */
export function LeadSent({
  name,
  arrived,
  onAnother,
}: {
  name: string | null;
  arrived: boolean;
  onAnother: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (arrived) heading.current?.focus();
  }, [arrived]);
  return (
    <div className="lead-sent">
      <span className="lead-sent__icon" aria-hidden="true">
        ✓
      </span>
      <h2 className="lead-sent__title" ref={heading} tabIndex={-1}>
        {sentMessages.title}
      </h2>
      <p className="lead-sent__text">{sentMessages.text}</p>
      <p className="lead-sent__text">{sentMessages.group}</p>
      <div className="lead-sent__actions">
        <TeamWhatsAppLink name={name} />
        <a
          className="button button--ghost"
          href={whatsappLink("", shareText())}
          target="_blank"
          rel="noopener noreferrer"
        >
          <ShareIcon size={20} />
          {sentMessages.share}
        </a>
      </div>
      <LeadQuestions />
      <Link className="lead-sent__another" to="/#cadastro" onClick={onAnother}>
        {sentMessages.another}
      </Link>
    </div>
  );
}
