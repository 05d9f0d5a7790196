// A small picture of a board as the participant left it ('#' filled, 'x' crossed, '?' blank).
export function MiniBoard({ rows, label }: { rows: string[]; label: string }) {
  const width = rows[0]?.length ?? 0;
  const cell = Math.max(3, Math.min(10, Math.floor(110 / Math.max(1, width, rows.length))));
  return (
    <div className="mini-board" role="img" aria-label={label} style={{ ['--mini' as string]: `${cell}px` }}>
      {rows.map((row, r) => (
        <div key={r} className="mini-row">
          {[...row].map((ch, c) => (
            <span key={c} className={ch === '#' ? 'filled' : ch === 'x' ? 'crossed' : ''} />
          ))}
        </div>
      ))}
    </div>
  );
}
