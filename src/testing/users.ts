// Users shaped like the contract's, for machine and view tests.
import type { Role, User } from '../api/types';

export function makeUser(role: Role = 'ADMIN', overrides: Partial<User> = {}): User {
  const first = role === 'ADMIN' ? 'Alex' : role === 'REGULAR_USER' ? 'Sam' : 'Pat';
  return {
    id: role === 'ADMIN' ? 1 : role === 'REGULAR_USER' ? 2 : 3,
    email: `${first.toLowerCase()}@demo.test`,
    first_name: first,
    last_name: 'Taylor',
    full_name: `${first} Taylor`,
    role,
    associated_practitioner_ids: role === 'PRACTITIONER' ? [7] : [],
    business_account: { id: 1, name: 'Brisbane Demo Care', time_zone: 'Australia/Brisbane', map_center: { lat: -27.4795412, lng: 153.0160444 }, week_start: 1, overdue_after_minutes: 15, eta_messages_enabled: true, eta_replan_minutes: 15 },
    ...overrides,
  };
}
