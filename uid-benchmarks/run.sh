#!/usr/bin/env bash
# Builds the benchmark jar and runs the whole suite (JMH throughput at 1, 2 and 8 threads, saturation runs,
# sustained rate over 30 s, latency percentiles, paced call cost and the price of the meters, allocation,
# memory, idle CPU over 60 s, claim time of each assigner with up to 1,000 live leases), printing Markdown
# tables; about 23 minutes on 2 cores, cut off at 30. The claims part uses MariaDB, PostgreSQL and Redis on
# 127.0.0.1 (tables and namespaces of its own, removed afterwards) and reports a store it cannot reach.
# Extra arguments go to the jar's "all" part, e.g. --rounds 5 or --repeats 5.
# The tables are also written to uid-benchmarks/target/benchmark-results.md, JMH's own logs to
# uid-benchmarks/target/benchmark-logs/.
set -euo pipefail

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_dir="$(dirname "$module_dir")"
jar="$module_dir/target/uid-benchmarks.jar"

if [[ "${SKIP_BUILD:-false}" != "true" || ! -f "$jar" ]]; then
	(cd "$root_dir" && mvn -B -q -pl uid-benchmarks -am package -DskipTests)
fi

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" >&2
timeout 30m java -Xms256m -Xmx512m -jar "$jar" all --log-dir "$module_dir/target/benchmark-logs" "$@" \
	| tee "$module_dir/target/benchmark-results.md"
