import { JobHistory } from '../sync/JobHistory';

export default function ExportsPage() {
  return <JobHistory kind="export" />;
}
