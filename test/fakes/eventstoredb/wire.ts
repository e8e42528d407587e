import type { LoggedEvent, ProposedEvent } from './log.ts';
import { ReadResp, StreamIdentifier, UUID, type ReadResponse } from './proto.ts';

/** The messages the client proposes and reads back, translated the way the server does it. */

type UuidMessage = InstanceType<typeof UUID>;
type StreamIdentifierMessage = InstanceType<typeof StreamIdentifier>;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the server answers a malformed request with; it never gets as far as the log. */
export class BadRequest extends Error {}

/** The server parses ids into GUIDs: anything else is refused, and they come back lower case. */
export function parseUuid(uuid: UuidMessage | undefined): string {
  if (!uuid) throw new BadRequest('Required field Id not set.');
  if (uuid.hasStructured()) {
    const structured = uuid.getStructured()!;
    const bytes = Buffer.alloc(16);
    bytes.writeBigInt64BE(BigInt(structured.getMostSignificantBits()), 0);
    bytes.writeBigInt64BE(BigInt(structured.getLeastSignificantBits()), 8);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  const text = uuid.getString();
  if (!UUID_PATTERN.test(text)) throw new BadRequest(`Guid should contain 32 digits with 4 dashes: ${text}`);
  return text.toLowerCase();
}

function uuidMessage(id: string, structured: boolean): UuidMessage {
  const message = new UUID();
  if (!structured) return message.setString(id);
  const bytes = Buffer.from(id.replaceAll('-', ''), 'hex');
  const bits = new UUID.Structured()
    .setMostSignificantBits(bytes.readBigInt64BE(0).toString())
    .setLeastSignificantBits(bytes.readBigInt64BE(8).toString());
  return message.setStructured(bits);
}

export function streamName(identifier: StreamIdentifierMessage | undefined): string {
  if (!identifier) throw new BadRequest('Required field StreamIdentifier not set.');
  return Buffer.from(identifier.getStreamName_asU8()).toString('utf8');
}

export function streamIdentifier(name: string): StreamIdentifierMessage {
  return new StreamIdentifier().setStreamName(Buffer.from(name, 'utf8'));
}

interface ProposedMessage {
  getId(): UuidMessage | undefined;
  getMetadataMap(): { get(key: string): string | undefined };
  getData_asU8(): Uint8Array;
  getCustomMetadata_asU8(): Uint8Array;
}

/** Append and BatchAppend propose events alike; the server needs a type and a content type. */
export function proposedEvent(message: ProposedMessage): ProposedEvent {
  const metadata = message.getMetadataMap();
  const type = metadata.get('type');
  const contentType = metadata.get('content-type');
  if (type === undefined) throw new BadRequest('Required metadata property type is missing.');
  if (contentType === undefined) throw new BadRequest('Required metadata property content-type is missing.');
  return { id: parseUuid(message.getId()), type, contentType, data: message.getData_asU8(), customMetadata: message.getCustomMetadata_asU8() };
}

/** A read or subscription answer carrying one event, with its position in `$all`. */
export function eventResponse(event: LoggedEvent, structuredIds: boolean): ReadResponse {
  const recorded = new ReadResp.ReadEvent.RecordedEvent()
    .setId(uuidMessage(event.id, structuredIds))
    .setStreamIdentifier(streamIdentifier(event.streamId))
    .setStreamRevision(event.revision.toString())
    .setCommitPosition(event.commit.toString())
    .setPreparePosition(event.prepare.toString())
    .setData(event.data)
    .setCustomMetadata(event.customMetadata);
  recorded.getMetadataMap().set('type', event.type).set('content-type', event.contentType).set('created', event.created.toString());
  return new ReadResp().setEvent(new ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(event.commit.toString()));
}
