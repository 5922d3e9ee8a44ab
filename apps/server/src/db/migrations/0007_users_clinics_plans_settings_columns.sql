CREATE TYPE "public"."support_level" AS ENUM('email', 'priority', 'dedicated');--> statement-breakpoint
DROP INDEX "clinics_created_at_idx";--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "custom_domain" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "full_whitelabel" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "mobile_app" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "advanced_reports" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "support_level" "support_level" DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "sla_uptime_percent" double precision;--> statement-breakpoint
ALTER TABLE "platform_settings" ADD COLUMN "daily_backup_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "clinics_created_id_idx" ON "clinics" USING btree ("created_at","id");