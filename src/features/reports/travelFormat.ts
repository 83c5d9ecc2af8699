// How the travel reports write their figures, in the table and in the CSV alike (plain numbers a spreadsheet sums):
// kilometres and hours to one decimal, minutes whole, a share as a percentage, dollars to the cent.
export const km = (metres: number) => (metres / 1000).toFixed(1);
export const hours = (seconds: number) => (seconds / 3600).toFixed(1);
export const minutes = (seconds: number) => String(Math.round(seconds / 60));
export const percent = (share: number | null) => (share === null ? '' : `${(share * 100).toFixed(1)}%`);
export const dollars = (amount: number) => amount.toFixed(2);
