// A small modal confirmation: focus goes to the safe choice, Escape cancels, Tab stays inside.
import { useEffect, useRef } from 'react';
import { t } from '../i18n.ts';

export function ConfirmDialog({ message, confirmLabel, cancelLabel = t('dialog.cancel'), danger, onConfirm, onCancel }: { message: string; confirmLabel: string; cancelLabel?: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    cancelRef.current?.focus();
    return () => previous?.focus?.();
  }, []);
  return (
    <div className="scrim" onClick={onCancel}>
      <div
        ref={boxRef}
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-message"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          if (e.key === 'Tab') {
            const buttons = boxRef.current?.querySelectorAll('button');
            if (!buttons?.length) return;
            const first = buttons[0];
            const last = buttons[buttons.length - 1];
            if (e.shiftKey && document.activeElement === first) {
              e.preventDefault();
              last.focus();
            } else if (!e.shiftKey && document.activeElement === last) {
              e.preventDefault();
              first.focus();
            }
          }
        }}
      >
        <p id="confirm-message">{message}</p>
        <div className="dialog-actions">
          <button type="button" ref={cancelRef} data-testid="confirm-no" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" className={danger ? 'danger solid' : 'primary'} data-testid="confirm-yes" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
