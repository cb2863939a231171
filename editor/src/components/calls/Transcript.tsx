/** A call's transcript as turns: who spoke, then what they said (text only, never markup). */
import { transcriptTurns } from '../../model/calls';

export function Transcript({ text }: { text: string | undefined }) {
  const turns = transcriptTurns(text);
  if (turns.length === 0) return <p className="empty-note" data-testid="transcript-empty">No transcript was recorded for this call.</p>;
  return (
    <ol className="transcript" data-testid="transcript" aria-label="Transcript">
      {turns.map((t, i) => (
        <li key={i} className={`turn turn-${t.speaker}`} data-testid="turn" data-speaker={t.speaker}>
          {t.label && <span className="turn-speaker">{t.label === 'Lead' ? 'Lead' : 'Agent'}</span>}
          <span className="turn-text">{t.text}</span>
        </li>
      ))}
    </ol>
  );
}
