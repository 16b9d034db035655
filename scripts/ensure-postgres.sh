#!/usr/bin/env bash
# Makes sure the PostgreSQL server the tests use (127.0.0.1:5432) is running: if pg_isready
# says it is not, starts the local cluster (Debian's pg_ctlcluster, as on CI) and waits for it
# to accept connections. Never fails the run itself: when the server stays unreachable, the
# PostgreSQL suites say "PostgreSQL tests NOT RUN: <reason>" (a failure when CI=true).
set -uo pipefail
host=127.0.0.1
port=5432
if ! command -v pg_isready >/dev/null 2>&1; then
  echo "ensure-postgres: pg_isready is not installed; not starting PostgreSQL"
  exit 0
fi
if pg_isready -q -h "$host" -p "$port"; then exit 0; fi
version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
if [ -z "$version" ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "ensure-postgres: PostgreSQL is not running on $host:$port and no local cluster was found to start"
  exit 0
fi
echo "ensure-postgres: starting PostgreSQL $version (cluster main)"
pg_ctlcluster --skip-systemctl-redirect "$version" main start || echo "ensure-postgres: pg_ctlcluster failed"
# Waiting for start-up is bounded by pg_isready's own timeout, not by a guess about how long it takes.
for _ in 1 2 3 4 5 6; do
  if pg_isready -q -h "$host" -p "$port" -t 5; then exit 0; fi
done
echo "ensure-postgres: PostgreSQL still does not accept connections on $host:$port"
exit 0
