import type { ReactNode } from 'react';
import type { CredentialSummary } from '../../api/types';

/** Whether a vendor account is set: its hint (never the secret) and when; `notSet` says what happens without it. */
export function CredentialStatus({ cred, testId, notSet, children }: { cred: CredentialSummary | null; testId: string; notSet?: string; children?: ReactNode }) {
  return (
    <p data-testid={testId} data-connected={cred ? 'true' : 'false'}>
      {cred ? (
        <>
          <span className="status status-connected">connected</span> {cred.hint}, set <time dateTime={cred.updatedAt}>{new Date(cred.updatedAt).toLocaleString()}</time>.
        </>
      ) : (
        <>
          <span className="status">not connected</span>
          {notSet && ` ${notSet}`}
        </>
      )}{' '}
      {children}
    </p>
  );
}
