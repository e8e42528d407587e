import type { ApiClient, TestApp } from '../support/api.ts';
import { signedInAs } from '../support/given.ts';
import { linkThroughBrowser } from '../support/scrobbler.ts';
import { type ScrobblerFake, generatedHistory } from '../fakes/scrobbler/server.ts';
import type { GeneratedOptions } from '../fakes/scrobbler/history.ts';
import { now } from './report.ts';

export interface ImportedListener {
  client: ApiClient;
  seconds: number;
  rate: number;
  imported: number;
}

/**
 * A viewer linked to a scrobbler account on the fake that holds `options.count` scrobbles, imported
 * the way a user imports them: the real bulk-import task paging through the fake, polled over HTTP.
 */
export async function importedListener(app: TestApp, fake: ScrobblerFake, name: string, options: GeneratedOptions, note: (msg: string) => void): Promise<ImportedListener> {
  fake.state.addUser(`${name}_fm`, generatedHistory(options));
  const { client } = await signedInAs(app, 'viewer', name);
  await linkThroughBrowser(client, fake, `${name}_fm`);
  const started = now();
  const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
  if (start.status !== 200) throw new Error(`bulk import of ${name} answered ${start.status}`);
  let task = (await client.get(`/me/tasks/${start.body.task_id}`)).body;
  let lastNote = started;
  while (task?.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 500));
    task = (await client.get(`/me/tasks/${start.body.task_id}`)).body;
    if (now() - lastNote > 30_000) {
      lastNote = now();
      note(`${name}: page ${task?.progress?.page ?? '?'} of ${task?.progress?.total_pages ?? '?'}`);
    }
  }
  if (task?.status !== 'completed') throw new Error(`bulk import of ${name} ended ${task?.status}: ${task?.error}`);
  // The task's own start and finish: polled every half second, a short import's end would be late by up to that.
  const seconds = task.finished_at ? (Date.parse(task.finished_at) - Date.parse(task.started_at)) / 1000 : (now() - started) / 1000;
  return { client, seconds, rate: options.count / seconds, imported: task.summary?.imported ?? 0 };
}
