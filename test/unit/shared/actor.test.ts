import { hostname } from 'node:os';
import { cliActor, describeActor, MAX_HOST_LENGTH, systemActor, thisHost } from '../../../src/shared/actor.js';

describe('the host an actor names', () => {
  const saved = process.env.DROIDWRIGHT_HOST;
  afterEach(() => {
    if (saved === undefined) delete process.env.DROIDWRIGHT_HOST;
    else process.env.DROIDWRIGHT_HOST = saved;
  });

  it('is the OS host name unless DROIDWRIGHT_HOST names another, read at every call', () => {
    delete process.env.DROIDWRIGHT_HOST;
    expect(thisHost()).toBe(hostname().trim().slice(0, MAX_HOST_LENGTH) || 'localhost');
    process.env.DROIDWRIGHT_HOST = 'ci-runner-7';
    expect(thisHost()).toBe('ci-runner-7');
    expect(cliActor()).toEqual({ kind: 'cli', pid: process.pid, host: 'ci-runner-7' });
    process.env.DROIDWRIGHT_HOST = 'laptop-b';
    expect(systemActor().host).toBe('laptop-b');
    // Empty means unset, as for the other DROIDWRIGHT_* variables.
    process.env.DROIDWRIGHT_HOST = '';
    expect(thisHost()).toBe(hostname().trim().slice(0, MAX_HOST_LENGTH) || 'localhost');
  });

  it.each([
    ['x'.repeat(MAX_HOST_LENGTH + 1), /at most 253 characters/],
    ['bad\nhost', /control characters/],
    [' laptop', /whitespace/],
  ])('refuses a DROIDWRIGHT_HOST of %j, naming the variable', (value, why) => {
    process.env.DROIDWRIGHT_HOST = value;
    expect(() => thisHost()).toThrow(/^DROIDWRIGHT_HOST must/);
    expect(() => thisHost()).toThrow(why);
  });
});

describe('describeActor', () => {
  const agent = { kind: 'agent' as const, client: 'claude-code', session: '1a2b3c4d5e6f', pid: 42 };

  it('names the host whenever the actor has one, so stored labels do not depend on who reads them', () => {
    expect(describeActor(agent)).toBe('agent claude-code#1a2b3c4d (pid 42)');
    expect(describeActor({ ...agent, host: 'laptop-a' })).toBe('agent claude-code#1a2b3c4d (pid 42 on laptop-a)');
    expect(describeActor({ kind: 'cli', pid: 7, host: 'laptop-a' })).toBe('cli (pid 7 on laptop-a)');
  });

  it('leaves out the reader’s own host when asked, and still names every other', () => {
    expect(describeActor({ kind: 'tui', pid: 7, host: 'laptop-a' }, 'laptop-a')).toBe('tui (pid 7)');
    expect(describeActor({ kind: 'tui', pid: 7, host: 'laptop-b' }, 'laptop-a')).toBe('tui (pid 7 on laptop-b)');
    expect(describeActor({ kind: 'tui', pid: 7 }, 'laptop-a')).toBe('tui (pid 7)');
  });
});
