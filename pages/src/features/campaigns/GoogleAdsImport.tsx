import { useState } from "react";
import { Button } from "../../components/Button";
import type { Ads } from "./api";
import { campaignMessages } from "./messages";

type Props = { account: NonNullable<Ads["google_ads"]> };

/**
 * For owners, when the conversions file is on: the address, user and
 * conversion name to give Google Ads' scheduled upload (the password is the
 * one set in the worker's secrets), each to copy.
 */
export function GoogleAdsImport({ account }: Props) {
  const address = `${window.location.origin}${account.path}`;
  const fields = [
    { label: campaignMessages.googleAdsAddress, value: address },
    { label: campaignMessages.googleAdsUser, value: account.user },
    { label: campaignMessages.googleAdsConversion, value: account.conversion_name },
  ];
  return (
    <section className="panel google-ads" aria-labelledby="google-ads-title">
      <h2 id="google-ads-title">{campaignMessages.googleAdsTitle}</h2>
      <p className="google-ads__intro">{campaignMessages.googleAdsIntro}</p>
      <dl className="google-ads__fields">
        {fields.map((field) => (
          <div key={field.label} className="google-ads__field">
            <dt>{field.label}</dt>
            <dd>
              <code>{field.value}</code>
              <CopyButton label={field.label} value={field.value} />
            </dd>
          </div>
        ))}
      </dl>
      <p className="panel__note">{campaignMessages.googleAdsPassword}</p>
    </section>
  );
}

function CopyButton({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an insecure page, a refusal): the text stays there to select.
    }
  };
  return (
    <Button
      type="button"
      className="button button--ghost google-ads__copy"
      aria-label={`${campaignMessages.copy}: ${label}`}
      onClick={() => void copy()}
    >
      {copied ? campaignMessages.copied : campaignMessages.copy}
    </Button>
  );
}
