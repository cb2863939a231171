/**
 * The entry: small on purpose. A link to a workflow starts its reads here, and the rest of the
 * editor (React DOM, React Flow, the pages) loads as its own chunk meanwhile; in a private window
 * that chunk's compile is as long as the reads, which then no longer wait for it.
 */
import '@xyflow/react/dist/style.css';
import './styles.css';
import { session } from './api/client';
import { startOpening } from './api/open-at-boot';
import { parseRoute } from './routing';

const route = parseRoute(location);
if (route.name === 'agent' && session.get()) startOpening(route);
void import('./mount');
