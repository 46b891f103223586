import { useState } from "react";
import { Button } from "../../components/Button";
import { EmailAddress } from "../../components/EmailAddress";
import { serverMessage, sessionEnded } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { useSession } from "../../lib/session";
import { useToast } from "../../lib/toast";
import { decideChange, type Lead, refuseAllChanges, type Submission } from "./api";
import { isLandline } from "./contact";
import { ReachButtons } from "./LeadContact";
import { changeMessages, refusedAllMessage } from "./messages";

type Props = {
  lead: Lead;
  /** The lead's submissions that wait for staff, oldest first. */
  changes: Submission[];
  /** After a decision: the lead's page reads the lead again. */
  decided: () => void;
};

/**
 * 'Alteração pendente': someone sent the form with this lead's e-mail or
 * WhatsApp and other details, from a browser that did not send the lead.
 * The lead kept its details; staff compare and accept or refuse each change.
 */
export function PendingChanges({ lead, changes, decided }: Props) {
  const { toast } = useToast();
  const session = useSession();
  const me = session.status === "signed-in" ? session.user.email : "";
  /** The change being decided; 'all' while 'Recusar todas' runs. */
  const [busy, setBusy] = useState<number | "all" | null>(null);
  if (changes.length === 0) return null;

  const settle = async (which: number | "all", decision: () => Promise<unknown>, done: () => void) => {
    setBusy(which);
    try {
      await decision();
      done();
      decided();
    } catch (error) {
      if (!sessionEnded(error)) {
        toast({ ...changeMessages.failed, description: serverMessage(error, changeMessages.failed.description) });
      }
    } finally {
      setBusy(null);
    }
  };
  const decide = (change: Submission, decision: "accept" | "refuse") =>
    settle(
      change.id,
      () => decideChange(lead.id, change.id, decision),
      () => toast(decision === "accept" ? changeMessages.accepted : changeMessages.refused),
    );
  const refuseAll = () => {
    let refused = 0;
    return settle(
      "all",
      async () => {
        refused = (await refuseAllChanges(lead.id)).refused;
      },
      () => toast(refusedAllMessage(refused)),
    );
  };

  return (
    <section className="panel pending-changes" aria-labelledby="pending-changes-title">
      <div className="pending-changes__head">
        <h2 id="pending-changes-title">
          Alteração pendente
          {changes.length > 1 && <span className="pending-changes__count"> ({changes.length})</span>}
        </h2>
        {changes.length > 1 && (
          <Button
            type="button"
            className="button button--ghost"
            inactive={busy !== null}
            onClick={() => void refuseAll()}
          >
            Recusar todas
          </Button>
        )}
      </div>
      <p className="panel__note">{changeMessages.explained}</p>
      <ol className="pending-changes__list">
        {changes.map((change) => (
          <li key={change.id} className="pending-changes__item">
            <p className="pending-changes__when">Enviada em {formatDate(change.at)}</p>
            <table className="pending-changes__compare">
              <caption className="sr-only">Dados atuais e dados enviados</caption>
              <thead>
                <tr>
                  <td />
                  <th scope="col">Hoje</th>
                  <th scope="col">Enviado</th>
                </tr>
              </thead>
              <tbody>
                <Compared label="Nome" now={lead.name} sent={change.name} />
                <Compared
                  label="E-mail"
                  now={<EmailAddress email={lead.email} />}
                  sent={<EmailAddress email={change.email} />}
                  differs={lead.email !== change.email}
                />
                {/* Each number with 'Ligar' and 'WhatsApp', so the broker can check with the person. */}
                <Compared
                  label="WhatsApp"
                  differs={lead.whatsapp !== change.whatsapp}
                  now={
                    <>
                      {lead.whatsapp_display}
                      <ReachButtons lead={lead} me={me} number={lead.whatsapp_display} />
                    </>
                  }
                  sent={
                    <>
                      {change.whatsapp_display}
                      <ReachButtons
                        lead={{ name: change.name, whatsapp: change.whatsapp, landline: isLandline(change.whatsapp) }}
                        me={me}
                        number={change.whatsapp_display}
                      />
                    </>
                  }
                />
              </tbody>
            </table>
            <div className="pending-changes__actions">
              <Button
                type="button"
                className="button button--primary"
                inactive={busy !== null}
                onClick={() => void decide(change, "accept")}
                aria-label={`Aceitar a alteração enviada em ${formatDate(change.at)}`}
              >
                Aceitar
              </Button>
              <Button
                type="button"
                className="button button--ghost"
                inactive={busy !== null}
                onClick={() => void decide(change, "refuse")}
                aria-label={`Recusar a alteração enviada em ${formatDate(change.at)}`}
              >
                Recusar
              </Button>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

type ComparedProps = {
  label: string;
  now: React.ReactNode;
  sent: React.ReactNode;
  /** Whether the value changes: by default, whether `now` and `sent` differ as text. */
  differs?: boolean;
};

function Compared({ label, now, sent, differs = now !== sent }: ComparedProps) {
  return (
    <tr className={differs ? "pending-changes__changed" : undefined}>
      <th scope="row">{label}</th>
      <td data-label="Hoje">{now}</td>
      <td data-label="Enviado">
        {sent}
        {differs && <span className="sr-only"> (muda)</span>}
      </td>
    </tr>
  );
}
