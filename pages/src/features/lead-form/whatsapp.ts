/**
 * Formats a Brazilian WhatsApp number as the visitor types:
 * `49999998888` → `(49) 99999-8888`, `4833334444` → `(48) 3333-4444`.
 * A number that starts with `+` is international and left as typed.
 */
export function maskWhatsApp(input: string): string {
  if (input.trimStart().startsWith("+")) return input.replace(/[^\d+\s()-]/g, "");
  const digits = input.replace(/\D/g, "").slice(0, 11);
  if (digits.length === 0) return "";
  if (digits.length <= 2) return `(${digits}`;
  const ddd = digits.slice(0, 2);
  const rest = digits.slice(2);
  // Nine digits after the DDD (mobile) split 5-4, eight digits split 4-4.
  const head = rest.length > 8 ? 5 : 4;
  if (rest.length <= head) return `(${ddd}) ${rest}`;
  return `(${ddd}) ${rest.slice(0, head)}-${rest.slice(head)}`;
}
