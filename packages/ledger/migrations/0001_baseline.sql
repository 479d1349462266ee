-- The whole schema as of the portable baseline (issue 32): what a fresh install applies, one
-- statement per table, each re-runnable (CREATE TABLE IF NOT EXISTS). Ids are VARBINARY (exact,
-- byte for byte, on MySQL 8.4, MariaDB 10.11+ and TiDB alike); every table says its own character
-- set and collation, so the database's default does not matter. No trigger: the journal is
-- append-only by grants (src/schema/privileges.ts). Installs made by the earlier migrator are brought
-- to the same tables by src/migrations/converge.ts. Kept whole: an index added later is here too
-- (a fresh install runs this alone) and in its own migration for the installs made before it
-- (0003: the retention indexes, src/migrations/retention-indexes.ts; 0004: the outbox's index that
-- leaves dead rows out, src/migrations/outbox-dead-index.ts; 0005: large closes kept in pieces,
-- src/migrations/close-pieces.ts).

CREATE TABLE IF NOT EXISTS `bets` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `provider_tx_id` varbinary(512) NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `round_id` varbinary(512) NOT NULL,
  `game` varbinary(512) NOT NULL,
  `currency` varchar(3) NOT NULL,
  `kind` varchar(16) NOT NULL,
  `amount` bigint NOT NULL,
  `status` varchar(16) NOT NULL,
  `won_amount` bigint NOT NULL DEFAULT 0,
  `win_count` int NOT NULL DEFAULT 0,
  `free_bet_grant_id` bigint unsigned,
  `rollback_provider_tx_id` varbinary(512),
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `bets_id` PRIMARY KEY(`id`),
  CONSTRAINT `bets_tenant_provider_tx` UNIQUE(`tenant_id`,`provider_tx_id`),
  INDEX `bets_tenant_round` (`tenant_id`,`round_id`),
  INDEX `bets_player_round` (`player_id`,`round_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `close_pieces` (
  `tenant_id` bigint unsigned NOT NULL,
  `body_sha256` char(64) NOT NULL,
  `part` varchar(16) NOT NULL,
  `seq` int NOT NULL,
  `bytes` mediumblob NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `close_pieces_pk` PRIMARY KEY(`tenant_id`,`body_sha256`,`part`,`seq`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `free_bet_grants` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `game` varbinary(512),
  `granted` int NOT NULL,
  `remaining` int NOT NULL,
  `expires_at` datetime(3),
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `free_bet_grants_id` PRIMARY KEY(`id`),
  CONSTRAINT `free_bet_grants_remaining` CHECK(`remaining` >= 0 AND `remaining` <= `granted`),
  INDEX `free_bet_grants_player` (`player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `game_sessions` (
  `tenant_id` bigint unsigned NOT NULL,
  `session_token` varbinary(256) NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `user_token` varbinary(256) NOT NULL,
  `currency` char(3) NOT NULL,
  `expires_at` datetime(3) NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `game_sessions_tenant_id_session_token_pk` PRIMARY KEY(`tenant_id`,`session_token`),
  INDEX `game_sessions_player` (`player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `idempotency_records` (
  `tenant_id` bigint unsigned NOT NULL,
  `provider_tx_id` varbinary(628) NOT NULL,
  `body_sha256` char(64) NOT NULL,
  `action` varchar(16) NOT NULL,
  `status` smallint NOT NULL,
  `response` mediumtext NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `idempotency_records_tenant_id_provider_tx_id_pk` PRIMARY KEY(`tenant_id`,`provider_tx_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `journal_entries` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `wallet_id` bigint unsigned NOT NULL,
  `wallet_seq` bigint unsigned NOT NULL,
  `currency` char(3) NOT NULL,
  `kind` varchar(16) NOT NULL,
  `amount` bigint NOT NULL,
  `balance_after` bigint NOT NULL,
  `operator_tx_id` varbinary(160) NOT NULL,
  `provider_tx_id` varbinary(512),
  `round_id` varbinary(512),
  `game` varbinary(512),
  `bet_id` bigint unsigned,
  `anomaly` varchar(64),
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `journal_entries_id` PRIMARY KEY(`id`),
  CONSTRAINT `journal_wallet_seq` UNIQUE(`wallet_id`,`wallet_seq`),
  INDEX `journal_player` (`player_id`,`wallet_id`,`wallet_seq`),
  INDEX `journal_round` (`tenant_id`,`round_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `loyalty_awards` (
  `tenant_id` bigint unsigned NOT NULL,
  `round_id` varbinary(512) NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `staked` bigint NOT NULL,
  `points` bigint NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `loyalty_awards_tenant_id_round_id_player_id_pk` PRIMARY KEY(`tenant_id`,`round_id`,`player_id`),
  INDEX `loyalty_awards_player` (`player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `loyalty_balances` (
  `player_id` bigint unsigned NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `points` bigint NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  CONSTRAINT `loyalty_balances_player_id` PRIMARY KEY(`player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `operator_actions` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `action` varchar(32) NOT NULL,
  `subject` varchar(255) NOT NULL,
  `actor` varchar(128) NOT NULL,
  `detail` mediumtext NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `operator_actions_id` PRIMARY KEY(`id`),
  INDEX `operator_actions_tenant` (`tenant_id`,`id`),
  INDEX `operator_actions_created` (`created_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `operator_api_tokens` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `public_id` varchar(16) NOT NULL,
  `token_hash` char(64) NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `scope` varchar(8) NOT NULL,
  `label` varchar(128) NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `revoked_at` datetime(3),
  CONSTRAINT `operator_api_tokens_id` PRIMARY KEY(`id`),
  CONSTRAINT `operator_api_tokens_public` UNIQUE(`public_id`),
  CONSTRAINT `operator_api_tokens_hash` UNIQUE(`token_hash`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `outbox` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `topic` varchar(32) NOT NULL,
  `event_id` varbinary(800) NOT NULL,
  `payload` mediumtext NOT NULL,
  `published_at` datetime(3),
  `applied_at` datetime(3),
  `dead_at` datetime(3),
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `outbox_id` PRIMARY KEY(`id`),
  CONSTRAINT `outbox_topic_event` UNIQUE(`topic`,`event_id`),
  INDEX `outbox_unpublished` (`published_at`,`id`),
  INDEX `outbox_applied_dead` (`applied_at`,`dead_at`,`published_at`,`created_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `players` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `user_id` varbinary(256) NOT NULL,
  `username` varchar(128) NOT NULL,
  `currency` char(3) NOT NULL,
  `maxbet` bigint NOT NULL,
  `minbet` bigint,
  `maxwin` bigint,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `players_id` PRIMARY KEY(`id`),
  CONSTRAINT `players_tenant_user` UNIQUE(`tenant_id`,`user_id`),
  INDEX `players_tenant` (`tenant_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `refused_closes` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `body_sha256` char(64) NOT NULL,
  `round_id` varbinary(512),
  `provider_tx_id` varbinary(1020),
  `reason` varchar(32) NOT NULL,
  `message` varchar(2000) NOT NULL,
  `body` mediumtext NOT NULL,
  `body_pieces` int NOT NULL DEFAULT 0,
  `body_bytes` int,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `resolved_at` datetime(3),
  `resolution` varchar(255),
  CONSTRAINT `refused_closes_id` PRIMARY KEY(`id`),
  CONSTRAINT `refused_closes_tenant_body` UNIQUE(`tenant_id`,`body_sha256`),
  INDEX `refused_closes_open` (`tenant_id`,`resolved_at`,`id`),
  INDEX `refused_closes_round` (`tenant_id`,`round_id`),
  INDEX `refused_closes_resolved` (`resolved_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `rg_daily` (
  `player_id` bigint unsigned NOT NULL,
  `day` date NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `staked` bigint NOT NULL,
  `won` bigint NOT NULL,
  `net_loss` bigint NOT NULL,
  `rounds` int NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  CONSTRAINT `rg_daily_player_id_day_pk` PRIMARY KEY(`player_id`,`day`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `round_closes` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `round_id` varbinary(512) NOT NULL,
  `provider_tx_id` varbinary(628) NOT NULL,
  `operator_tx_id` varbinary(160) NOT NULL,
  `game` varbinary(512) NOT NULL,
  `currency` char(3),
  `bet_count` int NOT NULL,
  `stakes` mediumtext NOT NULL,
  `cash_out_coefficients` mediumtext NOT NULL,
  `pieces_key` char(64),
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `round_closes_id` PRIMARY KEY(`id`),
  CONSTRAINT `round_closes_tenant_round` UNIQUE(`tenant_id`,`round_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `round_reconciliations` (
  `tenant_id` bigint unsigned NOT NULL,
  `round_id` varbinary(512) NOT NULL,
  `status` varchar(16) NOT NULL,
  `differences` mediumtext NOT NULL,
  `summary` text,
  `revision` int NOT NULL DEFAULT 1,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `round_reconciliations_tenant_id_round_id_pk` PRIMARY KEY(`tenant_id`,`round_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `round_reports` (
  `tenant_id` bigint unsigned NOT NULL,
  `round_id` varbinary(512) NOT NULL,
  `event_id` varbinary(800) NOT NULL,
  `bet_count` int NOT NULL,
  `report` mediumtext NOT NULL,
  `revision` int NOT NULL DEFAULT 1,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `round_reports_tenant_id_round_id_pk` PRIMARY KEY(`tenant_id`,`round_id`),
  INDEX `round_reports_created` (`created_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `rounds` (
  `tenant_id` bigint unsigned NOT NULL,
  `round_id` varbinary(512) NOT NULL,
  `game` varbinary(512) NOT NULL,
  `closed_at` datetime(3),
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `rounds_tenant_id_round_id_pk` PRIMARY KEY(`tenant_id`,`round_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `side_effect_failures` (
  `event_id` varbinary(800) NOT NULL,
  `topic` varchar(32) NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `round_id` varbinary(512) NOT NULL,
  `attempts` int NOT NULL,
  `last_error` varchar(1000) NOT NULL,
  `first_failed_at` datetime(3) NOT NULL,
  `last_failed_at` datetime(3) NOT NULL,
  `dead_at` datetime(3),
  CONSTRAINT `side_effect_failures_event_id_topic_pk` PRIMARY KEY(`event_id`,`topic`),
  INDEX `side_effect_failures_dead` (`dead_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `side_effect_receipts` (
  `topic` varchar(32) NOT NULL,
  `event_id` varbinary(800) NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `side_effect_receipts_topic_event_id_pk` PRIMARY KEY(`topic`,`event_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `tenants` (
  `id` bigint unsigned NOT NULL,
  `public_key` varbinary(512) NOT NULL,
  `name` varchar(128) NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `tenants_id` PRIMARY KEY(`id`),
  CONSTRAINT `tenants_public_key_unique` UNIQUE(`public_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `tournament_scores` (
  `tournament_id` bigint unsigned NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `score` bigint NOT NULL,
  `rounds` bigint unsigned NOT NULL,
  `updated_at` datetime(3) NOT NULL,
  CONSTRAINT `tournament_scores_tournament_id_player_id_pk` PRIMARY KEY(`tournament_id`,`player_id`),
  INDEX `tournament_scores_rank` (`tournament_id`,`score`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `tournaments` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `game` varbinary(512) NOT NULL,
  `name` varchar(128) NOT NULL,
  `rule` varchar(16) NOT NULL,
  `starts_at` datetime(3) NOT NULL,
  `ends_at` datetime(3) NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `tournaments_id` PRIMARY KEY(`id`),
  INDEX `tournaments_tenant_game` (`tenant_id`,`game`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `user_tokens` (
  `token` varbinary(256) NOT NULL,
  `tenant_id` bigint unsigned NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `expires_at` datetime(3) NOT NULL,
  `created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `user_tokens_token` PRIMARY KEY(`token`),
  INDEX `user_tokens_player` (`player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `wallets` (
  `id` bigint unsigned AUTO_INCREMENT NOT NULL,
  `player_id` bigint unsigned NOT NULL,
  `currency` char(3) NOT NULL,
  `balance` bigint NOT NULL DEFAULT 0,
  `seq` bigint unsigned NOT NULL DEFAULT 0,
  `updated_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  CONSTRAINT `wallets_id` PRIMARY KEY(`id`),
  CONSTRAINT `wallets_player_currency` UNIQUE(`player_id`,`currency`),
  CONSTRAINT `wallets_balance_not_negative` CHECK(`balance` >= 0)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- step
CREATE TABLE IF NOT EXISTS `write_checks` (
  `k` tinyint unsigned NOT NULL,
  CONSTRAINT `write_checks_k` PRIMARY KEY(`k`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
