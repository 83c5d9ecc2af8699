// /exports/add: the same form as the header's modal (NORMAL mode), on a page.
import { Card, PageHeader } from '../../../ui/PageHeader';
import { SyncJobPanel } from '../SyncJobPanel';
import { TextLink } from '../../../ui/TextLink';

export default function ExportAddPage() {
  return (
    <>
      <PageHeader title="New export">
        <TextLink href="/exports">View history</TextLink>
      </PageHeader>
      <Card>
        <SyncJobPanel kind="export" mode="NORMAL" />
      </Card>
    </>
  );
}
