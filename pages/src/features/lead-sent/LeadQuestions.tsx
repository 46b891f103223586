import { type MouseEvent, useState } from "react";
import { questions } from "../../config/agency";
import { ApiError } from "../../lib/api";
import { ANSWERS_ENDPOINT, sendAnswer } from "./api";
import { sentMessages } from "./messages";

type Question = (typeof questions)[number];

/**
 * One of agency.json's questions: one tap on an option keeps it on the lead
 * this browser sent. Never in the way: the lead is already in, and a failed
 * answer says so and can be tapped again. Without the page's script each
 * option is a plain form post, which lands back here.
 */
function QuestionForm({ question }: { question: Question }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [status, setStatus] = useState<string>("");
  const [busy, setBusy] = useState(false);

  const choose = async (event: MouseEvent<HTMLButtonElement>, option: string) => {
    event.preventDefault();
    if (busy) return;
    const before = chosen;
    setChosen(option);
    setBusy(true);
    setStatus("");
    try {
      await sendAnswer(question.id, option);
      setStatus(sentMessages.answered);
    } catch (error) {
      setChosen(before);
      const told = error instanceof ApiError && (error.status === 403 || error.status === 429);
      setStatus(told ? (error as ApiError).message : sentMessages.answerFailed);
    } finally {
      setBusy(false);
    }
  };

  const legend = `pergunta-${question.id}`;
  return (
    <form className="question" method="post" action={ANSWERS_ENDPOINT} aria-labelledby={legend}>
      <input type="hidden" name="question" value={question.id} />
      <p className="question__label" id={legend}>
        {question.label}
      </p>
      <div className="question__options">
        {question.options.map((option) => (
          <button
            key={option}
            type="submit"
            name="answer"
            value={option}
            className="question__option"
            aria-pressed={chosen === option}
            onClick={(event) => void choose(event, option)}
          >
            {option}
          </button>
        ))}
      </div>
      <p className="question__status" role="status">
        {status}
      </p>
    </form>
  );
}

/** The optional questions after 'Sucesso!' (agency.json's `questions`). */
export function LeadQuestions() {
  if (questions.length === 0) return null;
  return (
    <section className="questions" id="perguntas" aria-labelledby="perguntas-titulo">
      <h3 id="perguntas-titulo">{sentMessages.questionsTitle}</h3>
      <p className="questions__hint">{sentMessages.questionsHint}</p>
      {questions.map((q) => (
        <QuestionForm key={q.id} question={q} />
      ))}
    </section>
  );
}
