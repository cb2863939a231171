/**
 * The form that makes an API key. It offers only what the signed-in key may grant: its own scopes,
 * the projects it reaches, and roles an agency_admin may give (the API refuses anything more).
 */
import { useState } from 'react';
import type { ApiKey, Project, Scope } from '../../api/types';
import { grantableProjects, grantableRoles, newKeyProblems, scopeGroups, type NewKeyForm as Form } from '../../model/keys';

const ROLE_TEXT = {
  agency_admin: 'Agency admin: every project of the agency, and the admin pages its scopes allow',
  project_user: 'Project user: only the projects chosen below, never the admin pages',
} as const;

export function NewKeyForm({ me, projects, busy, refusal, onCreate, onCancel }: { me: ApiKey; projects: Project[]; busy: boolean; refusal: string | null; onCreate(form: Form): void; onCancel(): void }) {
  const roles = grantableRoles(me);
  const reachable = grantableProjects(me, projects);
  const [form, setForm] = useState<Form>({ name: '', role: roles[0] ?? 'project_user', scopes: [], projectIds: [], expires: '' });
  const [shown, setShown] = useState<ReturnType<typeof newKeyProblems>>({});
  const update = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));
  const toggle = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);
  const allScopes = form.scopes.length === me.scopes.length;
  return (
    <form
      className="new-key"
      data-testid="new-key-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const problems = newKeyProblems(form, new Date());
        setShown(problems);
        if (Object.keys(problems).length === 0) onCreate(form);
      }}
    >
      <div className="field">
        <label htmlFor="key-name">Name</label>
        <input id="key-name" value={form.name} onChange={(e) => update({ name: e.target.value })} aria-invalid={!!shown.name || undefined} data-testid="key-name" data-autofocus autoComplete="off" />
        {shown.name && <p className="field-error">{shown.name}</p>}
      </div>
      <fieldset className="field">
        <legend>Role</legend>
        {roles.map((r) => (
          <label key={r} className="choice">
            <input type="radio" name="key-role" value={r} checked={form.role === r} onChange={() => update({ role: r })} data-testid={`key-role-${r}`} />
            {ROLE_TEXT[r]}
          </label>
        ))}
      </fieldset>
      <fieldset className="field" data-testid="key-scopes">
        <legend>Scopes</legend>
        <p className="field-hint">Only the scopes of the key you signed in with can be given.</p>
        <label className="choice">
          <input type="checkbox" checked={allScopes} onChange={() => update({ scopes: allScopes ? [] : [...me.scopes] })} data-testid="key-scopes-all" />
          All of them
        </label>
        <div className="scope-groups">
          {scopeGroups(me.scopes).map((g) => (
            <div key={g.group} className="scope-group">
              {g.scopes.map((s: Scope) => (
                <label key={s} className="choice">
                  <input type="checkbox" checked={form.scopes.includes(s)} onChange={() => update({ scopes: toggle(form.scopes, s) })} data-testid={`key-scope-${s}`} />
                  <code>{s}</code>
                </label>
              ))}
            </div>
          ))}
        </div>
        {shown.scopes && <p className="field-error">{shown.scopes}</p>}
      </fieldset>
      {form.role === 'project_user' && (
        <fieldset className="field" data-testid="key-projects">
          <legend>Projects</legend>
          {reachable.length === 0 && <p className="empty-note">No project to give: connect one first.</p>}
          {reachable.map((p) => (
            <label key={p.id} className="choice">
              <input type="checkbox" checked={form.projectIds.includes(p.id)} onChange={() => update({ projectIds: toggle(form.projectIds, p.id) })} data-testid={`key-project-${p.locationId}`} />
              {p.businessName || p.locationId} <span className="field-hint">{p.locationId}</span>
            </label>
          ))}
          {shown.projectIds && <p className="field-error">{shown.projectIds}</p>}
        </fieldset>
      )}
      <div className="field">
        <label htmlFor="key-expires">Expires (optional)</label>
        <input id="key-expires" type="date" value={form.expires} onChange={(e) => update({ expires: e.target.value })} aria-invalid={!!shown.expires || undefined} data-testid="key-expires" />
        <p className="field-hint">At the end of that day (UTC); empty: never.</p>
        {shown.expires && <p className="field-error">{shown.expires}</p>}
      </div>
      {refusal && (
        <p role="alert" className="field-error" data-testid="key-refusal">
          Not created: {refusal}
        </p>
      )}
      <div className="modal-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="key-create">
          {busy ? 'Creating…' : 'Create key'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
