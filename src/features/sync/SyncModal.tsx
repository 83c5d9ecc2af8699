// 'Import appointments' / 'Export appointments': a large dialog in NORMAL mode, a small
// one in FAST mode, with the form, the warning, 'View history' (for those who may open it) and Close.
import { useCallback, useState } from 'react';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectIsAuthenticated, selectRole } from '../../machines/auth';
import { isNotSetUpCode } from '../../api/errors';
import { canSee } from '../../router/access';
import { findRouteMeta } from '../../router/routeMeta';
import { ModalFrame } from '../../ui/ModalFrame';
import type { JobKind } from '../../api/jobs';
import type { DateRange, SyncMode } from './dateRange';
import { SyncJobPanel } from './SyncJobPanel';
import { TextLink } from '../../ui/TextLink';

const MODAL_TITLES: Record<JobKind, string> = { import: 'Import appointments', export: 'Export appointments' };
const HISTORY_PATHS: Record<JobKind, string> = { import: '/imports', export: '/exports' };

export function SyncModal({ kind, mode: initialMode, date, range, onClose }: { kind: JobKind; mode: SyncMode; date?: string; range?: DateRange; onClose: () => void }) {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  const [mode, setMode] = useState<SyncMode>(initialMode);
  const historyRoute = findRouteMeta(HISTORY_PATHS[kind]);
  const showHistory = role !== 'PRACTITIONER' && historyRoute !== undefined && canSee(historyRoute, { authenticated, role });
  // Start-up shows the notice and, when setup is incomplete, goes to account setup: the modal steps aside.
  const onAccountProblem = useCallback((code: string) => {
    if (isNotSetUpCode(code)) onClose();
  }, [onClose]);

  return (
    <ModalFrame
      title={MODAL_TITLES[kind]}
      onClose={onClose}
      testId={`${kind}-modal`}
      width={mode === 'NORMAL' ? 'large' : 'small'}
      footer={showHistory && (
        <TextLink href={HISTORY_PATHS[kind]} onClick={onClose} className="mr-auto self-center text-sm font-medium">
          View history
        </TextLink>
      )}
    >
      <SyncJobPanel kind={kind} mode={mode} date={date} range={range} onModeChange={setMode} onAccountProblem={onAccountProblem} />
    </ModalFrame>
  );
}
