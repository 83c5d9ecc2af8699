// The client's tags: every tag of the business as a checkbox; saving sends the checked ids through
// useUpdateClientTags, which updates the cache and says whether it worked.
import { useEffect, useState } from 'react';
import { messageOfError } from '../../api/errors';
import { GENERIC_ERROR, tagColor, type Tag } from '../../entities/clients/api';
import { useUpdateClientTags } from './mutations';
import { useAllTags } from '../../entities/clients/useAllTags';
import { Button } from '../../ui/Button';
import { LoadingText } from '../../ui/PageSpinner';

export function TagChip({ tag }: { tag: Pick<Tag, 'name' | 'color'> }) {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
      <span aria-hidden="true" className="size-2.5 rounded-full" style={{ backgroundColor: tagColor(tag) }} />
      {tag.name}
    </span>
  );
}

export function TagsEditor({ clientId, tags, onUnsavedChange }: {
  clientId: number;
  /** The saved tags. */
  tags: readonly Tag[];
  /** Told whenever the checked tags start or stop differing from the saved ones. */
  onUnsavedChange?: (unsaved: boolean) => void;
}) {
  const allTags = useAllTags();
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(tags.map((tag) => tag.id)));
  const save = useUpdateClientTags(clientId);

  const unsaved = selected.size !== tags.length || tags.some((tag) => !selected.has(tag.id));
  useEffect(() => onUnsavedChange?.(unsaved), [onUnsavedChange, unsaved]);

  if (allTags.isPending) return <LoadingText label="Loading tags" />;
  if (allTags.isError) return <p role="alert" className="text-sm text-rose-700">{messageOfError(allTags.error, GENERIC_ERROR)}</p>;

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <form
      aria-label="Tags"
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate([...selected].sort((a, b) => a - b), { onSuccess: (saved) => setSelected(new Set(saved.map((tag) => tag.id))) });
      }}
    >
      {allTags.data.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No tags yet. An admin can create them under Settings, Tags.</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {allTags.data.map((tag) => (
            <label
              key={tag.id}
              className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-slate-200 px-2.5 py-1 text-sm has-[:checked]:border-sky-500 has-[:checked]:bg-sky-50 dark:border-slate-700 dark:has-[:checked]:bg-sky-950"
            >
              <input type="checkbox" className="sr-only" checked={selected.has(tag.id)} onChange={() => toggle(tag.id)} aria-label={tag.name} />
              <span aria-hidden="true" className="size-2.5 rounded-full" style={{ backgroundColor: tagColor(tag) }} />
              <span aria-hidden="true">{tag.name}</span>
              {selected.has(tag.id) && <span className="sr-only">(selected)</span>}
            </label>
          ))}
        </div>
      )}
      {allTags.data.length > 0 && (
        <Button type="submit" variant="secondary" size="sm" busy={save.isPending}>
          Save tags
        </Button>
      )}
    </form>
  );
}
