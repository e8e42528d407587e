import { expect } from 'chai';
import { fixture, fixtureJson } from '../../../../fakes/harness.ts';
import { decodeBody, parseWith, unwrapUser } from '../../../../../infra/upstreams/mediaserver/plex.ts';
import { AccountErrors, AccountUser, Container, HomeUsers, IdentityContainer, Pin, SectionsContainer, SwitchedUser } from '../../../../../infra/upstreams/mediaserver/schemas.ts';
import { parseXml, xmlToJson, XmlSyntaxError } from '../../../../../infra/upstreams/mediaserver/xml.ts';
import { UpstreamError } from '../../../../../shared/errors.ts';

const plex = (file: string) => fixture('plex', file);
const plexJson = (file: string) => fixtureJson('plex', file);
const response = (body: string, contentType: string) => ({ status: 200, headers: { 'content-type': contentType }, body: Buffer.from(body) });

describe('mediaserver payload parsing', () => {
  describe('given the XML reader', () => {
    it('reads nested elements with decoded attributes', () => {
      const root = parseXml('<?xml version="1.0"?><A x="1 &amp; 2"><B y=\'&#65;\'/><!-- note --><C><D/></C></A>');
      expect(root.name).to.equal('A');
      expect(root.attributes.x).to.equal('1 & 2');
      expect(root.children.map((c) => c.name)).to.deep.equal(['B', 'C']);
      expect(root.children[0]!.attributes.y).to.equal('A');
      expect(root.children[1]!.children[0]!.name).to.equal('D');
    });

    it('refuses a document whose elements do not close', () => {
      expect(() => parseXml('<A><B></A>')).to.throw(XmlSyntaxError);
      expect(() => parseXml('<A>')).to.throw(XmlSyntaxError);
    });

    it('puts library items under Metadata and sections under Directory, as the JSON does', () => {
      const album = xmlToJson(plex('pms.library.metadata.200-album.xml')) as { MediaContainer: Record<string, unknown> };
      expect(album.MediaContainer).to.have.property('Metadata').with.length(1);
      const sections = xmlToJson(plex('pms.library.sections.xml')) as { MediaContainer: Record<string, unknown> };
      expect(sections.MediaContainer).to.have.property('Directory').with.length(3);
    });
  });

  describe('given the server recordings', () => {
    it('when the sections come as XML, then each has its key, type and title', () => {
      const data = decodeBody('mediaserver', 'GET /library/sections', response(plex('pms.library.sections.xml'), 'text/xml'));
      const sections = parseWith('mediaserver', 'x', SectionsContainer, data).MediaContainer.Directory;
      expect(sections.map((s) => [s.key, s.type, s.title])).to.deep.equal([
        ['1', 'movie', 'Movies'],
        ['2', 'show', 'TV Shows'],
        ['3', 'artist', 'Music'],
      ]);
      expect(sections[2]).to.include({ agent: 'tv.plex.agents.music', hidden: true, updatedAt: 1602211102 });
    });

    it('when the root comes as XML, then the identity is read', () => {
      const data = decodeBody('mediaserver', 'GET /', response(plex('pms.root.xml'), 'application/xml'));
      const identity = parseWith('mediaserver', 'x', IdentityContainer, data).MediaContainer;
      expect(identity).to.include({ machineIdentifier: '{machine_identifier}', friendlyName: '{name}', version: '1.20.4.3517-ab5e1197c', platform: 'Linux' });
    });

    it('when an album comes as XML, then its numbers and key parse as from JSON', () => {
      const data = decodeBody('mediaserver', 'x', response(plex('pms.library.metadata.200-album.xml'), 'text/xml;charset=utf-8'));
      const [album] = parseWith('mediaserver', 'x', Container, data).MediaContainer.Metadata;
      expect(album).to.include({ ratingKey: '200', parentRatingKey: '300', type: 'album', title: 'Album', year: 2019, leafCount: 9, updatedAt: 1602534481 });
    });

    it('when artists come as JSON, then ratingKey is a string and genres are read', () => {
      const { MediaContainer } = parseWith('mediaserver', 'x', Container, plexJson('pms.library.sections.5.all.type8-artists.json'));
      expect(MediaContainer.Metadata.map((a) => [a.ratingKey, a.title])).to.deep.equal([
        ['156', 'Skrillex'],
        ['142', 'System of a Down'],
      ]);
      expect(MediaContainer.Metadata[0]!.Genre.map((g) => g.tag)).to.deep.equal(['Dubstep', 'Electronic']);
    });

    it('when album tracks come as JSON, then each has its media and part', () => {
      const { MediaContainer } = parseWith('mediaserver', 'x', Container, plexJson('pms.library.metadata.157.children-album-tracks.json'));
      const track = MediaContainer.Metadata[0]!;
      expect(track).to.include({ ratingKey: '158', parentRatingKey: '157', grandparentRatingKey: '156', index: 1, parentIndex: 1, duration: 5491 });
      expect(track.Media[0]).to.include({ audioCodec: 'aac', container: 'aac', bitrate: 146 });
      expect(track.Media[0]!.Part[0]).to.include({ id: 151, key: '/library/parts/151/1579520044/file.aac', size: 100262 });
    });

    it('when playlists come as XML, then type, smart flag and composite are read', () => {
      const data = decodeBody('mediaserver', 'x', response(plex('pms.playlists.all-audio-smart.xml'), 'text/xml'));
      const lists = parseWith('mediaserver', 'x', Container, data).MediaContainer.Metadata;
      expect(lists.map((p) => [p.ratingKey, p.playlistType, p.smart])).to.deep.equal([
        ['2561805', 'video', false],
        ['1956389', 'audio', true],
      ]);
      expect(lists[1]!.composite).to.equal('/playlists/1956389/composite/1486498661');
    });

    it('when a body is neither JSON nor XML, then it is an upstream failure', () => {
      expect(() => decodeBody('mediaserver', 'GET /', response('{"MediaContainer":', 'application/json'))).to.throw(UpstreamError);
      expect(() => decodeBody('mediaserver', 'GET /', response('<a><b></a>', 'text/xml'))).to.throw(UpstreamError);
    });
  });

  describe('given the account service recordings', () => {
    it('reads a new PIN without a token, and a linked one with it', () => {
      expect(Pin.parse(plexJson('plextv.api.v2.pins.POST.201.json'))).to.include({ id: 111222333, code: 'CODE', expiresIn: 900, authToken: null });
      expect(Pin.parse(plexJson('plextv.api.v2.pins.id.GET.linked.json'))).to.include({ authToken: 'auth_token' });
    });

    it('reads the user from JSON and from XML alike', () => {
      expect(AccountUser.parse(plexJson('plextv.api.v2.user.plexpass.json'))).to.include({ id: 12345, uuid: '212acf24b07315e5', username: 'user@example.com' });
      const xml = unwrapUser(decodeBody('x', 'x', response(plex('plextv.api.v2.user.xml'), 'application/xml')));
      expect(AccountUser.parse(xml)).to.include({ id: 12345, uuid: '1234567890', username: 'testuser', home: true, homeAdmin: true });
    });

    it('reads home users, the switched user and the error envelope', () => {
      const { users } = HomeUsers.parse(plexJson('plextv.api.v2.home.users.json'));
      expect(users.map((u) => [u.id, u.title, u.admin, u.restricted])).to.deep.equal([
        [2737029, 'REDACTED', true, false],
        [33542084, 'this is a user', false, true],
      ]);
      expect(SwitchedUser.parse(plexJson('plextv.api.v2.home.users.uuid.switch.POST.json'))).to.include({ id: 2737029, authToken: 'REDACTED' });
      expect(AccountErrors.parse(plexJson('plextv.api.v2.home.users.uuid.switch.error-1041.json')).errors[0]).to.deep.equal({
        code: 1041,
        message: 'A valid PIN is required to perform this action',
      });
    });
  });
});
