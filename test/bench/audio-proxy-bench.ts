/**
 * The audio proxy's throughput beside a direct read of the fake server, in the same run:
 * `tsx test/bench/audio-proxy-bench.ts`. BENCH_AUDIO_READS sets the number of whole-file reads
 * (default 40) of a 4 MiB part, made one after another through each path.
 */
import { setLogLevel } from '../../infra/logger.ts';
import { mediaserverEnv, startMediaserverFake } from '../fakes/mediaserver/server.ts';
import { startTestApp } from '../support/api.ts';
import { signedInAdmin } from '../support/given.ts';
import { pollTask } from '../integration/tasks/test-tasks.ts';
import { envInt, fmtRatio, table } from './report.ts';

const MIB = 1024 * 1024;

async function readAll(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return bytes;
}

async function throughput(reads: number, read: () => Promise<number>): Promise<number> {
  await read();
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < reads; i++) bytes += await read();
  return bytes / MIB / ((performance.now() - started) / 1000);
}

export async function benchAudioProxy(reads = envInt('BENCH_AUDIO_READS', 40)): Promise<string> {
  const fake = await startMediaserverFake();
  const album = fake.library.addAlbum(fake.library.addArtist('Bench Band'), 'Bench Album');
  const track = fake.library.addTrack(album, { title: 'Big File', size: 4 * MIB });
  const app = await startTestApp(mediaserverEnv(fake));
  try {
    const admin = await signedInAdmin(app);
    const sync = await admin.post('/mediaserver/admin/libraries/5/sync');
    await pollTask(admin, sync.body.task_id, undefined, 120_000);
    const id = (await admin.get(`/tracks/resolve?mediaserver_server=${fake.identity.machineIdentifier}&mediaserver_rating_key=${track}`)).body.id as string;
    const partKey = ((fake.library.get(track).Media as any[])[0].Part as any[])[0].key as string;
    const direct = await throughput(reads, () => readAll(fake.url + partKey, { 'x-plex-token': fake.adminToken }));
    const proxied = await throughput(reads, () => readAll(`${app.url}/mediaserver/play/track/${id}`, { cookie: `media_session=${admin.cookie('media_session')}` }));
    return table(
      ['path', 'MiB/s', 'vs direct'],
      [
        ['direct read of the fake', direct.toFixed(1), fmtRatio(1)],
        ['through /mediaserver/play/track', proxied.toFixed(1), fmtRatio(proxied / direct)],
      ],
    );
  } finally {
    await app.close();
    await fake.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  setLogLevel('silent');
  console.log(`# Audio proxy throughput (${new Date().toISOString()})`);
  console.log(await benchAudioProxy());
}
