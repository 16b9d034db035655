// Kept apart from connection.ts, which loads pg: checking a URL the CLI was given must not.

/** True when the URL carries a password, as user:password@ or ?password= (refused: it belongs in PGPASSWORD or the secret store). */
export function hasPassword(connectionString: string): boolean {
  try {
    const url = new URL(connectionString);
    return url.password !== '' || url.searchParams.has('password');
  } catch {
    return false;
  }
}
