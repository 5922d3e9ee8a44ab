import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { asyncHandler } from './async-handler';

describe('asyncHandler', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('passes the event on and reports nothing when the handler succeeds', async () => {
    const errorToast = vi.spyOn(toast, 'error');
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const received: string[] = [];
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));

    const handler = asyncHandler(async (event: string) => {
      received.push(event);
      finished();
    });

    expect(handler('submit')).toBeUndefined();
    await done;
    await Promise.resolve();
    expect(received).toEqual(['submit']);
    expect(errorToast).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('logs a failure the handler did not expect and tells the user, instead of an unhandled rejection', async () => {
    const failure = new Error('boom');
    const reported = new Promise<unknown[]>((resolve) => {
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => resolve(args));
    });
    const errorToast = vi.spyOn(toast, 'error');

    asyncHandler(() => Promise.reject(failure))();

    expect(await reported).toEqual(['Falha não tratada em uma ação da página', failure]);
    expect(errorToast).toHaveBeenCalledWith(messages.errors.INTERNAL);
  });
});
