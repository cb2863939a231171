/** The right-hand panel: the selected step's form, warnings, digest, version history and runs, as tabs. */
import { lazy, Suspense, useRef, type KeyboardEvent } from 'react';
import type { StepNode } from '../model/types';
import { isStepNode } from '../model/types';
import type { Tab } from '../store/editor-store';
import { useEditor } from '../store/context';
import { DigestPanel } from './panels/DigestPanel';
import { RunsPanel } from './panels/RunsPanel';
import { VersionsPanel } from './panels/VersionsPanel';
import { WarningsPanel } from './panels/WarningsPanel';
import { ReplayPanel } from './replay/ReplayPanel';

// The forms and their JSON Schema validator (ajv) load after the canvas, off the first-render path.
export const loadNodeForm = () => import('./panels/NodeForm');
const NodeForm = lazy(() => loadNodeForm().then((m) => ({ default: m.NodeForm })));

const TABS: { id: Tab; label: string }[] = [
  { id: 'node', label: 'Step' },
  { id: 'warnings', label: 'Warnings' },
  { id: 'digest', label: 'Digest' },
  { id: 'history', label: 'History' },
  { id: 'runs', label: 'Runs' },
  { id: 'replay', label: 'What if' },
];

function SelectedStep() {
  const node = useEditor((s) => (s.selectedId ? (s.nodes.find((n) => n.id === s.selectedId && isStepNode(n)) as StepNode | undefined) : undefined));
  if (!node) {
    return (
      <p className="empty-note" data-testid="no-selection">
        Select a step to edit it. Add steps with the <strong>+</strong> buttons on the canvas or the palette.
      </p>
    );
  }
  return (
    <Suspense fallback={<p className="empty-note">Loading the form…</p>}>
      <NodeForm key={node.id} node={node} />
    </Suspense>
  );
}

export function SidePanel() {
  const tab = useEditor((s) => s.tab);
  const setTab = useEditor((s) => s.setTab);
  const warningCount = useEditor((s) => s.warnings.length);
  const tablist = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : -1) + TABS.length) % TABS.length]!;
    setTab(next.id);
    tablist.current?.querySelector<HTMLButtonElement>(`#tab-${next.id}`)?.focus();
  };
  return (
    <aside className="side-panel" data-testid="side-panel" aria-label="Details">
      <div className="tabs" role="tablist" aria-label="Panels" ref={tablist} onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            data-testid={`tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
            {t.id === 'warnings' && warningCount > 0 && <span className="count">{warningCount}</span>}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={0}>
        {tab === 'node' && <SelectedStep />}
        {tab === 'warnings' && <WarningsPanel />}
        {tab === 'digest' && <DigestPanel />}
        {tab === 'history' && <VersionsPanel />}
        {tab === 'runs' && <RunsPanel />}
        {tab === 'replay' && <ReplayPanel />}
      </div>
    </aside>
  );
}
