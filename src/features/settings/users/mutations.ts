// The users' writes, one mutation hook each (record 0007): each refreshes the lists (a change can move a user in or
// out of a filter) and says what happened. Errors are the caller's to show (a field's 422, the 409s in words).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { deactivateUser, inviteUser, reactivateUser, resendInvitation, updateUser, type BusinessUser, type InviteInput, type UserChanges } from './api';
import { userQueries } from './queries';

function useUserMutation<Input>(call: (input: Input) => Promise<BusinessUser>, message: (user: BusinessUser) => string) {
  const { flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (user) => {
      void queryClient.invalidateQueries({ queryKey: userQueries.lists() });
      flash.send({ type: 'APPEND', text: message(user) });
    },
  });
}

export function useInviteUser() {
  const { api } = useServices();
  return useUserMutation((input: InviteInput) => inviteUser(api, input), (user) => `An invitation has been emailed to ${user.email}.`);
}

export function useUpdateUser() {
  const { api } = useServices();
  return useUserMutation(({ id, changes }: { id: number; changes: UserChanges }) => updateUser(api, id, changes), (user) => `${user.full_name} has been saved.`);
}

export function useDeactivateUser() {
  const { api } = useServices();
  return useUserMutation((id: number) => deactivateUser(api, id), (user) => `${user.full_name} has been deactivated.`);
}

export function useReactivateUser() {
  const { api } = useServices();
  return useUserMutation((id: number) => reactivateUser(api, id), (user) => `${user.full_name} has been reactivated.`);
}

export function useResendInvitation() {
  const { api } = useServices();
  return useUserMutation((id: number) => resendInvitation(api, id), (user) => `A new invitation has been emailed to ${user.email}.`);
}
