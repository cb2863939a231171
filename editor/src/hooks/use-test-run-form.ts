import { useState } from 'react';
import { initialTestRunForm, sampleFieldsOf, testRunBody, type TestRunForm } from '../model/test-run';
import { useEditor } from '../store/context';

/**
 * The test-run form: starts from the agent's outcomes and sample values for its post-call fields;
 * `submit` checks the values by type and starts the run (the form stays open with the reason when
 * the server refuses).
 */
export function useTestRunForm() {
  const agent = useEditor((s) => s.deps.agent);
  const outcomes = useEditor((s) => s.outcomes);
  const startTestRun = useEditor((s) => s.startTestRun);
  const [fields] = useState(() => sampleFieldsOf(agent.postCallFields));
  const [form, setForm] = useState<TestRunForm>(() => initialTestRunForm(outcomes, fields, new Date()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const update = (change: Partial<TestRunForm>) => setForm((f) => ({ ...f, ...change }));
  const submit = async () => {
    const r = testRunBody(form, fields);
    setErrors(r.errors);
    if (!r.body) return;
    setStarting(true);
    setRefusal(null);
    const error = await startTestRun(r.body);
    setStarting(false);
    if (error) setRefusal(error);
  };
  return { form, update, errors, refusal, starting, submit, fields, outcomes };
}
