/**
 * The selected step's form: its name and its settings, checked live against the step type's JSON
 * Schema (the one the server uses). Apply puts the settings on the canvas; Save sends them.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { checkConfig } from '../../model/validation';
import type { NodeType, StepNode } from '../../model/types';
import { isDraft } from '../../model/types';
import { specOf } from '../../nodes/registry';
import { useEditor } from '../../store/context';
import { Icon } from '../Icon';
import { CrmNotice } from '../forms/crm-fields';
import { STEP_CRM_READS, STEP_FORMS, type FormProps } from '../forms/step-forms';

export function NodeForm({ node }: { node: StepNode }) {
  const spec = specOf(node.type);
  const updateNode = useEditor((s) => s.updateNode);
  const deleteNode = useEditor((s) => s.deleteNode);
  const serverError = useEditor((s) => s.errors[node.id]);
  const warning = useEditor((s) => s.warningsByNode[node.id]);
  const focusRequest = useEditor((s) => s.focusRequest);
  const stored = node.data.config as Record<string, unknown>;
  const draft = isDraft(stored);
  const start = () => (draft ? (spec.seed() as Record<string, unknown>) : stored);
  const [config, setConfig] = useState<Record<string, unknown>>(start);
  const [label, setLabel] = useState(node.data.label ?? '');
  const [touched, setTouched] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // The step changed from outside (undo, save, another edit): start over from it.
  useEffect(() => {
    setConfig(start());
    setLabel(node.data.label ?? '');
    setTouched(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [node.id, stored, node.data.label]);

  useEffect(() => {
    if (focusRequest?.target === 'form' && focusRequest.nodeId === node.id) {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('.form-body input, .form-body textarea, .form-body select')?.focus());
    }
  }, [focusRequest, node.id]);

  const errors = useMemo(() => checkConfig(node.type, config), [node.type, config]);
  const changed = JSON.stringify(config) !== JSON.stringify(draft ? {} : stored) || label.trim() !== (node.data.label ?? '');
  const showErrors = touched || !draft;
  const Form = STEP_FORMS[node.type] as unknown as (p: FormProps<NodeType>) => React.JSX.Element;

  const apply = (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (errors.length > 0 || !changed) return;
    updateNode(node.id, { ...(label.trim() && { label: label.trim() }), config });
  };

  return (
    <form
      className="node-form"
      data-testid="node-form"
      data-node-id={node.id}
      aria-label={`Settings of ${spec.title} ${node.id}`}
      ref={formRef}
      onSubmit={apply}
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') apply(e);
      }}
    >
      <header className="form-head">
        <span className="step-icon" style={{ color: spec.accent }}>
          <Icon name={spec.icon} />
        </span>
        <h2>
          {spec.title} <code>{node.id}</code>
        </h2>
        {draft && <span className="badge badge-draft">Draft</span>}
      </header>
      {serverError && (
        <p className="form-server-error" role="alert" data-testid="form-server-error">
          The server refused this step: {serverError}
        </p>
      )}
      {warning && (
        <ul className="form-warnings">
          {warning.split('\n').map((w) => (
            <li key={w}>
              <Icon name="warning" size={12} /> {w}
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor={`label-${node.id}`}>Name (optional)</label>
        <input id={`label-${node.id}`} value={label} maxLength={200} placeholder={spec.title} data-testid="field-label" onChange={(e) => setLabel(e.target.value)} />
      </div>
      <CrmNotice resources={STEP_CRM_READS[node.type]} />
      <div className="form-body">
        <Form
          value={config as never}
          onChange={(next) => {
            setTouched(true);
            setConfig(next as Record<string, unknown>);
          }}
          errors={showErrors ? errors : []}
        />
      </div>
      {showErrors && errors.some((e) => e.path === '') && (
        <p className="field-error" role="alert">
          {errors.find((e) => e.path === '')!.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" data-testid="form-apply" disabled={!changed || (showErrors && errors.length > 0)}>
          Apply
        </button>
        <button type="button" data-testid="form-revert" disabled={!changed} onClick={() => { setConfig(start()); setLabel(node.data.label ?? ''); setTouched(false); }}>
          Revert
        </button>
        {!draft && (
          <button type="button" data-testid="form-clear" title="Keep the step but clear its settings: runs skip it until it is configured" onClick={() => updateNode(node.id, { ...(label.trim() && { label: label.trim() }), config: {} })}>
            Make draft
          </button>
        )}
        <button type="button" className="danger" data-testid="form-delete" onClick={() => deleteNode(node.id)}>
          <Icon name="trash" size={14} /> Delete
        </button>
      </div>
      <p className="field-hint">Apply puts the change on the canvas; Save (Ctrl/Cmd+S) stores it as a new version.</p>
    </form>
  );
}
