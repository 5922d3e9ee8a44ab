CREATE TABLE "card_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"slot" smallint NOT NULL,
	"name" text NOT NULL,
	"secret_encrypted" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "card_validations" ADD COLUMN "device_id" uuid;--> statement-breakpoint
ALTER TABLE "card_devices" ADD CONSTRAINT "card_devices_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_devices" ADD CONSTRAINT "card_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_devices_active_slot_key" ON "card_devices" USING btree ("clinic_id","user_id","slot") WHERE "card_devices"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "card_devices_user_idx" ON "card_devices" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "card_validations" ADD CONSTRAINT "card_validations_device_id_card_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."card_devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Row-level security on the new tenant table, as 0012 set it for the others.
GRANT SELECT, INSERT, UPDATE, DELETE ON card_devices TO carteirinha_tenant;--> statement-breakpoint
CREATE POLICY tenant_isolation ON card_devices TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON card_devices TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE card_devices ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE card_devices FORCE ROW LEVEL SECURITY;
