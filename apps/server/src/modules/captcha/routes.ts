import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { captchaChallengeSchema } from '@carteirinha/shared/contracts/captcha';
import { errorResponses } from '@carteirinha/shared/errors';
import { AppError } from '../../lib/app-error.ts';
import type { Captcha } from './service.ts';

/**
 * The widget's challenge. Public: it is asked before anyone has an account. Each answer is a fresh random challenge
 * and is never cached; the per-form check (one use, short expiry) is what stops a replay.
 */
export const captchaRoutes: FastifyPluginAsyncZod<{ captcha: Captcha; perMinute: number }> = async (app, { captcha, perMinute }) => {
  app.get(
    '/api/captcha/challenge',
    {
      config: { access: 'public', rateLimit: { max: perMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['autenticação'],
        summary: 'Um desafio de prova de trabalho (ALTCHA) para cadastro, redefinição de senha e entrada após falhas',
        response: { 200: captchaChallengeSchema, 404: errorResponses(404)[404], 429: errorResponses(429)[429] },
      },
    },
    async (_request, reply) => {
      // Off by configuration (CAPTCHA=off): there is nothing to solve, and the forms do not ask.
      if (!captcha.enabled) throw new AppError('NOT_FOUND');
      reply.header('cache-control', 'no-store');
      return captcha.challenge();
    },
  );
};
