package io.github.uidgen.samples.monitoring;

import java.util.Set;
import java.util.TreeSet;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.actuate.UidMeterBinder;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The series names the starter exports to Prometheus, read from what a Prometheus registry scrapes after
 * {@link UidMeterBinder} bound the default, cached and segment generators: the names alerts and dashboards may use.
 */
final class ExportedUidSeries {

	private ExportedUidSeries() {
	}

	/**
	 * Returns every {@code uid_*} series name of the three generators, as the text format writes them.
	 * @return the names, sorted
	 */
	static Set<String> names() {
		Set<String> names = new TreeSet<>();
		try (DefaultUidGenerator plain = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build();
				CachedUidGenerator cached = CachedUidGenerator.builder()
					.workerIdAssigner(new FixedWorkerIdAssigner(2))
					.build();
				SegmentUidGenerator segment = SegmentUidGenerator.builder((key, size) -> new SegmentRange(1, size))
					.build()) {
			for (UidGenerator generator : new UidGenerator[] { plain, cached, segment }) {
				names.addAll(scraped(generator));
			}
		}
		return names;
	}

	/** One registry per generator: Prometheus wants one set of label names per series name, and segment adds key. */
	private static Set<String> scraped(UidGenerator generator) {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		try {
			new UidMeterBinder(generator).bindTo(registry);
			generator.getUID();
			return OperationsFiles.uidNames(registry.scrape().lines()
				.filter((line) -> !line.startsWith("#"))
				.map((line) -> line.split("[{ ]", 2)[0])
				.reduce("", (all, name) -> all + " " + name));
		}
		finally {
			registry.close();
		}
	}

}
