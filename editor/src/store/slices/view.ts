/**
 * The view slice: which side-panel tab is open, the selected step, the "+" menu, the step or form
 * that should take the keyboard, the dialog over the editor, and the short notice line.
 */
import type { InsertPoint } from '../../model/types';
import type { Slice } from '../editor-core';

export type Tab = 'node' | 'warnings' | 'digest' | 'history' | 'runs' | 'replay';

/** A dialog over the editor: the test-run form, or the confirmation of a restore (with its diff). */
export type Dialog = { kind: 'test-run' } | { kind: 'restore'; version: number } | null;

export interface ViewSlice {
  tab: Tab;
  selectedId: string | null;
  addMenu: { at: InsertPoint; label: string } | null;
  /** `form`: a step just added, whose form should take the keyboard */
  focusRequest: { nodeId: string; seq: number; target: 'node' | 'form' } | null;
  dialog: Dialog;
  notice: { text: string; seq: number } | null;

  select(id: string | null): void;
  focusNode(id: string): void;
  setTab(tab: Tab): void;
  openAddMenu(at: InsertPoint, label: string): void;
  closeAddMenu(): void;
  openDialog(d: Dialog): void;
  closeDialog(): void;
  notify(text: string): void;
}

export const viewSlice: Slice<ViewSlice> = (set, _get, core) => ({
  tab: 'warnings',
  selectedId: null,
  addMenu: null,
  focusRequest: null,
  dialog: null,
  notice: null,

  select(id) {
    core.markSelected(id);
    if (id) set({ tab: 'node' });
  },
  focusNode(id) {
    core.markSelected(id);
    set((s) => ({ tab: s.tab === 'runs' ? 'runs' : 'node', focusRequest: core.nextFocus(id, 'node') }));
  },
  setTab(tab) {
    set({ tab });
  },
  openAddMenu(at, label) {
    set({ addMenu: { at, label } });
  },
  closeAddMenu() {
    set({ addMenu: null });
  },
  openDialog(d) {
    if (d?.kind === 'test-run' && core.readOnly()) return;
    set({ dialog: d, addMenu: null });
  },
  closeDialog() {
    set({ dialog: null });
  },
  notify(text) {
    set((s) => ({ notice: { text, seq: (s.notice?.seq ?? 0) + 1 } }));
  },
});
