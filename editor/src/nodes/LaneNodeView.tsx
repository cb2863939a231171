/** A lane header: the outcome's dashboard label and colour, where its chain starts, and "+ Add step". */
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { Icon } from '../components/Icon';
import { asDisposition } from '../model/flow';
import type { LaneData, LaneNode } from '../model/types';
import { ORPHAN_LANE } from '../model/types';
import { useEditor } from '../store/context';

/** The line under a lane's title. */
export function laneNote(data: LaneData): string {
  if (data.lane === ORPHAN_LANE) return 'No outcome reaches these steps: connect or delete them.';
  if (!data.emittable) return 'This agent can no longer end calls here; the chain will not run.';
  return data.empty ? 'Nothing happens yet.' : 'Starts here';
}

export const LaneNodeView = memo(function LaneNodeView({ data }: NodeProps<LaneNode>) {
  const openAddMenu = useEditor((s) => s.openAddMenu);
  const onPath = useEditor((s) => s.run?.execution.outcome === data.lane);
  const lane = asDisposition(data.lane);
  const orphans = data.lane === ORPHAN_LANE;
  return (
    <div
      className={`lane${data.empty ? ' lane-empty' : ''}${!data.emittable ? ' lane-muted' : ''}${onPath ? ' lane-on-path' : ''}`}
      style={{ ['--lane' as string]: data.color }}
      data-testid={`lane-${data.lane}`}
      role="group"
      aria-label={`${data.title} lane${data.empty ? ', empty' : ''}`}
    >
      <div className="lane-head">
        <span className="lane-dot" aria-hidden="true" />
        <span className="lane-title" title={orphans ? undefined : data.lane}>
          {data.title}
        </span>
        {lane && (
          <button
            type="button"
            className="lane-add nodrag nopan"
            data-testid={`lane-add-${data.lane}`}
            aria-label={`Add a step to the end of ${data.title}`}
            onClick={() => openAddMenu({ kind: 'lane', lane }, `at the end of ${data.title}`)}
          >
            <Icon name="plus" size={12} /> Add
          </button>
        )}
      </div>
      <div className="lane-note">{laneNote(data)}</div>
      {!orphans && <Handle type="source" position={Position.Bottom} className="lane-handle" aria-label={`Start of ${data.title}`} />}
    </div>
  );
});
