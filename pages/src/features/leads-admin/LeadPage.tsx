import { Fragment, useCallback, useEffect, useRef, useState } from "react";
import { Link, routeParam, useRouter } from "../../app/router";
import { EmailAddress } from "../../components/EmailAddress";
import { LoadFailed } from "../../components/LoadFailed";
import { useToast } from "../../components/toast";
import { ApiError, sessionEnded } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { StaffLayout } from "../staff-shell/StaffLayout";
import { type Attempt, fetchLeadStory, type LeadStory, type StaffAction, type Submission } from "./api";
import { ConfirmDelete } from "./ConfirmDelete";
import { ConfirmMarkSent } from "./ConfirmMarkSent";
import { attributionFacts, attributionNotes, mailtoHref, whatsappChat } from "./format";
import { LeadActions } from "./LeadActions";
import { leadPath } from "./LeadsTable";
import { PendingChanges } from "./PendingChanges";
import { StatusBadge } from "./StatusBadge";
import { useLeadActions } from "./useLeadActions";
import { lastListAddress } from "./useListParams";
import "./admin.css";
import "./lead-page.css";
import { useFocusRescue } from "../../lib/useFocusRescue";
import { useLatestRequest } from "../../lib/useLatestRequest";

const LOAD_FAILED = "Erro ao carregar o lead";

const ACTIONS: Record<string, string> = {
  mark_sent: "Marcou como enviado ao Jetimob",
  unmark_sent: "Desfez a marcação de enviado",
  resend: "Reenviou ao Jetimob",
  delete: "Excluiu o lead",
  accept_change: "Aceitou uma alteração dos dados",
  refuse_change: "Recusou uma alteração dos dados",
};

/** /admin/leads/{id}: one lead's whole story. */
export default function LeadPage() {
  return (
    <StaffLayout title="Lead" subtitle="Os dados do lead, cada cadastro que ele enviou e cada envio ao Jetimob.">
      <LeadStoryPanel />
    </StaffLayout>
  );
}

