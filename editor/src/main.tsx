/**
 * The entry: small on purpose. A link to a workflow starts its reads here, while the rest of the
 * editor (React DOM, React Flow, the pages: mount.tsx's chunk) is still compiling, so the reads no
 * longer wait for it; in a private window, where nothing comes compiled, that compile takes as
 * long as the reads (docs/editor.md, Performance).
 */
import '@xyflow/react/dist/style.css';
import './styles.css';
import { session } from './api/client';
import { startOpening } from './api/open-at-boot';
import { parseRoute } from './routing';

const route = parseRoute(location);
if (route.name === 'agent' && session.get()) startOpening(route);
void import('./mount');
