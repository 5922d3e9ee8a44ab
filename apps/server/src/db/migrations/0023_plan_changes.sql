CREATE TABLE "plan_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"from_plan_id" uuid NOT NULL,
	"to_plan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"from_amount_cents" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"charge_cents" integer DEFAULT 0 NOT NULL,
	"keep_dependent_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"effective_at" timestamp with time zone,
	"requested_by" uuid,
	"applied_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "plan_change_id" uuid;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_from_plan_id_subscription_plans_id_fk" FOREIGN KEY ("from_plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_to_plan_id_subscription_plans_id_fk" FOREIGN KEY ("to_plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_changes_one_pending_key" ON "plan_changes" USING btree ("subscription_id") WHERE "plan_changes"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "plan_changes_due_idx" ON "plan_changes" USING btree ("effective_at") WHERE "plan_changes"."status" = 'pending' and "plan_changes"."kind" = 'downgrade';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_plan_change_id_plan_changes_id_fk" FOREIGN KEY ("plan_change_id") REFERENCES "public"."plan_changes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_plan_change_key" ON "payments" USING btree ("plan_change_id") WHERE "payments"."plan_change_id" is not null;--> statement-breakpoint
-- Row-level security on the new tenant table, as 0012 set it for the others.
GRANT SELECT, INSERT, UPDATE, DELETE ON plan_changes TO carteirinha_tenant;--> statement-breakpoint
CREATE POLICY tenant_isolation ON plan_changes TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON plan_changes TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE plan_changes ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE plan_changes FORCE ROW LEVEL SECURITY;
