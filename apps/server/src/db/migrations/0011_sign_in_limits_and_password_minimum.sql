CREATE TABLE "sign_in_ceiling_notices" (
	"email" text PRIMARY KEY NOT NULL,
	"notified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_known_addresses" (
	"email" text NOT NULL,
	"ip_address" text NOT NULL,
	"last_success_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_known_addresses_email_ip_address_pk" PRIMARY KEY("email","ip_address")
);
--> statement-breakpoint
ALTER TABLE "platform_settings" ADD COLUMN "password_min_length" integer DEFAULT 6 NOT NULL;