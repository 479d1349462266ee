CREATE TABLE `bets` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`currency` varchar(3) NOT NULL,
	`kind` varchar(16) NOT NULL,
	`amount` bigint NOT NULL,
	`status` varchar(16) NOT NULL,
	`won_amount` bigint NOT NULL DEFAULT 0,
	`win_count` int NOT NULL DEFAULT 0,
	`free_bet_grant_id` bigint unsigned,
	`rollback_provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `bets_id` PRIMARY KEY(`id`),
	CONSTRAINT `bets_tenant_provider_tx` UNIQUE(`tenant_id`,`provider_tx_id`)
);
--> statement-breakpoint
CREATE TABLE `free_bet_grants` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
	`granted` int NOT NULL,
	`remaining` int NOT NULL,
	`expires_at` datetime(3),
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `free_bet_grants_id` PRIMARY KEY(`id`),
	CONSTRAINT `free_bet_grants_remaining` CHECK(`free_bet_grants`.`remaining` >= 0 AND `free_bet_grants`.`remaining` <= `free_bet_grants`.`granted`)
);
--> statement-breakpoint
CREATE TABLE `game_sessions` (
	`tenant_id` bigint unsigned NOT NULL,
	`session_token` varchar(256) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`user_token` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`currency` char(3) NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `game_sessions_tenant_id_session_token_pk` PRIMARY KEY(`tenant_id`,`session_token`)
);
--> statement-breakpoint
CREATE TABLE `idempotency_records` (
	`tenant_id` bigint unsigned NOT NULL,
	`provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`body_sha256` char(64) NOT NULL,
	`action` varchar(16) NOT NULL,
	`status` smallint NOT NULL,
	`response` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `idempotency_records_tenant_id_provider_tx_id_pk` PRIMARY KEY(`tenant_id`,`provider_tx_id`)
);
--> statement-breakpoint
CREATE TABLE `journal_entries` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`wallet_id` bigint unsigned NOT NULL,
	`currency` char(3) NOT NULL,
	`kind` varchar(16) NOT NULL,
	`amount` bigint NOT NULL,
	`balance_after` bigint NOT NULL,
	`operator_tx_id` varchar(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
	`game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
	`bet_id` bigint unsigned,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `journal_entries_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`topic` varchar(32) NOT NULL,
	`event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`payload` mediumtext NOT NULL,
	`published_at` datetime(3),
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `outbox_id` PRIMARY KEY(`id`),
	CONSTRAINT `outbox_topic_event` UNIQUE(`topic`,`event_id`)
);
--> statement-breakpoint
CREATE TABLE `players` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`user_id` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`username` varchar(128) NOT NULL,
	`currency` char(3) NOT NULL,
	`maxbet` bigint NOT NULL,
	`minbet` bigint,
	`maxwin` bigint,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `players_id` PRIMARY KEY(`id`),
	CONSTRAINT `players_tenant_user` UNIQUE(`tenant_id`,`user_id`)
);
--> statement-breakpoint
CREATE TABLE `round_closes` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`provider_tx_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`operator_tx_id` varchar(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`currency` char(3),
	`bet_count` int NOT NULL,
	`stakes` mediumtext NOT NULL,
	`cash_out_coefficients` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `round_closes_id` PRIMARY KEY(`id`),
	CONSTRAINT `round_closes_tenant_round` UNIQUE(`tenant_id`,`round_id`)
);
--> statement-breakpoint
CREATE TABLE `rounds` (
	`tenant_id` bigint unsigned NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`closed_at` datetime(3),
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `rounds_tenant_id_round_id_pk` PRIMARY KEY(`tenant_id`,`round_id`)
);
--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` bigint unsigned NOT NULL,
	`public_key` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`name` varchar(128) NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `tenants_id` PRIMARY KEY(`id`),
	CONSTRAINT `tenants_public_key_unique` UNIQUE(`public_key`)
);
--> statement-breakpoint
CREATE TABLE `user_tokens` (
	`token` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `user_tokens_token` PRIMARY KEY(`token`)
);
--> statement-breakpoint
CREATE TABLE `wallets` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`currency` char(3) NOT NULL,
	`balance` bigint NOT NULL DEFAULT 0,
	`updated_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `wallets_id` PRIMARY KEY(`id`),
	CONSTRAINT `wallets_player_currency` UNIQUE(`player_id`,`currency`),
	CONSTRAINT `wallets_balance_not_negative` CHECK(`wallets`.`balance` >= 0)
);
--> statement-breakpoint
CREATE INDEX `bets_tenant_round` ON `bets` (`tenant_id`,`round_id`);--> statement-breakpoint
CREATE INDEX `bets_player_round` ON `bets` (`player_id`,`round_id`);--> statement-breakpoint
CREATE INDEX `free_bet_grants_player` ON `free_bet_grants` (`player_id`);--> statement-breakpoint
CREATE INDEX `game_sessions_player` ON `game_sessions` (`player_id`);--> statement-breakpoint
CREATE INDEX `journal_wallet` ON `journal_entries` (`wallet_id`,`id`);--> statement-breakpoint
CREATE INDEX `journal_player` ON `journal_entries` (`player_id`,`id`);--> statement-breakpoint
CREATE INDEX `journal_round` ON `journal_entries` (`tenant_id`,`round_id`);--> statement-breakpoint
CREATE INDEX `outbox_unpublished` ON `outbox` (`published_at`,`id`);--> statement-breakpoint
CREATE INDEX `players_tenant` ON `players` (`tenant_id`);--> statement-breakpoint
CREATE INDEX `user_tokens_player` ON `user_tokens` (`player_id`);