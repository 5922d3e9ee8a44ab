DROP INDEX "payments_clinic_status_idx";--> statement-breakpoint
DROP INDEX "visits_clinic_performed_idx";--> statement-breakpoint
DROP INDEX "visits_card_idx";--> statement-breakpoint
CREATE INDEX "payments_clinic_status_amount_idx" ON "payments" USING btree ("clinic_id","status","amount_cents");--> statement-breakpoint
CREATE INDEX "visits_clinic_performed_id_idx" ON "visits" USING btree ("clinic_id","performed_at","id");--> statement-breakpoint
CREATE INDEX "visits_card_performed_id_idx" ON "visits" USING btree ("card_id","performed_at","id");