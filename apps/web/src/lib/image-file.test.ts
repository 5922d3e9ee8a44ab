import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { imageFileProblem } from './image-file';

const MB = 1024 * 1024;

describe('imageFileProblem', () => {
  it('accepts an image up to 2 MB', () => {
    expect(imageFileProblem({ type: 'image/png', size: 2 * MB })).toBeNull();
    expect(imageFileProblem({ type: 'image/gif', size: 10 })).toBeNull();
  });

  it('refuses what is not an image, and an image over 2 MB, with the server’s messages', () => {
    expect(imageFileProblem({ type: 'application/pdf', size: 10 })).toBe(messages.tenancy.invalidImage);
    expect(imageFileProblem({ type: '', size: 10 })).toBe(messages.tenancy.invalidImage);
    expect(imageFileProblem({ type: 'image/jpeg', size: 2 * MB + 1 })).toBe(messages.tenancy.imageTooLarge);
  });
});
