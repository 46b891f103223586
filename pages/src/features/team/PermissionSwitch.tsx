import { Button } from "../../components/Button";
import { SwitchTrack } from "../../components/SwitchTrack";
import type { Account, Permission, PermissionAction } from "./api";
import { permissionLabels } from "./messages";

type Props = {
  account: Account;
  permission: Permission;
  busy: boolean;
  onFlip: (action: PermissionAction) => void;
};

/**
 * 'Exportar CSV', 'Excluir leads' or 'Marcar enviado' for a colleague, on or off. Its name
 * says whose it is ('Permitir que ana@… exporte CSV'): every row has the same three.
 */
export function PermissionSwitch({ account, permission, busy, onFlip }: Props) {
  const allowed = {
    export: account.can_export,
    delete: account.can_delete,
    "mark-sent": account.can_mark_sent,
    "import-spend": account.can_import_spend,
  }[permission];
  const words = permissionLabels[permission];
  return (
    <Button
      type="button"
      role="switch"
      aria-checked={allowed}
      aria-label={words.name(account.email)}
      className="permission-switch"
      inactive={busy}
      onClick={() => onFlip(`${allowed ? "deny" : "allow"}-${permission}`)}
    >
      <SwitchTrack className="permission-switch__track" />
      <span className="permission-switch__label">{words.label}</span>
    </Button>
  );
}
