import { z } from 'zod';
import { Preferences } from '../../shared/events/users.events.ts';

/** The profile fields a user edits on themselves and an admin edits on anyone. */
export const ProfileFields = {
  display_name: z.string().max(200).nullable().optional(),
  email: z.string().max(320).nullable().optional(),
  preferences: Preferences.optional(),
};
