-- Card validation by CPF (/clinica/validar, ADR 014) finds a holder's card from profiles.cpf and a dependent's card
-- from dependents (clinic_id, cpf), in one statement that reaches cards by their holder (cards_holder_idx).
CREATE INDEX "dependents_clinic_cpf_idx" ON "dependents" USING btree ("clinic_id","cpf");--> statement-breakpoint
CREATE INDEX "profiles_cpf_idx" ON "profiles" USING btree ("cpf");
