import { createHash } from 'node:crypto';
import type { Actor } from '../shared/actor.js';
import { canonicalJson } from './canonical-json.js';

/** Exactly the fields the chain covers; helper columns (actor_kind, actor_session) are derived from actor. */
export interface HashedFields {
  readonly seq: number;
  readonly id: string;
  readonly at: number;
  readonly type: string;
  readonly v: number;
  readonly stream: string;
  readonly actor: Actor;
  readonly device: string | null;
  readonly package: string | null;
  readonly correlation: string | null;
  readonly data: unknown;
  readonly prev_hash: string;
}

/**
 * SHA-256 hex over the canonical JSON of the row (keys sorted, no whitespace), so any reader in any
 * language can recompute it from the stored columns.
 */
export function computeEventHash(fields: HashedFields): string {
  return hashCanonicalRow({ ...fields, actorJson: canonicalJson(fields.actor), dataJson: canonicalJson(fields.data) });
}

/**
 * The same hash from actor and data already in canonical form, which the append path has anyway:
 * the row text is assembled in canonicalJson's key order instead of serializing everything twice.
 */
export function hashCanonicalRow(
  fields: Omit<HashedFields, 'actor' | 'data'> & { readonly actorJson: string; readonly dataJson: string },
): string {
  const text =
    `{"actor":${fields.actorJson},"at":${JSON.stringify(fields.at)},"correlation":${JSON.stringify(fields.correlation)},` +
    `"data":${fields.dataJson},"device":${JSON.stringify(fields.device)},"id":${JSON.stringify(fields.id)},` +
    `"package":${JSON.stringify(fields.package)},"prev_hash":${JSON.stringify(fields.prev_hash)},` +
    `"seq":${JSON.stringify(fields.seq)},"stream":${JSON.stringify(fields.stream)},"type":${JSON.stringify(fields.type)},` +
    `"v":${JSON.stringify(fields.v)}}`;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
