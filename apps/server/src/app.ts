import '@carteirinha/shared/zod-locale';
import fs from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import helmet from 'helmet';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { tileOriginOf, type Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { AVATAR_MAX_BYTES } from '@carteirinha/shared/constants';
import { AppError } from './lib/app-error.ts';
import { serializeError, serializeRequest } from './lib/log-redaction.ts';
import { createLocalStorage } from './lib/storage.ts';
import { brandingRoutes } from './modules/branding/routes.ts';
import { billingSettingsRoutes } from './modules/payments/billing-settings-routes.ts';
import type { ProviderCharge } from './modules/payments/providers/provider.ts';
import { createClinicAsaasKeyBox, createClinicWebhookTokenBox, createPaymentProviders, type PaymentProviders } from './modules/payments/providers/index.ts';
import { clinicSiteUrl, createHostResolver, type HostResolver } from './modules/tenancy/host-site.ts';
import { tenancyRoutes } from './modules/tenancy/routes.ts';
import { registerHostSite } from './plugins/host-site.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { createMailer, type SmtpRoute } from './lib/mailer.ts';
import { createBackgroundTasks, type BackgroundTasks } from './lib/background.ts';
import { createSecretBox, type SecretBox } from './lib/secret-box.ts';
import { createBackupService, type BackupService } from './modules/backups/backups.ts';
import { registerBackupJobs } from './modules/backups/jobs.ts';
import { createJobRunner, type JobRunner } from './modules/jobs/runner.ts';
import { registerNotificationJobs } from './modules/notifications/jobs.ts';
import { createPlatformNotifier, type PlatformNotifier } from './modules/notifications/notifications.ts';
import { registerTrialExpiryJob } from './modules/tenancy/jobs.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { createSettingsStore, type SettingsStore } from './modules/settings/store.ts';
import { createAuth, type Auth, type PasswordHasher } from './modules/auth/auth.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { captchaRoutes } from './modules/captcha/routes.ts';
import { createCaptcha } from './modules/captcha/service.ts';
import { passkeyRoutes } from './modules/passkeys/routes.ts';
import { createCallerReader } from './modules/auth/caller.ts';
import { databaseRateLimitStore } from './lib/rate-limit-store.ts';
import { createCacheInvalidation, type CacheInvalidation } from './lib/cache-invalidation.ts';
import { createFiguresCache, replicaPositionsOf } from './lib/figures-cache.ts';
import { createSignInThrottle } from './modules/auth/sign-in-throttle.ts';
import { createAccountHome } from './modules/auth/account-home.ts';
import { registerClinicApprovedMail } from './modules/clinics/approval-mail.ts';
import { enqueueAccountMail, registerAccountMail } from './modules/auth/account-mail.ts';
import { clinicRoutes } from './modules/clinics/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { meRoutes } from './modules/me/routes.ts';
import { outboxRoutes } from './modules/outbox/routes.ts';
import { planRoutes } from './modules/plans/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { clinicSettingsRoutes } from './modules/clinics/clinic-settings-routes.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { registerMemberInvitationJobs } from './modules/members/invitation-jobs.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { subscriptionPlanRoutes } from './modules/subscription-plans/routes.ts';
import { myDataRoutes } from './modules/my-data/routes.ts';
import { profileRoutes } from './modules/profiles/routes.ts';
import { dependentRoutes } from './modules/dependents/routes.ts';
import { subscriptionRoutes } from './modules/subscriptions/routes.ts';
import { checkoutRoutes } from './modules/checkout/routes.ts';
import { cardRoutes } from './modules/cards/routes.ts';
import { pwaRoutes } from './modules/pwa/routes.ts';
import { createCardSecretBox } from './modules/cards/card-secrets.ts';
import { serviceRoutes } from './modules/services/routes.ts';
import { networkRoutes } from './modules/network/routes.ts';
import { visitRoutes } from './modules/visits/routes.ts';
import { patientVisitRoutes } from './modules/visits/patient-routes.ts';
import { billingOf } from './modules/checkout/billing-wiring.ts';
import { registerPaymentJobs } from './modules/payments/jobs.ts';
import { registerPatientNotices } from './modules/notifications/patient-notices.ts';
import { registerPushDeliveries } from './modules/push/deliveries.ts';
import { pushRoutes } from './modules/push/routes.ts';
import { createVapidKeyStore } from './modules/push/vapid.ts';
import { registerCardJobs } from './modules/cards/jobs.ts';
import { registerPayoutJobs } from './modules/payouts/jobs.ts';
import { registerPayoutPaidMail } from './modules/payouts/paid-mail.ts';
import { payoutRoutes } from './modules/payouts/routes.ts';
import { settleChargeNow } from './modules/payments/settlement.ts';
import { paymentRoutes } from './modules/payments/webhook-routes.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { registerAccessControl } from './plugins/access-control.ts';
import { answerFrameworkError, registerErrorHandler } from './plugins/error-handler.ts';
import { registerRequestOrigin } from './plugins/request-origin.ts';
import { registerSpa } from './plugins/spa.ts';
import { registerGracefulClose } from './plugins/graceful-close.ts';
import { landingInputOf } from './modules/landing/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
    /** E-mails sent after the answer; `settled()` waits for them (shutdown, tests). */
    background: BackgroundTasks;
    settings: SettingsStore;
    backups: BackupService;
    notifier: PlatformNotifier;
    /** Durable background work (modules/jobs/runner.ts): register queues here; server.ts starts it, tests drain() it. */
    jobs: JobRunner;
    /** Host → site, cached briefly; whoever changes a clinic's status, slug or domain outside its routes invalidates it. */
    hostResolver: HostResolver;
    /** The payment providers (PAYMENT_PROVIDER for new subscriptions; `byName` for existing rows) and the webhook token. */
    paymentProviders: PaymentProviders;
    /** This app's card box (createCardSecretBox): what issues cards outside a request (the seed) takes it from here. */
    cardBox: SecretBox;
    /** The per-process caches' messages (lib/cache-invalidation.ts); tests wait on `delivered()` for a change to arrive. */
    caches: CacheInvalidation;
  }
}

