export { tagsHandlers } from './handlers';
// For the clients module: a client's tags as the contract shows them, and setting them.
export { toTagDto } from './dto';
export { setClientTags } from './repository';
