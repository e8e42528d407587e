import { expect } from 'chai';
import { playlistFactsOf } from '../../../../command/mediaserver/playlist-sync.ts';
import { parsePlaylistId, playlistIdOf } from '../../../../shared/mediaserver-playlists.ts';
import { Item } from '../../../../infra/upstreams/mediaserver/schemas.ts';

describe('mediaserver playlist facts', () => {
  it('given a compound playlist id, when parsed, then it splits at the last separator and round-trips', () => {
    expect(parsePlaylistId(playlistIdOf('machine', '1956389'))).to.deep.equal({ serverId: 'machine', ratingKey: '1956389' });
    expect(parsePlaylistId('no-separator')).to.equal(undefined);
    expect(parsePlaylistId('machine::')).to.equal(undefined);
  });

  it('given a recorded smart playlist, when turned into facts, then type, smart flag and composite are kept', () => {
    const item = Item.parse({ ratingKey: '1956389', type: 'playlist', title: 'Fairly Recent', smart: '1', playlistType: 'audio', composite: '/playlists/1956389/composite/1486764293', leafCount: '4015', duration: '957684000' });
    expect(playlistFactsOf('machine', item)).to.deep.include({
      playlist_id: 'machine::1956389',
      playlist_type: 'audio',
      smart: true,
      composite: '/playlists/1956389/composite/1486764293',
      leaf_count: 4015,
    });
  });
});
