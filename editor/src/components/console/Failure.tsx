/** Why a page or a part of it could not be shown: a key that may not (403) is told so plainly. */
import { ApiError } from '../../api/client';

export function Failure({ error, what, onRetry, testId = 'failure' }: { error: Error; what: string; onRetry?: () => void; testId?: string }) {
  const forbidden = error instanceof ApiError && error.isForbidden;
  return (
    <div role="alert" className={`failure${forbidden ? ' failure-forbidden' : ''}`} data-testid={testId} data-kind={forbidden ? 'forbidden' : 'failed'}>
      <p>{forbidden ? `Your API key may not ${what}: ${error.message}.` : `Could not ${what}: ${error.message}`}</p>
      {!forbidden && onRetry && (
        <button type="button" onClick={onRetry} data-testid={`${testId}-retry`}>
          Retry
        </button>
      )}
    </div>
  );
}
