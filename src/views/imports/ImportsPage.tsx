import { JobHistory } from '../sync/JobHistory';

export default function ImportsPage() {
  return <JobHistory kind="import" />;
}
