-- Issue 22 (ADR 013, ADR 014 amended): one card per person per clinic for life, one person per CPF per clinic, the
-- clinic's own Asaas webhook, held settlements, partial refunds (the 7-day withdrawal), visits called off, and the
-- embedded provider's own record of its charges.
CREATE TABLE "cpf_claims" (
	"clinic_id" uuid NOT NULL,
	"cpf" varchar(11) NOT NULL,
	"user_id" uuid NOT NULL,
	"dependent_id" uuid,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cpf_claims_clinic_id_cpf_pk" PRIMARY KEY("clinic_id","cpf")
);
--> statement-breakpoint
CREATE TABLE "local_provider_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"clinic_id" uuid NOT NULL,
	"subscription_id" text,
	"status" text NOT NULL,
	"method" "payment_method" NOT NULL,
	"amount_cents" integer NOT NULL,
	"due_date" date NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "cards_subscription_person_key";--> statement-breakpoint
-- One card per person per clinic for life. Existing people with a card per subscription keep their oldest card (the
-- number they were given first); it now follows their newest subscription. Visits and validation records of the other
-- cards move to the kept one before those cards go, so every visit still points at a card that exists.
UPDATE "visits" v SET "card_id" = m.kept_id
FROM (SELECT id, first_value(id) OVER (PARTITION BY clinic_id, holder_user_id, coalesce(dependent_id, '00000000-0000-0000-0000-000000000000'::uuid) ORDER BY issued_at, id) AS kept_id FROM "cards") m
WHERE v."card_id" = m.id AND m.id <> m.kept_id;--> statement-breakpoint
UPDATE "card_validations" cv SET "card_id" = m.kept_id
FROM (SELECT id, first_value(id) OVER (PARTITION BY clinic_id, holder_user_id, coalesce(dependent_id, '00000000-0000-0000-0000-000000000000'::uuid) ORDER BY issued_at, id) AS kept_id FROM "cards") m
WHERE cv."card_id" = m.id AND m.id <> m.kept_id;--> statement-breakpoint
UPDATE "cards" c SET "subscription_id" = n.newest
FROM (
  SELECT DISTINCT ON (c2.clinic_id, c2.holder_user_id, coalesce(c2.dependent_id, '00000000-0000-0000-0000-000000000000'::uuid))
    c2.clinic_id, c2.holder_user_id, coalesce(c2.dependent_id, '00000000-0000-0000-0000-000000000000'::uuid) AS person, c2.subscription_id AS newest
  FROM "cards" c2 JOIN "subscriptions" s ON s.id = c2.subscription_id
  ORDER BY c2.clinic_id, c2.holder_user_id, coalesce(c2.dependent_id, '00000000-0000-0000-0000-000000000000'::uuid), s.created_at DESC, s.id DESC
) n
WHERE c.clinic_id = n.clinic_id AND c.holder_user_id = n.holder_user_id AND coalesce(c.dependent_id, '00000000-0000-0000-0000-000000000000'::uuid) = n.person;--> statement-breakpoint
DELETE FROM "cards" c
USING (SELECT id, first_value(id) OVER (PARTITION BY clinic_id, holder_user_id, coalesce(dependent_id, '00000000-0000-0000-0000-000000000000'::uuid) ORDER BY issued_at, id) AS kept_id FROM "cards") m
WHERE c.id = m.id AND m.id <> m.kept_id;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "asaas_webhook_id" text;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "asaas_webhook_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "asaas_webhook_registered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_cents" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "received_cents" integer;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "canceled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dependents" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "clinic_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cpf_claims" ADD CONSTRAINT "cpf_claims_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cpf_claims" ADD CONSTRAINT "cpf_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cpf_claims" ADD CONSTRAINT "cpf_claims_dependent_id_dependents_id_fk" FOREIGN KEY ("dependent_id") REFERENCES "public"."dependents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_provider_charges" ADD CONSTRAINT "local_provider_charges_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- One person per CPF per clinic (holders and dependents). Where two people of a clinic carry the same CPF, the older
-- claim is kept (the first subscription, or the dependent added first); the newer person's CPF is cleared and the
-- drop is audited, for the clinic admin to give the CPF to its real owner after checking a document.
WITH candidates AS (
    SELECT s.clinic_id, p.cpf, p.id AS user_id, NULL::uuid AS dependent_id, min(s.created_at) AS claimed_at
    FROM "profiles" p JOIN "subscriptions" s ON s.user_id = p.id
    WHERE p.cpf IS NOT NULL GROUP BY s.clinic_id, p.cpf, p.id
  UNION ALL
    SELECT r.clinic_id, p.cpf, p.id, NULL::uuid, r.created_at
    FROM "profiles" p JOIN "user_roles" r ON r.user_id = p.id AND r.role = 'patient'
    WHERE p.cpf IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "subscriptions" s WHERE s.user_id = p.id AND s.clinic_id = r.clinic_id)
  UNION ALL
    SELECT d.clinic_id, d.cpf, d.holder_user_id, d.id, d.created_at FROM "dependents" d WHERE d.cpf IS NOT NULL
), ranked AS (
  SELECT candidates.*, row_number() OVER (PARTITION BY clinic_id, cpf ORDER BY claimed_at, user_id, dependent_id NULLS FIRST) AS claim_rank FROM candidates
)
INSERT INTO "cpf_claims" ("clinic_id", "cpf", "user_id", "dependent_id", "claimed_at")
SELECT clinic_id, cpf, user_id, dependent_id, claimed_at FROM ranked WHERE claim_rank = 1
ON CONFLICT DO NOTHING;--> statement-breakpoint
WITH candidates AS (
    SELECT s.clinic_id, p.cpf, p.id AS user_id, NULL::uuid AS dependent_id, min(s.created_at) AS claimed_at
    FROM "profiles" p JOIN "subscriptions" s ON s.user_id = p.id
    WHERE p.cpf IS NOT NULL GROUP BY s.clinic_id, p.cpf, p.id
  UNION ALL
    SELECT r.clinic_id, p.cpf, p.id, NULL::uuid, r.created_at
    FROM "profiles" p JOIN "user_roles" r ON r.user_id = p.id AND r.role = 'patient'
    WHERE p.cpf IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "subscriptions" s WHERE s.user_id = p.id AND s.clinic_id = r.clinic_id)
  UNION ALL
    SELECT d.clinic_id, d.cpf, d.holder_user_id, d.id, d.created_at FROM "dependents" d WHERE d.cpf IS NOT NULL
), ranked AS (
  SELECT candidates.*, row_number() OVER (PARTITION BY clinic_id, cpf ORDER BY claimed_at, user_id, dependent_id NULLS FIRST) AS claim_rank FROM candidates
)
INSERT INTO "audit_log" ("actor_user_id", "action", "entity", "entity_id", "clinic_id", "details")
SELECT NULL, 'cpf.claim_dropped', CASE WHEN r.dependent_id IS NULL THEN 'profile' ELSE 'dependent' END, coalesce(r.dependent_id, r.user_id), r.clinic_id,
  jsonb_build_object('source', 'migration', 'cpf', r.cpf, 'userId', r.user_id, 'dependentId', r.dependent_id, 'keptUserId', k.user_id, 'keptDependentId', k.dependent_id)
