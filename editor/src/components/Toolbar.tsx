/** Undo/redo, layout, the save state and the Save button. */
import { useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { describePlan } from '../model/pending';
import { useEditor, useEditorShallow, useEditorStore } from '../store/context';
import { Icon } from './Icon';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl';

export function Toolbar() {
  const store = useEditorStore();
  const rf = useReactFlow();
  const { undo, redo, save, autoLayout, canUndo, canRedo, dirty, status, version, previewing, openDialog, statsOn, toggleStats, prepareReplay } = useEditorShallow((s) => ({
    undo: s.undo,
    redo: s.redo,
    save: s.save,
    autoLayout: s.autoLayout,
    canUndo: s.past.length > 0,
    canRedo: s.future.length > 0,
    dirty: s.ops.length > 0,
    status: s.status,
    version: s.base.version,
    previewing: s.preview?.version ?? null,
    openDialog: s.openDialog,
    statsOn: s.stats.on,
    toggleStats: s.toggleStats,
    prepareReplay: s.prepareReplay,
  }));
  const ro = previewing !== null;
  // Re-render when the edits change, so the Save tooltip names the request it will send.
  useEditor((s) => s.ops);
  const [help, setHelp] = useState(false);
  const planText = dirty ? describePlan(store.getState().savePlan()) : 'nothing to save';
  const statusText = ro
    ? `Viewing version ${previewing}, read-only`
    : status.kind === 'checking'
      ? 'Checking what this change affects…'
      : status.kind === 'saving' ? 'Saving…' : status.kind === 'error' ? status.message : dirty ? 'Unsaved changes' : status.kind === 'saved' ? status.message : 'All changes saved';
  return (
    <div className="toolbar" role="toolbar" aria-label="Editor">
      <button type="button" onClick={undo} disabled={ro || !canUndo} aria-label={`Undo (${MOD}+Z)`} title={`Undo (${MOD}+Z)`} data-testid="undo-button">
        <Icon name="undo" />
      </button>
      <button type="button" onClick={redo} disabled={ro || !canRedo} aria-label={`Redo (${MOD}+Shift+Z)`} title={`Redo (${MOD}+Shift+Z)`} data-testid="redo-button">
        <Icon name="redo" />
      </button>
      <button type="button" onClick={autoLayout} disabled={ro} aria-label="Auto-layout: forget moved positions" title="Auto-layout (forget positions you moved)" data-testid="layout-button">
        <Icon name="layout" />
      </button>
      <button type="button" onClick={() => void rf.fitView({ padding: 0.12, duration: 200 })} disabled={ro} aria-label="Fit the whole workflow in view" title="Fit view" data-testid="fit-button">
        <Icon name="fit" />
      </button>
      <div className="help-wrap">
        <button type="button" aria-expanded={help} aria-controls="shortcuts" onClick={() => setHelp(!help)} data-testid="shortcuts-button">
          Shortcuts
        </button>
        {help && (
          <dl id="shortcuts" className="shortcuts" data-testid="shortcuts">
            <dt>Delete / Backspace</dt>
            <dd>remove the selected step (the chain is re-linked)</dd>
            <dt>{MOD}+Z, {MOD}+Shift+Z</dt>
            <dd>undo, redo</dd>
            <dt>{MOD}+C, {MOD}+V</dt>
            <dd>copy steps; paste after the selected step</dd>
            <dt>{MOD}+S</dt>
            <dd>save</dd>
            <dt>{MOD}+Enter</dt>
            <dd>apply the step form</dd>
            <dt>Tab, Enter, arrows</dt>
            <dd>move between steps, select, nudge</dd>
            <dt>Escape</dt>
            <dd>close the menu or run, clear the selection</dd>
          </dl>
        )}
      </div>
      <button
        type="button"
        onClick={() => openDialog({ kind: 'test-run' })}
        disabled={ro}
        title="Run an outcome's path on sample data, on the sandbox (nothing is sent to real contacts)"
        data-testid="test-run-button"
      >
        <Icon name="play" /> Test
      </button>
      <button
        type="button"
        aria-pressed={statsOn}
        onClick={() => toggleStats()}
        disabled={ro}
        title="Show on each step what the real calls' runs did: reached, succeeded, failed, skipped, duration, last error"
        data-testid="stats-toggle"
      >
        <Icon name="chart" /> Statistics
      </button>
      <button
        type="button"
        onClick={() => prepareReplay({ from: version, to: 'unsaved' })}
        disabled={ro || !dirty}
        title="Before saving: replay the last 7 days' real calls through the saved version and your changes, and see what would differ (nothing is sent)"
        data-testid="replay-unsaved-button"
      >
        <Icon name="replay" /> What if…
      </button>
      <span className="spacer" />
      <span className={`save-status status-${ro ? 'read-only' : status.kind}${dirty && !ro ? ' dirty' : ''}`} data-testid="save-status" role="status" aria-live="polite" title={statusText}>
        {statusText}
      </span>
      <span className="version" data-testid="version">
        version {version}
      </span>
      <button type="button" className="primary" onClick={() => void save()} disabled={ro || !dirty || status.kind === 'saving' || status.kind === 'checking'} title={`Save: ${planText} (${MOD}+S)`} data-testid="save-button">
        <Icon name="save" /> Save
      </button>
    </div>
  );
}
