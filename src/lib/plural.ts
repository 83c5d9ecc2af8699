/** "1 visit", "4 visits", "1,221 appointments"; `many` for a plural that is not the noun with an s ("2 visits change"). */
export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-AU')} ${count === 1 ? one : many}`;
