import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { logoFileProblem } from './logo-file';

const MB = 1024 * 1024;

describe('logoFileProblem', () => {
  it('accepts an image up to 2 MB', () => {
    expect(logoFileProblem({ type: 'image/png', size: 2 * MB })).toBeNull();
    expect(logoFileProblem({ type: 'image/gif', size: 10 })).toBeNull();
  });

  it('refuses what is not an image, and an image over 2 MB, with the server’s messages', () => {
    expect(logoFileProblem({ type: 'application/pdf', size: 10 })).toBe(messages.tenancy.invalidImage);
    expect(logoFileProblem({ type: '', size: 10 })).toBe(messages.tenancy.invalidImage);
    expect(logoFileProblem({ type: 'image/jpeg', size: 2 * MB + 1 })).toBe(messages.tenancy.imageTooLarge);
  });
});
