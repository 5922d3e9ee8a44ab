CREATE TYPE "public"."network_category" AS ENUM('unidade_propria', 'clinica_parceira', 'laboratorio');--> statement-breakpoint
CREATE TABLE "network_places" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"clinic_id" uuid NOT NULL,
	"name" text NOT NULL,
	"category" "network_category" NOT NULL,
	"address" text NOT NULL,
	"phone" varchar(11),
	"hours" text,
	"services" text[] DEFAULT '{}'::text[] NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"last_confirmed_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "network_places_latitude_range" CHECK ("network_places"."latitude" between -90 and 90),
	CONSTRAINT "network_places_longitude_range" CHECK ("network_places"."longitude" between -180 and 180)
);
--> statement-breakpoint
ALTER TABLE "network_places" ADD CONSTRAINT "network_places_clinic_id_clinics_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "network_places_clinic_idx" ON "network_places" USING btree ("clinic_id","name");--> statement-breakpoint
-- Row-level security on the new tenant table, as 0012 set it for the others.
GRANT SELECT, INSERT, UPDATE, DELETE ON network_places TO carteirinha_tenant;--> statement-breakpoint
CREATE POLICY tenant_isolation ON network_places TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY platform_access ON network_places TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
ALTER TABLE network_places ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE network_places FORCE ROW LEVEL SECURITY;
