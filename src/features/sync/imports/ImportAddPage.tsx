// /imports/add: the same form as the header's modal (NORMAL mode), on a page.
import { Card, PageHeader } from '../../../ui/PageHeader';
import { SyncJobPanel } from '../SyncJobPanel';
import { TextLink } from '../../../ui/TextLink';

export default function ImportAddPage() {
  return (
    <>
      <PageHeader title="New import">
        <TextLink href="/imports">View history</TextLink>
      </PageHeader>
      <Card>
        <SyncJobPanel kind="import" mode="NORMAL" />
      </Card>
    </>
  );
}
