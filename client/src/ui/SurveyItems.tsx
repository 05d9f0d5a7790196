// Survey item inputs, one per config item type, with the validation message next to the item.
import type { SurveyItem } from '../../../shared/schema/config.ts';
import type { Answer } from '../../../shared/study/answerProblems.ts';
import { t } from '../i18n.ts';

/**
 * Columns of a scale on a phone, where its options are laid out on a grid: all in one row up to 6 (each still 44 px
 * or wider on a 320 px screen), else two rows (a 1-10 scale: 5 and 5), so no option is under a 44 px touch target.
 */
export function scaleColumns(options: number): number {
  return options <= 6 ? options : Math.ceil(options / 2);
}

export function SurveyItemInput({ item, value, error, labelOf = (_id, o) => o, onChange }: { item: SurveyItem; value: Answer | undefined; error?: string; labelOf?: (itemId: string, option: string, index: number) => string; onChange: (v: Answer) => void }) {
  const name = `item-${item.id}`;
  const errorId = `${name}-error`;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined };
  let input: React.ReactNode;
  switch (item.type) {
    case 'scale': {
      const values = Array.from({ length: item.max - item.min + 1 }, (_, i) => item.min + i);
      input = (
        <div className="scale-wrap">
          <div className="scale" role="radiogroup" aria-label={item.label} style={{ ['--scale-cols' as string]: scaleColumns(values.length) }} {...aria}>
            {values.map((n) => (
              <label key={n} className={`scale-option${value === n ? ' on' : ''}`}>
                <input type="radio" name={name} value={n} checked={value === n} onChange={() => onChange(n)} />
                <span>{n}</span>
              </label>
            ))}
          </div>
          {(item.min_label || item.max_label) && (
            <div className="scale-ends" aria-hidden="true">
              <span>{item.min_label}</span>
              <span>{item.max_label}</span>
            </div>
          )}
        </div>
      );
      break;
    }
    case 'likert':
    case 'single':
      input = (
        <div className={`choices${item.type === 'likert' ? ' likert' : ''}`} role="radiogroup" aria-label={item.label} {...aria}>
          {item.options.map((o, i) => {
            const shown = labelOf(item.id, o, i);
            const numbered = item.type === 'likert' ? /^(\d+) (.+)$/.exec(shown) : null;
            return (
              <label key={o} className={value === o ? 'on' : ''}>
                <input type="radio" name={name} value={o} checked={value === o} onChange={() => onChange(o)} />
                {numbered ? (
                  <span className="numbered">
                    <strong>{numbered[1]}</strong> <span>{numbered[2]}</span>
                  </span>
                ) : (
                  <span>{shown}</span>
                )}
              </label>
            );
          })}
        </div>
      );
      break;
    case 'multi': {
      const chosen = Array.isArray(value) ? value : [];
      input = (
        <div className="choices" role="group" aria-label={item.label} {...aria}>
          {item.options.map((o, i) => (
            <label key={o} className={chosen.includes(o) ? 'on' : ''}>
              <input type="checkbox" name={name} value={o} checked={chosen.includes(o)} onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((x) => x !== o))} />
              <span>{labelOf(item.id, o, i)}</span>
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
          inputMode={item.integer ? 'numeric' : 'decimal'}
          aria-label={item.label}
          {...aria}
          value={typeof value === 'number' ? value : ''}
          min={item.min}
          max={item.max}
          step={item.integer ? 1 : 'any'}
          onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
        />
      );
      break;
    case 'text':
      input = item.multiline ? (
        <textarea name={name} aria-label={item.label} {...aria} rows={3} maxLength={item.max_length} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input type="text" name={name} aria-label={item.label} {...aria} maxLength={item.max_length} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
      );
      break;
  }
  return (
    <fieldset className={`survey-item${error ? ' invalid' : ''}`} data-testid={name}>
      <legend>
        {item.label}
        {!item.required && <span className="optional">{t('survey.optional')}</span>}
      </legend>
      {input}
      {error && (
        <p className="error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
