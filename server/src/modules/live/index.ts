// The live desk's push (ADR 0022): stream tickets and the event stream of changed appointments.
export { liveHandlers } from './handlers';
export { closeLiveDesk } from './service';
export { MAX_STREAMS_PER_USER } from './hub';
