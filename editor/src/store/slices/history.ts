/**
 * The history slice: an older version shown read-only (in a store of its own, so the working
 * graph and its undo history are untouched), restoring a version as a new one, what changed
 * between two versions (read once: versions never change), and starting from a template.
 */
import { ApiError } from '../../api/client';
import type { BusinessDiff, Workflow } from '../../api/types';
import { graphFromWorkflow, pinnedOf } from '../../model/flow';
import type { Slice } from '../editor-core';
import { openEditorStore, type EditorStore } from '../editor-store';

/** An older version shown read-only on the canvas, in a store of its own (the working graph is untouched). */
export interface Preview {
  version: number;
  workflow: Workflow;
  store: EditorStore;
}

export interface HistorySlice {
  preview: Preview | null;
  restoreVersion(n: number): Promise<void>;
  /** What changed from one version to another (cached: versions never change). */
  versionDiff(from: number, to: number): Promise<BusinessDiff>;
  openPreview(version: number): Promise<void>;
  closePreview(): void;
  applyTemplate(templateId: string, name: string): Promise<void>;
}

export const historySlice: Slice<HistorySlice> = (set, get, core) => {
  const { edit, refuse, adopt, readOnly } = core;
  const api = core.deps.api;
  const diffs = new Map<string, Promise<BusinessDiff>>();

  return {
    preview: null,

    async restoreVersion(n) {
      const s = get();
      set({ dialog: null });
      try {
        const v = s.preview?.version === n ? s.preview.workflow : await api.version(n);
        set({ preview: null });
        const g = graphFromWorkflow(v);
        edit(g, { kind: 'graph', what: `restore version ${n}` }, { pinned: pinnedOf(g) });
        // The restore dialog showed what it changes.
        await get().save({ confirmed: true });
        const after = get();
        if (after.status.kind === 'saved') set({ status: { kind: 'saved', message: `Restored version ${n} as version ${after.base.version}` } });
      } catch (err) {
        refuse(err);
      }
    },
    versionDiff(from, to) {
      const key = `${from}:${to}`;
      let d = diffs.get(key);
      if (!d) {
        d = api.diff(from, to);
        diffs.set(key, d);
        d.catch(() => diffs.delete(key)); // a failed read is tried again next time
      }
      return d;
    },
    async openPreview(version) {
      const s = get();
      if (version === s.base.version && !s.preview) return;
      try {
        const workflow = await api.version(version);
        // Laid out before it is drawn, like the current version; warnings of an old version are not shown.
        const store = await openEditorStore(s.deps, { ...workflow, warnings: [] });
        set({ preview: { version, workflow, store }, run: null, addMenu: null, tab: 'history' });
      } catch (err) {
        refuse(err);
      }
    },
    closePreview() {
      set({ preview: null });
    },
    async applyTemplate(templateId, name) {
      const s = get();
      if (s.ops.length > 0 || readOnly()) return refuse(new Error('Save or undo your changes before starting from a template.'));
      set({ status: { kind: 'saving' } });
      try {
        const w = await api.applyTemplate(templateId, s.base.version);
        adopt(w, `Started from “${name}”: saved version ${w.version}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          // Someone saved first: show what is stored now; nothing was applied.
          try {
            const latest = await api.get();
            adopt(latest, null);
            set({ status: { kind: 'error', message: `Version ${latest.version} was saved meanwhile; the template was not applied.` } });
            return;
          } catch (e) {
            return refuse(e);
          }
        }
        refuse(err);
      }
    },
  };
};
