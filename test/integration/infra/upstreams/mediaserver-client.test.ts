import { expect } from 'chai';
import { createAccountClient } from '../../../../infra/upstreams/mediaserver/account.ts';
import { AccountServiceRefused, MediaserverTokenRejected } from '../../../../infra/upstreams/mediaserver/errors.ts';
import { createServerClient } from '../../../../infra/upstreams/mediaserver/server.ts';
import { UpstreamError, UpstreamNotFound } from '../../../../shared/errors.ts';
import { type MediaserverFake, startMediaserverFake } from '../../../fakes/mediaserver/server.ts';

const CLIENT_ID = 'test-client-id';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('mediaserver client against the fake', () => {
  let fake: MediaserverFake;
  before(async () => {
    fake = await startMediaserverFake();
  });
  after(() => fake.close());
  beforeEach(() => fake.clearRequests());

  const server = (token = fake.adminToken, pageSize = 500) => createServerClient({ baseUrl: fake.url, token, clientId: CLIENT_ID, pageSize, retries: 0 });
  const account = () => createAccountClient({ baseUrl: fake.url, clientId: CLIENT_ID, retries: 0 });

  describe('given the server API', () => {
    it('when the identity is read, then JSON is asked for and the token travels in the header only', async () => {
      const identity = await server().identity();
      expect(identity).to.include({ machineIdentifier: 'fakemachine0001', friendlyName: 'Fake Box', platform: 'Linux' });
      const [request] = fake.requests;
      expect(request!.headers['x-plex-token']).to.equal(fake.adminToken);
      expect(request!.headers.accept).to.equal('application/json');
      expect(request!.headers['x-plex-client-identifier']).to.equal(CLIENT_ID);
      expect(JSON.stringify(request!.query)).not.to.contain(fake.adminToken);
    });

    it('when the server answers XML only, then the sections are read all the same', async () => {
      fake.xmlOnly.add('/library/sections');
      try {
        const sections = await server().sections();
        expect(sections.map((s) => [s.key, s.type, s.title])).to.deep.equal([
          ['1', 'movie', 'Movies'],
          ['5', 'artist', 'Music'],
        ]);
      } finally {
        fake.xmlOnly.clear();
      }
    });

    it('when a section is walked with a small page, then every item arrives through container start and size', async () => {
      for (let i = 0; i < 3; i++) fake.library.addArtist(`Paged Artist ${i}`);
      const pages: string[][] = [];
      for await (const page of server(fake.adminToken, 2).sectionItems('5', 'artist')) pages.push(page.map((a) => a.title));
      expect(pages.flat()).to.include.members(['Skrillex', 'System of a Down', 'Paged Artist 0', 'Paged Artist 2']);
      expect(pages.map((p) => p.length)).to.deep.equal([2, 2, 1]);
      const starts = fake.requestsTo('/library/sections/5/all').map((r) => [r.headers['x-plex-container-start'], r.headers['x-plex-container-size'], r.query.type]);
      expect(starts).to.deep.equal([
        ['0', '2', '8'],
        ['2', '2', '8'],
        ['4', '2', '8'],
      ]);
    });

    it('when an album is opened, then its tracks carry media and part', async () => {
      const tracks = await server().children('157');
      expect(tracks.map((t) => t.title)).to.deep.equal(['Try It Out (Neon mix)', 'Try It Out (Try Harder mix)', 'Try It Out (Put Em Up mix)']);
      expect(tracks[0]!.Media[0]!.Part[0]!.key).to.equal('/library/parts/151/1579520044/file.aac');
    });

    it('when album tracks come as XML, then media, part and stream read as from JSON', async () => {
      const artist = fake.library.addArtist('Xml Artist');
      const album = fake.library.addAlbum(artist, 'Xml & Friends');
      fake.library.addTrack(album, { title: 'Tagged <One>', index: 1, codec: 'flac', bitDepth: 24, samplingRate: 96000 });
      const json = await server().children(album);
      fake.xmlOnly.add(`/library/metadata/${album}/children`);
      try {
        const xml = await server().children(album);
        expect(xml).to.deep.equal(json);
        expect(xml[0]).to.include({ title: 'Tagged <One>', parentTitle: 'Xml & Friends' });
        expect(xml[0]!.Media[0]!.Part[0]!.Stream[0]).to.include({ codec: 'flac', bitDepth: 24, samplingRate: 96000 });
        expect(String(fake.requests.at(-1)!.headers.accept)).to.equal('application/json');
      } finally {
        fake.xmlOnly.clear();
      }
    });

    it('when a generated library is walked, then every track of every album arrives, in disc and track order', async () => {
      const small = await startMediaserverFake({ fixtures: false });
      try {
        const albums = small.library.generate({ artists: 2, albumsPerArtist: 3, tracksPerAlbum: 4, lossyEvery: 5 });
        const client = createServerClient({ baseUrl: small.url, token: small.adminToken, clientId: CLIENT_ID, pageSize: 4, retries: 0 });
        let artists = 0;
        for await (const page of client.sectionItems('5', 'artist')) artists += page.length;
        expect(artists).to.equal(2);
        const tracks = await Promise.all(albums.map((album) => client.children(album)));
        expect(tracks.flat()).to.have.length(24);
        expect(tracks[0]!.map((t) => t.index)).to.deep.equal([1, 2, 3, 4]);
        expect(tracks.flat().filter((t) => t.Media[0]!.audioCodec === 'mp3')).to.have.length(4);
      } finally {
        await small.close();
      }
    });

    it('when an item is missing, then "nothing there" is told apart from a failure', async () => {
      expect(await rejection(server().children('999999'))).to.be.instanceOf(UpstreamNotFound);
      const down = createServerClient({ baseUrl: 'http://127.0.0.1:9', token: 't', clientId: CLIENT_ID, retries: 0 });
      const error = await rejection(down.identity());
      expect(error).to.be.instanceOf(UpstreamError);
    });

    it('when the token is refused, then the error says so and carries no token', async () => {
      const error = await rejection(server('not-a-token').sections());
      expect(error).to.be.instanceOf(MediaserverTokenRejected);
      expect((error as Error).message).not.to.contain('not-a-token');
    });
  });

  describe('given the account service', () => {
    it('when a PIN is created and polled, then it is pending, then linked with a token, then gone once expired', async () => {
      const pin = await account().createPin();
      expect(pin.authToken).to.equal(null);
      expect((await account().pollPin(pin.id)).authToken).to.equal(null);
      const token = fake.linkPin(pin.id);
      expect((await account().pollPin(pin.id)).authToken).to.equal(token);
      fake.expirePin(pin.id);
      expect(await rejection(account().pollPin(pin.id))).to.be.instanceOf(UpstreamNotFound);
      expect(fake.requestsTo('/api/v2/pins').every((r) => r.headers['x-plex-client-identifier'] === CLIENT_ID)).to.equal(true);
    });

    it('when the user and home users are read with a token, then the token is in the header', async () => {
      const token = fake.linkPin((await account().createPin()).id);
      expect(await account().user(token)).to.include({ id: 2737029, uuid: 'ADMIN_UUID' });
      const users = await account().homeUsers(token);
      expect(users.map((u) => u.title)).to.deep.equal(['REDACTED', 'this is a user']);
      expect(fake.requestsTo('/api/v2/home/users')[0]!.headers['x-plex-token']).to.equal(token);
    });

    it('when switching needs a PIN that is wrong, then the service message is kept; a revoked token is told apart', async () => {
      const token = fake.linkPin((await account().createPin()).id);
      fake.requirePin('USER_UUID', '1234');
      const refused = await rejection(account().switchUser(token, 'USER_UUID', '0000'));
      expect(refused).to.be.instanceOf(AccountServiceRefused);
      expect((refused as Error).message).to.equal('A valid PIN is required to perform this action');
      expect((await account().switchUser(token, 'USER_UUID', '1234')).authToken).to.match(/^home-token-/);
      fake.revoke(token);
      expect(await rejection(account().homeUsers(token))).to.be.instanceOf(MediaserverTokenRejected);
    });
  });
});
