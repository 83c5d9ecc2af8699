import { JobHistory } from '../JobHistory';

export default function ExportsPage() {
  return <JobHistory kind="export" />;
}
