// Mounted once in the main layout: shows the top modal of the stack and turns the global
// open-modal-show-appointment event into an open appointment modal.
import { useEffect } from 'react';
import { AppointmentDetailsModal } from '../features/schedule';
import { ClientDetailsModal } from '../features/clients';
import { OPEN_APPOINTMENT_EVENT, appointmentFromEventDetail, closeAllModals, closeTopModal, openAppointmentModal, useModalStack } from '../app/modalStore';
import { useModalStackInUrl } from '../app/modalUrl';

export function ModalHost() {
  const stack = useModalStack();
  useModalStackInUrl(stack);

  useEffect(() => {
    const onOpen = (event: Event) => {
      const target = appointmentFromEventDetail((event as CustomEvent<unknown>).detail);
      if (target !== null) openAppointmentModal(target);
    };
    window.addEventListener(OPEN_APPOINTMENT_EVENT, onOpen);
    return () => {
      window.removeEventListener(OPEN_APPOINTMENT_EVENT, onOpen);
      closeAllModals();
    };
  }, []);

  const top = stack.at(-1);
  if (!top) return null;
  // Keyed by depth and id so going back to a lower modal mounts it fresh from the cache.
  if (top.kind === 'client') return <ClientDetailsModal key={`${stack.length}-c${top.clientId}`} clientId={top.clientId} onClose={closeTopModal} />;
  return (
    <AppointmentDetailsModal key={`${stack.length}-a${top.appointmentId}`} appointmentId={top.appointmentId} initial={top.appointment} onClose={closeTopModal} />
  );
}

export default ModalHost;
