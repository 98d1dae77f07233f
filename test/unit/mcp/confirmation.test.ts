import { z } from 'zod';
import { askPerson, clientCanConfirm, confirmationQuestion, needsConfirmation } from '../../../src/mcp/confirmation.js';

describe('confirmation', () => {
  const stopApp = {
    name: 'stop_app',
    title: 'Stop app',
    kind: 'D' as const,
    sensitive: [],
    input: z.object({ device_serial: z.string().optional(), package: z.string() }),
  };

  test('which calls ask, and which clients can', () => {
    expect(['R', 'W', 'D', 'O'].map((k) => needsConfirmation('destructive', k as 'R'))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(['R', 'W', 'D', 'O'].map((k) => needsConfirmation('all-writes', k as 'R'))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(needsConfirmation(undefined, 'O')).toBe(false);
    expect(clientCanConfirm({ elicitation: {} })).toBe(true);
    expect(clientCanConfirm({ elicitation: { form: {} } })).toBe(true);
    expect(clientCanConfirm({ elicitation: { url: {} } })).toBe(false);
    expect(clientCanConfirm({})).toBe(false);
  });

  test('the question says what runs, where, and with which (redacted, bounded) arguments', () => {
    const question = confirmationQuestion(stopApp, { package: 'com.example.notes' }, '/work/notes');
    expect(question).toBe(
      [
        'An AI agent wants droidwright to run Stop app (stop_app), which destroys or replaces state.',
        'Device: the only online device (none named).',
        'Project: /work/notes.',
        'With:',
        '  package: com.example.notes',
        'Accept to run it; decline to refuse it.',
      ].join('\n'),
    );
    const secret = confirmationQuestion(
      { ...stopApp, sensitive: ['package'] },
      { package: 'x', device_serial: 'emulator-5554' },
      null,
    );
    expect(secret).toContain('Device: emulator-5554.');
    expect(secret).not.toContain('package: x\n');
    expect(confirmationQuestion(stopApp, { package: 'p'.repeat(10_000) }, null).length).toBeLessThan(2048);
  });

  test('no answer is an answer: errors, timeouts and cancellation are recorded as such', async () => {
    const signal = new AbortController().signal;
    expect(await askPerson(async () => ({ action: 'accept' }), 'q', signal)).toMatchObject({ answer: 'accepted' });
    expect(await askPerson(async () => ({ action: 'decline' }), 'q', signal)).toMatchObject({ answer: 'declined' });
    expect(await askPerson(async () => ({ action: 'cancel' }), 'q', signal)).toMatchObject({ answer: 'cancelled' });
    const fail = (code: number) => async () => {
      throw Object.assign(new Error('boom'), { code });
    };
    expect(await askPerson(fail(-32601), 'q', signal)).toMatchObject({ answer: 'unsupported' });
    expect(await askPerson(fail(-32001), 'q', signal, 5000)).toMatchObject({
      answer: 'cancelled',
      detail: 'no answer within 5 s',
    });
    const aborted = new AbortController();
    aborted.abort();
    expect(await askPerson(fail(-1), 'q', aborted.signal)).toMatchObject({
      answer: 'cancelled',
      detail: expect.stringMatching(/cancelled while waiting/),
    });
  });
});
