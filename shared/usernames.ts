import { z } from 'zod';

/** Usernames are unique regardless of case: the key is the lowercased name. */
export const usernameKey = (username: string) => username.toLowerCase();

export const Username = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.@-]*$/, 'letters, digits and _ . @ - only, starting with a letter or digit');

/** Password rules are deliberately light (the interface sets none); length caps scrypt's input. */
export const Password = z.string().min(4, 'at least 4 characters').max(1024);
