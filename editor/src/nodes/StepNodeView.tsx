/**
 * A workflow step on the canvas: icon, title, one-line summary, badges (draft, warnings, error,
 * run status) and its handles, with labels for branch handles. Reads its overlays from the store
 * by id; calls store actions directly (no callbacks in `data`).
 */
import { Fragment, memo, useEffect, useRef } from 'react';
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { useCanvasView } from '../components/canvas-context';
import { Icon, type IconName } from '../components/Icon';
import { handlesOf } from '../model/graph-ops';
import type { StepNode } from '../model/types';
import { isDraft } from '../model/types';
import { useEditor } from '../store/context';
import { formatMs } from '../components/stats/StatsBar';
import { hrefOf } from '../routing';
import { specOf, summaryOf } from './registry';

const STATUS_ICON: Record<string, IconName> = { succeeded: 'check', failed: 'cross', skipped: 'skip', evaluated: 'branch', running: 'clock' };

/**
 * The step's statistics, in place of its summary and badges while they are on: runs that reached
 * it and what they did, its p50/p95 duration, and the last error linked to its run.
 */
function StepStatsView({ id, branch }: { id: string; branch: boolean }) {
  const st = useEditor((s) => s.stats.byNode[id]);
  const loading = useEditor((s) => s.stats.loading);
  const openRun = useEditor((s) => s.openRun);
  const agentId = useEditor((s) => s.deps.target.agentId);
  const campaignId = useEditor((s) => s.base.campaignId);
  if (!st) {
    return (
      <>
        <div className="step-summary step-stats-line" data-testid={`node-${id}-stats`} data-reached="0">
          {loading ? 'Reading…' : 'No run reached this step'}
        </div>
        <div className="step-badges" />
      </>
    );
  }
  const line = branch
    ? `${st.reached} reached · ${st.evaluated} evaluated`
    : st.skipped > 0 && st.succeeded + st.failed === 0
      ? `${st.reached} reached · ${st.skipped} skipped as a draft`
      : `${st.reached} reached · ${st.succeeded} ok · ${st.failed} failed${st.skipped ? ` · ${st.skipped} draft` : ''}`;
  const error = st.lastError;
  return (
    <>
      <div className="step-summary step-stats-line" title={line} data-testid={`node-${id}-stats`} data-reached={st.reached} data-succeeded={st.succeeded} data-failed={st.failed} data-skipped={st.skipped}>
        {line}
      </div>
      <div className="step-badges">
        {st.p50Ms !== null && (
          <span className="badge badge-timing" title="Median and 95th percentile of the step's duration" data-testid={`node-${id}-stats-time`}>
            p50 {formatMs(st.p50Ms)} · p95 {formatMs(st.p95Ms)}
          </span>
        )}
        {error && (
          <a
            className="badge badge-failed stats-error nodrag nopan"
            href={hrefOf({ name: 'agent', agentId, campaignId, run: error.executionId })}
            title={`Last error, ${new Date(error.at).toLocaleString()}: ${error.message}`}
            aria-label={`Open the run of the last error: ${error.message}`}
            data-testid={`node-${id}-stats-error`}
            onClick={(e) => {
              e.preventDefault();
              e.stopPropagation();
              void openRun(error.executionId);
            }}
          >
            <Icon name="cross" size={12} /> {error.message}
          </a>
        )}
      </div>
    </>
  );
}

