// Users: administered by the business's ADMINs (handlers), looked up and written for the auth and accounts modules and the operator CLI.
export { usersHandlers } from './handlers';
export type { InvitationSender } from './service';
export {
  findBusinessUserByEmail, findUserById, findUsersByEmail, isDuplicateEmail, fullName, insertUser, recordLogin, statusOf, toUserDto, updateUser,
  type BusinessAccountRow, type UserRow, type UserWithBusiness,
} from './repository';
