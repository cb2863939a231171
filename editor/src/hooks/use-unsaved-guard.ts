import { useEffect } from 'react';
import { useEditor } from '../store/context';

/** Asks before the tab closes or reloads with unsaved changes. */
export function useUnsavedGuard() {
  const dirty = useEditor((s) => s.ops.length > 0);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
