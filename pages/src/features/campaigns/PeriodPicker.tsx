import { useState } from "react";
import { Button } from "../../components/Button";
import { FieldError, invalidProps } from "../../components/FieldError";
import type { DayRange } from "../../lib/days";
import { formatDays } from "../../lib/format";
import { type Period, PRESETS } from "./period";

type Props = {
  period: Period;
  /** The days of the report on screen (or asked for), once known. */
  range: DayRange | null;
  today: string;
  /** What the worker said is wrong with a chosen period, by field ('de', 'ate'). */
  errors: Record<string, string>;
  onChange: (period: Period) => void;
};

/** 'Hoje', '7 dias', '30 dias', 'Todo o lançamento', or two days staff choose ('Personalizado'). */
export function PeriodPicker({ period, range, today, errors, onChange }: Props) {
  // 'Personalizado' pressed while this period was on screen: the form shows until another period is.
  const [choosingFor, setChoosingFor] = useState<Period | null>(null);
  const custom = "custom" in period || choosingFor === period;

  return (
    <section className="panel period-picker" aria-labelledby="period-title">
      <div className="period-picker__head">
        <h2 id="period-title">Período</h2>
        <p className="period-picker__days">{range ? formatDays(range.from, range.to) : "…"}</p>
      </div>
      <fieldset className="period-picker__options">
        <legend className="sr-only">Escolha o período</legend>
        {PRESETS.map((p) => (
          <button
            key={p.value}
            type="button"
            className="period-picker__option"
            aria-pressed={!custom && "preset" in period && period.preset === p.value}
            onClick={() => {
              setChoosingFor(null);
              onChange({ preset: p.value });
            }}
          >
            {p.label}
          </button>
        ))}
        <button
          type="button"
          className="period-picker__option"
          aria-pressed={custom}
          onClick={() => setChoosingFor(period)}
        >
          Personalizado
        </button>
      </fieldset>
      {custom && (
        <CustomRange
          key={range ? `${range.from}/${range.to}` : ""}
          initial={range}
          today={today}
          errors={errors}
          onApply={(chosen) => onChange({ custom: chosen })}
        />
      )}
    </section>
  );
}

type CustomProps = {
  initial: DayRange | null;
  today: string;
  errors: Record<string, string>;
  onApply: (range: DayRange) => void;
};

/** 'De' and 'Até' (the phone's own date picker), applied with 'Aplicar'. */
function CustomRange({ initial, today, errors, onApply }: CustomProps) {
  const [from, setFrom] = useState(initial?.from ?? "");
  const [to, setTo] = useState(initial?.to ?? "");
  return (
    <form
      className="period-picker__custom"
      onSubmit={(event) => {
        event.preventDefault();
        onApply({ from, to });
      }}
    >
      <div className="field">
        <label htmlFor="period-from">De</label>
        <input
          id="period-from"
          type="date"
          required
          max={today}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          {...invalidProps("period-from", errors.de)}
        />
        <FieldError id="period-from" error={errors.de} />
      </div>
      <div className="field">
        <label htmlFor="period-to">Até</label>
        <input
          id="period-to"
          type="date"
          required
          max={today}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          {...invalidProps("period-to", errors.ate)}
        />
        <FieldError id="period-to" error={errors.ate} />
      </div>
      <Button type="submit" className="button button--primary">
        Aplicar
      </Button>
    </form>
  );
}
