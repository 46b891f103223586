import { Fragment } from "react";
import type { LeadStory } from "./api";
import { SubmissionItem } from "./SubmissionItem";
import { TimelineOmitted } from "./TimelineOmitted";

/** 'Cadastros': each time the person sent the form; those between the first and the newest may be left out. */
export function LeadSubmissions({ story }: { story: LeadStory }) {
  const omitted = story.hidden.submissions;
  return (
    <section className="panel" aria-labelledby="submissions-title">
      <div className="panel__head">
        <h2 id="submissions-title">Cadastros</h2>
        <p className="panel__note">Cada vez que a pessoa enviou o formulário, com os dados que digitou.</p>
      </div>
      <ol className="timeline">
        {story.submissions.map((s, i) => (
          <Fragment key={s.id}>
            {i === 1 && omitted > 0 && (
              <TimelineOmitted
                count={omitted}
                one="1 cadastro entre o primeiro e os mais recentes não é mostrado aqui."
                many="cadastros entre o primeiro e os mais recentes não são mostrados aqui."
              />
            )}
            <SubmissionItem submission={s} previous={i === 1 && omitted > 0 ? undefined : story.submissions[i - 1]} />
          </Fragment>
        ))}
      </ol>
    </section>
  );
}
