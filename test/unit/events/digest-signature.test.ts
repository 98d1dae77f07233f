import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SignatureError,
  findSshKeygen,
  signDigest,
  signedMessage,
  verifyDigestSignature,
} from '../../../src/cli/digest-signature.js';
import { removeTempDirs, tempDir } from '../../support/event-store-fixtures.js';

afterAll(removeTempDirs);

const digest = { seq: 12, hash: 'c'.repeat(64), at: 1_700_000_000_000 };

describe('digest signatures', () => {
  it('signs the canonical {at, hash, seq} with no trailing newline', () => {
    expect(signedMessage(digest)).toBe(`{"at":1700000000000,"hash":"${'c'.repeat(64)}","seq":12}`);
  });

  it('finds ssh-keygen on absolute PATH entries only, never through . or a relative entry', () => {
    const project = tempDir();
    const fake = join(project, 'ssh-keygen');
    writeFileSync(fake, '#!/bin/sh\necho pwned\n');
    chmodSync(fake, 0o755);
    const cwd = process.cwd();
    process.chdir(project);
    try {
      expect(() => findSshKeygen({ PATH: '.:bin' })).toThrow(SignatureError);
      expect(findSshKeygen({ PATH: `.:${project}` })).toBe(fake);
      expect(findSshKeygen({ PATH: '/usr/bin' })).toBe('/usr/bin/ssh-keygen');
    } finally {
      process.chdir(cwd);
    }
  });

  it('round-trips through ssh-keygen and refuses an edited digest or an unknown signer', () => {
    const dir = tempDir();
    const key = join(dir, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    const allowed = join(dir, 'allowed_signers');
    writeFileSync(allowed, `alice@example.com ${readFileSync(`${key}.pub`, 'utf8')}`);
    const signed = signDigest(digest, key);
    expect(verifyDigestSignature(signed, allowed)).toMatchObject({
      principal: 'alice@example.com',
      message: expect.stringContaining('Good "droidwright" signature for alice@example.com'),
    });
    expect(() => verifyDigestSignature({ ...signed, hash: 'd'.repeat(64) }, allowed)).toThrow(/does not verify/);
    writeFileSync(allowed, '');
    expect(() => verifyDigestSignature(signed, allowed)).toThrow(/not signed by a key listed/);
    expect(() => verifyDigestSignature({ ...digest, signature: '' }, allowed)).toThrow(/carries no SSH signature/);
  });
});
