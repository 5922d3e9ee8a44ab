CREATE TYPE "public"."card_lookup_method" AS ENUM('token', 'number', 'cpf');--> statement-breakpoint
CREATE TYPE "public"."card_validation_result" AS ENUM('valid', 'inactive', 'not_found');--> statement-breakpoint
CREATE TYPE "public"."service_category" AS ENUM('consulta', 'exame', 'procedimento');--> statement-breakpoint
CREATE TYPE "public"."visit_status" AS ENUM('aguardando', 'em_andamento', 'concluido');--> statement-breakpoint
CREATE TABLE "card_validations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"user_id" uuid,
	"card_id" uuid,
	"method" "card_lookup_method" NOT NULL,
	"result" "card_validation_result" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"holder_user_id" uuid NOT NULL,
	"dependent_id" uuid,
	"number" varchar(16) NOT NULL,
	"secret_encrypted" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "clinic_settings" (
	"clinic_id" uuid PRIMARY KEY NOT NULL,
	"grace_days" integer DEFAULT 5 NOT NULL,
	"asaas_api_key_encrypted" text,
	"asaas_wallet_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinic_settings_grace_days_range" CHECK ("clinic_settings"."grace_days" between 0 and 60)
);
--> statement-breakpoint
CREATE TABLE "contract_terms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dependents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"holder_user_id" uuid NOT NULL,
	"full_name" text NOT NULL,
	"cpf" varchar(11),
	"birth_date" date,
	"relationship" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" varchar(128) NOT NULL,
	"scope" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"singleton_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 10 NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"completed_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"name" text NOT NULL,
	"category" "service_category" NOT NULL,
	"price_cents" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_price_nonnegative" CHECK ("services"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "terms_acceptances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"terms_id" uuid NOT NULL,
	"subscription_id" uuid,
	"ip_address" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"patient_user_id" uuid NOT NULL,
	"dependent_id" uuid,
	"service_id" uuid,
	"service_name" text NOT NULL,
	"category" "service_category" NOT NULL,
	"original_cents" integer NOT NULL,
	"discount_percent" integer NOT NULL,
	"discount_cents" integer NOT NULL,
	"final_cents" integer NOT NULL,
	"status" "visit_status" DEFAULT 'concluido' NOT NULL,
	"performed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visits_amounts_consistent" CHECK ("visits"."original_cents" >= 0 and "visits"."discount_cents" >= 0 and "visits"."final_cents" = "visits"."original_cents" - "visits"."discount_cents"),
	CONSTRAINT "visits_discount_percent_range" CHECK ("visits"."discount_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "boleto_digitable_line" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "invoice_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_summary" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_status" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "adhesion_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "period_start" date;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "period_end" date;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "canceled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reminder_before_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reminder_due_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "dependent_price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "adhesion_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "waiting_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "benefits_start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "payment_method" "payment_method";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "provider_customer_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "provider_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "card_validations" ADD CONSTRAINT "card_validations_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_validations" ADD CONSTRAINT "card_validations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_validations" ADD CONSTRAINT "card_validations_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_holder_user_id_users_id_fk" FOREIGN KEY ("holder_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_dependent_id_dependents_id_fk" FOREIGN KEY ("dependent_id") REFERENCES "public"."dependents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_terms" ADD CONSTRAINT "contract_terms_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_terms" ADD CONSTRAINT "contract_terms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dependents" ADD CONSTRAINT "dependents_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dependents" ADD CONSTRAINT "dependents_holder_user_id_users_id_fk" FOREIGN KEY ("holder_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms_acceptances" ADD CONSTRAINT "terms_acceptances_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms_acceptances" ADD CONSTRAINT "terms_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms_acceptances" ADD CONSTRAINT "terms_acceptances_terms_id_contract_terms_id_fk" FOREIGN KEY ("terms_id") REFERENCES "public"."contract_terms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms_acceptances" ADD CONSTRAINT "terms_acceptances_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_patient_user_id_users_id_fk" FOREIGN KEY ("patient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_dependent_id_dependents_id_fk" FOREIGN KEY ("dependent_id") REFERENCES "public"."dependents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_validations_clinic_created_idx" ON "card_validations" USING btree ("clinic_id","created_at");--> statement-breakpoint
CREATE INDEX "card_validations_card_idx" ON "card_validations" USING btree ("card_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_number_key" ON "cards" USING btree ("number");--> statement-breakpoint
CREATE INDEX "cards_subscription_idx" ON "cards" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "cards_holder_idx" ON "cards" USING btree ("holder_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_subscription_person_key" ON "cards" USING btree ("subscription_id",coalesce("dependent_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE UNIQUE INDEX "contract_terms_clinic_version_key" ON "contract_terms" USING btree ("clinic_id","version");--> statement-breakpoint
CREATE INDEX "dependents_holder_idx" ON "dependents" USING btree ("holder_user_id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_queue_singleton_key" ON "jobs" USING btree ("queue","singleton_key");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."completed_at" is null and "jobs"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "services_clinic_idx" ON "services" USING btree ("clinic_id","is_active","name");--> statement-breakpoint
CREATE INDEX "terms_acceptances_user_idx" ON "terms_acceptances" USING btree ("user_id","accepted_at");--> statement-breakpoint
CREATE INDEX "visits_clinic_performed_idx" ON "visits" USING btree ("clinic_id","performed_at");--> statement-breakpoint
CREATE INDEX "visits_patient_performed_idx" ON "visits" USING btree ("patient_user_id","performed_at");--> statement-breakpoint
CREATE INDEX "visits_card_idx" ON "visits" USING btree ("card_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_event_key" ON "webhook_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_unprocessed_idx" ON "webhook_events" USING btree ("received_at") WHERE "webhook_events"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "subscriptions_status_expires_idx" ON "subscriptions" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_key" ON "subscriptions" USING btree ("provider","provider_subscription_id");--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_fees_nonnegative" CHECK ("subscription_plans"."dependent_price_cents" >= 0 and "subscription_plans"."adhesion_fee_cents" >= 0 and "subscription_plans"."waiting_days" >= 0);
--> statement-breakpoint
-- Row-level security on the new tenant tables, as 0012 set it for the others: the tenant role sees one clinic's rows,
-- the platform role every row but only outside a clinic's scope. card_validations is append-only for the tenant.
GRANT SELECT, INSERT, UPDATE, DELETE ON clinic_settings, contract_terms, terms_acceptances, dependents, cards, services, visits TO carteirinha_tenant;--> statement-breakpoint
GRANT SELECT, INSERT ON card_validations TO carteirinha_tenant;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON clinic_settings TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON clinic_settings TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE clinic_settings ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE clinic_settings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contract_terms TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON contract_terms TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE contract_terms ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE contract_terms FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON terms_acceptances TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON terms_acceptances TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE terms_acceptances ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE terms_acceptances FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON dependents TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON dependents TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE dependents ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE dependents FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON cards TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON cards TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE cards ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE cards FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON services TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON services TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE services ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE services FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON visits TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON visits TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE visits ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE visits FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON card_validations TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON card_validations TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE card_validations ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE card_validations FORCE ROW LEVEL SECURITY;