function LeadStoryPanel() {
  const { path, navigate } = useRouter();
  const { toast } = useToast();
  const id = routeParam("/admin/leads/:id", path) ?? "";
  const [story, setStory] = useState<LeadStory | null>(null);
  const [missing, setMissing] = useState(false);
  const [failed, setFailed] = useState(false);
  const { start } = useLatestRequest();
  const card = useRef<HTMLElement>(null);
  const status = useRef<HTMLDivElement>(null);
  // 'Marcar Enviado' gone once the lead is sent: focus goes to the status that says so.
  useFocusRescue(card, { fallback: () => status.current });

  /** Loads the story; a `quiet` reload (after an action) keeps the page on screen and says nothing if it fails. */
  const load = useCallback(
    async (quiet = false) => {
      const controller = start();
      if (!quiet) {
        setStory(null);
        setMissing(false);
        setFailed(false);
      }
      try {
        setStory(await fetchLeadStory(id, controller.signal));
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setMissing(true);
        else if (!quiet && !sessionEnded(error)) {
          toast({ title: "Erro", description: LOAD_FAILED, variant: "destructive" });
          setFailed(true);
        }
      }
    },
    [id, toast, start],
  );

  useEffect(() => {
    void load();
  }, [load]);

  // A deleted lead's page has nothing left to show: back to the list it came from.
  const actions = useLeadActions({ reload: () => load(true), deleted: () => navigate(lastListAddress()) });

  if (missing) {
    return (
      <section className="panel">
        <p className="list-status">Lead não encontrado. Ele pode ter sido removido por outra pessoa.</p>
        <BackToList />
      </section>
    );
  }
  if (failed) {
    return (
      <section className="panel">
        <LoadFailed text={LOAD_FAILED} onRetry={() => void load()} />
        <BackToList />
      </section>
    );
  }
  if (!story) {
    return (
      <p className="list-status" role="status">
        Carregando o lead...
      </p>
    );
  }

  const { lead } = story;
  const facts = attributionFacts(lead);
  const last = lead.last_touch;
  return (
    <div className="lead-page">
      <BackToList />
      <section className="panel lead-card" aria-labelledby="lead-name" ref={card}>
        <div className="lead-card__head">
          <div>
            <h2 id="lead-name">{lead.name}</h2>
            <p className="panel__note">
              Lead desde {formatDate(lead.created_at)} ·{" "}
              {lead.submission_count === 1 ? "1 cadastro" : `${lead.submission_count} cadastros`}
            </p>
          </div>
          <div className="lead-card__status">
            <div ref={status} tabIndex={-1}>
              <StatusBadge lead={lead} />
            </div>
            <LeadActions
              lead={lead}
              busy={actions.busy[lead.id]}
              crmConfigured={story.crm_configured}
              onMarkSent={actions.onMarkSent}
              onResend={actions.onResend}
              onDelete={actions.onDelete}
            />
          </div>
        </div>
        <dl className="lead-card__facts">
          <div>
            <dt>WhatsApp</dt>
            <dd>
              <a href={whatsappChat(lead.whatsapp)} target="_blank" rel="noopener noreferrer">
                {lead.whatsapp_display}
              </a>{" "}
              <span className="lead-card__hint">(abre uma conversa no WhatsApp)</span>
            </dd>
          </div>
          <div>
            <dt>E-mail</dt>
            <dd>
              <a href={mailtoHref(lead.email)}>
                <EmailAddress email={lead.email} />
              </a>
            </dd>
          </div>
          <div>
            <dt>Primeiro contato</dt>
            <dd>{lead.origem}</dd>
          </div>
          {last && (
            <div>
              <dt>Último contato</dt>
              <dd>
                {last.origem}
                {attributionNotes(last).length > 0 && (
                  <span className="lead-card__hint"> · {attributionNotes(last).join(" · ")}</span>
                )}
                <span className="lead-card__hint"> · {formatDate(last.at)}</span>
              </dd>
            </div>
          )}
        </dl>
        {facts.length > 0 && (
          <>
            <h3 className="lead-card__subhead">De onde veio</h3>
            <dl className="lead-card__facts lead-card__facts--attribution">
              {facts.map((fact) => (
                <div key={fact.label}>
                  <dt>{fact.label}</dt>
                  <dd>{fact.value}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
        {story.possible_duplicates.length > 0 && (
          <div className="notice lead-card__duplicates" role="note">
            <strong>Possível duplicado.</strong> Um cadastro trouxe dados de outro lead; nada foi juntado
            automaticamente. Compare:
            <ul>
              {story.possible_duplicates.map((other) => (
                <li key={other.id}>
                  <Link to={leadPath(other.id)}>{other.name}</Link> · {other.email} · {other.whatsapp_display}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>

      <PendingChanges
        lead={lead}
        changes={story.submissions.filter((s) => s.kind === "pending")}
        decided={() => void load(true)}
      />

      <section className="panel" aria-labelledby="submissions-title">
        <div className="panel__head">
          <h2 id="submissions-title">Cadastros</h2>
          <p className="panel__note">Cada vez que a pessoa enviou o formulário, com os dados que digitou.</p>
        </div>
        <ol className="timeline">
          {story.submissions.map((s, i) => (
            <Fragment key={s.id}>
              {i === 1 && story.hidden.submissions > 0 && (
                <Omitted
                  count={story.hidden.submissions}
                  one="1 cadastro entre o primeiro e os mais recentes não é mostrado aqui."
                  many="cadastros entre o primeiro e os mais recentes não são mostrados aqui."
                />
              )}
              <SubmissionItem
                submission={s}
                previous={i === 1 && story.hidden.submissions > 0 ? undefined : story.submissions[i - 1]}
              />
            </Fragment>
          ))}
        </ol>
      </section>

      <section className="panel" aria-labelledby="attempts-title">
        <div className="panel__head">
          <h2 id="attempts-title">Envios ao Jetimob</h2>
        </div>
        {story.attempts.length === 0 ? (
          <p className="panel__note">
            {story.crm_configured
              ? "Nenhuma tentativa registrada."
              : "Nenhuma tentativa: a integração com o Jetimob não está configurada."}
          </p>
        ) : (
          <ol className="timeline">
            {story.hidden.attempts > 0 && (
              <Omitted
                count={story.hidden.attempts}
                one="1 tentativa mais antiga não é mostrada aqui."
                many="tentativas mais antigas não são mostradas aqui."
              />
            )}
            {story.attempts.map((a) => (
              <AttemptItem key={a.id} attempt={a} />
            ))}
          </ol>
        )}
      </section>

      <section className="panel" aria-labelledby="actions-title">
        <div className="panel__head">
          <h2 id="actions-title">Ações da equipe</h2>
        </div>
        {story.actions.length === 0 ? (
          <p className="panel__note">Ninguém da equipe alterou este lead.</p>
        ) : (
          <ol className="timeline">
            {story.hidden.actions > 0 && (
              <Omitted
                count={story.hidden.actions}
                one="1 ação mais antiga não é mostrada aqui."
                many="ações mais antigas não são mostradas aqui."
              />
            )}
            {story.actions.map((a) => (
              <ActionItem key={a.id} action={a} />
            ))}
          </ol>
        )}
      </section>

      <ConfirmMarkSent
        lead={actions.toMark}
        onCancel={actions.onCancelMarkSent}
        onConfirm={actions.onConfirmMarkSent}
      />
      <ConfirmDelete lead={actions.toDelete} onCancel={actions.onCancelDelete} onConfirm={actions.onConfirmDelete} />
    </div>
  );
}

function BackToList() {
  return (
    <p className="lead-page__back">
      <Link to={lastListAddress()}>← Voltar à lista de leads</Link>
    </p>
  );
}

/** Where a timeline leaves entries out: `one` for a single one, else the count and `many`. */
function Omitted({ count, one, many }: { count: number; one: string; many: string }) {
  return (
    <li className="timeline__item timeline__omitted">
      <p>{count === 1 ? one : `${count.toLocaleString("pt-BR")} ${many}`}</p>
    </li>
  );
}

/** One submission: what was typed, and what changed since the one before. */
function SubmissionItem({ submission: s, previous }: { submission: Submission; previous?: Submission }) {
  const changed = (key: "name" | "email" | "whatsapp") => previous !== undefined && previous[key] !== s[key];
  const notes = attributionNotes(s);
  return (
    <li className="timeline__item">
      <time dateTime={s.at ?? undefined}>{formatDate(s.at)}</time>
      <div>
        <p className={changed("name") ? "timeline__changed" : undefined}>{s.name}</p>
        <p className={changed("email") ? "timeline__changed" : undefined}>
          <EmailAddress email={s.email} />
        </p>
        <p className={changed("whatsapp") ? "timeline__changed" : undefined}>{s.whatsapp_display}</p>
        <p className="lead-card__hint">
          origem {s.origem}
          {notes.length > 0 && ` · ${notes.join(" · ")}`}
        </p>
        {s.kind === "pending" && <p className="timeline__badge">Alteração pendente: dados não aplicados</p>}
        {s.kind === "refused" && <p className="timeline__badge">Alteração recusada pela equipe</p>}
        {s.kind !== "pending" &&
          s.kind !== "refused" &&
          previous &&
          (changed("name") || changed("email") || changed("whatsapp")) && (
            <p className="timeline__badge">Dados corrigidos pelo visitante</p>
          )}
      </div>
    </li>
  );
}

function AttemptItem({ attempt: a }: { attempt: Attempt }) {
  const what = a.kind === "lead" ? "Lead" : "Correção dos dados";
  return (
    <li className="timeline__item">
      <time dateTime={a.at ?? undefined}>{formatDate(a.at)}</time>
      <div>
        <p>
          {what}:{" "}
          <span className={a.outcome === "sent" ? "badge badge--sent" : "badge badge--failed"}>
            {a.outcome === "sent" ? "Enviado" : "Falhou"}
          </span>
        </p>
        {a.detail && (
          <p className="lead-card__hint">{a.outcome === "sent" ? `Código no Jetimob: ${a.detail}` : a.detail}</p>
        )}
      </div>
    </li>
  );
}

function ActionItem({ action: a }: { action: StaffAction }) {
  return (
    <li className="timeline__item">
      <time dateTime={a.at ?? undefined}>{formatDate(a.at)}</time>
      <div>
        <p>{ACTIONS[a.action] ?? a.action}</p>
        <p className="lead-card__hint">
          <EmailAddress email={a.staff_email} />
        </p>
      </div>
    </li>
  );
}
