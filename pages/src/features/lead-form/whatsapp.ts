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
 * Invisible formatting characters (Unicode category Cf): the direction marks
 * WhatsApp wraps a copied number in, zero-width spaces and joiners, a BOM.
 * Before a `+` they hide it, so they go before anything is read.
 */
const INVISIBLE = /\p{Cf}/gu;

/**
 * `+55 0 49 …`: a trunk `0` typed after the country code out of habit. The
 * worker drops it once the 10 or 11 digits of a number follow it (more are
 * cut at the end, like any extra digits), so the mask does too; until then
 * it stays in sight. No DDD starts with 0, so it can be nothing else.
 */
const TRUNK_AFTER_COUNTRY_CODE = /^(\s*\+\D*5\D*5\D*)0(?=(?:\D*\d){10})/;

/**
 * The input as the mask reads it: without invisible characters, any space (a
 * non-breaking one too) a plain space and a non-breaking hyphen a `-`, as the
 * visitor sees them; a leading `00`, the international prefix, read as `+`
 * (no DDD nor carrier code starts with 0, so a Brazilian number never does),
 * and a trunk `0` after `+55` dropped once a whole number follows it.
 */
function normalise(input: string): string {
  return input
    .replace(INVISIBLE, "")
    .replace(/\s/g, " ")
    .replace(/\u2011/g, "-")
    .replace(/^ *00 */, "+")
    .replace(TRUNK_AFTER_COUNTRY_CODE, "$1");
}

/**
 * Formats a Brazilian WhatsApp number as the visitor types:
 * `49999998888` → `(49) 99999-8888`, `4833334444` → `(48) 3333-4444`.
 * What comes before the DDD is kept, as the worker reads it: the country
 * code (`+55`, or `55` once 12 or 13 digits show it is one), a trunk `0`, and
 * after it a carrier code (`0 15`) once 12 or 13 digits follow the `0`.
 * After `+55` (or `00 55`) a trunk `0` shows until a whole number follows it,
 * then goes, as the worker drops it. Digits past a whole number are dropped.
 * A number that starts with `+` (or `00`) and another country code is
 * international and left as typed, but for invisible characters and letters.
 */
export function maskWhatsApp(input: string): string {
  const text = normalise(input);
  const plus = text.trimStart().startsWith("+");
  const digits = text.replace(/\D/g, "");
  if (plus && !digits.startsWith("55")) return text.replace(/[^\d+\s()-]/g, "");
  let prefix = "";
  let national = digits;
  if (plus || (digits.startsWith("55") && digits.length >= 12)) {
    prefix = "+55 ";
    national = digits.slice(2);
    // A trunk 0 that normalise() left: the number behind it is not whole yet.
    if (plus && national.startsWith("0")) {
      prefix = "+55 0 ";
      national = national.slice(1);
    }
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
 * only a typed `+55` number erased back to 11 digits loses its `+`. A
 * `+55 0 ` (a trunk after the country code) is never the mask's own.
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
  // The mask's own `+55 ` comes before the DDD's `(`; a `+55 0 ` was typed.
  const ownPlus = previous.startsWith("+55 (") && /^55\d{10,11}$/.test(digitsOf(previous)) && text.startsWith("+55");
  const read = ownPlus ? text.slice(1) : text;
  const value = maskWhatsApp(read);
  // The digits the mask drops on purpose, all at the start (a `00` read as
  // `+`, a trunk `0` after `+55`): not a number cut short, nor before the caret.
  const skipped = digitsOf(read).length - digitsOf(normalise(read)).length;
  if (digitsOf(value).length < digitsOf(read).length - skipped && /\d/.test(text.slice(at))) {
    return { value: previous, caret: Math.min(Math.max(caret - (raw.length - previous.length), 0), previous.length) };
  }
  const before = Math.max(digitsOf(text.slice(0, at)).length - skipped, 0);
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

/**
 * Whether a number typed in the field is a whole Brazilian landline: a DDD
 * and eight digits starting 2 to 5 (a mobile has nine, starting with 9). The
 * worker keeps such a number and marks it 'fixo' (migration 0022, the same
 * rule); the form asks first whether it has WhatsApp.
 */
export function isLandline(value: string): boolean {
  const masked = maskWhatsApp(value);
  if (masked.trimStart().startsWith("+") && !masked.trimStart().startsWith("+55 ")) return false;
  const whole = masked.match(/\((\d{2})\) (\d{4})-(\d{4})$/);
  return whole !== null && /^[2-5]/.test(whole[2] ?? "");
}
