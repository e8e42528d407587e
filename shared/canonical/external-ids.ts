/**
 * External-id shapes the service builds itself (the interface fixes them):
 * scrobbler artist = lowercased name; scrobbler album and track = `<artist>::<name>`;
 * mediaserver = `mediaserver::<server_id>::<rating_key>`.
 */
export const scrobblerArtistId = (artist: string) => artist.toLowerCase();
export const scrobblerItemId = (artist: string, name: string) => `${artist}::${name}`;
export const mediaserverExternalId = (serverId: string, ratingKey: string) => `mediaserver::${serverId}::${ratingKey}`;
