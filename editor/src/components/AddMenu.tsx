/** The menu the "+" buttons open: every step type, grouped; arrow keys move, Enter adds, Escape closes. */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { NODE_SPECS, PALETTE_GROUPS, STEP_TYPES } from '../nodes/registry';
import { useEditor } from '../store/context';
import { Icon } from './Icon';

export function AddMenu() {
  const menu = useEditor((s) => s.addMenu);
  const addNode = useEditor((s) => s.addNode);
  const close = useEditor((s) => s.closeAddMenu);
  const ref = useRef<HTMLDivElement>(null);
  const returnTo = useRef<Element | null>(null);
  useEffect(() => {
    if (!menu) return;
    returnTo.current = document.activeElement;
    ref.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => {
      if (returnTo.current instanceof HTMLElement && document.contains(returnTo.current)) returnTo.current.focus();
    };
  }, [menu]);
  if (!menu) return null;
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Tab') {
      e.preventDefault();
    }
  };
  return (
    <div className="add-menu-backdrop" onClick={close}>
      <div className="add-menu" role="dialog" aria-modal="true" aria-label={`Add a step ${menu.label}`} data-testid="add-menu" ref={ref} onKeyDown={onKeyDown} onClick={(e) => e.stopPropagation()}>
        <p className="add-menu-title">Add a step {menu.label}</p>
        <div role="menu" aria-label="Step types">
          {PALETTE_GROUPS.map((group) => (
            <div key={group} role="group" aria-label={group}>
              <p className="add-menu-group">{group}</p>
              {STEP_TYPES.filter((t) => NODE_SPECS[t].group === group).map((t) => (
                <button key={t} type="button" role="menuitem" className="add-menu-item" data-testid={`add-menu-item-${t}`} onClick={() => addNode(t, menu.at)}>
                  <span className="step-icon" style={{ color: NODE_SPECS[t].accent }}>
                    <Icon name={NODE_SPECS[t].icon} />
                  </span>
                  <span>
                    <strong>{NODE_SPECS[t].title}</strong>
                    <small>{NODE_SPECS[t].description}</small>
                  </span>
                </button>
              ))}
            </div>
          ))}
        </div>
        <button type="button" className="link-button" onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  );
}
