/** The most digits of a Brazilian number with its DDD: two for the DDD, nine for a mobile. */
const NATIONAL_DIGITS = 11;

/** The DDD and number, `(49) 99999-8888` or `(48) 3333-4444`, as far as typed. */
function formatNational(digits: string): string {
  const national = digits.slice(0, NATIONAL_DIGITS);
  if (national.length === 0) return "";
  if (national.length <= 2) return `(${national}`;
  const ddd = national.slice(0, 2);
  const rest = national.slice(2);
  // Nine digits after the DDD (mobile) split 5-4, eight digits split 4-4.
  const head = rest.length > 8 ? 5 : 4;
  if (rest.length <= head) return `(${ddd}) ${rest}`;
  return `(${ddd}) ${rest.slice(0, head)}-${rest.slice(head)}`;
}

/**
 * Formats a Brazilian WhatsApp number as the visitor types:
 * `49999998888` → `(49) 99999-8888`, `4833334444` → `(48) 3333-4444`.
 * What comes before the DDD is kept, as the worker reads it: the country
 * code (`+55`, or `55` once 12 or 13 digits show it is one), a trunk `0`, and
 * after it a carrier code (`0 15`) once 12 or 13 digits follow the `0`.
 * Digits past a whole number are dropped. A number that starts with `+` and
 * another country code is international and left as typed.
 */
export function maskWhatsApp(input: string): string {
  const plus = input.trimStart().startsWith("+");
  const digits = input.replace(/\D/g, "");
  if (plus && !digits.startsWith("55")) return input.replace(/[^\d+\s()-]/g, "");
  let prefix = "";
  let national = digits;
  if (plus || (digits.startsWith("55") && digits.length >= 12)) {
    prefix = "+55 ";
    national = digits.slice(2);
  } else if (digits.startsWith("0")) {
    const afterTrunk = digits.slice(1);
    const carrier = afterTrunk.length >= 12;
    prefix = carrier ? `0 ${afterTrunk.slice(0, 2)} ` : "0 ";
    national = carrier ? afterTrunk.slice(2) : afterTrunk;
  }
  return national.length === 0 ? prefix.trimEnd() : prefix + formatNational(national);
}

/** How the visitor changed the field: the kind of deletion, if it was one. */
export type Deletion = "backward" | "forward" | null;

/**
 * An edit of the WhatsApp field, masked, with where its caret goes: after as
 * many digits as stood before it, so typing or erasing in the middle of the
 * number stays where the visitor is. A deletion that took only punctuation
 * (Backspace just after the `-`, which the mask would put back) takes the
 * digit beside it instead.
 *
 * An edit the mask would cut short anywhere but at the end (a digit typed
 * into a whole number) is refused, value and caret as they were: cutting
 * would silently drop the number's last digit, a wrong number. The visitor
 * erases the wrong digit first.
 *
 * A `+55 ` before 12 or 13 digits starting with 55 may be the mask's own,
 * so it is not read back as typed: erasing a DDD 55 number's digit too many
 * brings back `(55) …`. Typing on reads the same with or without the `+`;
 * only a typed `+55` number erased back to 11 digits loses its `+`.
 */
export function editWhatsApp(
  previous: string,
  raw: string,
  caret: number,
  deletion: Deletion,
): { value: string; caret: number } {
  let text = raw;
  let at = caret;
  const digitsOf = (s: string) => s.replace(/\D/g, "");
  if (deletion && raw.length < previous.length && digitsOf(raw) === digitsOf(previous)) {
    const index =
      deletion === "backward" ? raw.slice(0, caret).search(/\d(?=\D*$)/) : raw.slice(caret).search(/\d/) + caret;
    if (index >= 0 && (deletion === "backward" || index >= caret)) {
      text = raw.slice(0, index) + raw.slice(index + 1);
      at = deletion === "backward" ? index : caret;
    }
  }
  const ownPlus = previous.startsWith("+55 ") && /^55\d{10,11}$/.test(digitsOf(previous)) && text.startsWith("+55");
  const value = maskWhatsApp(ownPlus ? text.slice(1) : text);
  if (digitsOf(value).length < digitsOf(text).length && /\d/.test(text.slice(at))) {
    return { value: previous, caret: Math.min(Math.max(caret - (raw.length - previous.length), 0), previous.length) };
  }
  const before = digitsOf(text.slice(0, at)).length;
  return { value, caret: caretAfterDigits(value, before) };
}

/** The position just after the `count`-th digit of `value` (before its first digit for 0). */
function caretAfterDigits(value: string, count: number): number {
  if (count === 0) {
    const first = value.search(/\d/);
    return first < 0 ? value.length : first;
  }
  let seen = 0;
  for (let i = 0; i < value.length; i++) {
    if (/\d/.test(value.charAt(i)) && ++seen === count) return i + 1;
  }
  return value.length;
}
