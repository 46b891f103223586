import { Button } from "../../components/Button";
import { EmailAddress } from "../../components/EmailAddress";

export const awaitingMessages = {
  title: "Aguardando aprovação",
  opensHere:
    "Assim que o acesso for aprovado, o painel abre nesta página em até 30 segundos, sem precisar entrar de novo.",
  whoToAsk: "Se a espera demorar, fale com o responsável pelo painel da imobiliária.",
  leave: "Sair",
  approved: { title: "Acesso aprovado", description: "O painel já está aberto para você." },
} as const;

type Props = { email: string; leaving: boolean; onLeave: () => void };

/**
 * What a confirmed account sees, instead of any panel page, until an owner
 * lets it in (STAFF_APPROVAL): the worker refuses it every lead meanwhile.
 * Its heading is the page's <h1>, where the router puts the focus.
 */
export function AwaitingApproval({ email, leaving, onLeave }: Props) {
  return (
    <section className="awaiting" aria-labelledby="awaiting-title">
      <span className="awaiting__icon">
        <HourglassIcon />
      </span>
      <h1 id="awaiting-title" className="awaiting__title" tabIndex={-1}>
        {awaitingMessages.title}
      </h1>
      <p>
        Seu e-mail{" "}
        <strong>
          <EmailAddress email={email} />
        </strong>{" "}
        foi confirmado. Agora um responsável pelo painel precisa aprovar o seu acesso.
      </p>
      <p>{awaitingMessages.opensHere}</p>
      <p className="awaiting__note">{awaitingMessages.whoToAsk}</p>
      <Button type="button" className="button button--primary awaiting__leave" onClick={onLeave} inactive={leaving}>
        {awaitingMessages.leave}
      </Button>
    </section>
  );
}

/** Drawn here rather than in components/icons.tsx, which the landing page ships. */
function HourglassIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width={28}
      height={28}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M6 3h12M6 21h12" />
      <path d="M7 3c0 4 3 6 5 9-2 3-5 5-5 9M17 3c0 4-3 6-5 9 2 3 5 5 5 9" />
      <path d="M9.5 18.5h5" />
    </svg>
  );
}
