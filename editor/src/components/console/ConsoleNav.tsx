/**
 * The console's navigation: every page an agency admin runs the agency from. Links the signed-in
 * key cannot use are not shown (API keys and Connections are for agency_admin keys with
 * `keys:write` / `agency:read`); a page reached anyway says what the key may not do.
 */
import { useCaller } from '../../hooks/use-caller';
import { linkProps, type Route } from '../../routing';

type Section = 'projects' | 'calls' | 'failed-runs' | 'connections' | 'keys';

export function ConsoleNav({ current }: { current?: Section }) {
  const caller = useCaller();
  const items: { section: Section; label: string; route: Route; show: boolean }[] = [
    { section: 'projects', label: 'Projects', route: { name: 'projects' }, show: true },
    { section: 'calls', label: 'Calls', route: { name: 'calls' }, show: true },
    { section: 'failed-runs', label: 'Failed runs', route: { name: 'failed-runs' }, show: true },
    { section: 'connections', label: 'Connections', route: { name: 'connections' }, show: !!caller?.agency },
    { section: 'keys', label: 'API keys', route: { name: 'keys' }, show: !!caller?.keys },
  ];
  return (
    <header className="console-header">
      <nav aria-label="Console" className="console-nav" data-testid="console-nav" data-known={caller ? 'true' : undefined}>
        {items
          .filter((i) => i.show)
          .map((i) => (
            <a key={i.section} {...linkProps(i.route)} aria-current={i.section === current ? 'page' : undefined} data-testid={`nav-${i.section}`}>
              {i.label}
            </a>
          ))}
      </nav>
    </header>
  );
}
