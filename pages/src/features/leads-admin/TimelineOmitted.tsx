/** Where a timeline leaves entries out: `one` for a single one, else the count and `many`. */
export function TimelineOmitted({ count, one, many }: { count: number; one: string; many: string }) {
  return (
    <li className="timeline__item timeline__omitted">
      <p>{count === 1 ? one : `${count.toLocaleString("pt-BR")} ${many}`}</p>
    </li>
  );
}