export type AppOptions = {
  config: Config;
  database: DatabaseHandle;
  authSecret: string;
  logger?: FastifyServerOptions['logger'];
  /** Where the log goes instead of stdout (the log-secrets test reads it back). */
  logStream?: DestinationStream;
  /** The clock of the money rules (due dates, the 7-day withdrawal): tests move it instead of sleeping. */
  now?: () => Date;
  /**
   * The clock of sessions: their expiry, the staff inactivity and 12 h limits, the activity stamp. It is better-auth's
   * (the real time, with which it stamps every session row) unless a test of those rules moves it.
   */
  sessionClock?: () => Date;
  /**
   * better-auth's scrypt (N = 16 384, r = 16: ~60 ms of a core per hash, as production needs) unless given. Only code
   * can give it — no setting of the configuration reaches it: the in-process tests pass a cheap one
   * (test/password-hasher.ts), the production start and the browser tests keep the real one.
   */
  passwordHasher?: PasswordHasher;
};

function loggerFor(config: Config, stream: DestinationStream | undefined): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    // Card data and payment keys are never logged (issue 14): no log line carries a body, and should one ever carry
    // a card, a clinic's Asaas key or an access_token header, it is cut.
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'creditCard', '*.creditCard', '*.*.creditCard', 'asaasApiKey', '*.asaasApiKey', 'access_token', '*.access_token'],
    // Tokens and search text leave the access log, and database errors leave their parameters behind (ADR 009).
    serializers: { req: serializeRequest, err: serializeError },
    stream,
    transport: !stream && config.env === 'development' && process.stdout.isTTY ? { target: 'pino-pretty' } : undefined,
  };
}

function mapTileSources(config: Config): string[] {
  const origin = tileOriginOf(config.mapTiles.url);
  return origin ? [origin] : [];
}

