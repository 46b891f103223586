import { apiRequest } from "../../lib/api";

/** Where an answer to a question after 'Sucesso!' goes (worker/src/leads/answers.rs). */
export const ANSWERS_ENDPOINT = "/functions/v1/lead-answers";

/** Keeps `answer` to `question` on the lead this browser sent (its proof cookie says which). */
export async function sendAnswer(question: string, answer: string): Promise<void> {
  await apiRequest(ANSWERS_ENDPOINT, { method: "POST", body: { question, answer } });
}
