/** A modal dialog: labelled, focus moved in on open (to `[data-autofocus]`, else the first control), Escape closes. */
import { useEffect, useRef, type ReactNode } from 'react';

export function Modal({ title, testId, onClose, children, wide }: { title: string; testId: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    const first = el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>('button, input, select, textarea');
    first?.focus();
  }, []);
  const id = `${testId}-title`;
  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className={`modal${wide ? ' modal-wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={id}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
