/** "1 visit", "4 visits", "2 practitioner-days"; `many` for a plural that is not the noun with an s ("2 people"). */
export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
