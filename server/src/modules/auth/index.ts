export { authHandlers } from './handlers';
export { AuthService } from './service';
