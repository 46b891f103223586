import { useCallback, useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { serverMessage } from "../../lib/api";
import { formatDate, formatDays } from "../../lib/format";
import { useToast } from "../../lib/toast";
import { fetchSpendImports, importSpend, type SpendImport, SpendRefused, undoSpendImport } from "./api";
import { campaignMessages, spendMessages } from "./messages";
import { formatMoney } from "./report";

type Props = {
  /** A file was imported or an import undone: the report reads again. */
  onChanged: () => void;
};

/** What an import changed, in a sentence: '2 linhas: 1 nova, 1 alterada, 0 sem mudança; + R$ 50,00 no investimento.' */
function added(i: SpendImport): string {
  const lines = `${i.lines} ${i.lines === 1 ? "linha" : "linhas"}`;
  const delta = `${i.added_cents < 0 ? "−" : "+"} ${formatMoney(Math.abs(i.added_cents))}`;
  return spendMessages.added(lines, i.added, i.changed, i.unchanged, delta);
}

/** 'Investimento': import a spend file (owners and those they let), what each import added, and 'Desfazer'. */
export function SpendPanel({ onChanged }: Props) {
  const { toast } = useToast();
  const [imports, setImports] = useState<SpendImport[] | null>(null);
  const [mayImport, setMayImport] = useState(false);
  const [failed, setFailed] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<{ message: string; lines: string[]; errors: number } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await fetchSpendImports();
      setImports(answer.imports);
      setMayImport(answer.may_import);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const send = async () => {
    if (!file) return;
    setSending(true);
    setRefused(null);
    setDone(null);
    try {
      const made = await importSpend(file);
      setDone(`${spendMessages.imported(made.file_name ?? file.name)}. ${added(made)}`);
      setFile(null);
      await load();
      onChanged();
    } catch (error) {
      if (error instanceof SpendRefused)
        setRefused({ message: error.message, lines: error.lines, errors: error.errors });
      else setRefused({ message: serverMessage(error) ?? "Erro ao importar o arquivo.", lines: [], errors: 0 });
    } finally {
      setSending(false);
    }
  };

  const undo = async (id: number) => {
    try {
      await undoSpendImport(id);
      toast(campaignMessages.spendUndone);
      await load();
      onChanged();
    } catch (error) {
      toast({ ...campaignMessages.spendUndoFailed, description: serverMessage(error) });
    }
  };

  return (
    <section className="panel spend" aria-labelledby="spend-title">
      <h2 id="spend-title">{campaignMessages.spendTitle}</h2>
      <p className="spend__intro">{campaignMessages.spendIntro}</p>
      {mayImport ? (
        <form
          className="spend__form"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <div className="field">
            <label htmlFor="spend-file">{campaignMessages.spendChoose}</label>
            <input
              id="spend-file"
              type="file"
              accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values"
              aria-describedby={refused ? "spend-refused" : undefined}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setRefused(null);
                setDone(null);
              }}
            />
          </div>
          <Button type="submit" className="button button--primary" inactive={!file || sending}>
            {sending ? campaignMessages.spendSending : campaignMessages.spendSend}
          </Button>
        </form>
      ) : (
        imports !== null && <p className="panel__note">{campaignMessages.spendNoRight}</p>
      )}
      <div aria-live="polite">
        {done && (
          <p className="spend__done" role="status">
            {done}
          </p>
        )}
        {refused && (
          <div className="notice spend__refused" id="spend-refused" role="alert">
            <p>{refused.message}</p>
            {refused.lines.length > 0 && (
              <ul>
                {refused.lines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
            {refused.errors > refused.lines.length && <p>E mais {refused.errors - refused.lines.length}.</p>}
          </div>
        )}
      </div>
      {failed ? (
        <p className="panel__note">{campaignMessages.spendLoadFailed}</p>
      ) : imports && imports.length === 0 ? (
        <p className="panel__note">{campaignMessages.spendNone}</p>
      ) : imports ? (
        <ul className="spend__imports" aria-label="Importações de investimento">
          {imports.slice(0, 10).map((i) => (
            <li key={i.id} className={i.undone_at_iso ? "spend__import spend__import--undone" : "spend__import"}>
              <div>
                <p className="spend__import-name">
                  {i.file_name ?? spendMessages.kind[i.kind]} · {formatDays(i.first_day, i.last_day)} ·{" "}
                  {formatMoney(i.cents)}
                </p>
                <p className="spend__import-what">
                  {spendMessages.kind[i.kind]}, {formatDate(i.at_iso)}, {i.staff_email}. {added(i)}
                  {i.undone_at_iso && i.undone_by ? ` ${spendMessages.undoneBy(i.undone_by)}.` : ""}
                </p>
              </div>
              {mayImport && !i.undone_at_iso && (
                <Button
                  type="button"
                  className="button button--ghost spend__undo"
                  aria-label={`${campaignMessages.spendUndo} a importação de ${i.file_name ?? spendMessages.kind[i.kind]}`}
                  onClick={() => void undo(i.id)}
                >
                  {campaignMessages.spendUndo}
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
