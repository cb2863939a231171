/**
 * The choices of the CRM-backed pickers (move-stage, book-appointment, set-field), from what the
 * project's CRM lists and what the step stores. Shown by name, stored by id; an id the CRM no
 * longer lists stays a choice ("unknown pipeline <id>") with a warning, never dropped.
 */
import type { CrmCalendar, CustomField, Pipeline } from '../api/types';
import { contactPath } from './tokens';

export interface Choice {
  value: string;
  label: string;
  /** a stored id the CRM does not list */
  unknown?: true;
}

export interface Choices {
  options: Choice[];
  /** said under the select when the stored value is not one the CRM lists */
  warning: string | null;
}

/** Options by name; a name two items share gets the id, so they can be told apart. */
function byName(items: readonly { id: string; name: string }[]): Choice[] {
  const count = new Map<string, number>();
  for (const i of items) count.set(i.name, (count.get(i.name) ?? 0) + 1);
  return items.map((i) => ({ value: i.id, label: (count.get(i.name) ?? 0) > 1 || !i.name ? `${i.name || 'unnamed'} (${i.id})` : i.name }));
}

const unknown = (what: string, id: string): Choice => ({ value: id, label: `unknown ${what} ${id}`, unknown: true });

export function pipelineChoices(pipelines: readonly Pipeline[], pipelineId: string): Choices {
  const options = byName(pipelines);
  if (!pipelineId || pipelines.some((p) => p.id === pipelineId)) return { options, warning: null };
  return {
    options: [unknown('pipeline', pipelineId), ...options],
    warning: `The CRM does not list pipeline ${pipelineId} (deleted, or another location's?). Choose one of its pipelines, unless you know this one exists.`,
  };
}

/** The stages of the chosen pipeline only. Under an unknown pipeline, only the stored stage. */
export function stageChoices(pipelines: readonly Pipeline[], pipelineId: string, stageId: string): Choices {
  const pipeline = pipelines.find((p) => p.id === pipelineId);
  if (!pipeline) return { options: stageId ? [unknown('stage', stageId)] : [], warning: null };
  const options = byName(pipeline.stages);
  if (!stageId || pipeline.stages.some((s) => s.id === stageId)) return { options, warning: null };
  return {
    options: [unknown('stage', stageId), ...options],
    warning: `Pipeline ${pipeline.name} has no stage ${stageId} in the CRM. Choose one of its stages, unless you know this one exists.`,
  };
}

export function calendarChoices(calendars: readonly CrmCalendar[], calendarId: string): Choices {
  const options = byName(calendars);
  if (!calendarId || calendars.some((c) => c.id === calendarId)) return { options, warning: null };
  return {
    options: [unknown('calendar', calendarId), ...options],
    warning: `The CRM does not list calendar ${calendarId}. Choose one of its calendars, or leave it empty for the campaign's calendar.`,
  };
}

/** The contact's custom fields by name, stored as their path (`contact.callback_time`); free text stays possible. */
export function contactFieldChoices(fields: readonly CustomField[]): Choice[] {
  return byName(fields.map((f) => ({ id: contactPath(f), name: f.name })));
}
