package io.github.uidgen.benchmarks;

import java.util.concurrent.locks.LockSupport;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.actuate.UidMeterBinder;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Binds the starter's meters of a generator to a registry and reads every meter every 10 ms from a daemon thread,
 * so a benchmark shows what metrics cost while IDs are being taken.
 */
final class MeterScraper implements AutoCloseable {

	private static final long INTERVAL_NANOS = 10_000_000L;

	private final Thread thread;

	private volatile boolean stopped;

	private volatile double sink;

	private MeterScraper(SimpleMeterRegistry registry) {
		this.thread = new Thread(() -> {
			while (!this.stopped) {
				double sum = 0;
				for (Meter meter : registry.getMeters()) {
					for (Measurement measurement : meter.measure()) {
						sum += measurement.getValue();
					}
				}
				this.sink = sum;
				LockSupport.parkNanos(INTERVAL_NANOS);
			}
		}, "uid-meter-scraper");
		this.thread.setDaemon(true);
	}

	static MeterScraper start(UidGenerator generator) {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new UidMeterBinder(generator).bindTo(registry);
		if (registry.getMeters().isEmpty()) {
			throw new IllegalStateException("No uid meters were bound for " + generator);
		}
		MeterScraper scraper = new MeterScraper(registry);
		scraper.thread.start();
		return scraper;
	}

	@Override
	public void close() {
		this.stopped = true;
		LockSupport.unpark(this.thread);
		try {
			this.thread.join(1000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
