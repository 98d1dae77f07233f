import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { canonicalJson } from '../events/canonical-json.js';
import type { Digest } from '../events/event-store.js';
import { UsageError } from '../kernel/usage-error.js';

/** The `-n` namespace of every droidwright signature, so a signature made for git or email never verifies here. */
export const SIGNATURE_NAMESPACE = 'droidwright';

/** What `events digest --sign` prints: the digest and an armored SSH signature over `signedMessage(digest)`. */
export interface SignedDigest extends Digest {
  signature: string;
}

/** The signed bytes: the canonical JSON of {at, hash, seq}, UTF-8, no trailing newline (docs/event-log.md). */
export function signedMessage(digest: Digest): string {
  return canonicalJson({ at: digest.at, hash: digest.hash, seq: digest.seq });
}

export class SignatureError extends Error {
  override readonly name = 'SignatureError';
}

/** ssh-keygen from an absolute PATH entry only: a relative entry such as `.` could run a project's own binary. */
export function findSshKeygen(env: NodeJS.ProcessEnv = process.env): string {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'ssh-keygen');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  throw new SignatureError(
    'ssh-keygen was not found on PATH (absolute entries only). Install OpenSSH (e.g. `apt-get install openssh-client`) to sign or check digests.',
  );
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

/** --key, else the user's first default SSH key. */
export function defaultSigningKey(home = homedir()): string {
  for (const name of DEFAULT_KEYS) {
    const path = join(home, '.ssh', name);
    if (existsSync(path)) return path;
  }
  throw new UsageError(
    `No SSH key found (looked for ${DEFAULT_KEYS.map((k) => `~/.ssh/${k}`).join(', ')}). Pass --key FILE: a private key, or a public key whose private half is in ssh-agent.`,
  );
}

function withTempDir<T>(body: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'droidwright-sign-'));
  try {
    return body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function failure(what: string, result: ReturnType<typeof spawnSync>): SignatureError {
  const said = `${result.stderr?.toString() ?? ''}${result.stdout?.toString() ?? ''}`
    .trim()
    .split('\n')
    .slice(-3)
    .join(' ');
  const why = result.error ? result.error.message : said || `exit ${result.status}`;
  return new SignatureError(`${what}: ${why}`);
}

/**
 * Signs the digest with `ssh-keygen -Y sign`. A key with a passphrase prompts on the terminal (ssh-keygen
 * reads it from /dev/tty), or is used through ssh-agent when `key` is its public half.
 */
export function signDigest(digest: Digest, key: string): SignedDigest {
  if (!existsSync(key)) throw new UsageError(`--key ${key}: no such file.`);
  const sshKeygen = findSshKeygen();
  return withTempDir((dir) => {
    const message = join(dir, 'digest.json');
    writeFileSync(message, signedMessage(digest), { mode: 0o600 });
    const result = spawnSync(sshKeygen, ['-Y', 'sign', '-f', key, '-n', SIGNATURE_NAMESPACE, message], {
      stdio: ['inherit', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    if (result.status !== 0) throw failure(`ssh-keygen could not sign with ${key}`, result);
    return { ...digest, signature: readFileSync(`${message}.sig`, 'utf8') };
  });
}

/**
 * Checks a signed digest against an allowed_signers file (`ssh-keygen -Y find-principals`, then
 * `-Y verify` for that principal and the droidwright namespace). Returns the principal and ssh-keygen's
 * own line (which names the key's fingerprint); throws SignatureError when it does not verify.
 */
export function verifyDigestSignature(
  digest: SignedDigest,
  allowedSigners: string,
): { principal: string; message: string } {
  if (!existsSync(allowedSigners)) throw new UsageError(`--allowed-signers ${allowedSigners}: no such file.`);
  if (typeof digest.signature !== 'string' || !digest.signature.includes('BEGIN SSH SIGNATURE')) {
    throw new SignatureError(
      'the digest file carries no SSH signature; create it with `droidwright events digest --sign`',
    );
  }
  const sshKeygen = findSshKeygen();
  return withTempDir((dir) => {
    const signature = join(dir, 'digest.sig');
    writeFileSync(signature, digest.signature, { mode: 0o600 });
    const found = spawnSync(sshKeygen, ['-Y', 'find-principals', '-s', signature, '-f', allowedSigners], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    const principals = found.status === 0 ? found.stdout.toString().split('\n').filter(Boolean) : [];
    if (principals.length === 0) {
      throw new SignatureError(`the digest was not signed by a key listed in ${allowedSigners}`);
    }
    const principal = principals[0]!;
    const verified = spawnSync(
      sshKeygen,
      ['-Y', 'verify', '-f', allowedSigners, '-I', principal, '-n', SIGNATURE_NAMESPACE, '-s', signature],
      { input: signedMessage(digest), stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 },
    );
    if (verified.status !== 0) {
      throw failure(`the digest's signature does not verify for ${principal} (was the digest edited?)`, verified);
    }
    return { principal, message: verified.stdout.toString().trim() };
  });
}
