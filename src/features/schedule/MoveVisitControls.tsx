// The appointment modal's "Move" section, for coordinators on a visit that is not cancelled: "Move by hand" (choose the
// practitioner, day and start) or "Insert into a route" (the optimiser's cheapest place, shown before it is applied),
// one open at a time so the modal stays short on a phone.
import { useState } from 'react';
import type { Appointment } from '../../api/types';
import { fixedVisitReason } from '../../lib/fixedVisits';
import { Button } from '../../ui/Button';
import { arrivalOf } from '../../entities/appointments/facts';
import { useFixedBeforeMinutes } from '../../entities/optimization-settings/fixedVisits';
import { InsertIntoRoute } from './InsertIntoRoute';
import { MoveVisit } from './MoveVisit';

type Panel = 'closed' | 'move' | 'insert';

export function MoveVisitControls({ appointment, timeZone }: { appointment: Appointment; timeZone: string }) {
  const [panel, setPanel] = useState<Panel>('closed');
  const close = () => setPanel('closed');
  const fixed = fixedVisitReason({ arrival: arrivalOf(appointment), visitState: appointment.visit_state }, useFixedBeforeMinutes());
  return (
    <div data-testid="move-visit-controls" className="space-y-3">
      {(panel === 'closed' || fixed) && (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" disabled={fixed !== null} onClick={() => setPanel('move')}>
            Move by hand
          </Button>
          <Button variant="secondary" size="sm" disabled={fixed !== null} onClick={() => setPanel('insert')}>
            Insert into a route
          </Button>
        </div>
      )}
      {fixed && <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="move-fixed">{fixed}</p>}
      {!fixed && panel === 'move' && (
        <MoveVisit key={`${appointment.practitioner.id}-${appointment.starts_at}`} appointment={appointment} timeZone={timeZone} onDone={close} />
      )}
      {!fixed && panel === 'insert' && <InsertIntoRoute appointment={appointment} timeZone={timeZone} onDone={close} />}
    </div>
  );
}
