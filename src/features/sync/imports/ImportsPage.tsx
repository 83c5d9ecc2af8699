import { JobHistory } from '../JobHistory';

export default function ImportsPage() {
  return <JobHistory kind="import" />;
}
