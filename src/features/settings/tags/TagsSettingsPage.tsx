// /settings/tags (ADMIN): create, rename, recolour and delete the tags used to group clients.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { ErrorNote } from '../../../ui/forms';
import { tagColor, type Tag } from '../../../entities/clients/api';
import { useAllTags } from '../../../entities/clients/useAllTags';
import { clientQueries, tagQueries } from '../../../entities/clients/queries';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { createTag, deleteTag, updateTag } from './api';
import { Button } from '../../../ui/Button';

const TAG_CREATED = 'The tag has been created.';
const TAG_UPDATED = 'The tag has been updated.';
const TAG_DELETED = 'The tag has been deleted.';

const inputClass = 'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900';
const colorClass = 'h-8 w-12 cursor-pointer rounded border border-slate-300 bg-white p-0.5 dark:border-slate-700 dark:bg-slate-900';

export default function TagsSettingsPage({ route }: RoutePageProps) {
  const tags = useAllTags();
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: tagQueries.all(api).queryKey });
    void queryClient.invalidateQueries({ queryKey: clientQueries.lists() });
    void queryClient.invalidateQueries({ queryKey: clientQueries.details() });
  };
  const remove = useMutation({
    mutationFn: (tag: Tag) => deleteTag(api, tag.id),
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: TAG_DELETED });
      refresh();
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, 'An error has occurred. Could not delete the tag.'), flashType: 'danger' }),
  });

  return (
    <>
      <PageHeader title={route.title}>Tags group clients; their colour shows in the clients list. Deleting a tag removes it from every client.</PageHeader>
      <div className="space-y-6">
        <Card>
          <h2 className="text-base font-semibold">New tag</h2>
          <NewTagForm onCreated={refresh} />
        </Card>
        <Card className="p-0">
          {tags.isPending && <PageSpinner label="Loading tags" />}
          {tags.isError && (
            <div className="p-4">
              <ErrorNote>{messageOfError(tags.error, 'An error has occurred')}</ErrorNote>
            </div>
          )}
          {tags.data && tags.data.length === 0 && <p className="px-6 py-10 text-center text-sm text-slate-500 dark:text-slate-400">No tags yet.</p>}
          {tags.data && tags.data.length > 0 && (
            <ul aria-label="Tags" className="divide-y divide-slate-200 dark:divide-slate-800">
              {tags.data.map((tag) => (
                <TagRow key={`${tag.id}-${tag.name}-${tag.color}`} tag={tag} onSaved={refresh} onDelete={() => setDeleting(tag)} />
              ))}
            </ul>
          )}
        </Card>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        danger
        title="Delete tag"
        message={deleting ? `Delete the tag "${deleting.name}"? It will be removed from every client.` : ''}
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
          setDeleting(null);
        }}
      />
    </>
  );
}

function NewTagForm({ onCreated }: { onCreated: () => void }) {
  const { api, flash } = useServices();
  const [name, setName] = useState('');
  const [color, setColor] = useState('#0284c7');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => createTag(api, name.trim(), color),
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: TAG_CREATED });
      setName('');
      onCreated();
    },
    onError: (error) => setProblem(messageOfError(error, 'An error has occurred. Could not create the tag.')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (name.trim() === '') {
      setProblem('Enter a name for the tag.');
      return;
    }
    create.mutate();
  };
  return (
    <form aria-label="New tag" onSubmit={submit} className="mt-3 space-y-3">
      {problem && <ErrorNote>{problem}</ErrorNote>}
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block text-xs font-medium text-slate-600 dark:text-slate-300">Name</span>
          <input className={`mt-1 ${inputClass}`} value={name} maxLength={60} onChange={(event) => setName(event.target.value)} aria-label="New tag name" />
        </label>
        <label className="text-sm">
          <span className="block text-xs font-medium text-slate-600 dark:text-slate-300">Colour</span>
          <input type="color" className={`mt-1 ${colorClass}`} value={color} onChange={(event) => setColor(event.target.value)} aria-label="New tag colour" />
        </label>
        <Button type="submit" size="sm" disabled={create.isPending}>
          Add tag
        </Button>
      </div>
    </form>
  );
}

function TagRow({ tag, onSaved, onDelete }: { tag: Tag; onSaved: () => void; onDelete: () => void }) {
  const { api, flash } = useServices();
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tagColor(tag));
  const [problem, setProblem] = useState<string | null>(null);
  const changed = name.trim() !== tag.name || color.toLowerCase() !== tagColor(tag).toLowerCase();
  const save = useMutation({
    mutationFn: () =>
      updateTag(api, tag.id, {
        ...(name.trim() !== tag.name ? { name: name.trim() } : {}),
        ...(color.toLowerCase() !== tagColor(tag).toLowerCase() ? { color } : {}),
      }),
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: TAG_UPDATED });
      onSaved();
    },
    onError: (error) => setProblem(messageOfError(error, 'An error has occurred. Could not update the tag.')),
  });
  return (
    <li data-testid="tag-row" className="px-6 py-3">
      <form
        aria-label={`Tag ${tag.name}`}
        className="flex flex-wrap items-center gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          setProblem(null);
          if (name.trim() === '') setProblem('A tag needs a name.');
          else if (changed) save.mutate();
        }}
      >
        <input type="color" className={colorClass} value={color} onChange={(event) => setColor(event.target.value)} aria-label={`Colour of ${tag.name}`} />
        <input className={`flex-1 ${inputClass}`} value={name} maxLength={60} onChange={(event) => setName(event.target.value)} aria-label={`Name of ${tag.name}`} />
        <Button type="submit" variant="secondary" size="sm" disabled={!changed || save.isPending}>
          Save
        </Button>
        <Button variant="ghost" danger size="sm" onClick={onDelete}>
          Delete
        </Button>
      </form>
      {problem && <div className="mt-2"><ErrorNote>{problem}</ErrorNote></div>}
    </li>
  );
}
