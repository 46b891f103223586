/** A full-page spinner with a sentence saying what is happening. */
export function PageStatus({ text }: { text: string }) {
  return (
    <div className="page-status" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <p>{text}</p>
    </div>
  );
}
