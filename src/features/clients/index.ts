// What the shell uses of the clients feature: its modal. Its data is in src/entities/clients.
export { ClientDetailsModal } from './ClientDetailsModal';
