CREATE TABLE `loyalty_awards` (
	`tenant_id` bigint unsigned NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`staked` bigint NOT NULL,
	`points` bigint NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `loyalty_awards_tenant_id_round_id_player_id_pk` PRIMARY KEY(`tenant_id`,`round_id`,`player_id`)
);
--> statement-breakpoint
CREATE TABLE `loyalty_balances` (
	`player_id` bigint unsigned NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`points` bigint NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `loyalty_balances_player_id` PRIMARY KEY(`player_id`)
);
--> statement-breakpoint
CREATE TABLE `rg_daily` (
	`player_id` bigint unsigned NOT NULL,
	`day` date NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`staked` bigint NOT NULL,
	`won` bigint NOT NULL,
	`net_loss` bigint NOT NULL,
	`rounds` int NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `rg_daily_player_id_day_pk` PRIMARY KEY(`player_id`,`day`)
);
--> statement-breakpoint
CREATE TABLE `round_reconciliations` (
	`tenant_id` bigint unsigned NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`status` varchar(16) NOT NULL,
	`differences` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `round_reconciliations_tenant_id_round_id_pk` PRIMARY KEY(`tenant_id`,`round_id`)
);
--> statement-breakpoint
CREATE TABLE `round_reports` (
	`tenant_id` bigint unsigned NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`bet_count` int NOT NULL,
	`report` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `round_reports_tenant_id_round_id_pk` PRIMARY KEY(`tenant_id`,`round_id`)
);
--> statement-breakpoint
CREATE TABLE `side_effect_receipts` (
	`topic` varchar(32) NOT NULL,
	`event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `side_effect_receipts_topic_event_id_pk` PRIMARY KEY(`topic`,`event_id`)
);
--> statement-breakpoint
CREATE TABLE `tournament_scores` (
	`tournament_id` bigint unsigned NOT NULL,
	`player_id` bigint unsigned NOT NULL,
	`score` bigint NOT NULL,
	`rounds` bigint unsigned NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `tournament_scores_tournament_id_player_id_pk` PRIMARY KEY(`tournament_id`,`player_id`)
);
--> statement-breakpoint
CREATE TABLE `tournaments` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`game` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`name` varchar(128) NOT NULL,
	`rule` varchar(16) NOT NULL,
	`starts_at` datetime(3) NOT NULL,
	`ends_at` datetime(3) NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `tournaments_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `applied_at` datetime(3);--> statement-breakpoint
CREATE INDEX `loyalty_awards_player` ON `loyalty_awards` (`player_id`);--> statement-breakpoint
CREATE INDEX `tournament_scores_rank` ON `tournament_scores` (`tournament_id`,`score`);--> statement-breakpoint
CREATE INDEX `tournaments_tenant_game` ON `tournaments` (`tenant_id`,`game`);