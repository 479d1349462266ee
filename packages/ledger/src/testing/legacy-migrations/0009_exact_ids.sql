-- Ids compare byte for byte (issue 19): NO PAD, so `X` and `X ` are two ids. One ALTER per table
-- (one rebuild each). Rows that were one key under PAD SPACE stay unique under NO PAD.
ALTER TABLE `bets` MODIFY COLUMN `provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `rollback_provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
--> statement-breakpoint
ALTER TABLE `free_bet_grants` MODIFY COLUMN `game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
--> statement-breakpoint
ALTER TABLE `game_sessions` MODIFY COLUMN `session_token` varchar(256) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `user_token` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `idempotency_records` MODIFY COLUMN `provider_tx_id` varchar(157) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `journal_entries` MODIFY COLUMN `operator_tx_id` varchar(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, MODIFY COLUMN `game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
--> statement-breakpoint
ALTER TABLE `loyalty_awards` MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `outbox` MODIFY COLUMN `event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `players` MODIFY COLUMN `user_id` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `refused_closes` MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, MODIFY COLUMN `provider_tx_id` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
--> statement-breakpoint
ALTER TABLE `round_closes` MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `provider_tx_id` varchar(157) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `operator_tx_id` varchar(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `round_reconciliations` MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `round_reports` MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `rounds` MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `side_effect_failures` MODIFY COLUMN `event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `side_effect_receipts` MODIFY COLUMN `event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `tenants` MODIFY COLUMN `public_key` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `tournaments` MODIFY COLUMN `game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `user_tokens` MODIFY COLUMN `token` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
