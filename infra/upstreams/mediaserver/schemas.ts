import { z } from 'zod';

/**
 * What the media server and its account service answer, as JSON or as the JSON twin of their XML
 * (see xml.ts): XML attributes are strings, JSON has numbers and booleans, so fields coerce.
 */
const num = z.coerce.number();
const int = z.coerce.number().int();
const str = z.coerce.string();
/** `1`/`0` in XML, true/false in JSON. */
const flag = z.union([z.boolean(), z.number(), z.string()]).transform((v) => v === true || v === 1 || v === '1' || v === 'true');
const list = <T extends z.ZodType>(item: T) => z.array(item).optional().default([]);
const opt = <T extends z.ZodType>(schema: T) => schema.optional();

// ---- account service -------------------------------------------------------------------------

export const Pin = z.object({
  id: int,
  code: str,
  expiresIn: opt(int),
  createdAt: opt(str),
  expiresAt: opt(str),
  authToken: z.string().nullable().optional(),
  clientIdentifier: opt(str),
});
export type Pin = z.infer<typeof Pin>;

export const AccountUser = z.object({
  id: int,
  uuid: str,
  username: z.string().nullable().optional(),
  title: opt(str),
  email: z.string().nullable().optional(),
  thumb: opt(str),
  home: opt(flag),
  homeAdmin: opt(flag),
});
export type AccountUser = z.infer<typeof AccountUser>;

export const HomeUser = z.object({
  id: int,
  uuid: str,
  title: str,
  username: z.string().nullable().optional(),
  thumb: z.string().nullable().optional(),
  admin: flag.default(false),
  guest: flag.default(false),
  restricted: flag.default(false),
  protected: flag.default(false),
  hasPassword: flag.default(false),
});
export type HomeUser = z.infer<typeof HomeUser>;
export const HomeUsers = z.object({ users: list(HomeUser) });

/** The switched-to home user, with a token of its own. */
export const SwitchedUser = AccountUser.extend({ authToken: str });
export type SwitchedUser = z.infer<typeof SwitchedUser>;

/** The account service's v2 error envelope. */
export const AccountErrors = z.object({ errors: z.array(z.object({ code: opt(int), message: str })).min(1) });

// ---- server API ------------------------------------------------------------------------------

export const Identity = z.object({
  machineIdentifier: str,
  friendlyName: opt(str),
  version: opt(str),
  platform: opt(str),
  platformVersion: opt(str),
  myPlexUsername: opt(str),
  claimed: opt(flag),
});
export type Identity = z.infer<typeof Identity>;

export const Section = z.object({
  key: str,
  type: str,
  title: str,
  agent: opt(str),
  scanner: opt(str),
  uuid: opt(str),
  updatedAt: opt(int),
  scannedAt: opt(int),
  hidden: opt(flag),
});
export type Section = z.infer<typeof Section>;

export const Stream = z.object({
  streamType: opt(int),
  codec: opt(str),
  bitDepth: opt(int),
  samplingRate: opt(int),
});
export const Part = z.object({
  id: int,
  key: str,
  file: opt(str),
  size: opt(num),
  duration: opt(int),
  container: opt(str),
  Stream: list(Stream),
});
export type Part = z.infer<typeof Part>;
export const Media = z.object({
  id: int,
  duration: opt(int),
  bitrate: opt(int),
  audioChannels: opt(int),
  audioCodec: opt(str),
  container: opt(str),
  Part: list(Part),
});
export type Media = z.infer<typeof Media>;

const Tag = z.object({ tag: str });

/** An artist, album, track or playlist: the server's one item shape. */
export const Item = z.object({
  ratingKey: str,
  key: opt(str),
  type: str,
  title: str,
  guid: opt(str),
  parentRatingKey: opt(str),
  grandparentRatingKey: opt(str),
  parentTitle: opt(str),
  grandparentTitle: opt(str),
  index: opt(int),
  parentIndex: opt(int),
  year: opt(int),
  thumb: opt(str),
  duration: opt(int),
  addedAt: opt(int),
  updatedAt: opt(int),
  leafCount: opt(int),
  viewCount: opt(int),
  lastViewedAt: opt(int),
  userRating: opt(num),
  studio: opt(str),
  originallyAvailableAt: opt(str),
  playlistType: opt(str),
  smart: opt(flag),
  composite: opt(str),
  playlistItemID: opt(str),
  Genre: list(Tag),
  Media: list(Media),
});
export type Item = z.infer<typeof Item>;

export const Container = z.object({
  MediaContainer: z.object({
    size: opt(int),
    totalSize: opt(int),
    offset: opt(int),
    Metadata: list(Item),
    Directory: list(z.record(z.string(), z.unknown())),
  }),
});

export const SectionsContainer = z.object({ MediaContainer: z.object({ Directory: list(Section) }) });
export const IdentityContainer = z.object({ MediaContainer: Identity });
