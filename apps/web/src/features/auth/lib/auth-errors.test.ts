import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { authServerMessage, signInErrorMessage, signUpErrorMessage } from './auth-errors';

describe('signInErrorMessage', () => {
  it('says the credentials are wrong for better-auth code or a 401', () => {
    expect(signInErrorMessage({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' })).toBe(
      messages.auth.invalidCredentials,
    );
    expect(signInErrorMessage({ status: 401 })).toBe(messages.auth.invalidCredentials);
  });

  it('asks to wait when rate limited, whatever the body says', () => {
    expect(signInErrorMessage({ status: 429, code: 'INVALID_EMAIL_OR_PASSWORD' })).toBe(messages.auth.tooManyAttempts);
  });

  it("tells an account of another clinic to use its own clinic's site", () => {
    expect(signInErrorMessage({ status: 403, code: 'WRONG_CLINIC', message: 'anything' })).toBe(messages.tenancy.wrongClinic);
  });

  it('tells a deactivated account that it was deactivated, not that the password is wrong', () => {
    expect(signInErrorMessage({ status: 403, code: 'ACCOUNT_DEACTIVATED', message: 'anything' })).toBe(messages.adminUsers.accountDeactivated);
  });

  it("shows our API's pt-BR message when the answer came from our error handler", () => {
    const ours = { status: 503, error: { code: 'SERVICE_UNAVAILABLE', message: messages.errors.SERVICE_UNAVAILABLE } };
    expect(signInErrorMessage(ours)).toBe(messages.errors.SERVICE_UNAVAILABLE);
  });
});

describe('signUpErrorMessage', () => {
  it('says the e-mail is taken for either better-auth code', () => {
    expect(signUpErrorMessage({ status: 422, code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' })).toBe(messages.auth.emailTaken);
    expect(signUpErrorMessage({ status: 422, code: 'USER_ALREADY_EXISTS' })).toBe(messages.auth.emailTaken);
  });

  it('recognises an "already" 422 without a code', () => {
    expect(signUpErrorMessage({ status: 422, message: 'User already exists' })).toBe(messages.auth.emailTaken);
  });

  it('translates codes a user can cause and passes other server messages through', () => {
    expect(signUpErrorMessage({ status: 400, code: 'PASSWORD_TOO_SHORT', message: 'Password too short' })).toBe(messages.validation.passwordMin);
    expect(signUpErrorMessage({ status: 400, code: 'SOMETHING_ELSE', message: 'Something else' })).toBe('Something else');
  });
});

describe('authServerMessage', () => {
  it('falls back to the generic pt-BR message when the answer has none', () => {
    expect(authServerMessage({ status: 500 })).toBe(messages.errors.INTERNAL);
  });
});
