import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import type { AppContext } from '../../infra/context.ts';
import type { DatabaseHandle } from '../../infra/db/create-db.ts';
import { type ServiceOptions, createService } from '../../infra/service.ts';
import { freshDatabase } from './database.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** An HTTP client that never throws on a status and keeps its own cookies, like a browser tab. */
export class ApiClient {
  private cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', path, body, headers);
  patch = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('PATCH', path, body, headers);
  delete = (path: string, headers?: Record<string, string>) => this.request('DELETE', path, undefined, headers);

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    if (this.cookies.size > 0) (init.headers as Record<string, string>).cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.baseUrl + path, init);
    for (const line of res.headers.getSetCookie()) this.storeCookie(line);
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  private storeCookie(line: string): void {
    const [pair, ...attributes] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

export interface TestApp {
  url: string;
  ctx: AppContext;
  client(): ApiClient;
  close(): Promise<void>;
}

/**
 * The real service on 127.0.0.1:0 over a fresh database of its own; `env` sets configuration
 * variables exactly as a deployment would. `keepDatabase` leaves the handle open at close, for a
 * second app on the same database (a restart); `service` hands test seams to the service.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  database?: DatabaseHandle,
  options: { keepDatabase?: boolean; service?: Pick<ServiceOptions, 'extraProjectors' | 'runner' | 'httpTimeouts' | 'drainMs'> } = {},
): Promise<TestApp> {
  const db = database ?? (await freshDatabase());
  const dataDir = mkdtempSync(join(tmpdir(), 'music-library-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_PACING: 'off',
    ADMIN_PASSWORD: 'admin-password-for-tests',
    PASSWORD_SCRYPT_N: '1024',
    NODE_ENV: 'test',
    ...env,
  });
  const service = await createService(config, { drainMs: 0, ...options.service, database: db, validateResponses: true });
  const { url } = await service.start();
  return {
    url: url!,
    ctx: service.ctx,
    client: () => new ApiClient(url!),
    async close() {
      await service.stop();
      if (!options.keepDatabase) await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
