-- 'cancelado' joins the visit statuses, and a visit already called off (canceled_at, issue 22) becomes one. A value
-- added with ADD VALUE cannot be used in the transaction that adds it (the migrator runs in one), so the type is made
-- anew and the column cast to it.
ALTER TYPE "public"."visit_status" RENAME TO "visit_status_before_0019";--> statement-breakpoint
CREATE TYPE "public"."visit_status" AS ENUM('aguardando', 'em_andamento', 'concluido', 'cancelado');--> statement-breakpoint
ALTER TABLE "visits" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "visits" ALTER COLUMN "status" SET DATA TYPE "public"."visit_status" USING (CASE WHEN "canceled_at" IS NOT NULL THEN 'cancelado' ELSE "status"::text END)::"public"."visit_status";--> statement-breakpoint
ALTER TABLE "visits" ALTER COLUMN "status" SET DEFAULT 'concluido';--> statement-breakpoint
DROP TYPE "public"."visit_status_before_0019";--> statement-breakpoint
CREATE TABLE "service_price_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"plan_id" uuid,
	"service_name" text NOT NULL,
	"plan_name" text,
	"category" "service_category" NOT NULL,
	"full_price_cents" integer NOT NULL,
	"discount_percent" integer,
	"card_price_cents" integer,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "notify_payment_confirmed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "notify_reminder_before" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "notify_reminder_due" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "notify_overdue" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "postal_code" varchar(8);--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "street" text;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "street_number" text;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "address_complement" text;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "district" text;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "opening_hours" jsonb;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "discount_percent" integer;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "awaiting_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "booked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "professional" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "status_changed_by" uuid;--> statement-breakpoint
ALTER TABLE "service_price_history" ADD CONSTRAINT "service_price_history_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_price_history" ADD CONSTRAINT "service_price_history_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_price_history" ADD CONSTRAINT "service_price_history_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_price_history_clinic_idx" ON "service_price_history" USING btree ("clinic_id","valid_from");--> statement-breakpoint
CREATE INDEX "service_price_history_service_idx" ON "service_price_history" USING btree ("service_id","valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "service_price_history_open_key" ON "service_price_history" USING btree ("service_id",coalesce("plan_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE "service_price_history"."valid_to" is null;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_status_changed_by_users_id_fk" FOREIGN KEY ("status_changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visits_clinic_status_performed_idx" ON "visits" USING btree ("clinic_id","status","performed_at");--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_discount_percent_range" CHECK ("services"."discount_percent" is null or "services"."discount_percent" between 0 and 100);--> statement-breakpoint
-- The price history starts with today's prices: each service's full price, and its card price with each plan on sale
-- (the service's own discount, else the plan's for its category; half-cent rounded up, as visits round).
INSERT INTO "service_price_history" ("clinic_id", "service_id", "plan_id", "service_name", "plan_name", "category", "full_price_cents", "discount_percent", "card_price_cents", "valid_from")
SELECT s.clinic_id, s.id, NULL, s.name, NULL, s.category, s.price_cents, s.discount_percent, NULL, s.created_at
FROM "services" s WHERE s.is_active;--> statement-breakpoint
INSERT INTO "service_price_history" ("clinic_id", "service_id", "plan_id", "service_name", "plan_name", "category", "full_price_cents", "discount_percent", "card_price_cents", "valid_from")
SELECT s.clinic_id, s.id, p.id, s.name, p.name, s.category, s.price_cents, d.pct,
       s.price_cents - round(s.price_cents * d.pct / 100.0)::integer, greatest(s.created_at, p.created_at)
FROM "services" s
JOIN "subscription_plans" p ON p.clinic_id = s.clinic_id AND p.is_active AND NOT p.awaiting_review
CROSS JOIN LATERAL (SELECT coalesce(s.discount_percent, CASE s.category WHEN 'consulta' THEN p.discount_consultas WHEN 'exame' THEN p.discount_exames ELSE p.discount_procedimentos END) AS pct) d
WHERE s.is_active;--> statement-breakpoint
-- Row-level security on the new tenant table, as 0012 set it for the others.
GRANT SELECT, INSERT, UPDATE, DELETE ON service_price_history TO carteirinha_tenant;--> statement-breakpoint
CREATE POLICY tenant_isolation ON service_price_history TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON service_price_history TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE service_price_history ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE service_price_history FORCE ROW LEVEL SECURITY;
