/** Step three: one campaign's workflow, in its own store. */
import { useEffect } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { workflowApi } from '../api/endpoints';
import { takeOpening } from '../api/open-at-boot';
import { AddMenu } from '../components/AddMenu';
import { Canvas } from '../components/Canvas';
import { ConflictDialog } from '../components/ConflictDialog';
import { ImpactDialog } from '../components/dialogs/ImpactDialog';
import { RestoreDialog } from '../components/dialogs/RestoreDialog';
import { TestRunDialog } from '../components/dialogs/TestRunDialog';
import { PreviewBanner } from '../components/PreviewBanner';
import { StatsBar } from '../components/stats/StatsBar';
import { TemplatePicker } from '../components/TemplatePicker';
import { Notice } from '../components/Notice';
import { Palette } from '../components/Palette';
import { SidePanel } from '../components/SidePanel';
import { Toolbar } from '../components/Toolbar';
import { useAsync } from '../hooks/use-async';
import { useKeyboardShortcuts } from '../hooks/use-keyboard-shortcuts';
import { useUnsavedGuard } from '../hooks/use-unsaved-guard';
import type { Clipboard } from '../model/graph-ops';
import { linkProps, navigate, type Route } from '../routing';
import { crmStoreFor } from '../store/crm-store';
import { openEditorStore } from '../store/editor-store';
import type { Campaign } from '../api/types';
import { EditorStoreProvider, useEditor, useEditorStore } from '../store/context';

/** Copied steps live in localStorage, so they paste into another campaign's workflow too. */
const browserClipboard = {
  read(): Clipboard | null {
    try {
      return JSON.parse(localStorage.getItem('vc.clipboard') ?? 'null') as Clipboard | null;
    } catch {
      return null;
    }
  },
  write(c: Clipboard) {
    localStorage.setItem('vc.clipboard', JSON.stringify(c));
  },
};

type AgentRoute = Extract<Route, { name: 'agent' }>;

async function load(route: AgentRoute) {
  const opened = await takeOpening(route);
  const { agent, target, workflow, campaigns } = opened;
  const campaign = campaigns.find((c) => c.id === workflow.campaignId) ?? null;
  // Laid out before the canvas is drawn: steps are drawn once, where they belong.
  const store = await openEditorStore({ api: workflowApi(target), target, agent, campaign, crm: crmStoreFor(agent.id), clipboard: browserClipboard }, workflow);
  return { ...opened, store };
}

/** Another campaign of the project; asks first when there are unsaved changes. */
function CampaignSwitch({ campaigns, current, locationId }: { campaigns: Campaign[]; current: string; locationId: string }) {
  const dirty = useEditor((s) => s.ops.length > 0);
  return (
    <>
      <label htmlFor="campaign-switch" className="sr-only">
        Campaign
      </label>
      <select
        id="campaign-switch"
        data-testid="campaign-switch"
        value={current}
        onChange={(e) => {
          const c = campaigns.find((x) => x.id === e.target.value);
          if (!c) return;
          if (dirty && !window.confirm('You have unsaved changes. Leave this workflow and lose them?')) return;
          navigate({ name: 'agent', agentId: c.agentId, campaignId: c.id, locationId });
        }}
      >
        {campaigns.length === 0 && <option value={current}>{current}</option>}
        {campaigns.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </>
  );
}

/** A link to a run (`?run=`, as failure alerts send) opens it once the editor is up: Runs tab, path painted. */
function useRunFromLink(runId: string | undefined) {
  const store = useEditorStore();
  useEffect(() => {
    if (runId) void store.getState().openRun(runId);
  }, [runId, store]);
}

/** An older version, read-only, in its own store and React Flow instance; the working graph is untouched. */
function PreviewCanvas() {
  const preview = useEditor((s) => s.preview)!;
  return (
    <EditorStoreProvider store={preview.store}>
      <ReactFlowProvider key={preview.version}>
        <Canvas readOnly />
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}

function Dialogs() {
  const dialog = useEditor((s) => s.dialog);
  return (
    <>
      {dialog?.kind === 'test-run' && <TestRunDialog />}
      {dialog?.kind === 'restore' && <RestoreDialog version={dialog.version} />}
      <ImpactDialog />
    </>
  );
}

function EditorShell({ header, runId }: { header: React.ReactNode; runId?: string }) {
  useKeyboardShortcuts();
  useUnsavedGuard();
  useRunFromLink(runId);
  const dirty = useEditor((s) => s.ops.length > 0);
  const previewing = useEditor((s) => s.preview !== null);
  return (
    <div className="editor" data-testid="editor" data-dirty={dirty || undefined} data-read-only={previewing || undefined}>
      <header className="editor-header">
        {header}
        <Toolbar />
      </header>
      <div className="editor-body">
        <Palette />
        <main className="editor-main" aria-label="Workflow">
          {previewing ? <PreviewCanvas /> : <Canvas />}
          <PreviewBanner />
          {!previewing && <StatsBar />}
          {!previewing && <TemplatePicker />}
        </main>
        <SidePanel />
      </div>
      <AddMenu />
      <ConflictDialog />
      <Dialogs />
      <Notice />
    </div>
  );
}

export function EditorPage({ route }: { route: AgentRoute }) {
  const data = useAsync(() => load(route), [route.agentId, route.campaignId, route.locationId]);

  if (data.state === 'loading') return <p className="loading">Loading the workflow…</p>;
  if (data.state === 'error') {
    return (
      <main className="picker">
        <p role="alert">{data.error.message}</p>
        <a {...linkProps({ name: 'projects' })}>Back to projects</a>
      </main>
    );
  }
  const { agent, workflow, campaigns, project, store } = data.value;
  const header = (
    <nav aria-label="Breadcrumb" className="crumbs">
      <a {...linkProps({ name: 'projects' })}>Projects</a> ›{' '}
      <a {...linkProps({ name: 'project', locationId: agent.locationId })} data-testid="crumb-project">
        {project?.businessName || agent.locationId}
      </a>{' '}
      › <CampaignSwitch campaigns={campaigns} current={workflow.campaignId} locationId={agent.locationId} />
      <span className="agent-name">Agent: {agent.name}</span>
      <a {...linkProps({ name: 'failed-runs' })} className="header-link" data-testid="failed-runs-link">
        Failed runs
      </a>
    </nav>
  );
  return (
    <EditorStoreProvider store={store}>
      <ReactFlowProvider>
        <EditorShell header={header} runId={route.run} />
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}
