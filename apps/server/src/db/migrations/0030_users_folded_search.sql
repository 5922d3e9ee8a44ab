-- The admin users search (issue 28): the folded e-mail and name kept with the row, and the trigram indexes of 0008
-- rebuilt on them. A candidate the index returns is then checked against stored text instead of folding both columns
-- again (translate() on UTF-8: 13 µs a row, 20 ms for "silva"'s 1 586 matches among 51 000 accounts).
ALTER TABLE "users" ADD COLUMN "email_folded" text GENERATED ALWAYS AS (fold_text(email)) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "name_folded" text GENERATED ALWAYS AS (fold_text(name)) STORED;--> statement-breakpoint
DROP INDEX "users_email_search_idx";--> statement-breakpoint
DROP INDEX "users_name_search_idx";--> statement-breakpoint
CREATE INDEX "users_email_search_idx" ON "users" USING gin ("email_folded" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_search_idx" ON "users" USING gin ("name_folded" gin_trgm_ops);
