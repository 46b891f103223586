import { useEffect, useId, useState } from "react";
import { Button } from "../../components/Button";
import { SwitchTrack } from "../../components/SwitchTrack";
import { apiRequest, serverMessage } from "../../lib/api";
import { useToast } from "../../lib/toast";

type Notices = { enabled: boolean };

export const noticeMessages = {
  label: "Receber aviso de novos leads",
  hint: "Um e-mail por minuto, no máximo, com cada lead novo.",
  on: {
    title: "Aviso de novos leads ligado",
    description: "Você receberá um e-mail a cada lead novo, em até 1 minuto.",
  },
  off: { title: "Aviso de novos leads desligado" },
  failedTitle: "Não foi possível mudar o aviso",
} as const;

/**
 * 'Receber aviso de novos leads': the signed-in person's own new-lead
 * e-mails, on or off. Shown once the current choice is known.
 */
export function NoticeSwitch() {
  const { toast } = useToast();
  const id = useId();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<Notices>("/api/auth/notices", { staff: true, signal: controller.signal })
      .then((answer) => setEnabled(answer.enabled))
      .catch(() => {});
    return () => controller.abort();
  }, []);

  if (enabled === null) return null;

  const flip = async () => {
    if (busy) return;
    const wanted = !enabled;
    setBusy(true);
    setEnabled(wanted);
    try {
      const answer = await apiRequest<Notices>("/api/auth/notices", {
        method: "PUT",
        body: { enabled: wanted },
        staff: true,
      });
      setEnabled(answer.enabled);
      toast(answer.enabled ? noticeMessages.on : noticeMessages.off);
    } catch (error) {
      setEnabled(!wanted);
      toast({
        title: noticeMessages.failedTitle,
        description: serverMessage(error),
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="notice-switch">
      <Button
        type="button"
        role="switch"
        id={id}
        aria-checked={enabled}
        aria-describedby={`${id}-hint`}
        className="notice-switch__control"
        onClick={flip}
        inactive={busy}
      >
        <SwitchTrack className="notice-switch__track" />
        <span className="notice-switch__label">{noticeMessages.label}</span>
      </Button>
      <span id={`${id}-hint`} className="sr-only">
        {noticeMessages.hint}
      </span>
    </div>
  );
}
