import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { log } from '../../infra/logger.ts';
import { BadRequest, Forbidden, Unauthorized } from '../../shared/errors.ts';
import { Password, Username } from '../../shared/usernames.ts';
import { UserObject, findUser } from '../../projectors/auth/users.reads.ts';
import { accounts } from './accounts.ts';
import { ProfileFields } from './profile-fields.ts';
import { clearSessionCookie, setSessionCookie } from './session-cookie.ts';

const Ok = z.object({ ok: z.literal(true) });
const Credentials = z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(1024) });

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/login',
    tag: 'auth',
    summary: 'Sign in: sets the media_session cookie and returns the user',
    access: 'public',
    body: Credentials,
    response: UserObject,
    errors: { 401: 'Incorrect username or password', 429: 'Too many failed logins' },
    handler: async ({ ctx, body, req, res }) => {
      const attempt = await ctx.auth.throttle.attempt(body.username, req.ip ?? 'unknown');
      const row = await accounts(ctx)
        .verifyPassword(body.username, body.password)
        .catch((error: unknown) => {
          // One line with the address and the name tried, for fail2ban; never the password.
          if (error instanceof Unauthorized) log.warn('failed login', { address: req.ip ?? 'unknown', username: body.username });
          throw error;
        });
      await attempt.succeeded();
      setSessionCookie(ctx, res, row.username, row.session_version);
      return (await findUser(ctx.db, row.username))!;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    tag: 'auth',
    summary: "Sign out: clears the cookie and ends the user's sessions",
    access: 'public',
    response: Ok,
    handler: async ({ ctx, user, res }) => {
      if (user) await accounts(ctx).endSessions(user.username);
      clearSessionCookie(ctx, res);
      return { ok: true as const };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/register',
    tag: 'auth',
    summary: 'Create a viewer account and sign in',
    description:
      'There is no role field: self-registration always creates a viewer. Throttled per client address (each call costs a full-strength password hash); 403 when REGISTRATION=closed.',
    access: 'public',
    body: z.object({ username: Username, password: Password }),
    response: UserObject,
    errors: { 403: 'Registration is closed', 409: 'Username already exists', 429: 'Too many registrations from this address' },
    handler: async ({ ctx, body, req, res }) => {
      if (ctx.config.REGISTRATION === 'closed') throw new Forbidden('Registration is closed: ask an admin for an account');
      await ctx.auth.registrations.attempt(req.ip ?? 'unknown');
      const sessionVersion = await accounts(ctx).register(body.username, body.password, 'viewer', body.username);
      setSessionCookie(ctx, res, body.username, sessionVersion);
    },
    answer: async ({ ctx, body }) => (await findUser(ctx.db, body.username))!,
  }),
  defineRoute({
    method: 'patch',
    path: '/auth/me',
    tag: 'auth',
    summary: 'Change profile fields of the signed-in user (not the role)',
    access: 'user',
    body: z.object({ ...ProfileFields, role: z.unknown().optional() }),
    response: UserObject,
    errors: { 403: 'A user cannot change their own role' },
    handler: async ({ ctx, body, user }) => {
      if (body.role !== undefined && body.role !== user.role) throw new Forbidden('You cannot change your own role');
      await accounts(ctx).changeProfile(user.username, { displayName: body.display_name, email: body.email, preferences: body.preferences }, user.username);
    },
    answer: async ({ ctx, user }) => (await findUser(ctx.db, user.username))!,
  }),
  defineRoute({
    method: 'post',
    path: '/auth/me/password',
    tag: 'auth',
    summary: "Change the signed-in user's password; their other sessions end",
    access: 'user',
    body: z.object({ current_password: z.string().min(1).max(1024), new_password: Password }),
    response: Ok,
    errors: { 400: 'Current password is incorrect', 429: 'Too many wrong passwords' },
    handler: async ({ ctx, body, user, req, res }) => {
      const account = accounts(ctx);
      // A stolen session must not become an unthrottled oracle for the password.
      const attempt = await ctx.auth.throttle.attempt(user.username, req.ip ?? 'unknown');
      try {
        await account.verifyPassword(user.username, body.current_password);
      } catch (error) {
        if (error instanceof Unauthorized) throw new BadRequest('Current password is incorrect');
        throw error;
      }
      await attempt.succeeded();
      setSessionCookie(ctx, res, user.username, await account.changePassword(user.username, body.new_password, user.username));
      return { ok: true as const };
    },
  }),
];
