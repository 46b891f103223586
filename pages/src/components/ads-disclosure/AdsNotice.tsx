import { useDisclosure } from "../../lib/disclosure";
import { Link } from "../../lib/Link";
import { ShieldIcon } from "../icons";
import { formLine } from "./messages";

/** The line under the lead form: what the data is used for, and the way to the privacy notice. */
export function AdsNotice() {
  const disclosure = useDisclosure();
  return (
    <p className="privacy-note">
      <ShieldIcon size={16} />
      <span>
        {formLine(disclosure)} <Link to="/privacidade">Política de Privacidade</Link>
      </span>
    </p>
  );
}
