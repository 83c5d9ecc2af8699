// /imports/add: the same form as the header's modal (NORMAL mode), on a page.
import { Link } from 'wouter';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { SyncJobPanel } from '../SyncJobPanel';

export default function ImportAddPage() {
  return (
    <>
      <PageHeader title="New import">
        <Link href="/imports" className="text-sky-700 hover:underline dark:text-sky-300">
          View history
        </Link>
      </PageHeader>
      <Card>
        <SyncJobPanel kind="import" mode="NORMAL" />
      </Card>
    </>
  );
}
