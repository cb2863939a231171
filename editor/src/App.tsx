import { lazy, Suspense, useEffect, useState } from 'react';
import { session, setUnauthorizedHandler } from './api/client';
import { EditorPage } from './pages/EditorPage';
import { FailedRunsPage } from './pages/FailedRunsPage';
import { ProjectPage } from './pages/ProjectPage';
import { ProjectsPage } from './pages/ProjectsPage';
import { SignIn } from './pages/SignIn';
import { useRoute } from './routing';

// The console's pages are chunks of their own, loaded when first opened: the editor's own chunk
// (the workflow canvas's load time, docs/editor.md Performance) does not grow with them.
const KeysPage = lazy(() => import('./pages/KeysPage').then((m) => ({ default: m.KeysPage })));
const ConnectionsPage = lazy(() => import('./pages/ConnectionsPage').then((m) => ({ default: m.ConnectionsPage })));
const CallsPage = lazy(() => import('./pages/CallsPage').then((m) => ({ default: m.CallsPage })));
const CallPage = lazy(() => import('./pages/CallPage').then((m) => ({ default: m.CallPage })));
const CadencePage = lazy(() => import('./pages/CadencePage').then((m) => ({ default: m.CadencePage })));
const ProjectConnectionPage = lazy(() => import('./pages/ProjectConnectionPage').then((m) => ({ default: m.ProjectConnectionPage })));

function Page() {
  const route = useRoute();
  switch (route.name) {
    case 'projects':
      return <ProjectsPage />;
    case 'project':
      return <ProjectPage locationId={route.locationId} />;
    case 'failed-runs':
      return <FailedRunsPage />;
    case 'agent':
      return <EditorPage key={`${route.agentId}:${route.campaignId ?? ''}`} route={route} />;
    case 'keys':
      return <KeysPage />;
    case 'connections':
      return <ConnectionsPage />;
    case 'calls':
      return <CallsPage filters={route.filters ?? {}} />;
    case 'call':
      return <CallPage key={route.callId} callId={route.callId} />;
    case 'project-connection':
      return <ProjectConnectionPage key={route.locationId} locationId={route.locationId} />;
    case 'cadence':
      return <CadencePage key={`${route.locationId}:${route.campaignId}`} locationId={route.locationId} campaignId={route.campaignId} />;
  }
}

/** Sign in once, then projects › campaigns › the editor, and the console's pages; every view has its own URL. */
export function App() {
  const [signedIn, setSignedIn] = useState(!!session.get());
  const [reason, setReason] = useState<string | null>(null);
  useEffect(() => {
    setUnauthorizedHandler(() => {
      session.clear();
      setReason('That API key was not accepted (it may have been revoked). Sign in again.');
      setSignedIn(false);
    });
  }, []);
  if (!signedIn) return <SignIn reason={reason} onDone={() => setSignedIn(true)} />;
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <Page />
    </Suspense>
  );
}
