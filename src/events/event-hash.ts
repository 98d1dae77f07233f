import { createHash } from 'node:crypto';
import type { Actor } from '../kernel/actor.js';
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

/** SHA-256 hex over the canonical JSON of the row, so any reader in any language can recompute it. */
export function computeEventHash(fields: HashedFields): string {
  const canonical = canonicalJson({
    seq: fields.seq,
    id: fields.id,
    at: fields.at,
    type: fields.type,
    v: fields.v,
    stream: fields.stream,
    actor: fields.actor,
    device: fields.device,
    package: fields.package,
    correlation: fields.correlation,
    data: fields.data,
    prev_hash: fields.prev_hash,
  });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
