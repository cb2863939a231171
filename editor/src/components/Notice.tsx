import { useEffect, useState } from 'react';
import { useEditor } from '../store/context';

/** The latest short message (deleted, copied, refused...), announced politely and gone after a few seconds. */
export function Notice() {
  const notice = useEditor((s) => s.notice);
  const [visible, setVisible] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    setVisible(notice.text);
    const t = setTimeout(() => setVisible(null), 5000);
    return () => clearTimeout(t);
  }, [notice]);
  return (
    <div className="notice" role="status" aria-live="polite" data-testid="notice">
      {visible}
    </div>
  );
}
