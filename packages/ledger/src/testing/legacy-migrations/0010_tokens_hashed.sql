-- Session and user tokens at rest as their SHA-256 (issue 19), then the columns sized for it. The
-- ledger hashes with Node's sha256 over the token's UTF-8 bytes, which is what SHA2() computes here.
UPDATE `user_tokens` SET `token` = SHA2(`token`, 256);
--> statement-breakpoint
UPDATE `game_sessions` SET `session_token` = SHA2(`session_token`, 256), `user_token` = SHA2(`user_token`, 256);
--> statement-breakpoint
ALTER TABLE `game_sessions` MODIFY COLUMN `session_token` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, MODIFY COLUMN `user_token` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
--> statement-breakpoint
ALTER TABLE `user_tokens` MODIFY COLUMN `token` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL;
