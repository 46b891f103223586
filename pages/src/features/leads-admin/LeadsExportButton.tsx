import { useState } from "react";
import { Button } from "../../components/Button";
import { serverMessage } from "../../lib/api";
import type { ListParams } from "../../lib/leadLinks";
import { useToast } from "../../lib/toast";
import { exportCsv } from "./api";
import { panelMessages } from "./messages";

type Props = {
  view: ListParams;
  /** After a refusal or a cut download: the list is read again, and with it what the person may do. */
  onFailed: () => void;
};

/** 'Exportar CSV': the leads of the view on screen, as a file. */
export function LeadsExportButton({ view, onFailed }: Props) {
  const { toast } = useToast();
  const [exporting, setExporting] = useState(false);

  const onExport = async () => {
    setExporting(true);
    try {
      await exportCsv(view);
    } catch (error) {
      // The server's own words when it said why (an owner took the export away); a download
      // cut on its way (the right taken meanwhile) saves nothing and says so.
      toast({ ...panelMessages.exportFailed, description: serverMessage(error, panelMessages.exportCut) });
      onFailed();
    } finally {
      setExporting(false);
    }
  };

  return (
    <Button type="button" className="button button--ghost" onClick={onExport} inactive={exporting}>
      {exporting ? "Exportando..." : "Exportar CSV"}
    </Button>
  );
}