function contentSecurityPolicy(config: Config) {
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Radix and sonner set inline style attributes for positioning.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // The network map's tiles come from the configured tile server (ADR 024).
      imgSrc: ["'self'", 'data:', 'blob:', ...mapTileSources(config)],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: config.publicUrl.startsWith('https://') ? [] : null,
    },
  };
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count trusts that many proxies nearest the server (proxy-addr's own rule for
 * a number, which Fastify's types leave out): the client's address is the one the farthest trusted proxy saw.
 */
function trustProxyOf(config: Config): string[] | false | ((address: string, hop: number) => boolean) {
  const trust = config.trustProxy;
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Builds the whole HTTP application on an open database, without listening (tests use `inject`). */
export async function buildApp({ config, database, authSecret, logger, logStream, now = () => new Date(), sessionClock, passwordHasher }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerFor(config, logStream),
    trustProxy: trustProxyOf(config),
    bodyLimit: 1_048_576,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors: answerFrameworkError,
    return503OnClosing: true,
    requestTimeout: 30_000,
    // Behind a reverse proxy or load balancer, the server must keep an idle connection open longer than the proxy
    // does (nginx's upstream keepalive_timeout and AWS ALB's idle timeout are 60 s): otherwise the proxy may send a
    // request into a connection the server is closing, and the client gets a 502. Fastify's own default, said here.
    keepAliveTimeout: 72_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerGracefulClose(app);

  // Per-process caches of the hot path, cleared on every process through LISTEN/NOTIFY; closed after the requests.
  const caches = createCacheInvalidation(database);
  await caches.start();
  app.addHook('onClose', () => caches.close());
  app.decorate('caches', caches);
  const settings = createSettingsStore(database.db, createSecretBox(authSecret, 'platform-settings'), app.log, caches);
  const backups = createBackupService({ database, dataDir: config.dataDir, settings, now });
  app.decorate('settings', settings);
  app.decorate('backups', backups);

  // The SMTP server of admin Configurações wins; SMTP_URL is the deployment's fallback; else the dev outbox.
  const smtpRoute = async (): Promise<SmtpRoute> => {
    const current = await settings.get();
    if (current.smtpHost) {
      const server = { host: current.smtpHost, port: current.smtpPort, user: current.smtpUser, password: settings.smtpPassword(current) };
      // nodemailer quotes the name itself: a platform name with quotes or brackets cannot break the header.
      return { server, from: { name: current.platformName, address: current.supportEmail } };
    }
    return config.smtpUrl ? { server: config.smtpUrl, from: config.mailFrom } : null;
  };
  const mailer = createMailer({ db: database.db, route: smtpRoute, log: app.log, logOutbox: config.logOutboxEmails, smtpAllowedPorts: config.smtpAllowedPorts });
  const resolver = createHostResolver(database.db, { mainDomain: config.mainDomain, publicUrl: config.publicUrl, caches });
  app.decorate('hostResolver', resolver);
  const storage = createLocalStorage(config.dataDir);
  const background = createBackgroundTasks(app.log);
  app.decorate('background', background);
  // A closing server finishes the e-mails it promised before its database goes.
  app.addHook('onClose', () => background.settled());
  // Created early so that every module registered below can add its queues (app.jobs.register / schedule).
  const jobs = createJobRunner({ db: database.db, log: app.log, now });
  app.decorate('jobs', jobs);
  // Stops polling and waits for running jobs before the database goes (hooks run before server.ts closes it).
  app.addHook('onClose', () => jobs.stop());
  const homeOf = createAccountHome({ db: database.db, resolver, mainDomain: config.mainDomain, publicUrl: config.publicUrl });
  const auth = createAuth({
    db: database.db,
    log: app.log,
    jobs,
    background,
    secret: authSecret,
    publicUrl: config.publicUrl,
    google: config.google,
    passwordHasher,
  });
  app.decorate('auth', auth);
  registerAccountMail(jobs, { db: database.db, mailer, homeOf, log: app.log, secret: authSecret });

  // helmet's middleware, made once: @fastify/helmet made it again on every request (its directives parsed each time,
  // 2 % of a card validation's CPU, bench/RESULTS.md).
  const securityHeaders = helmet({
    contentSecurityPolicy: contentSecurityPolicy(config),
    hsts: config.publicUrl.startsWith('https://') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  await app.register(fastifyRateLimit, {
    global: false,
    // Counted in the database: several server processes share each address's limit (issue 28).
    store: databaseRateLimitStore(database.db),
    errorResponseBuilder: () => new AppError('RATE_LIMITED'),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Carteirinha API', version: '1.0.0', description: 'API da plataforma Carteirinha.' },
    },
    transform: jsonSchemaTransform,
  });
  // The document is always built (app.swagger(): the fuzz suite reads it); serving it is opt-in (API_DOCS).
  if (config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(fastifyMultipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
  fs.mkdirSync(storage.localRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: storage.localRoot,
    prefix: '/uploads/',
    decorateReply: false,
    setHeaders: (res) => {
      // Uploaded files are only ever shown as images: never run or sniff them as anything else.
      res.setHeader('content-security-policy', "default-src 'none'; sandbox");
      res.setHeader('cache-control', 'public, max-age=86400');
    },
  });

  registerHostSite(app, { resolver, publicUrl: config.publicUrl });
  registerRequestOrigin(app, { publicUrl: config.publicUrl });
  registerInputGuard(app);
  const callers = createCallerReader(auth, database.db, { clock: sessionClock, cacheMs: config.callerCacheMs, invalidation: caches });
  const access = { auth, db: database.db, settings, callers, now };
  registerAccessControl(app, access);
  registerIdempotency(app, { db: database.db, now });
  app.addHook('onSend', async (request, reply) => {
    // Answers about a signed-in user must not be kept by shared caches or the browser's back button.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  const throttle = createSignInThrottle(database.db, {
    addressLimit: config.signInAddressFailureLimit,
    addressWindowMs: config.signInWindowMs,
    accountLimit: config.signInAccountFailureLimit,
    onCeilingReached: (email) => enqueueAccountMail(jobs, { kind: 'signInCeiling', email }),
  });
  const captcha = createCaptcha(database.db, config.captcha, authSecret, now);
  await app.register(authRoutes, {
    auth,
    db: database.db,
    callers: access.callers,
    throttle,
    settings,
    captcha,
    captchaAfterSignInFailures: config.captcha.afterSignInFailures,
    ipLimit: config.signInIpLimit,
    windowMs: config.signInWindowMs,
  });
  // A challenge is cheap to make and costs the browser work to use: a page asks one per form, a few per minute.
  await app.register(captchaRoutes, { captcha, perMinute: config.signInIpLimit * 2 });
  await app.register(passkeyRoutes, { db: database.db, now });
  await app.register(healthRoutes, { database });
  await app.register(meRoutes, { db: database.db });
  const site = { mainDomain: config.mainDomain, publicUrl: config.publicUrl };
  const notifier = createPlatformNotifier({ db: database.db, settings, mailer, publicUrl: config.publicUrl, log: app.log });
  app.decorate('notifier', notifier);
  registerBackupJobs(jobs, { backups, settings, log: app.log });
  registerNotificationJobs(jobs, { notifier, log: app.log });
  registerTrialExpiryJob(jobs, { db: database.db, log: app.log });
  await app.register(clinicRoutes, { db: database.db, jobs, resolver, ...site });
  registerClinicApprovedMail(jobs, { db: database.db, mailer, homeOf, log: app.log });
  await app.register(planRoutes, { db: database.db });
  await app.register(userRoutes, { db: database.db, mailer, ...site });
  const figures = createFiguresCache({ invalidation: caches, maxAgeMs: config.figuresCacheMs, clock: now, replica: replicaPositionsOf(database) });
  await app.register(dashboardRoutes, { db: database.db, reader: database.reader, figures, now, ...site });
  await app.register(clinicSettingsRoutes, { db: database.db, resolver, now, ...site });
  // Reports read the replica when there is one (ADR 033): heavy, and a moment behind is fine.
  await app.register(reportRoutes, { db: database.reader });
  await app.register(subscriptionPlanRoutes, { db: database.db, now });
  await app.register(subscriptionRoutes, { db: database.db, now });
  await app.register(profileRoutes, { db: database.db, storage, now });
  await app.register(myDataRoutes, { db: database.db, storage, jobs, now });
  await app.register(dependentRoutes, { db: database.db, jobs, now });
  const paymentProviders = createPaymentProviders(config.payments, { db: database.db, log: app.log, now });
  app.decorate('paymentProviders', paymentProviders);
  // Webhooks, settlement, reconciliation, delinquency and reminders (ADR 013). A subscription's transitions hand their
  // follow-ups to the modules that own them as jobs: cards (issued with the card box, one per app), provider calls,
  // patient e-mails.
  const cardBox = createCardSecretBox(authSecret);
  app.decorate('cardBox', cardBox);
  const keyBox = createClinicAsaasKeyBox(authSecret);
  registerPaymentJobs(jobs, { db: database.db, log: app.log, providers: paymentProviders, keyBox, pixKey: config.payments.pixKey });
  registerCardJobs(jobs, { db: database.db, box: cardBox, log: app.log });
  // Web Push (issue 29): the platform's VAPID keys are made on the first start and kept in the database.
  const pushKeys = createVapidKeyStore(database.db, createSecretBox(authSecret, 'push-vapid'));
  await pushKeys.get();
  const pushPolicy = { loopback: config.pushLoopbackEndpoints };
  const push = { db: database.db, jobs, keys: pushKeys, policy: pushPolicy, log: app.log, subject: async () => `mailto:${(await settings.get()).supportEmail}` };
  registerPushDeliveries(jobs, push);
  registerPatientNotices(jobs, { db: database.db, mailer, homeOf, log: app.log, push });
  await app.register(pushRoutes, { db: database.db, keys: pushKeys, policy: pushPolicy, now });
  await app.register(paymentRoutes, {
    db: database.db,
    jobs,
    background,
    webhookToken: config.payments.webhookToken,
    now,
    providers: paymentProviders,
    keyBox,
    webhookTokenBox: createClinicWebhookTokenBox(authSecret),
    inlineConcurrency: database.kind === 'pglite' ? 1 : 4,
  });
  const settle = async (paymentId: string, charge: ProviderCharge) => {
    await settleChargeNow(database.db, jobs, paymentId, charge, now());
    jobs.kick();
  };
  const billing = billingOf(database.db, paymentProviders, keyBox, settle);
  await app.register(checkoutRoutes, { db: database.db, billing, now, jobs });
  await app.register(cardRoutes, {
    db: database.db,
    box: cardBox,
    now,
    validationsPerMinute: config.cardValidationsPerMinute,
    siteUrlOf: (clinic) => clinicSiteUrl(clinic, { mainDomain: config.mainDomain, publicUrl: config.publicUrl }),
  });
  await app.register(serviceRoutes, { db: database.db, now });
  await app.register(visitRoutes, { db: database.db, reader: database.reader, jobs, now });
  await app.register(patientVisitRoutes, { db: database.db });
  await app.register(networkRoutes, { db: database.db, now, ...site });
  await app.register(memberRoutes, { db: database.db, jobs, now });
  registerMemberInvitationJobs(jobs, { db: database.db, mailer, log: app.log, ...site });
  await app.register(payoutRoutes, { db: database.db, jobs, now });
  registerPayoutJobs(jobs, { db: database.db, log: app.log });
  registerPayoutPaidMail(jobs, { db: database.db, mailer, homeOf, log: app.log });
  await app.register(outboxRoutes, { db: database.db });
  await app.register(settingsRoutes, {
    auth,
    settings,
    backups,
    mainDomain: config.mainDomain,
    demoSeed: config.seedDemo,
    googleAvailable: config.google !== undefined,
    smtpAllowedPorts: config.smtpAllowedPorts,
  });
  const tenantAnswer = {
    ...site,
    googleSignIn: async () => config.google !== undefined && (await settings.get()).googleLogin,
    passwordMinLength: async () => (await settings.get()).passwordMinLength,
    mapTiles: config.mapTiles,
    captcha: config.captcha.enabled,
  };
  await app.register(tenancyRoutes, { db: database.db, resolver, ...tenantAnswer });
  await app.register(brandingRoutes, { db: database.db, storage, resolver });
  await app.register(pwaRoutes, { platformName: async () => (await settings.get()).platformName });
  await app.register(billingSettingsRoutes, {
    db: database.db,
    keyBox,
    asaasWalletIdOf: paymentProviders.asaasWalletIdOf,
    registerAsaasWebhook: paymentProviders.registerAsaasWebhook,
    webhookTokenBox: createClinicWebhookTokenBox(authSecret),
    publicUrl: config.publicUrl,
    webhookEmail: async () => (await settings.get()).supportEmail,
    now,
  });
  const landing = { db: database.db, access, tenant: tenantAnswer };
  await registerSpa(app, { webDistDir: config.webDistDir, landingInput: (request) => landingInputOf(landing, request) });

  return app;
}
