/** "Good morning" before 12:00, "Good afternoon" before 18:00, "Good evening" after (local time). */
export function greetingFor(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}
