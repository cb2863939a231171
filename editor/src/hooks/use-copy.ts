import { useState } from 'react';

/**
 * Copies a text to the clipboard; `copied` says so (or that the browser refused, so the person
 * copies it by hand from the selected field).
 */
export function useCopy(): { copied: 'yes' | 'refused' | null; copy(text: string): Promise<void> } {
  const [copied, setCopied] = useState<'yes' | 'refused' | null>(null);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('refused');
    }
  };
  return { copied, copy };
}