FROM ranked r JOIN "cpf_claims" k ON k.clinic_id = r.clinic_id AND k.cpf = r.cpf
WHERE r.user_id <> k.user_id OR coalesce(r.dependent_id, '00000000-0000-0000-0000-000000000000'::uuid) <> coalesce(k.dependent_id, '00000000-0000-0000-0000-000000000000'::uuid);--> statement-breakpoint
UPDATE "dependents" d SET "cpf" = NULL
WHERE d.cpf IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "cpf_claims" k WHERE k.clinic_id = d.clinic_id AND k.cpf = d.cpf AND k.dependent_id = d.id);--> statement-breakpoint
UPDATE "profiles" p SET "cpf" = NULL
WHERE p.cpf IS NOT NULL
  AND EXISTS (SELECT 1 FROM "cpf_claims" k WHERE k.cpf = p.cpf AND NOT (k.user_id = p.id AND k.dependent_id IS NULL)
    AND (EXISTS (SELECT 1 FROM "subscriptions" s WHERE s.user_id = p.id AND s.clinic_id = k.clinic_id)
      OR EXISTS (SELECT 1 FROM "user_roles" r WHERE r.user_id = p.id AND r.clinic_id = k.clinic_id)));--> statement-breakpoint
CREATE UNIQUE INDEX "cpf_claims_person_key" ON "cpf_claims" USING btree ("clinic_id","user_id",coalesce("dependent_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "local_provider_charges_subscription_idx" ON "local_provider_charges" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "card_validations_user_created_idx" ON "card_validations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_person_key" ON "cards" USING btree ("clinic_id","holder_user_id",coalesce("dependent_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "payments_held_idx" ON "payments" USING btree ("held_at") WHERE "payments"."held_at" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_failed_idx" ON "webhook_events" USING btree ("failed_at") WHERE "webhook_events"."failed_at" is not null and "webhook_events"."processed_at" is null;
--> statement-breakpoint
-- Row-level security on the new tables with a clinic_id, as 0012/0013 set it: cpf_claims is a tenant table; the
-- embedded provider's charges and the webhook events are the platform's (the tenant role has no privilege on them).
GRANT SELECT, INSERT, UPDATE, DELETE ON cpf_claims TO carteirinha_tenant;--> statement-breakpoint
CREATE POLICY tenant_isolation ON cpf_claims TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON cpf_claims TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE cpf_claims ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE cpf_claims FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON local_provider_charges TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON local_provider_charges TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE local_provider_charges ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE local_provider_charges FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON webhook_events TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON webhook_events TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE webhook_events ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE webhook_events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- The 7-day withdrawal keeps the discounts already received (issue 22). Clinics still on the starter terms' wording get
-- a new version saying so (the old versions stay, as accepted); a clinic that wrote its own terms words it itself.
INSERT INTO "contract_terms" ("clinic_id", "version", "body")
SELECT t.clinic_id, t.version + 1, replace(t.body, '- Direito de arrependimento: nos primeiros 7 dias da contratação (Código de Defesa do Consumidor, art. 49), o cancelamento é gratuito, todo valor pago é devolvido e a assinatura termina na hora.', '- Direito de arrependimento: nos primeiros 7 dias da contratação (Código de Defesa do Consumidor, art. 49), o titular pode desistir sem multa e a assinatura termina na hora. É devolvido o valor pago, menos os descontos que o titular e seus dependentes já receberam em atendimentos nesse período (atendimentos cancelados não contam); a devolução nunca é menor que zero.')
FROM "contract_terms" t
WHERE t.version = (SELECT max(t2.version) FROM "contract_terms" t2 WHERE t2.clinic_id = t.clinic_id)
  AND position('- Direito de arrependimento: nos primeiros 7 dias da contratação (Código de Defesa do Consumidor, art. 49), o cancelamento é gratuito, todo valor pago é devolvido e a assinatura termina na hora.' in t.body) > 0;
--> statement-breakpoint
-- The scheduled e-mails and the daily backup run once per occurrence by the job runner's unique key (ADR 012, amended by
-- issue 22): their claim columns in platform_settings go.
ALTER TABLE "platform_settings" DROP COLUMN "weekly_report_sent_at";--> statement-breakpoint
ALTER TABLE "platform_settings" DROP COLUMN "daily_backup_claimed_at";--> statement-breakpoint
ALTER TABLE "platform_settings" DROP COLUMN "daily_backup_done_at";--> statement-breakpoint
ALTER TABLE "platform_settings" DROP COLUMN "overdue_digest_sent_at";
