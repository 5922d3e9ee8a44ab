CREATE TYPE "public"."payout_line_kind" AS ENUM('recebimento', 'estorno', 'chargeback');--> statement-breakpoint
CREATE TYPE "public"."payout_status" AS ENUM('pendente', 'processando', 'pago');--> statement-breakpoint
CREATE TABLE "payout_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"payout_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"kind" "payout_line_kind" NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"amount_cents" integer NOT NULL,
	"carried_from_period" date
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"period" date NOT NULL,
	"attendances" integer NOT NULL,
	"gross_cents" integer NOT NULL,
	"fee_percent" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"net_cents" integer NOT NULL,
	"fee_split_at_provider" boolean DEFAULT false NOT NULL,
	"status" "payout_status" DEFAULT 'pendente' NOT NULL,
	"processing_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"paid_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_payment_kind_key" ON "payout_lines" USING btree ("payment_id",("kind" = 'recebimento'));--> statement-breakpoint
CREATE INDEX "payout_lines_payout_idx" ON "payout_lines" USING btree ("payout_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_clinic_period_key" ON "payouts" USING btree ("clinic_id","period");--> statement-breakpoint
CREATE INDEX "payouts_status_period_idx" ON "payouts" USING btree ("status","period");--> statement-breakpoint
CREATE INDEX "payouts_period_idx" ON "payouts" USING btree ("period");--> statement-breakpoint
CREATE INDEX "payments_clinic_paid_idx" ON "payments" USING btree ("clinic_id","paid_at") WHERE "payments"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "payments_clinic_refunded_idx" ON "payments" USING btree ("clinic_id","refunded_at") WHERE "payments"."refunded_at" is not null;--> statement-breakpoint
-- Row-level security on the new tenant tables, as 0012 set it for the others. A clinic only reads its payouts: the
-- monthly job and the platform admin write them, as the platform.
GRANT SELECT ON payouts, payout_lines TO carteirinha_tenant;--> statement-breakpoint
CREATE POLICY tenant_isolation ON payouts TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON payouts TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE payouts ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payouts FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON payout_lines TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON payout_lines TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE payout_lines ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payout_lines FORCE ROW LEVEL SECURITY;
