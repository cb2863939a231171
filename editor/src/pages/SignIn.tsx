import { useState } from 'react';
import { session } from '../api/client';

/** The API key is asked once per browser tab and kept in sessionStorage (gone when the tab closes). */
export function SignIn({ onDone, reason }: { onDone: () => void; reason?: string | null }) {
  const [key, setKey] = useState('');
  return (
    <main className="signin-page">
      <form
        className="signin"
        onSubmit={(e) => {
          e.preventDefault();
          session.set(key.trim());
          onDone();
        }}
      >
        <h1>Post-call workflow editor</h1>
        <p>Sign in with an API key of your agency. It stays in this tab only.</p>
        {reason && (
          <p role="alert" className="field-error">
            {reason}
          </p>
        )}
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} autoFocus />
        <button type="submit" className="primary" disabled={!key.trim()}>
          Sign in
        </button>
      </form>
    </main>
  );
}
