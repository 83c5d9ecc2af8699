// A detail CSV whose lines are not in the report's answer (every leg, every visit): asked for when the button is
// pressed, then saved. The button is busy meanwhile and says so when the request fails.
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { downloadCsv, toCsv, type CsvColumn } from './csv';

export function FetchedCsvButton<Row>({ label, fileName, columns, rowsOf, disabled = false }: {
  label: string; fileName: string; columns: readonly CsvColumn<Row>[]; rowsOf: () => Promise<readonly Row[]>; disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setBusy(true);
    setFailed(false);
    try {
      downloadCsv(fileName, toCsv(columns, [...await rowsOf()]));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="secondary" size="sm" busy={busy} disabled={disabled} onClick={() => void download()}>{label}</Button>
      {failed && <span role="alert" className="text-xs text-red-700 dark:text-red-400">Could not download. Try again.</span>}
    </span>
  );
}
