import { useEffect, useId, useState } from "react";
import { Button } from "../../components/Button";
import { SwitchTrack } from "../../components/SwitchTrack";
import { serverMessage } from "../../lib/api";
import { useToast } from "../../lib/toast";
import { fetchPanelSettings, savePanelSettings } from "./api";
import { firstContactMessages as m } from "./messages";
import "./notice-default.css";

/**
 * The owners' choice of whether new colleagues start with 'Receber aviso de
 * novos leads' on: a switch on 'Equipe'.
 */
export function NoticeDefault() {
  const { toast } = useToast();
  const id = useId();
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetchPanelSettings(controller.signal)
      .then((s) => setOn(s.colleague_notices))
      .catch(() => {});
    return () => controller.abort();
  }, []);
  if (on === null) return null;
  const flip = async () => {
    setBusy(true);
    try {
      const saved = await savePanelSettings({ colleague_notices: !on });
      setOn(saved.colleague_notices);
      toast(saved.colleague_notices ? m.noticesOn : m.noticesOff);
    } catch (error) {
      toast({ ...m.saveFailed, description: serverMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel notice-default" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="sr-only">
        Avisos
      </h2>
      <Button
        type="button"
        role="switch"
        aria-checked={on}
        aria-describedby={`${id}-hint`}
        className="notice-default__control"
        inactive={busy}
        onClick={flip}
      >
        <SwitchTrack className="notice-default__track" />
        {m.noticesLabel}
      </Button>
      <p id={`${id}-hint`} className="panel__note">
        {m.noticesHint}
      </p>
    </section>
  );
}
