import { useEffect, useMemo, useState } from 'react';
import { Background, Controls, MiniMap, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { api, ApiError, session } from './api';

interface Workflow {
  agentId: string;
  campaignId: string;
  version: number;
  nodes: { id: string; type: string; label?: string; config: Record<string, unknown>; position: { x: number; y: number } }[];
  edges: { id: string; source: string; target: string; sourceHandle?: string }[];
  dispositionEntries: Record<string, string>;
}
interface Agent {
  id: string;
  name: string;
  campaignId: string | null;
}

function SignIn({ onDone }: { onDone: () => void }) {
  const [key, setKey] = useState('');
  return (
    <form
      className="signin"
      onSubmit={(e) => {
        e.preventDefault();
        session.set(key.trim());
        onDone();
      }}
    >
      <h1>Post-call workflow editor</h1>
      <label htmlFor="api-key">API key</label>
      <input id="api-key" type="password" value={key} onChange={(e) => setKey(e.target.value)} autoFocus />
      <button type="submit" disabled={!key.trim()}>
        Sign in
      </button>
    </form>
  );
}

/** Foundation view: the graph of an agent's campaign, read-only. */
export function App() {
  const [signedIn, setSignedIn] = useState(!!session.get());
  const [agents, setAgents] = useState<Agent[]>([]);
  const [agentId, setAgentId] = useState<string | null>(() => location.pathname.match(/\/editor\/agents\/([^/]+)/)?.[1] ?? null);
  const [workflow, setWorkflow] = useState<Workflow | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!signedIn) return;
    api<{ data: Agent[] }>('GET', '/api/agent-builder/agents')
      .then((r) => {
        setAgents(r.data);
        if (!agentId && r.data[0]) setAgentId(r.data[0].id);
      })
      .catch((e: ApiError) => {
        if (e.status === 401) {
          session.clear();
          setSignedIn(false);
        }
        setError(e.message);
      });
  }, [signedIn]);

  useEffect(() => {
    if (!agentId) return;
    api<{ data: Workflow }>('GET', `/api/agent-builder/agents/${encodeURIComponent(agentId)}/campaign/workflow`)
      .then((r) => setWorkflow(r.data))
      .catch((e: Error) => setError(e.message));
  }, [agentId]);

  const { nodes, edges } = useMemo(() => {
    if (!workflow) return { nodes: [] as Node[], edges: [] as Edge[] };
    return {
      nodes: workflow.nodes.map((n) => ({ id: n.id, position: n.position, data: { label: `${n.type}${n.label ? `: ${n.label}` : ''}` }, className: `node node-${n.type}` })),
      edges: workflow.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, label: e.sourceHandle })),
    };
  }, [workflow]);

  if (!signedIn) return <SignIn onDone={() => setSignedIn(true)} />;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100vh' }}>
      <header style={{ padding: 8, display: 'flex', gap: 12, alignItems: 'center' }}>
        <label htmlFor="agent">Agent</label>
        <select id="agent" value={agentId ?? ''} onChange={(e) => setAgentId(e.target.value)}>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
        {workflow && <span data-testid="version">version {workflow.version}</span>}
        {error && <span role="alert">{error}</span>}
      </header>
      <main style={{ flex: 1 }} aria-label="workflow canvas">
        <ReactFlow nodes={nodes} edges={edges} fitView nodesDraggable={false} nodesConnectable={false}>
          <Background />
          <MiniMap />
          <Controls />
        </ReactFlow>
      </main>
    </div>
  );
}
