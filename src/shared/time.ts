export const DAY_MS = 86_400_000

/** The instant `days` days before `now`, as the database stores instants (ISO 8601): a retention's cutoff. */
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString()
}
