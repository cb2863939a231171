import { useEffect, useState } from 'react';
import { session, setUnauthorizedHandler } from './api/client';
import { EditorPage } from './pages/EditorPage';
import { FailedRunsPage } from './pages/FailedRunsPage';
import { ProjectPage } from './pages/ProjectPage';
import { ProjectsPage } from './pages/ProjectsPage';
import { SignIn } from './pages/SignIn';
import { useRoute } from './routing';

/** Sign in once, then projects › campaigns › the editor; every view has its own URL. */
export function App() {
  const [signedIn, setSignedIn] = useState(!!session.get());
  const [reason, setReason] = useState<string | null>(null);
  const route = useRoute();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      session.clear();
      setReason('That API key was not accepted (it may have been revoked). Sign in again.');
      setSignedIn(false);
    });
  }, []);
  if (!signedIn) return <SignIn reason={reason} onDone={() => setSignedIn(true)} />;
  switch (route.name) {
    case 'projects':
      return <ProjectsPage />;
    case 'project':
      return <ProjectPage locationId={route.locationId} />;
    case 'failed-runs':
      return <FailedRunsPage />;
    case 'agent':
      return <EditorPage key={`${route.agentId}:${route.campaignId ?? ''}`} route={route} />;
  }
}
