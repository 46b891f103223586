/**
 * A view that could not be loaded: what failed, and a way to try again (the
 * toast that said so goes after a few seconds; this stays).
 */
export function LoadFailed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div className="list-status">
      <p>{text}.</p>
      <button type="button" className="button button--ghost" onClick={onRetry}>
        Tentar novamente
      </button>
    </div>
  );
}
