/** Signs in as `username` over HTTP and answers the session cookie (`media_session=…`) for a probe's requests. */
export async function sessionCookie(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('media_session='));
  if (!cookie) throw new Error('login set no media_session cookie');
  return cookie.split(';')[0]!;
}
