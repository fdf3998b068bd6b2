#!/usr/bin/env bash
# Builds the benchmark jar and runs the whole suite (JMH throughput at 1, 2 and 8 threads, saturation runs,
# latency percentiles, paced call cost, allocation, memory), printing Markdown tables; about 15 minutes on
# 2 cores, cut off at 25. Extra arguments go to the jar's "all" part, e.g. --forks 3 or --repeats 5.
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
timeout 25m java -Xms256m -Xmx512m -jar "$jar" all --log-dir "$module_dir/target/benchmark-logs" "$@" \
	| tee "$module_dir/target/benchmark-results.md"
