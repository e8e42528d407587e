/**
 * A scrobbler account as the dashboards key it: scrobbler usernames are case-insensitive, and a
 * scrobble belongs to the user whose linked scrobbler username matches its own.
 */
export const listenerKey = (scrobblerUsername: string) => scrobblerUsername.toLowerCase();
