import { run } from "@zootools/email-spell-checker";
import { useRef, useState } from "react";

/** The providers most of our visitors' addresses are at; ymail.com (Yahoo's) so it is not taken for gmail.com. */
const PROVIDERS = [
  "gmail.com",
  "hotmail.com",
  "hotmail.com.br",
  "outlook.com",
  "outlook.com.br",
  "live.com",
  "msn.com",
  "yahoo.com",
  "yahoo.com.br",
  "ymail.com",
  "icloud.com",
  "uol.com.br",
  "bol.com.br",
  "terra.com.br",
];

/**
 * The address the visitor probably meant (`ana@gmail.com` for
 * `ana@gmial.com`), or undefined: always with a whole domain from the list.
 * The library's guesses at the name before the dot, or at the ending alone,
 * make up domains nobody has (gmx.net → gmail.net, sc.gov.br → sc.com.br,
 * hotmail.fr → hotmail.br), so it gets no list for them.
 */
export function suggestEmail(email: string): string | undefined {
  const typed = email.trim();
  const suggestion = run({ email: typed, domains: PROVIDERS, secondLevelDomains: [], topLevelDomains: [] });
  // The part before the @ as the visitor typed it (the library lowercases it).
  return suggestion && `${typed.slice(0, typed.lastIndexOf("@"))}@${suggestion.domain}`;
}

/**
 * 'Você quis dizer …?' for the lead form's e-mail: the address suggested now,
 * if any, and what the visitor answered. A suggestion turned down is not made
 * again for the same typed address.
 */
export function useEmailTypo() {
  const [shown, setShown] = useState<{ typed: string; suggested: string } | null>(null);
  const declined = useRef(new Set<string>());
  return {
    suggested: shown?.suggested,
    /** Shows the suggestion for `email`, if it has one not turned down; whether it did. */
    ask(email: string): boolean {
      const suggested = declined.current.has(email) ? undefined : suggestEmail(email);
      setShown(suggested ? { typed: email, suggested } : null);
      return suggested !== undefined;
    },
    decline() {
      if (shown) declined.current.add(shown.typed);
      setShown(null);
    },
    hide: () => setShown(null),
  };
}
