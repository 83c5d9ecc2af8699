// Users: looked up and written for the auth and accounts modules and the operator CLI.
export {
  findUserByEmail, findUserById, fullName, insertUser, toUserDto, updateUser,
  type BusinessAccountRow, type UserRow, type UserWithBusiness,
} from './repository';
