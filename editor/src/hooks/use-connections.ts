import { agencyApi } from '../api/agency';
import { projectsApi } from '../api/endpoints';
import { useResource } from './use-resource';

/** The connections page's reads: the agency (plan, settings, credential summaries), its projects, and recent alerts (when each disconnection was noticed). */
export function useConnections() {
  return useResource(async () => {
    const [agency, projects, alerts] = await Promise.all([agencyApi.get(), projectsApi.list(), agencyApi.alerts()]);
    return { agency, projects, alerts };
  }, []);
}
