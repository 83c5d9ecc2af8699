// Every tag of the business, for the tag pickers and the tags settings page.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { tagQueries } from './queries';

export function useAllTags() {
  const { api } = useServices();
  return useQuery(tagQueries.all(api));
}
