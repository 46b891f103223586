import { ResultPage } from "./ResultPage";

/** /cadastro-nao-enviado */
export default function FormFailed() {
  return (
    <ResultPage
      tone="failed"
      title="Seu cadastro não foi enviado"
      action={{ to: "/#cadastro", label: "Tentar novamente" }}
    >
      <p>Houve um erro ao enviar seus dados. Tente novamente.</p>
      <p>Confira se o e-mail está completo e se o WhatsApp tem o DDD, como (49) 99999-9999.</p>
      <p>
        Se o JavaScript estiver desativado no seu navegador, ative-o: a verificação de segurança do formulário pode
        precisar dele.
      </p>
    </ResultPage>
  );
}
