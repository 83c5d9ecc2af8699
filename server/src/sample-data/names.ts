/** Name pools for generated people (common Australian names): clients and patients, practitioners, visit notes. */
export const FIRST_NAMES = [
  'Margaret', 'Dorothy', 'Joan', 'Patricia', 'Barbara', 'Shirley', 'Beverley', 'Judith', 'Elaine', 'Valerie',
  'Maureen', 'Gwen', 'Joyce', 'Irene', 'Kathleen', 'Helen', 'Robyn', 'Lorraine', 'Carol', 'Noeline',
  'John', 'Robert', 'William', 'Peter', 'Kevin', 'Graham', 'Ronald', 'Kenneth', 'Raymond', 'Barry',
  'Neville', 'Colin', 'Trevor', 'Ian', 'Geoffrey', 'Alan', 'Brian', 'Keith', 'Douglas', 'Leslie',
  'Susan', 'Karen', 'Michelle', 'Lisa', 'Sarah', 'Emma', 'Jessica', 'Chloe', 'Olivia', 'Grace',
  'David', 'Michael', 'Mark', 'Paul', 'Andrew', 'James', 'Daniel', 'Matthew', 'Thomas', 'Liam',
  'Mei', 'Anh', 'Priya', 'Aroha', 'Sione', 'Giuseppe', 'Maria', 'Nikos', 'Fatima', 'Hamid',
] as const;

export const LAST_NAMES = [
  'Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Johnson', 'White', 'Martin', 'Anderson',
  'Thompson', 'Nguyen', 'Thomas', 'Walker', 'Harris', 'Lee', 'Ryan', 'Robinson', 'Kelly', 'King',
  'Davis', 'Wright', 'Evans', 'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke', 'Patel',
  'Khan', 'Lewis', 'James', 'Phillips', 'Mitchell', 'Turner', 'Campbell', 'Baker', 'Murphy', 'Cooper',
  "O'Brien", 'McDonald', 'Stewart', 'Morris', 'Edwards', 'Hughes', 'Murray', 'Ward', 'Graham', 'Chen',
  'Tran', 'Wang', 'Singh', 'Papadopoulos', 'Rossi', 'Russo', 'Fraser', 'Hamilton', 'Kennedy', 'Burke',
] as const;

export const PRACTITIONER_FIRST_NAMES = [
  'Amelia', 'Jack', 'Charlotte', 'Noah', 'Isla', 'Oliver', 'Mia', 'William', 'Ava', 'Lucas',
  'Harper', 'Leo', 'Zoe', 'Henry', 'Ruby', 'Ethan', 'Sophie', 'Hamish', 'Tahlia', 'Riley',
] as const;

export const APPOINTMENT_NOTES = [
  'Key safe at front door — code in client file.',
  'Please call on arrival; client is hard of hearing.',
  'Enter via side gate. Dog on premises (friendly).',
  'Daughter present for this visit.',
  'Client prefers morning visits.',
  'Park on the street; driveway is steep.',
] as const;
