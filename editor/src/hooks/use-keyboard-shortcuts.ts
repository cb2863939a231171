import { useEffect } from 'react';
import { useEditorStore } from '../store/context';

const isTyping = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
/** Delete and copy/paste act on steps only when the canvas (or nothing in particular) has focus. */
const onCanvas = (t: EventTarget | null) => t === document.body || (t instanceof HTMLElement && !!t.closest('[data-testid="canvas"]'));

/**
 * Delete / Backspace removes the selection (re-linking the chain); Ctrl/Cmd+Z undo, +Shift+Z or +Y
 * redo; Ctrl/Cmd+C / V copy and paste steps; Ctrl/Cmd+S save (also while typing); Escape closes
 * the add menu, then the open run, then clears the selection.
 */
export function useKeyboardShortcuts() {
  const store = useEditorStore();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = store.getState();
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      // An older version shown read-only: Escape goes back, nothing edits.
      if (s.preview) {
        if (s.dialog) return;
        if (mod && key === 's') {
          e.preventDefault();
          s.notify(`Version ${s.preview.version} is shown read-only: nothing to save.`);
        } else if (e.key === 'Escape' && !document.querySelector('[role="dialog"][aria-modal="true"]')) s.closePreview();
        return;
      }
      if (mod && key === 's') {
        e.preventDefault();
        void s.save();
        return;
      }
      if (s.conflict || document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      if (isTyping(e.target)) return;
      if (mod && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) s.redo();
        else s.undo();
      } else if (mod && key === 'y') {
        e.preventDefault();
        s.redo();
      } else if (mod && key === 'c') {
        if (!onCanvas(e.target) || window.getSelection()?.toString()) return;
        e.preventDefault();
        s.copy();
      } else if (mod && key === 'v') {
        if (!onCanvas(e.target)) return;
        e.preventDefault();
        s.paste();
      } else if (!mod && (e.key === 'Delete' || e.key === 'Backspace')) {
        if (!onCanvas(e.target)) return;
        e.preventDefault();
        s.deleteSelection();
      } else if (e.key === 'Escape') {
        if (s.addMenu) s.closeAddMenu();
        else if (s.run) void s.openRun(null);
        else s.select(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
