import { useEffect, useState } from 'react';
import { agentsApi } from '../api/endpoints';
import type { CustomField, CustomValue } from '../api/types';
import { fieldPaths, tokenGroups } from '../model/tokens';
import type { FormContext } from '../components/forms/step-forms';
import { useEditor } from '../store/context';

/**
 * Tokens and field paths for the forms, from the agent's post-call fields and the project's CRM
 * custom values and fields. A key without `crm:read` still gets the standard tokens.
 */
export function useFormContext(): FormContext {
  const agent = useEditor((s) => s.deps.agent);
  const [crm, setCrm] = useState<{ values: CustomValue[]; fields: CustomField[] }>({ values: [], fields: [] });
  useEffect(() => {
    let live = true;
    Promise.allSettled([agentsApi.customValues(agent.id), agentsApi.customFields(agent.id)]).then(([v, f]) => {
      if (!live) return;
      setCrm({ values: v.status === 'fulfilled' ? v.value : [], fields: f.status === 'fulfilled' ? f.value : [] });
    });
    return () => {
      live = false;
    };
  }, [agent.id]);
  return { tokens: tokenGroups(agent, crm.values, crm.fields), fieldPaths: fieldPaths(agent, crm.fields) };
}
