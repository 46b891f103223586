/** The counters and the table of leads (built next). */
export function LeadsPanel() {
  return <section aria-label="Leads" />;
}
