-- mysqld_exporter's user in the compose stack's MySQL (docs/databases.md: "Monitoring replication and
-- clusters"). One privilege, for SHOW REPLICA STATUS; SHOW GLOBAL STATUS and VARIABLES need none.
-- No SELECT: the exporter never reads the ledger. Three connections at most, so a slow server is not
-- also flooded by its monitoring.
CREATE USER IF NOT EXISTS 'exporter'@'%' IDENTIFIED BY 'exporter-demo-password' WITH MAX_USER_CONNECTIONS 3;
GRANT REPLICATION CLIENT ON *.* TO 'exporter'@'%';
