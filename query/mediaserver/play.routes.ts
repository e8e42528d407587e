import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { mediaserverMedia } from '../../infra/upstreams/mediaserver/media.ts';
import { AlbumTrackDetails, AlbumTrackMaps, albumTrackDetails, albumTrackMaps } from './album-tracks.ts';
import { detailsOf, freshestLiveItem, playableItem, TrackDetails } from '../../projectors/mediaserver/playback.reads.ts';
import { NotFound } from '../../shared/errors.ts';
import { markProxied, proxyStream, sendImage } from './stream.ts';

const TrackParams = z.object({ canonical_id: z.string().min(1).max(64) });
const AlbumParams = z.object({ canonical_album_id: z.string().min(1).max(64) });
const Bytes = z.unknown().meta({ description: 'The bytes, with the upstream content type' });

export const playQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/mediaserver/play/track/{canonical_id}',
    tag: 'mediaserver',
    summary: "Stream the track's freshest live file part; the Range header is forwarded (206 with Content-Range)",
    access: 'user',
    params: TrackParams,
    response: Bytes,
    raw: true,
    errors: { 404: 'No live mediaserver file for the track', 502: 'The server failed, redirected elsewhere or sent nothing for 30 s', 503: 'The media server is not configured' },
    handler: async ({ ctx, params, req, res }) => {
      const media = mediaserverMedia(ctx);
      const item = await playableItem(ctx.db, params.canonical_id);
      if (!item.part_key) throw new NotFound('The track has no file part on the media server');
      await proxyStream(req, res, (signal) => media.part(item.part_key!, { range: req.get('range'), signal }), ctx.config.MEDIASERVER_STREAM_IDLE_MS);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/play/track/{canonical_id}/transcode.mp3',
    tag: 'mediaserver',
    summary: "Stream the track as MP3 from the server's transcoder, for codecs the browser cannot play",
    access: 'user',
    params: TrackParams,
    response: Bytes,
    raw: true,
    errors: { 404: 'No live mediaserver file for the track', 502: 'The server failed, redirected elsewhere or sent nothing for 30 s', 503: 'The media server is not configured' },
    handler: async ({ ctx, params, req, res, user }) => {
      const media = mediaserverMedia(ctx);
      const item = await playableItem(ctx.db, params.canonical_id);
      const session = `${user.username}-${item.rating_key}`;
      await proxyStream(req, res, (signal) => media.transcodeMp3(item.rating_key, { signal, session }), ctx.config.MEDIASERVER_STREAM_IDLE_MS);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/track/{canonical_id}/details',
    tag: 'mediaserver',
    summary: 'The freshest live mediaserver file of a track: quality, size, plays, last played, added, star rating',
    access: 'user',
    params: TrackParams,
    response: TrackDetails,
    errors: { 404: 'No live mediaserver link for the track' },
    handler: async ({ ctx, params }) => detailsOf(await playableItem(ctx.db, params.canonical_id)),
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/play/album-tracks/{canonical_album_id}',
    tag: 'mediaserver',
    summary: "The album's playable tracks by catalog id, folded title, loose title match and `<disc>::<track>` position",
    description: 'Only tracks with a live mediaserver file are mapped. `by_title_match` drops keys two canonical tracks claim; disc defaults to 1.',
    access: 'user',
    params: AlbumParams,
    response: AlbumTrackMaps,
    handler: ({ ctx, params }) => albumTrackMaps(ctx.db, params.canonical_album_id),
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/play/album-tracks/{canonical_album_id}/details',
    tag: 'mediaserver',
    summary: 'Details of every mediaserver-linked track of the album, by canonical track id',
    access: 'user',
    params: AlbumParams,
    response: AlbumTrackDetails,
    handler: ({ ctx, params }) => albumTrackDetails(ctx.db, params.canonical_album_id),
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/album/{canonical_album_id}/cover',
    tag: 'mediaserver',
    summary: "The album's cover from the media server, proxied with the server token",
    access: 'user',
    params: AlbumParams,
    response: Bytes,
    raw: true,
    errors: { 404: 'The album is not linked to the media server', 502: 'The server failed, or answered something other than an image', 503: 'The media server is not configured' },
    handler: async ({ ctx, params, res }) => {
      markProxied(res);
      const media = mediaserverMedia(ctx);
      const album = await freshestLiveItem(ctx.db, 'album', params.canonical_album_id);
      if (!album) throw new NotFound('The album is not linked to the media server');
      const image = await media.image(album.thumb ?? `/library/metadata/${encodeURIComponent(album.rating_key)}/thumb`);
      sendImage(res, image, 86_400);
    },
  }),
];