export const StepNodeView = memo(function StepNodeView({ id, type, data, selected }: NodeProps<StepNode>) {
  const spec = specOf(type);
  const warning = useEditor((s) => s.warningsByNode[id]);
  const error = useEditor((s) => s.errors[id]);
  const status = useEditor((s) => s.run?.statusByNode[id]);
  const runText = useEditor((s) => s.run?.textByNode[id]);
  const inRun = useEditor((s) => s.run !== null);
  // While a run is open its path is what the canvas shows; the statistics come back when it closes.
  const showStats = useEditor((s) => s.stats.on) && !inRun;
  const used = useEditor((s) => s.handlesInUse[id]);
  const openAddMenu = useEditor((s) => s.openAddMenu);
  const { lowDetail } = useCanvasView();
  const draft = isDraft(data.config);
  const handles = handlesOf({ type, config: data.config as Record<string, unknown> });
  // A router's handles change with its cases: React Flow must measure them again for the edges.
  const updateNodeInternals = useUpdateNodeInternals();
  // Only on a change, not on mount: measuring is React Flow's job then, and a call per mounted node
  // would cost a store update each (seconds on a 1,000-step graph).
  const handleKey = handles.map((h) => h.id ?? '').join('|');
  const seenKey = useRef(handleKey);
  useEffect(() => {
    if (seenKey.current === handleKey) return;
    seenKey.current = handleKey;
    updateNodeInternals(id);
  }, [handleKey, id, updateNodeInternals]);
  const usedSet = new Set(used ? used.split('|') : []);
  const hasOut = (h: string | undefined) => usedSet.has(h ?? '-');
  const title = data.label || spec.title;
  const summary = summaryOf(type, data.config);

  const classes = ['step', `step-${type}`, selected && 'selected', draft && 'draft', error && 'has-error', status && `run-${status}`, inRun && !status && 'run-dim'].filter(Boolean).join(' ');
  // Zoomed far out: the block alone (colour, border, status), no text, badges or buttons; the
  // handles stay, hidden, where React Flow measures them for the edges.
  if (lowDetail) {
    return (
      <div className={classes} data-testid={`node-${id}`} data-type={type} data-status={status} style={{ ['--accent' as string]: spec.accent }}>
        <Handle type="target" position={Position.Top} aria-label={`Into ${title}`} />
        {handles.map((h, i) => (
          <Handle key={h.id ?? 'out'} id={h.id} type="source" position={Position.Bottom} style={{ left: `${((i + 1) / (handles.length + 1)) * 100}%` }} className={h.id ? `handle-${h.id}` : undefined} aria-label={h.id ? `${title}: ${h.label}` : `Out of ${title}`} />
        ))}
      </div>
    );
  }
  return (
    <div className={classes} data-testid={`node-${id}`} data-type={type} data-status={status} style={{ ['--accent' as string]: spec.accent }}>
      <Handle type="target" position={Position.Top} aria-label={`Into ${title}`} />
      <div className="step-head">
        <span className="step-icon">
          <Icon name={spec.icon} />
        </span>
        <span className="step-title" title={title}>
          {title}
        </span>
        <span className="step-id">{id}</span>
      </div>
      {/* While a run is open, what the step did in it (the rendered SMS, the slot) replaces its settings; while statistics are on, the figures do. */}
      {showStats ? (
        <StepStatsView id={id} branch={type === 'if' || type === 'switch'} />
      ) : runText ? (
        <div className="step-summary step-run-text" title={runText} data-testid={`node-${id}-run-text`}>
          {runText}
        </div>
      ) : (
        <div className="step-summary" title={summary}>
          {summary}
        </div>
      )}
      {!showStats && (
      <div className="step-badges">
        {draft && <span className="badge badge-draft">Draft</span>}
        {warning && (
          <span className="badge badge-warning" title={warning} data-testid={`node-${id}-warning`}>
            <Icon name="warning" size={12} /> {warning.split('\n').length}
          </span>
        )}
        {error && (
          <span className="badge badge-error" title={error} data-testid={`node-${id}-error`}>
            <Icon name="cross" size={12} /> Not saved
          </span>
        )}
        {status && (
          <span className={`badge badge-run badge-${status}`} data-testid={`node-${id}-status`}>
            <Icon name={STATUS_ICON[status] ?? 'check'} size={12} /> {status}
          </span>
        )}
      </div>
      )}
      {handles.map((h, i) => {
        const left = `${((i + 1) / (handles.length + 1)) * 100}%`;
        const open = !hasOut(h.id);
        return (
          <Fragment key={h.id ?? 'out'}>
            <Handle
              id={h.id}
              type="source"
              position={Position.Bottom}
              style={{ left }}
              className={h.id ? `handle-${h.id}` : undefined}
              aria-label={h.id ? `${title}: ${h.label}` : `Out of ${title}`}
            />
            {h.id && (
              <span className={`handle-label handle-label-${h.id === 'true' ? 'true' : h.id === 'false' ? 'false' : 'case'}`} style={{ left }}>
                {h.label}
              </span>
            )}
            {open && (
              <button
                type="button"
                className="add-after nodrag nopan"
                style={{ left }}
                data-testid={`add-after-${id}${h.id ? `-${h.id}` : ''}`}
                aria-label={`Add a step after ${title}${h.id ? ` on “${h.label}”` : ''}`}
                title="Add a step here"
                onClick={(e) => {
                  e.stopPropagation();
                  openAddMenu({ kind: 'after', nodeId: id, ...(h.id !== undefined && { handle: h.id }) }, `after ${title}${h.id ? ` (${h.label})` : ''}`);
                }}
              >
                <Icon name="plus" size={12} />
              </button>
            )}
          </Fragment>
        );
      })}
    </div>
  );
});
