/** What a change meets once saved: calls of the last 7 days per changed outcome, runs in flight (pinned), leads per cadence step. */
import type { ImpactReport } from '../../api/types';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function ImpactFacts({ report }: { report: ImpactReport }) {
  const changed = report.outcomes.filter((o) => o.changed);
  const flight = report.runsInFlight;
  return (
    <div className="impact" data-testid="impact-facts">
      {changed.length > 0 && (
        <>
          <h3>Calls that would have taken the new path</h3>
          <ul className="impact-calls" data-testid="impact-calls">
            {changed.map((o) => (
              <li key={o.outcome} data-testid={`impact-calls-${o.outcome}`}>
                <strong>{o.label}</strong>: {plural(o.callsLast7Days, 'call')} ended in it in the last 7 days
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Runs in flight</h3>
      <p data-testid="impact-in-flight">
        {flight.total === 0
          ? 'No run is in flight.'
          : `${plural(flight.total, 'run')} in flight (${flight.byVersion.map((v) => `${plural(v.runs, 'run')} on version ${v.version}`).join(', ')}).`}{' '}
        Runs already started keep the version they started with (their graph is pinned); only calls that end after saving use the new one.
      </p>
      {report.cadence && (
        <>
          <h3>Leads in the cadence “{report.cadence.name}”</h3>
          <ul className="impact-cadence" data-testid="impact-cadence">
            {report.cadence.steps.map((s) => (
              <li key={s.step}>
                Call {s.step + 1}: {plural(s.leads, 'lead')} waiting
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
