import { asksConsent, useDisclosure } from "../../lib/disclosure";
import { CONSENT_LABEL } from "./messages";

/** The form field a plain form post sends when the box is ticked (`ads_consent=on`). */
export const CONSENT_FIELD = "ads_consent";

/**
 * The optional consent box under the lead form, with `ADS_CONSENT=checkbox`
 * and an ad platform configured: unticked until the visitor ticks it; the
 * lead goes either way. Nothing without that setting.
 */
export function ConsentBox({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const disclosure = useDisclosure();
  if (!asksConsent(disclosure)) return null;
  return (
    <div className="consent">
      <input
        id="lead-ads-consent"
        type="checkbox"
        name={CONSENT_FIELD}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor="lead-ads-consent">
        {CONSENT_LABEL} <span className="consent__optional">(opcional)</span>
      </label>
    </div>
  );
}
