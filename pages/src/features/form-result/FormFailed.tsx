import { type MouseEvent, useEffect, useState } from "react";
import { ResultPage } from "./ResultPage";

/**
 * What the worker's `?motivo=` code means, in the words the form says beside
 * the field (the worker sends a code, never the text, so a link cannot make
 * this page say something of its own).
 */
export const FAILURE_REASONS: Record<string, string> = {
  name: "Informe seu nome completo.",
  email: "Informe um e-mail válido, como nome@exemplo.com.",
  whatsapp: "Informe o WhatsApp com DDD, como (49) 99999-9999.",
  limite: "Muitos envios em pouco tempo. Aguarde alguns minutos e tente novamente.",
  verificacao: "Não foi possível concluir a verificação de segurança. Tente novamente em instantes.",
};

/** The form the visitor came from, if it is this site's landing: going back to it keeps what they typed. */
function cameFromLanding(): boolean {
  try {
    const from = new URL(document.referrer);
    return from.origin === window.location.origin && from.pathname === "/" && window.history.length > 1;
  } catch {
    return false;
  }
}

/** /cadastro-nao-enviado */
export default function FormFailed() {
  // Read after hydration: the prerendered page is the same for every reason.
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    const given = new URLSearchParams(window.location.search).get("motivo") ?? "";
    setCode(Object.hasOwn(FAILURE_REASONS, given) ? given : null);
  }, []);
  const reason = code && FAILURE_REASONS[code];

  const retry = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!cameFromLanding()) return;
    event.preventDefault();
    window.history.back();
  };

  return (
    <ResultPage
      tone="failed"
      title="Seu cadastro não foi enviado"
      action={{ to: "/#cadastro", label: "Tentar novamente", onClick: retry }}
    >
      <p>Houve um erro ao enviar seus dados. Tente novamente.</p>
      {reason ? (
        <p className="result__reason">{reason}</p>
      ) : (
        <p>Confira se o e-mail está completo e se o WhatsApp tem o DDD, como (49) 99999-9999.</p>
      )}
      {(!code || code === "verificacao") && (
        <p>
          Se o JavaScript estiver desativado no seu navegador, ative-o: a verificação de segurança do formulário pode
          precisar dele.
        </p>
      )}
    </ResultPage>
  );
}
