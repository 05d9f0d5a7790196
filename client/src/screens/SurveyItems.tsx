// Survey item inputs, one per config item type, with the validation message next to the item.
import type { SurveyItem } from '../../../shared/schema/config.ts';
import type { Answer } from '../../../shared/study/survey.ts';

export function SurveyItemInput({ item, value, error, onChange }: { item: SurveyItem; value: Answer | undefined; error?: string; onChange: (v: Answer) => void }) {
  const name = `item-${item.id}`;
  let input: React.ReactNode;
  switch (item.type) {
    case 'scale':
      input = (
        <div className="scale" role="radiogroup" aria-label={item.label}>
          {item.min_label && <span className="scale-label">{item.min_label}</span>}
          {Array.from({ length: item.max - item.min + 1 }, (_, i) => item.min + i).map((n) => (
            <label key={n} className="scale-option">
              <input type="radio" name={name} value={n} checked={value === n} onChange={() => onChange(n)} />
              {n}
            </label>
          ))}
          {item.max_label && <span className="scale-label">{item.max_label}</span>}
        </div>
      );
      break;
    case 'likert':
    case 'single':
      input = (
        <div className="choices" role="radiogroup" aria-label={item.label}>
          {item.options.map((o) => (
            <label key={o}>
              <input type="radio" name={name} value={o} checked={value === o} onChange={() => onChange(o)} />
              {o}
            </label>
          ))}
        </div>
      );
      break;
    case 'multi': {
      const chosen = Array.isArray(value) ? value : [];
      input = (
        <div className="choices">
          {item.options.map((o) => (
            <label key={o}>
              <input type="checkbox" name={name} value={o} checked={chosen.includes(o)} onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((x) => x !== o))} />
              {o}
            </label>
          ))}
        </div>
      );
      break;
    }
    case 'number':
      input = (
        <input
          type="number"
          name={name}
          aria-label={item.label}
          value={typeof value === 'number' ? value : ''}
          min={item.min}
          max={item.max}
          onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
        />
      );
      break;
    case 'text':
      input = item.multiline ? (
        <textarea name={name} aria-label={item.label} rows={3} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input type="text" name={name} aria-label={item.label} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
      );
      break;
  }
  return (
    <fieldset className={`survey-item${error ? ' invalid' : ''}`} data-testid={name}>
      <legend>
        {item.label}
        {item.required ? '' : ' (optional)'}
      </legend>
      {input}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
